"""Shared test helpers (no fixtures here: those live in conftest.py)."""

from __future__ import annotations

import re

_DEBRIS_LINE = re.compile(r"^[ \t]*[|\-:][|\-: \t]*$")


def debris_lines(text: str) -> list[str]:
    """Lines of ``text`` made only of ``|``, ``-``, ``:`` and spaces (at least one of the three): Markdown table remnants."""
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
