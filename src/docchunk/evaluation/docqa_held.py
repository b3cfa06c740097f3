"""Scoring doc-qa retrieval: what each chunk holds of a document, and the share of a question's evidence held.

Each chunk is reduced to what it holds (:class:`Held`): character ranges per text
item and a set of table cells. For docchunk's chunks these come from the chunk's own
provenance: ``meta.spans`` (characters) and ``meta.table_rows`` (cells: every column of
those rows, plus the column-header rows, whose texts each row's text repeats as its
labels). A piece of a row split between cells holds only the columns its
``meta.table_cols`` lists (with the column-header cells above them), so each cell of a
split row counts for the piece that holds it (and its label for every piece). Two
routes need a documented approximation:

- docling-core's own chunks (``peer="docling-core"``) have no spans: a chunk holds
  all characters of each text item of its ``doc_items`` whose text (whitespace
  normalized) is in its text; of an item split between chunks, the lines of the
  chunk's text found in the item's text (each found after the previous one);
- a chunk holding a table without ``table_rows`` (compat mode, docling-core) holds,
  with ``cells="position"`` (the default), the rows of the cells found in its text in
  reading order: the texts of the chunks listing the table are read in chunk order,
  each body cell's text is searched after the previous cell found, and the chunk it
  is found in holds the cell's whole row (a row found in two chunks counts for both,
  as a split row of ``table_rows`` does); the column-header rows count for every
  chunk of the table. With ``cells="text"`` (the approximation before), a chunk holds
  every cell whose non-empty text occurs anywhere in its text, which credits a chunk
  with the cells of other rows that repeat a value (a year, ``Won``).

Scores (:func:`score_held`): for each question, the share of its evidence the retrieved
chunks hold (text evidence counts characters, table evidence counts cells; a question
with both gets the mean of the two shares).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from docling_core.types.doc import DoclingDocument, TableItem

    from docchunk.evaluation.docqa_data import Evidence
    from docchunk.serialization._docling import DocChunk

__all__ = ["Held", "cells_by_position", "held_by_chunk", "score_held"]


@dataclass
class Held:
    """What one retrieved chunk holds: characters per text item, cells per table, and its size.

    Attributes:
        chars: ``ref -> [(start, end), ...]`` half-open ranges of ``item.text``.
        cells: ``{(table_ref, row, col), ...}`` grid cells.
        tokens: cl100k tokens of the chunk's text (the budget's unit).
        text: The embedded string (``contextualize(chunk)``).
    """

    chars: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    cells: set[tuple[str, int, int]] = field(default_factory=set)
    tokens: int = 0
    text: str = ""


def _norm(text: str) -> str:
    return " ".join(text.split())


def _table_cells(table: TableItem, text: str | None) -> set[tuple[str, int, int]]:
    grid = table.data.grid
    return {(table.self_ref, r, c) for r, row in enumerate(grid) for c, cell in enumerate(row)
            if text is None or (cell.text.strip() and cell.text.strip() in text)}  # fmt: skip


def held_by_chunk(chunk: DocChunk, doc: DoclingDocument, counts: dict[str, int] | None = None) -> Held:
    """What ``chunk`` (a docchunk or docling-core document chunk) holds (see the module docstring).

    Args:
        chunk: A ``DocChunk``.
        doc: Its document (docling-core may give its chunks plain ``DocItem`` copies:
            the items are read from the document by reference).
        counts: ``ref -> number of chunks of the document listing that item``; items
            listed once are held whole by a chunk without spans.
    """
    from docling_core.types.doc import RefItem, TableItem

    meta = chunk.meta
    items = [RefItem(cref=it.self_ref).resolve(doc) for it in meta.doc_items]
    held = Held()
    spans = getattr(meta, "spans", None)
    text = chunk.text
    if spans is not None:
        for s in spans:
            held.chars.setdefault(s.ref, []).append((s.start, s.end))
    else:
        body = _norm(text)
        for item in items:
            own = getattr(item, "text", None)
            if not isinstance(own, str) or not own.strip():
                continue
            if (counts or {}).get(item.self_ref, 1) == 1 or _norm(own) in body:
                held.chars.setdefault(item.self_ref, []).append((0, len(own)))
                continue
            cursor = 0
            for line in (ln.strip() for ln in text.split("\n")):
                pos = own.find(line, cursor) if line else -1
                if pos >= 0:
                    held.chars.setdefault(item.self_ref, []).append((pos, pos + len(line)))
                    cursor = pos + len(line)
    rows = getattr(meta, "table_rows", None)
    cols = getattr(meta, "table_cols", None)
    for item in items:
        if isinstance(item, TableItem):
            if rows is not None:  # the rows, and the column headers every row's text repeats as its labels
                grid = item.data.grid
                header = [r for r, row in enumerate(grid) if any(cell.column_header for cell in row)]
                if cols is not None:  # part of a split row: the columns it holds, and the headers above them
                    held.cells |= {(item.self_ref, r, c) for r, s, e in cols for c in range(s, e)}
                    held.cells |= {(item.self_ref, r, c) for r in header for _, s, e in cols for c in range(s, e)}
                    continue
                held.cells |= {(item.self_ref, r, c) for r in (*range(*rows), *header)
                               for c in range(item.data.num_cols)}  # fmt: skip
            else:
                held.cells |= _table_cells(item, text)
    return held


def cells_by_position(chunks: Sequence[DocChunk], doc: DoclingDocument) -> dict[int, set[tuple[str, int, int]]]:
    """The table cells each chunk without ``table_rows`` holds, found in reading order (see the module docstring).

    Args:
        chunks: The document chunks of ``doc``, in chunk order.
        doc: Their document.

    Returns:
        ``chunk index -> {(table_ref, row, col), ...}`` for the chunks listing a table
        without ``meta.table_rows``.
    """
    from docling_core.types.doc import RefItem, TableItem

    listing: dict[str, list[int]] = {}
    for i, c in enumerate(chunks):
        if getattr(c.meta, "table_rows", None) is not None:
            continue
        for it in c.meta.doc_items:
            if isinstance(it, TableItem) or it.self_ref.startswith("#/tables/"):
                listing.setdefault(it.self_ref, []).append(i)
    out: dict[int, set[tuple[str, int, int]]] = {}
    for ref, idx in listing.items():
        table = RefItem(cref=ref).resolve(doc)
        grid = table.data.grid
        text, bounds = "", []
        for i in idx:
            bounds.append((len(text), len(text) + len(chunks[i].text), i))
            text += chunks[i].text + "\n"
        header = [r for r, row in enumerate(grid) if any(cell.column_header for cell in row)]
        for i in idx:
            out.setdefault(i, set()).update((ref, r, c) for r in header for c in range(table.data.num_cols))
        cursor = 0
        for r, row in enumerate(grid):
            if r in header:
                continue
            owners: set[int] = set()
            for cell in row:
                value = cell.text.strip()
                pos = text.find(value, cursor) if value else -1
                if pos < 0:
                    continue
                cursor = pos + len(value)
                owners.update(i for a, b, i in bounds if a <= pos < b)
            for i in owners:
                out[i].update((ref, r, c) for c in range(table.data.num_cols))
    return out


def _covered(ranges: Iterable[tuple[int, int]], start: int, end: int) -> int:
    """Characters of ``[start, end)`` inside the union of ``ranges``."""
    marks = sorted((max(a, start), min(b, end)) for a, b in ranges if min(b, end) > max(a, start))
    total, reach = 0, start
    for a, b in marks:
        a = max(a, reach)
        if b > a:
            total += b - a
            reach = b
    return total


def score_held(evidence: Sequence[Evidence], held: Sequence[Held]) -> float:
    """The share of ``evidence`` the chunks ``held`` hold together, in [0, 1].

    Text evidence counts characters (overlaps of the chunks' ranges counted once),
    cell evidence counts cells; with both kinds, the mean of the two shares.
    """
    chars: dict[str, list[tuple[int, int]]] = {}
    cells: set[tuple[str, int, int]] = set()
    for h in held:
        for ref, ranges in h.chars.items():
            chars.setdefault(ref, []).extend(ranges)
        cells |= h.cells
    shares = []
    texts = [e for e in evidence if e["kind"] == "text" and e["end"] > e["start"]]
    if texts:
        total = sum(e["end"] - e["start"] for e in texts)
        got = sum(_covered(chars.get(e["ref"], ()), e["start"], e["end"]) for e in texts)
        shares.append(got / total)
    units = [(e["ref"], e["row"], e["col"]) for e in evidence if e["kind"] == "cell"]
    if units:
        shares.append(sum(u in cells for u in units) / len(units))
    return float(np.mean(shares)) if shares else 0.0
