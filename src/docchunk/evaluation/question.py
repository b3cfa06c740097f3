"""One doc-qa question, ranked as ``docchunk eval-docs`` ranks it: the chunks, their scores, the evidence in them.

:func:`rank_question` chunks the question's document, embeds each chunk's
``contextualize()`` and the question with the same embedder, orders the chunks by
cosine similarity (:func:`docchunk.evaluation.run.rank`, as ``eval-docs`` does for
``doc@k``) and says, per chunk, what evidence it holds (:func:`held_by_chunk`, from
``meta.spans``, ``meta.table_rows`` and ``meta.table_cols``) and where that evidence
is in the chunk's text (:func:`evidence_marks`), for the page
:func:`docchunk.report.question.render_question` writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, TypedDict, cast

import numpy as np

from docchunk.errors import ConfigError
from docchunk.evaluation.docqa import KS, DocQaQuestion, Evidence, Held, build_chunker, held_by_chunk, score_held
from docchunk.evaluation.docqa_checks import check_evidence, read_doc_lines, read_question_lines, to_document
from docchunk.types import EmbedBatch, JSONObject

if TYPE_CHECKING:
    from docling_core.types.doc import DoclingDocument

    from docchunk.serialization._docling import DocChunk

__all__ = ["QuestionRanking", "RankedChunk", "RankingConfig", "evidence_marks", "find_question", "rank_question"]


@dataclass
class RankedChunk:
    """One chunk of the question's document, in rank order.

    Attributes:
        rank: 1 for the chunk ranked first.
        score: Cosine similarity of the chunk's embedding to the question's.
        index: The chunk's position in the document's chunks (0-based).
        text: The chunk's text.
        headings: ``meta.headings`` (None when absent).
        captions: ``meta.captions`` (None when absent).
        contextualized: What was embedded (``contextualize(chunk)``).
        token_count: ``meta.token_count`` (tokens of the chunker's tokenizer).
        table_rows: ``meta.table_rows``; ``table_cols``: ``meta.table_cols``.
        share: The share of the question's evidence this chunk alone holds, in [0, 1].
        marks: ``(start, end, kind)`` character ranges of ``text`` that hold evidence,
            sorted and disjoint; ``kind`` is ``"text"`` or ``"cell"``.
    """

    rank: int
    score: float
    index: int
    text: str
    headings: list[str] | None
    captions: list[str] | None
    contextualized: str
    token_count: int | None
    table_rows: tuple[int, int] | None
    table_cols: list[tuple[int, int, int]] | None
    share: float
    marks: list[tuple[int, int, str]] = field(default_factory=list)


class RankingConfig(TypedDict):
    """The chunking of a :class:`QuestionRanking`: the chunker's name and its keyword arguments."""

    chunker: str
    options: JSONObject


@dataclass
class QuestionRanking:
    """A question and its document's chunks in rank order.

    Attributes:
        genre: The question's genre (sub-folder of the doc-qa folder).
        question: The question's record (``qid``, ``doc_id``, ``question``, ``answer``, ``evidence``, ...).
        chunks: Every chunk of the document, best first.
        recall: ``doc@1``, ``doc@3``, ``doc@5`` (fractions): the evidence the top k hold together.
        config: The chunker's name and options.
    """

    genre: str
    question: DocQaQuestion
    chunks: list[RankedChunk]
    recall: dict[str, float]
    config: RankingConfig


def find_question(
    data_dir: str | Path, qid: str, genres: Sequence[str] | None = None
) -> tuple[str, DocQaQuestion, DoclingDocument]:
    """``(genre, question, document)`` of the question ``qid`` of a doc-qa folder.

    Reads the genres' ``questions.jsonl`` until the question is found, then its
    genre's ``docs.jsonl.gz`` until its document is.

    Raises:
        ConfigError: No genre of the folder (or of ``genres``) has that question, or its
            document is missing.
        DocumentError: A line read is malformed, or the question's evidence is not in its
            document (:mod:`~docchunk.evaluation.docqa_checks`).
    """
    root = Path(data_dir)
    found = sorted(p.name for p in root.iterdir() if (p / "questions.jsonl").is_file()) if root.is_dir() else []
    for genre in [g for g in found if not genres or g in genres]:
        questions_path, docs_path = root / genre / "questions.jsonl", root / genre / "docs.jsonl.gz"
        at = next(((line, q) for line, q in read_question_lines(questions_path) if q["qid"] == qid), None)
        if at is None:
            continue
        line, question = at
        if docs_path.is_file():
            for doc_line, doc_id, raw in read_doc_lines(docs_path):
                if doc_id == question["doc_id"]:
                    doc = to_document(raw, doc_id, f"{docs_path}:{doc_line}")
                    check_evidence(question, doc, f"{questions_path}:{line}")
                    return genre, question, doc
        raise ConfigError(f"{root / genre}: the document {question['doc_id']!r} of question {qid!r} is missing")
    raise ConfigError(f"no question {qid!r} in {root} (genres {', '.join(found) or 'none'}); see its questions.jsonl")


def _merged(marks: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Sorted, disjoint marks: an overlap goes to the mark that starts first."""
    out: list[tuple[int, int, str]] = []
    for start, end, kind in sorted(marks):
        if out and start < out[-1][1]:
            if end > out[-1][1]:
                out.append((out[-1][1], end, kind))
            continue
        out.append((start, end, kind))
    return out


class _Stub(NamedTuple):
    """A stand-in item for :func:`~docchunk.chunkers.doc.provenance.align`: one span's text under a key."""

    self_ref: str
    text: str


def evidence_marks(
    chunk: DocChunk, doc: DoclingDocument, evidence: Sequence[Evidence], held: Held
) -> list[tuple[int, int, str]]:
    """Where the evidence ``chunk`` holds is in ``chunk.text``: ``(start, end, kind)``, sorted and disjoint.

    Text evidence: the chunk's own ``meta.spans`` (what it holds of each item) are
    placed in its text by the chunker's own rule
    (:func:`docchunk.chunkers.doc.provenance.align`: each line of a span after the
    previous span), and the characters of those placements that are evidence are
    marked. Cell evidence: for each evidence cell the chunk holds (``held``, from
    ``meta.table_rows`` and ``meta.table_cols``), each occurrence of the cell's text
    (whitespace collapsed) in the chunk's text is marked: a display aid, not provenance.
    """
    from docling_core.types.doc import RefItem

    from docchunk.chunkers.doc.provenance import align

    marks: list[tuple[int, int, str]] = []
    texts = {t.self_ref: t.text for t in doc.texts}
    spans = [s for s in getattr(chunk.meta, "spans", None) or () if s.ref in texts]
    stubs = [_Stub(str(k), texts[s.ref][s.start : s.end]) for k, s in enumerate(spans)]
    wanted = [e for e in evidence if e["kind"] == "text"]
    for pos, key, start, length in align(chunk.text, stubs):
        span = spans[int(key)]
        lo, hi = span.start + start, span.start + start + length  # item offsets of this placement
        for e in wanted:
            a, b = max(lo, e["start"]), min(hi, e["end"])
            if e["ref"] == span.ref and a < b:
                marks.append((pos + a - lo, pos + b - lo, "text"))
    for e in evidence:
        if e["kind"] != "cell" or (e["ref"], e["row"], e["col"]) not in held.cells:
            continue
        cell = RefItem(cref=e["ref"]).resolve(doc).data.grid[e["row"]][e["col"]]
        value = " ".join(cell.text.split())
        at = chunk.text.find(value) if value else -1
        while at >= 0:
            marks.append((at, at + len(value), "cell"))
            at = chunk.text.find(value, at + len(value))
    return _merged(marks)


def rank_question(doc: DoclingDocument, question: DocQaQuestion, embed: EmbedBatch, chunker: str = "hybrid",
                  options: JSONObject | None = None, genre: str = "") -> QuestionRanking:  # fmt: skip
    """Chunk ``doc`` and rank its chunks for ``question`` as ``docchunk eval-docs`` does (``doc@k``).

    Args:
        doc: The question's ``DoclingDocument``.
        question: Its doc-qa record (``question``, ``evidence``, ...).
        embed: ``list[str] -> (n, d)`` array (a :class:`CachedEmbedder`, or any embedding).
        chunker: A docchunk document chunker's name (``hybrid``, ``hierarchical``, ``page``, ``line``).
        options: The chunker's keyword arguments (``max_tokens``, ``min_tokens``, ...).
        genre: The question's genre, for the page.

    Returns:
        :class:`QuestionRanking` with every chunk, best first.

    Raises:
        ConfigError: An unknown chunker name.
    """
    from docchunk.evaluation.run import rank

    built = build_chunker(chunker, dict(options or {}))
    chunks = cast("list[DocChunk]", list(built.chunk(doc)))  # document chunks: meta.doc_items
    if not chunks:
        raise ConfigError(f"the document {question.get('doc_id')!r} gives no chunk")
    counts: dict[str, int] = {}
    for c in chunks:
        for it in c.meta.doc_items:
            counts[it.self_ref] = counts.get(it.self_ref, 0) + 1
    held = [held_by_chunk(c, doc, counts) for c in chunks]
    contextualized = [built.contextualize(c) for c in chunks]
    vectors = np.asarray(embed(contextualized))
    qv = np.asarray(embed([question["question"]]))[0]
    order = rank(qv, vectors)
    norms = np.linalg.norm(vectors, axis=1) * np.linalg.norm(qv)
    scores = (vectors @ qv) / np.where(norms == 0, 1.0, norms)
    evidence = question["evidence"]
    ranked = []
    for r, i in enumerate(order.tolist(), start=1):
        c = chunks[i]
        ranked.append(RankedChunk(
            rank=r, score=float(scores[i]), index=i, text=c.text, headings=c.meta.headings,
            captions=c.meta.__dict__.get("captions"), contextualized=contextualized[i],
            token_count=getattr(c.meta, "token_count", None), table_rows=getattr(c.meta, "table_rows", None),
            table_cols=getattr(c.meta, "table_cols", None), share=score_held(evidence, [held[i]]),
            marks=evidence_marks(c, doc, evidence, held[i]),
        ))  # fmt: skip
    recall = {f"doc@{k}": score_held(evidence, [held[i] for i in order[:k]]) for k in KS}
    return QuestionRanking(genre=genre, question=question, chunks=ranked, recall=recall,
                           config={"chunker": chunker, "options": dict(options or {})})  # fmt: skip
