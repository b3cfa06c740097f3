"""Retrieval evaluation of document chunkers on the doc-qa layout (issue 28): the run.

Chunks every document of a doc-qa folder (:mod:`~docchunk.evaluation.docqa_data`),
reduces each chunk to what it holds and scores the evidence the retrieved chunks hold
(:mod:`~docchunk.evaluation.docqa_held`), for the top ``k`` chunks (k = 1, 3, 5) and for
the top-ranked chunks within ``budget`` cl100k tokens of chunk text, ranking the chunks
of the question's own document (``doc``) and of the whole genre (``all``). The peers of
``--peer`` are in :mod:`~docchunk.evaluation.docqa_peers`.

The names of those modules are re-exported here, the doc-qa evaluation's one import.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import numpy as np

from docchunk.chunkers.doc.kinds import KINDS
from docchunk.errors import ConfigError
from docchunk.evaluation.docqa_data import HALVES, DocQaData, DocQaQuestion, Evidence, docqa_half, load_docqa
from docchunk.evaluation.docqa_held import Held, cells_by_position, held_by_chunk, score_held
from docchunk.evaluation.docqa_peers import held_by_range, markdown_export, peer_chunker
from docchunk.evaluation.rankers import LexicalScorer, check_ranker, content_first, rank_chunks
from docchunk.roles import chunk_roles
from docchunk.types import JSONObject, SpanChunker

if TYPE_CHECKING:
    from docling_core.types.doc import DoclingDocument

    from docchunk.chunkers.doc.base import DocumentChunker
    from docchunk.serialization._docling import BaseChunker, DocChunk

__all__ = [
    "CHUNKER_NAMES",
    "HALVES",
    "DocQaQuestion",
    "DocQaReport",
    "DocQaRow",
    "Evidence",
    "Held",
    "docqa_half",
    "evaluate_docs",
    "held_by_chunk",
    "load_docqa",
    "markdown_export",
    "score_held",
]

CHUNKER_NAMES = tuple(KINDS)
KS = (1, 3, 5)

DocQaRow = dict[str, "str | float | None"]
"""One question's row of :class:`DocQaReport`: ``qid``, ``genre``, ``doc_id``, ``kind`` and its recall figures."""


@dataclass
class DocQaReport:
    """Per-question rows and per-genre figures of one configuration.

    Attributes:
        config: The configuration (chunker, options, route).
        rows: One dict per question: ``qid``, ``genre``, ``doc_id``, ``kind`` and the
            recall figures (fractions) ``doc@1``, ``doc@3``, ``doc@5``, ``doc@budget``,
            ``all@1``, ``all@3``, ``all@5``, ``all@budget``.
        chunks: ``genre -> {"documents", "chunks", "mean_tokens"}`` (mean cl100k tokens of chunk text).
    """

    config: JSONObject
    rows: list[DocQaRow]
    chunks: dict[str, dict[str, float]]

    def summary(self) -> dict[str, dict[str, float]]:
        """``genre (and "overall") -> figure -> mean recall in percent``."""
        names = [f"{s}@{k}" for s in ("doc", "all") for k in (*KS, "budget")]
        out: dict[str, dict[str, float]] = {}
        groups: dict[str, list[DocQaRow]] = {}
        for row in self.rows:
            groups.setdefault(str(row["genre"]), []).append(row)
        groups["overall"] = self.rows
        for genre, rows in groups.items():
            out[genre] = {n: 100 * float(np.mean([r[n] for r in rows])) for n in names} if rows else {}
            out[genre]["questions"] = len(rows)
        return out


def build_chunker(name: str, options: JSONObject) -> DocumentChunker:
    """A docchunk document chunker by name (``CHUNKER_NAMES``) with ``options`` (its own keyword arguments)."""
    if name not in KINDS:
        raise ConfigError(f"unknown chunker {name!r}; choose one of {', '.join(KINDS)}")
    cls = KINDS[name].load()
    kept = {k: v for k, v in options.items() if v is not None and k in cls.model_fields}
    return cls(**kept)


def chunk_document(doc: DoclingDocument, route: str, chunker: BaseChunker | SpanChunker, count: Callable[[str], int],
                   cells: str = "position") -> list[Held]:  # fmt: skip
    """What each chunk of ``doc`` holds, for the route ``"doc"`` (a document chunker) or ``"flat"``.

    ``cells``: how a chunk without ``table_rows`` holds table cells, ``"position"`` or
    ``"text"`` (see the module docstring).
    """
    if route == "flat":  # a text chunker
        markdown, offsets, cell_ranges = markdown_export(doc)
        texts = {t.self_ref: t.text for t in doc.texts}
        out = []
        for span in cast("SpanChunker", chunker).chunk(markdown):
            h = held_by_range(span.start_index, span.end_index, offsets, texts, cell_ranges)
            h.text, h.tokens = span.text, count(span.text)
            out.append(h)
        return out
    doc_chunker = cast("BaseChunker", chunker)  # a document chunker: its chunks are docling-core DocChunks
    chunks = cast("list[DocChunk]", list(doc_chunker.chunk(doc)))
    counts: dict[str, int] = {}
    for c in chunks:
        for it in c.meta.doc_items:
            counts[it.self_ref] = counts.get(it.self_ref, 0) + 1
    placed = cells_by_position(chunks, doc) if cells == "position" else {}
    roles = chunk_roles(chunks, doc)
    out = []
    for i, c in enumerate(chunks):
        h = held_by_chunk(c, doc, counts)
        h.role = roles[i]
        if i in placed:
            h.cells = placed[i]
        h.text, h.tokens = doc_chunker.contextualize(c), count(c.text)
        out.append(h)
    return out


def route_chunker(route: str, chunker: str, options: JSONObject) -> BaseChunker | SpanChunker:
    """The chunker of a route: ``"doc"`` (docchunk's ``chunker`` with ``options``), ``"docling-core"`` or ``"flat"``.

    Raises:
        ConfigError: An unknown route or chunker name.
    """
    import docchunk

    size = cast(int, options.get("max_tokens") or 256)
    if route == "doc":
        return build_chunker(chunker, options)
    if route == "docling-core":
        return peer_chunker(size)
    if route == "flat":
        return docchunk.RecursiveChunker(chunk_size=size, tokenizer=docchunk.get_tokenizer(None))
    raise ConfigError(f"unknown route {route!r}; choose doc, docling-core or flat")


def evaluate_docs(data: DocQaData, embed: Callable[[list[str]], np.ndarray],
                  chunker: str = "hybrid", options: JSONObject | None = None, route: str = "doc",
                  budget: int = 1000, progress: bool = False, cells: str = "position",
                  ranker: str = "dense", marked_last: bool = False,
                  chunked: dict[tuple[str, ...], dict[str, list[Held]]] | None = None) -> DocQaReport:  # fmt: skip
    """Chunk every document, rank its chunks (and the genre's) for each question, score the evidence held.

    Args:
        data: From :func:`load_docqa`.
        embed: ``list[str] -> (n, d)`` array (a :class:`CachedEmbedder`).
        chunker: A name of ``CHUNKER_NAMES`` (route ``"doc"``); ignored by the other routes.
        options: The chunker's keyword arguments (``max_tokens``, ``min_tokens``,
            ``docling_compat``, ...); for ``"flat"``, ``chunk_size`` (tokens of all-MiniLM-L6-v2).
        route: ``"doc"`` (docchunk's document chunker), ``"docling-core"`` (docling-core's
            ``HybridChunker``, ``options["max_tokens"]``), ``"flat"`` (Markdown export +
            ``RecursiveChunker``).
        budget: cl100k tokens of retrieved chunk text per question.
        progress: Unused (kept for the CLI's signature).
        cells: How a chunk without ``table_rows`` holds table cells: ``"position"``
            (default) or ``"text"`` (see the module docstring).
        ranker: ``dense``, ``lexical`` (BM25, IDF over the genre's chunks) or ``hybrid``
            (see :mod:`docchunk.evaluation.rankers`).
        marked_last: Rank the chunks that :mod:`docchunk.roles` marks as boilerplate
            after all the others (as ``docchunk search`` leaves them out), keeping each
            group's order; they still count for the budget when reached.
        chunked: A dict that keeps each genre's chunks between calls (keyed by the
            route, chunker, options and genre), so that comparing rankers chunks once.
    """
    check_ranker(ranker)
    if cells not in ("position", "text"):
        raise ConfigError(f"unknown cells mapping {cells!r}; choose position or text")
    import docchunk
    from docchunk.evaluation.run import BUDGET_TOKENIZER, select_budget

    options = dict(options or {})
    built = route_chunker(route, chunker, options)
    count = docchunk.get_tokenizer(BUDGET_TOKENIZER).count_tokens
    rows: list[DocQaRow] = []
    stats: dict[str, dict[str, float]] = {}
    setting = (route, chunker, json.dumps(options, sort_keys=True, default=str), cells)
    for genre, (docs, questions) in data.items():
        key = (*setting, genre, *docs)
        held = (chunked or {}).get(key)
        if held is None:
            held = {d: chunk_document(doc, route, built, count, cells) for d, doc in docs.items()}
        if chunked is not None:
            chunked[key] = held
        flat = [(d, h) for d, hs in held.items() for h in hs]
        vectors = embed([h.text for _, h in flat]) if flat else np.zeros((0, 1))
        owner = np.array([d for d, _ in flat])
        tokens = np.array([h.tokens for _, h in flat])
        qvecs: np.ndarray | list[np.ndarray] = embed([q["question"] for q in questions]) if questions else []
        stats[genre] = {"documents": len(docs), "chunks": len(flat),
                        "mean_tokens": float(tokens.mean()) if len(flat) else 0.0}  # fmt: skip
        scorer = LexicalScorer([h.text for _, h in flat]) if ranker != "dense" else None
        marked = np.array([marked_last and h.role != "content" for _, h in flat], dtype=bool)
        for q, qv in zip(questions, qvecs, strict=True):
            row: DocQaRow = {"qid": q["qid"], "genre": genre, "doc_id": q["doc_id"], "kind": q.get("kind")}
            lexical = scorer.scores(q["question"]) if scorer is not None else None
            for scope in ("doc", "all"):
                idx = np.flatnonzero(owner == q["doc_id"]) if scope == "doc" else np.arange(len(flat))
                picked = lexical[idx] if lexical is not None else None
                order = content_first(idx[rank_chunks(ranker, qv, vectors[idx], picked)], marked) if len(idx) else idx
                for k in KS:
                    row[f"{scope}@{k}"] = score_held(q["evidence"], [flat[i][1] for i in order[:k]])
                chosen = select_budget(order, tokens, budget) if len(order) else order
                row[f"{scope}@budget"] = score_held(q["evidence"], [flat[i][1] for i in chosen])
            rows.append(row)
    config: JSONObject = {"route": route, "chunker": chunker if route == "doc" else route, "options": options,
                          "budget": budget, "cells": cells, "ranker": ranker, "marked_last": marked_last}  # fmt: skip
    return DocQaReport(config=config, rows=rows, chunks=stats)


def format_report(report: DocQaReport) -> str:
    """Per-genre and overall recall (percent) and chunk statistics as a plain-text table."""
    summary = report.summary()
    genres = [g for g in summary if g != "overall"] + ["overall"]
    names = ["doc@1", "doc@3", "doc@5", "doc@budget", "all@1", "all@3", "all@5", "all@budget"]
    lines = ["recall (percent of evidence held): doc = ranking the question's own document, all = the genre's",
             "genre".ljust(9) + "questions".rjust(10) + "".join(n.rjust(11) for n in names)
             + "chunks".rjust(8) + "mean tok".rjust(9)]  # fmt: skip
    for g in genres:
        s = summary[g]
        st = report.chunks.get(g)
        total = sum(v["chunks"] for v in report.chunks.values())
        mean = (sum(v["chunks"] * v["mean_tokens"] for v in report.chunks.values()) / total) if total else 0.0
        chunks, tok = (st["chunks"], st["mean_tokens"]) if st else (total, mean)
        lines.append(g.ljust(9) + str(int(s["questions"])).rjust(10) + "".join(f"{s.get(n, 0):11.1f}" for n in names)
                     + str(int(chunks)).rjust(8) + f"{tok:9.1f}")  # fmt: skip
    return "\n".join(lines)
