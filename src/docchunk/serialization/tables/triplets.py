"""Triplets: each value cell as ``label, header = value``, from the table model.

docling-core's ``TripletTableSerializer`` form (``table_format="triplets"``), with every
cell text kept (header cells included, the top-left one too).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from docchunk.serialization.tables.blocks import block_headers
from docchunk.serialization.tables.model import TableModel, header_row, joined, text_cols, value_cells
from docchunk.serialization.tables.rows import CELL_SEP, TableRow, TableRows, notes_line, readable
from docchunk.serialization.tables.rules import spanning_text

__all__ = ["write_triplets"]


def write_triplets(model: TableModel) -> TableRows:
    """The body rows of a table with body rows, as triplets (see :func:`~docchunk.serialization.tables.table_rows`).

    The header rows are read as records read them: a table-wide header (``model.wide``)
    is no column's header; it is written once on the first row and opens every later
    piece of a split table (``notes``). A body row that restarts the header
    (``model.blocks``) is a row of its own, and the rows below it read their headers
    and the corner from its block (:func:`~.blocks.block_headers`).
    """
    start, label_cols, text_of = model.start, model.label_cols, model.text_of
    n_rows, n_cols = model.n_rows, model.n_cols
    grid, notes = model.wide  # the table-wide headers read as records read them: no column's header
    headers = [joined([grid[r][j] for r in range(start)], text_of) for j in range(n_cols)]
    corner = joined([grid[r][j] for r in range(start) for j in range(label_cols)], text_of)
    first_headers, first_corner = headers, corner  # the first block's, for the headers no value carries
    used: set[int] = set()
    rows: list[TableRow] = []
    blocks = model.blocks
    in_blocks = {r for block in blocks.values() for r in block}
    for r in range(start, n_rows):
        if r in in_blocks:  # a header block restarts: the rows below read their headers from it
            if r in blocks:
                corner, column_levels = block_headers([grid[k] for k in blocks[r]], label_cols, text_of, corner)
                headers = [" ".join(texts) for texts in column_levels]
            rows.append(header_row(r, grid[r], text_of, CELL_SEP))
        else:
            rows.append(_row_cells(r, grid[r], headers, label_cols, corner, text_of, used))
    if rows:
        first = rows[0]
        spanning = spanning_text(grid[first.index], text_of) is not None  # its text labels no header
        label = "" if spanning else joined(grid[first.index][:label_cols], text_of)
        unused = _unused_headers(label, first_headers, label_cols, first_corner, used)
        extra = [*unused, *(("", readable(n)) for n in notes)]
        rows[0] = replace(first, cells=first.cells + tuple(extra), cols=first.cols + ((),) * len(extra))
    return TableRows(rows=rows, start=start, end=n_rows, notes=notes_line(notes))


def _triplet(label: str, header: str, value: str) -> tuple[str, str]:
    """``(prefix, value)`` of ``label, header = value`` without the parts that are empty."""
    if label and header:
        return f"{label}, {header} = ", value
    if label or header:
        return f"{label or header} = ", value
    return "", readable(value)


def _row_cells(
    r: int, row: list[Any], headers: list[str], label_cols: int, corner: str, text_of: Callable[[Any], str],
    used: set[int],
) -> TableRow:  # fmt: skip
    """The triplets of one body row ``r`` (see :func:`table_rows`), with the columns each holds.

    Adds to ``used`` the columns whose header a triplet carries (-1 for the corner).
    """
    if (spanning := spanning_text(row, text_of)) is not None:  # one text in every cell: written once
        return TableRow(r, (("", readable(spanning)),), cols=(tuple(range(len(row))),))
    label = joined(row[:label_cols], text_of)
    label_at = text_cols(row, range(label_cols), text_of)
    if label_cols and row[0].end_col_offset_idx >= len(row):  # one cell spans the row: a section row
        return TableRow(r, (("", readable(label)),), cols=(label_at,)) if label else TableRow(r, ())
    cells: list[tuple[str, str]] = []
    cols: list[tuple[int, ...]] = []
    if label:
        cells.append((f"{corner} = ", label) if corner else ("", readable(label)))
        cols.append(label_at)
        used.add(-1)
    values = 0
    for value, span in value_cells(row, label_cols, {id(cell) for cell in row[:label_cols]}, text_of, used):
        header = " ".join(dict.fromkeys(h for k in span if (h := headers[k])))
        cells.append(_triplet(label, header, value))
        cols.append(tuple(span))
        values += 1
    if label and not corner and values:
        cells.pop(0)  # the label leads every triplet already
        cols.pop(0)
    lead_cols = label_at if label and values else ()  # every value triplet names the label
    return TableRow(r, tuple(cells), cols=tuple(cols), lead_cols=lead_cols)


def _unused_headers(
    label: str, headers: list[str], label_cols: int, corner: str, used: set[int]
) -> list[tuple[str, str]]:
    """``label, header =`` triplets for header texts that no body cell carries (empty columns)."""
    texts = [corner] if corner and -1 not in used else []
    texts += [h for k, h in enumerate(headers) if k >= label_cols and h and k not in used]
    return [(f"{label}, {h} =" if label else f"{h} =", "") for h in dict.fromkeys(texts)]
