"""Shared test helpers (no fixtures here: those live in conftest.py): tables, chunk invariants."""

from __future__ import annotations

import re
from typing import Any

_WS = re.compile(r"\s+")


def squash(text: str) -> str:
    """``text`` without whitespace (chunkers may split and join at whitespace)."""
    return _WS.sub("", text)


def lost_texts(doc: Any, chunks: list[Any]) -> list[str]:
    """Texts of body text items (headings, captions, footnotes included) that reach no chunk.

    A text reaches a chunk when, without whitespace, it is part of the chunks' texts
    (in order, joined) or equals one of a chunk's headings or captions.
    """
    from docling_core.types.doc import TextItem

    joined = squash("".join(c.text for c in chunks))
    context = {squash(h) for c in chunks for h in [*(c.meta.headings or []), *(c.meta.__dict__.get("captions") or [])]}
    lost = []
    for item, _ in doc.iterate_items():
        if isinstance(item, TextItem) and item.text.strip():
            text = squash(item.text)
            if text not in joined and text not in context:
                lost.append(item.text)
    return lost


def page_sets(chunk: Any) -> set[frozenset[int]]:
    """The distinct, non-empty page sets of a chunk's doc items' provenance."""
    pages = {frozenset(p.page_no for p in (getattr(it, "prov", None) or ())) for it in chunk.meta.doc_items}
    pages.discard(frozenset())
    return pages

_DEBRIS_LINE = re.compile(r"^[ \t]*[|\-:][|\-: \t]*$")


def debris_lines(text: str) -> list[str]:
    """Lines of ``text`` made only of ``|``, ``-``, ``:`` and spaces (one of the three at least).

    Such lines are Markdown table remnants.
    """
    return [line for line in text.splitlines() if _DEBRIS_LINE.match(line)]


def collapse(text: str) -> str:
    """``text`` with every run of whitespace turned into one space, stripped."""
    return " ".join(text.split())


def make_table(
    grid: list[list[str | None]], header_rows: int = 1, row_header_cols: int = 0, spans=(), doc=None, caption=None
):
    """A document with one table: ``grid`` texts, ``spans`` as (row, col, row_span, col_span) merges.

    A merged cell takes the text at its top-left position; positions it covers hold None.
    The first ``header_rows`` rows are flagged column headers, the first ``row_header_cols``
    columns of the other rows row headers. Adds the table (and its ``caption``) to ``doc``, or
    to a new document; returns ``(doc, table)``.
    """
    from docling_core.types.doc import DocItemLabel, DoclingDocument, TableCell, TableData

    doc = doc if doc is not None else DoclingDocument(name="t")
    covered = {}
    for r, c, rs, cs in spans:
        for i in range(r, r + rs):
            for j in range(c, c + cs):
                covered[(i, j)] = (r, c, rs, cs)
    cells = []
    for r, row in enumerate(grid):
        for c, text in enumerate(row):
            r0, c0, rs, cs = covered.get((r, c), (r, c, 1, 1))
            if (r0, c0) != (r, c):
                continue
            cells.append(
                TableCell(
                    text=text or "",
                    row_span=rs,
                    col_span=cs,
                    start_row_offset_idx=r,
                    end_row_offset_idx=r + rs,
                    start_col_offset_idx=c,
                    end_col_offset_idx=c + cs,
                    column_header=r < header_rows,
                    row_header=r >= header_rows and c < row_header_cols,
                )
            )
    data = TableData(num_rows=len(grid), num_cols=len(grid[0]), table_cells=cells)
    cap = doc.add_text(label=DocItemLabel.CAPTION, text=caption) if caption else None
    return doc, doc.add_table(data=data, caption=cap)
