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

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import numpy as np

from docchunk.errors import ConfigError
from docchunk.evaluation.docqa_data import HALVES, DocQaData, DocQaQuestion, Evidence, docqa_half, load_docqa
from docchunk.evaluation.docqa_held import Held, cells_by_position, held_by_chunk, score_held
from docchunk.evaluation.docqa_peers import held_by_range, markdown_export, peer_chunker
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

CHUNKER_NAMES = ("hybrid", "hierarchical", "page", "line")
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
    import docchunk

    classes: dict[str, type[DocumentChunker]] = {
        "hybrid": docchunk.HybridChunker, "hierarchical": docchunk.HierarchicalChunker,
        "page": docchunk.PageChunker, "line": docchunk.LineBasedTokenChunker,
    }  # fmt: skip
    if name not in classes:
        raise ConfigError(f"unknown chunker {name!r}; choose one of {', '.join(classes)}")
    cls = classes[name]
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
    out = []
    for i, c in enumerate(chunks):
        h = held_by_chunk(c, doc, counts)
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
                  budget: int = 1000, progress: bool = False, cells: str = "position") -> DocQaReport:  # fmt: skip
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
    """
    if cells not in ("position", "text"):
        raise ConfigError(f"unknown cells mapping {cells!r}; choose position or text")
    import docchunk
    from docchunk.evaluation.run import BUDGET_TOKENIZER, rank, select_budget

    options = dict(options or {})
    built = route_chunker(route, chunker, options)
    count = docchunk.get_tokenizer(BUDGET_TOKENIZER).count_tokens
    rows: list[DocQaRow] = []
    stats: dict[str, dict[str, float]] = {}
    for genre, (docs, questions) in data.items():
        held: dict[str, list[Held]] = {d: chunk_document(doc, route, built, count, cells) for d, doc in docs.items()}
        flat = [(d, h) for d, hs in held.items() for h in hs]
        vectors = embed([h.text for _, h in flat]) if flat else np.zeros((0, 1))
        owner = np.array([d for d, _ in flat])
        tokens = np.array([h.tokens for _, h in flat])
        qvecs: np.ndarray | list[np.ndarray] = embed([q["question"] for q in questions]) if questions else []
        stats[genre] = {"documents": len(docs), "chunks": len(flat),
                        "mean_tokens": float(tokens.mean()) if len(flat) else 0.0}  # fmt: skip
        for q, qv in zip(questions, qvecs, strict=True):
            row: DocQaRow = {"qid": q["qid"], "genre": genre, "doc_id": q["doc_id"], "kind": q.get("kind")}
            for scope in ("doc", "all"):
                idx = np.flatnonzero(owner == q["doc_id"]) if scope == "doc" else np.arange(len(flat))
                order = idx[rank(qv, vectors[idx])] if len(idx) else idx
                for k in KS:
                    row[f"{scope}@{k}"] = score_held(q["evidence"], [flat[i][1] for i in order[:k]])
                chosen = select_budget(order, tokens, budget) if len(order) else order
                row[f"{scope}@budget"] = score_held(q["evidence"], [flat[i][1] for i in chosen])
            rows.append(row)
    config: JSONObject = {"route": route, "chunker": chunker if route == "doc" else route, "options": options,
                          "budget": budget, "cells": cells}  # fmt: skip
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
