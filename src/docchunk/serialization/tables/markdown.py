"""Markdown: each body row as a Markdown table line under the header lines, from the table model."""

from __future__ import annotations

from typing import Any

from docchunk.serialization.tables.model import TableModel
from docchunk.serialization.tables.rows import ROW_SEP, TableRow, TableRows

__all__ = ["write_markdown"]

MD_SEP = " | "
"""Separator of the cells of a Markdown table line."""


def _md_cell(text: str) -> str:
    """A cell's text in a Markdown table line: ``|`` escaped, a line break as one space.

    A cell holding a nested list has one line per item, the sub-items indented
    (:func:`~.model.indented_lines`); on the table line each break is a space and the
    indentation stays, as docling-core's Markdown table serializer writes the cell.
    """
    return text.replace("|", "\\|").replace("\n", " ")


def write_markdown(model: TableModel) -> TableRows:
    r"""The rows of a table with body rows, as Markdown table lines under its header lines.

    A table without header rows takes its first row as the header, as docling-core's
    Markdown export does; the header and delimiter lines are :attr:`TableRows.head`,
    which every piece repeats. ``|`` in a cell is escaped as ``\|``.
    """
    grid, start, text_of = model.grid, model.start, model.text_of
    n_rows = len(grid)
    if not grid:
        return TableRows(rows=[], start=0, end=0)
    n_cols = len(grid[0])

    def line_cells(row: list[Any]) -> tuple[tuple[str, str], ...]:
        return tuple(("", _md_cell(text_of(cell))) for cell in row)

    head_rows = max(start, 1)
    lines = []
    for r in range(head_rows):
        lines.append("| " + MD_SEP.join(v for _, v in line_cells(grid[r])) + " |")
    lines.append("| " + MD_SEP.join(["---"] * n_cols) + " |")
    rows = []
    for r in range(head_rows, n_rows):
        cells = line_cells(grid[r])
        if not any(v for _, v in cells):
            cells = ()
        at = tuple((j,) if v else () for j, (_, v) in enumerate(cells))
        rows.append(TableRow(r, cells, lead="| ", sep=MD_SEP, tail=" |", cols=at))
    return TableRows(rows=rows, start=head_rows, end=n_rows, head=ROW_SEP.join(lines))
