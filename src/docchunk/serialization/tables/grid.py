"""docling-core's table grid, read fast: every position of ``TableData.grid`` with its cell.

The model (:mod:`.model`) reads a table through :func:`read_grid` once; positions that
no cell covers hold an :class:`EmptyCell`, as docling-core's grid holds a new empty
``TableCell`` there.
"""

from __future__ import annotations

from typing import Any

__all__ = ["EmptyCell", "more_cells_than", "read_grid"]


class EmptyCell:
    """A grid position that no cell of the table covers: what docling-core's grid puts there.

    docling-core's ``TableData.grid`` fills such positions with a new, validated
    ``TableCell`` (empty text, no flags, a 1x1 span). These stand-ins have the same
    attributes and values for everything the row serialization reads, at a fraction
    of the cost (building them was a tenth of the default mode's time on tables).
    """

    __slots__ = ("end_col_offset_idx", "end_row_offset_idx", "start_col_offset_idx", "start_row_offset_idx")
    text = ""
    column_header = False
    row_header = False
    row_section = False

    def __init__(self, row: int, col: int) -> None:
        self.start_row_offset_idx = row
        self.end_row_offset_idx = row + 1
        self.start_col_offset_idx = col
        self.end_col_offset_idx = col + 1


def read_grid(data: Any) -> list[list[Any]]:
    """``data.grid`` (docling-core's algorithm), with :class:`EmptyCell` at the positions no cell covers.

    A merged cell is the same object at every position it spans. The grid is at least
    ``num_rows`` x ``num_cols``, and larger when cells reach beyond (an inconsistent
    document: docling-core's grid cuts those cells off, or is empty when the counts
    are 0, and their text would be lost). Empty when one side is 0 and there are no cells.

    Args:
        data: A docling-core ``TableData`` (``TableItem.data``).

    Returns:
        The rows of the grid, each a list of cells (``TableCell`` or :class:`EmptyCell`),
        all of one length.
    """
    cells = data.table_cells
    n_rows, n_cols = _extent(data)
    if n_rows <= 0 or n_cols <= 0:
        return []
    grid: list[list[Any]] = [[None] * n_cols for _ in range(n_rows)]
    for cell in cells:  # the grid reaches every cell's end (above): no clamping
        for i in range(cell.start_row_offset_idx, cell.end_row_offset_idx):
            row = grid[i]
            for j in range(cell.start_col_offset_idx, cell.end_col_offset_idx):
                row[j] = cell
    for i, row in enumerate(grid):
        if None in row:
            row[:] = [EmptyCell(i, j) if cell is None else cell for j, cell in enumerate(row)]
    return grid


def more_cells_than(data: Any, k: int) -> bool:
    """Whether :func:`read_grid` of ``data`` holds more than ``k`` distinct cells (an :class:`EmptyCell` counts).

    Answered without building the grid when its size decides: a cell covers at most its
    span's area (an empty position one), so a grid of more than ``k`` times the largest
    area has more than ``k`` cells. A table next to another is asked whether it is a
    one-cell title (``chunkers/doc/tables/pieces``); most have hundreds of positions.
    """
    cells = data.table_cells
    n_rows, n_cols = _extent(data)
    if n_rows <= 0 or n_cols <= 0:
        return k < 0
    area = max(
        [
            1,
            *(
                (c.end_row_offset_idx - c.start_row_offset_idx) * (c.end_col_offset_idx - c.start_col_offset_idx)
                for c in cells
            ),
        ]
    )
    if n_rows * n_cols > k * area:
        return True
    return len({id(cell) for row in read_grid(data) for cell in row}) > k


def _extent(data: Any) -> tuple[int, int]:
    """``(rows, columns)`` of the grid: the table's counts, or more when cells reach beyond them."""
    n_rows, n_cols = data.num_rows, data.num_cols
    for cell in data.table_cells:  # (one pass: read for every table a chunk() call reads)
        if cell.end_row_offset_idx > n_rows:
            n_rows = cell.end_row_offset_idx
        if cell.end_col_offset_idx > n_cols:
            n_cols = cell.end_col_offset_idx
    return n_rows, n_cols
