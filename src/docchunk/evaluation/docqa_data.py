"""The doc-qa data: questions whose evidence is located in a DoclingDocument, read by genre and half.

The data (``DATA/<genre>/docs.jsonl.gz`` and ``questions.jsonl``, see the doc-qa
README) gives questions whose evidence is located in a DoclingDocument: character
ranges of a text item's ``text`` (``{"ref", "kind": "text", "start", "end"}``) or table
cells (``{"ref", "kind": "cell", "row", "col"}``, grid coordinates).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from docchunk.errors import ConfigError, DocumentError
from docchunk.evaluation.docqa_checks import check_evidence, read_doc_lines, read_question_lines, to_document

if TYPE_CHECKING:
    from docling_core.types.doc import DoclingDocument

__all__ = ["GENRES", "HALVES", "DocQaData", "DocQaQuestion", "Evidence", "docqa_half", "load_docqa"]

GENRES = ("fin", "wiki", "legal")


class _EvidenceKind(TypedDict):
    kind: str
    ref: str


class Evidence(_EvidenceKind, total=False):
    """One piece of a question's evidence: ``kind`` ``"text"`` (``ref``, ``start``, ``end``) or ``"cell"``.

    Attributes:
        kind: ``"text"``: the characters ``[start, end)`` of ``item.text`` of the item
            ``ref``; ``"cell"``: the grid cell ``(row, col)`` of the table ``ref``.
    """

    start: int
    end: int
    row: int
    col: int


class _QuestionKeys(TypedDict):
    qid: str
    doc_id: str
    question: str
    evidence: list[Evidence]


class DocQaQuestion(_QuestionKeys, total=False):
    """A question of a doc-qa folder (a line of ``questions.jsonl``), as it is read."""

    answer: str | list[str]
    kind: str



DocQaData = dict[str, tuple[dict[str, "DoclingDocument"], list[DocQaQuestion]]]
"""What :func:`load_docqa` reads: ``genre -> ({doc_id: DoclingDocument}, questions)``."""


HALVES = ("all", "tune", "check")
"""The halves of a doc-qa folder :func:`load_docqa` can read (see :func:`docqa_half`)."""


def docqa_half(doc_id: str) -> str:
    """The half of doc-qa a document belongs to: ``"tune"`` or ``"check"``.

    The rule (``docs/quality.md``, "Tuning and checking halves"): the first byte of the
    SHA-256 of the UTF-8 ``doc_id`` is even for the tuning half, odd for the checking half.
    Decisions are made on the tuning half; the checking half is reported once per change.
    """
    return "tune" if hashlib.sha256(doc_id.encode("utf-8")).digest()[0] % 2 == 0 else "check"


def load_docqa(data_dir: str | Path, genres: Sequence[str] | None = None, limit: int | None = None,
               offset: int = 0, half: str = "all") -> DocQaData:  # fmt: skip
    """The genres of a doc-qa folder: ``genre -> ({doc_id: DoclingDocument}, questions)``.

    Args:
        data_dir: The folder holding one sub-folder per genre.
        genres: Genres to read (default: every sub-folder with a ``docs.jsonl.gz``).
        limit: Read only the first ``limit`` documents of each genre (file order)
            and their questions (after skipping ``offset`` documents).
        offset: Skip the first ``offset`` documents of each genre (file order), e.g. to
            check on documents 41-120 what was tuned on documents 1-40.
        half: ``"all"``, or only the documents of the ``"tune"`` or ``"check"`` half
            (:func:`docqa_half`), chosen before ``offset`` and ``limit`` apply.

    Raises:
        ConfigError: The folder, a genre or its files are missing, ``offset`` is negative
            or ``half`` is not one of :data:`HALVES`.
        DocumentError: A line of a file is malformed (:mod:`~docchunk.evaluation.docqa_checks`:
            the message starts with ``FILE:LINE:``): not JSON, a document that is not a
            DoclingDocument, a question without text or evidence, about a ``doc_id`` the
            genre's ``docs.jsonl.gz`` does not hold, or with evidence that is not in its
            document (checked for the questions read); or no question is read at all.
    """
    if offset < 0:
        raise ConfigError(f"offset must be >= 0 documents, got {offset}")
    if half not in HALVES:
        raise ConfigError(f"half must be one of {', '.join(HALVES)}, got {half!r}")
    root = Path(data_dir)
    found = sorted(p.name for p in root.iterdir() if (p / "docs.jsonl.gz").is_file()) if root.is_dir() else []
    if not found:
        raise ConfigError(f"{root}: no <genre>/docs.jsonl.gz inside; give the doc-qa folder (see its README)")
    chosen = list(genres) if genres else found
    unknown = [g for g in chosen if g not in found]
    if unknown:
        raise ConfigError(f"unknown genre {unknown[0]!r} in {root}; the genres there are {', '.join(found)}")
    out: DocQaData = {}
    for genre in chosen:
        out[genre] = _read_genre(root / genre, half, offset, limit)
    if not any(questions for _, questions in out.values()):
        raise DocumentError(f"{root}: no question about the documents read (genres {', '.join(chosen)}; half "
                            f"{half!r}, offset {offset}, limit {limit}): nothing to score; each genre's "
                            "questions.jsonl needs a line per question about a document of its docs.jsonl.gz")
    return out


def _read_genre(
    folder: Path, half: str, offset: int, limit: int | None
) -> tuple[dict[str, DoclingDocument], list[DocQaQuestion]]:
    """The chosen documents of one genre's folder and the questions about them, each line checked."""
    docs: dict[str, DoclingDocument] = {}
    known: set[str] = set()  # every doc_id of the file, chosen or not
    docs_path, questions_path = folder / "docs.jsonl.gz", folder / "questions.jsonl"
    number = 0
    for line, doc_id, doc in read_doc_lines(docs_path):
        known.add(doc_id)
        if (half != "all" and docqa_half(doc_id) != half) or (limit is not None and len(docs) >= limit):
            continue
        number += 1
        if number > offset:
            docs[doc_id] = to_document(doc, doc_id, f"{docs_path}:{line}")
    if not questions_path.is_file():
        raise ConfigError(f"{folder}: no questions.jsonl beside docs.jsonl.gz; put the genre's questions there")
    questions: list[DocQaQuestion] = []
    for line, q in read_question_lines(questions_path):
        if q["doc_id"] not in known:
            raise DocumentError(f"{questions_path}:{line}: question {q['qid']!r} is about doc_id "
                                f"{q['doc_id']!r}, which is on no line of {docs_path}; give the doc_id of one of "
                                "its documents")  # fmt: skip
        if q["doc_id"] in docs:
            check_evidence(q, docs[q["doc_id"]], f"{questions_path}:{line}")
            questions.append(q)
    return docs, questions
