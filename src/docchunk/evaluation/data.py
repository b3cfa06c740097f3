"""The evaluation set: corpora and questions with reference character spans.

Layout (Chroma's general evaluation set, "Evaluating Chunking Strategies for
Retrieval", Smith and Troynikov, 2024, MIT):

- ``DATA_DIR/corpora/<corpus_id>.md``: one UTF-8 text per corpus;
- ``DATA_DIR/questions_df.csv``: columns ``question``, ``references`` (a JSON list of
  ``{"content", "start_index", "end_index"}``, character offsets into the corpus) and
  ``corpus_id``.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from docchunk.errors import ConfigError, DocumentError

__all__ = ["EvalSet", "Question", "load_eval_set"]

QUESTIONS_FILE = "questions_df.csv"
CORPORA_DIR = "corpora"
COLUMNS = ("question", "references", "corpus_id")
"""The columns ``questions_df.csv`` needs (others are ignored)."""


@dataclass(frozen=True)
class Question:
    """One question and where its answer lies.

    Attributes:
        text: The question.
        corpus_id: The corpus that holds the answer (file stem under ``corpora/``).
        references: Half-open ``(start_index, end_index)`` character spans of the
            corpus text; ``corpus[start:end]`` is the reference's content.
    """

    text: str
    corpus_id: str
    references: tuple[tuple[int, int], ...]


@dataclass
class EvalSet:
    """Corpora by id and the questions about them, in file order."""

    corpora: dict[str, str]
    questions: list[Question] = field(default_factory=list)


def load_eval_set(data_dir: str | Path, corpus_ids: list[str] | None = None) -> EvalSet:
    """Load an evaluation set in the layout of the module docstring.

    Args:
        data_dir: The folder holding ``corpora/`` and ``questions_df.csv``.
        corpus_ids: Keep only these corpora and their questions; None keeps all.

    Returns:
        The corpora (text read as UTF-8, newlines kept as stored) and the questions.

    Raises:
        ConfigError: The folder, a file or a requested corpus is missing, or
            ``corpora/`` holds no ``.md`` file.
        DocumentError: The CSV's header lacks one of the columns ``question``,
            ``references``, ``corpus_id``; a row is malformed, names an unknown corpus,
            or a reference's offsets do not slice its content out of the corpus; or
            there is no question (with ``corpus_ids``: none about them), nothing to score.
    """
    root = Path(data_dir)
    questions_path, corpora_dir = root / QUESTIONS_FILE, root / CORPORA_DIR
    if not questions_path.is_file() or not corpora_dir.is_dir():
        raise ConfigError(
            f"{str(root)!r} is not an evaluation set: it needs {CORPORA_DIR}/<id>.md and {QUESTIONS_FILE} "
            "(the layout of Chroma's general evaluation set)"
        )
    corpora = {p.stem: _read(p) for p in sorted(corpora_dir.glob("*.md"))}
    if not corpora:
        raise ConfigError(f"{str(corpora_dir)!r} holds no <id>.md file: nothing to chunk; put each corpus there "
                          "as UTF-8 text named by its corpus_id")  # fmt: skip
    if corpus_ids is not None:
        unknown = sorted(set(corpus_ids) - set(corpora))
        if unknown:
            raise ConfigError(f"unknown corpus id(s) {unknown!r}; the set has {sorted(corpora)!r}")
        corpora = {c: corpora[c] for c in corpus_ids}
    questions, about = [], set()
    with questions_path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        _check_header(reader.fieldnames, questions_path)
        for line, row in enumerate(reader, start=2):
            about.add(row.get("corpus_id"))
            if corpus_ids is not None and row.get("corpus_id") not in corpora:
                continue
            questions.append(_question(row, corpora, f"{questions_path}:{line}"))
    if not questions:
        which = ""
        if corpus_ids is not None:
            which = f" about corpus id(s) {corpus_ids!r} (its questions are about {sorted(map(str, about))!r})"
        raise DocumentError(f"{questions_path} holds no question{which}: nothing to score; it needs a row per "
                            "question with its references and corpus_id")  # fmt: skip
    return EvalSet(corpora=corpora, questions=questions)


def _check_header(fields: Sequence[str] | None, path: Path) -> None:
    """Raise :class:`DocumentError` unless the CSV header ``fields`` holds every column of :data:`COLUMNS`."""
    missing = [c for c in COLUMNS if c not in (fields or ())]
    if missing:
        found = f"its header {list(fields)!r} lacks {', '.join(missing)}" if fields else "the file is empty"
        raise DocumentError(f"{path}: needs the columns question, references (JSON list), corpus_id on its "
                            f"first line; {found}")  # fmt: skip


def _read(path: Path) -> str:
    with path.open(encoding="utf-8", newline="") as handle:  # offsets count "\r\n" as two characters
        return handle.read()


def _question(row: dict[str, str], corpora: dict[str, str], where: str) -> Question:
    try:
        text, corpus_id, refs = row["question"], row["corpus_id"], json.loads(row["references"])
    except (KeyError, TypeError, json.JSONDecodeError) as exc:
        raise DocumentError(f"{where}: needs columns question, references (JSON list), corpus_id: {exc}") from exc
    corpus = corpora.get(corpus_id)
    if corpus is None:
        raise DocumentError(f"{where}: corpus_id {corpus_id!r} has no file {CORPORA_DIR}/{corpus_id}.md")
    if not isinstance(refs, list):
        raise DocumentError(f"{where}: references is a JSON {type(refs).__name__} ({refs!r}), not a list; it must be "
                            'a JSON list of {"content", "start_index", "end_index"} objects')  # fmt: skip
    spans = []
    for ref in refs:
        start, end = _offsets(ref, where)
        if not 0 <= start < end <= len(corpus) or corpus[start:end] != ref.get("content"):
            raise DocumentError(
                f"{where}: reference ({start!r}, {end!r}) does not slice its content out of {corpus_id!r}; "
                "offsets must be Python str indices into the corpus text"
            )
        spans.append((start, end))
    if not spans:
        raise DocumentError(f"{where}: question {text!r} has no references")
    return Question(text=text, corpus_id=corpus_id, references=tuple(spans))


def _offsets(ref: object, where: str) -> tuple[int, int]:
    """``(start_index, end_index)`` of one reference of a ``references`` list, as integers.

    Raises:
        DocumentError: ``ref`` is not an object with both offsets, or one is not an
            integer (null, a word); the message names ``where`` (``FILE:LINE``).
    """
    try:
        return int(ref["start_index"]), int(ref["end_index"])  # type: ignore[index]
    except (KeyError, TypeError, ValueError) as exc:
        raise DocumentError(
            f"{where}: reference {ref!r} has no integer start_index and end_index; each reference must be "
            '{"content": TEXT, "start_index": N, "end_index": M}, Python str indices into the corpus text'
        ) from exc
