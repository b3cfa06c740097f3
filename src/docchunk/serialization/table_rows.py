"""Tables chunked by rows: one triplet entry per body row, packed whole into pieces.

The default (structure-faithful) table text of the document chunkers. Two phases,
each a function with its own postconditions:

1. :func:`table_rows` reads a ``TableItem``'s grid (``item.data``) and gives one
   :class:`TableRow` per body row, in the triplet form ``row label, column header =
   value`` that docling-core's ``TripletTableSerializer`` uses, but with every cell
   text kept (header cells included, the top-left one too), merged cells read once
   per row, and no Markdown anywhere.
2. :func:`docchunk.chunkers.doc.table_pack.table_pieces` packs whole rows greedily into pieces of at most
   ``available`` tokens; a row that fits is never cut; a row larger than the budget
   is split between cells (each cell's triplet keeps the row label), and a cell
   larger than the budget by text (each fragment keeps the label and header).

Every triplet repeats its row label and column header, so every piece carries its
column-header context in a form that reads as text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["TablePiece", "TableRow", "TableRows", "table_rows"]

CELL_SEP = ". "
"""Separator of the triplets of one row (docling-core's triplet separator)."""
ROW_SEP = "\n"
"""Separator of the rows of a piece."""
_DEBRIS_CHARS = frozenset("|-: \t")


@dataclass(frozen=True)
class TableRow:
    """One body row of a table, serialized.

    Attributes:
        index: The row's index in ``TableItem.data.grid`` (0-based).
        cells: The row's triplets as ``(prefix, value)`` pairs, in column order;
            the triplet text is ``prefix + value`` (``"label, header = "`` plus the
            cell text; the prefix is empty when the cell has neither). Empty when the
            row has no text.
    """

    index: int
    cells: tuple[tuple[str, str], ...]

    @property
    def text(self) -> str:
        """The row's entry: its triplets joined by ``". "``; one line, "" for an empty row."""
        return CELL_SEP.join(prefix + value for prefix, value in self.cells)


@dataclass(frozen=True)
class TableRows:
    """The body rows of a table, serialized by :func:`table_rows`.

    Attributes:
        rows: One :class:`TableRow` per body row, in order; their ``index`` values
            are ``start, start + 1, ..., end - 1``.
        start: Grid index of the first body row (the number of column-header rows,
            or 0 for a table that is all header).
        end: One past the last body row (``TableItem.data.num_rows``).
    """

    rows: list[TableRow]
    start: int
    end: int

    @property
    def text(self) -> str:
        """The whole table: the non-empty row entries joined by newlines."""
        return ROW_SEP.join(row.text for row in self.rows if row.cells)


@dataclass(frozen=True)
class TablePiece:
    r"""A token-bounded piece of a table.

    Attributes:
        text: Whole row entries joined by ``"\n"``, or part of one row's triplets.
        rows: Half-open range ``(start, end)`` of grid row indices (body rows) this
            piece holds; the pieces of one split row share its range. Empty rows
            belong to the piece of the next row with text (or of the last one).
        tokens: ``count_tokens(text)`` by the tokenizer :func:`table_pieces` was given.
        oversized: True when the text exceeds the budget because it holds one
            character that alone does.
    """

    text: str
    rows: tuple[int, int]
    tokens: int
    oversized: bool = False


# -- phase 1: serialize -------------------------------------------------------


def _clean(text: str) -> str:
    """Cell text on one line: runs of whitespace (line breaks too) become one space."""
    return " ".join(text.split())


def _readable(text: str) -> str:
    """``text``, quoted when it is made only of ``|``, ``-``, ``:`` and spaces.

    Such a line reads as a Markdown table remnant; a cell that holds only ``-`` (a
    common "no value" mark) is kept, in quotes, when it has no label or header.
    """
    return f'"{text}"' if text and set(text) <= _DEBRIS_CHARS else text


def _header_rows(data: Any, grid: list[list[Any]]) -> int:
    """Number of leading column-header rows, as docling-core's table export counts them."""
    count = getattr(data, "_count_column_header_rows", None)
    if count is not None:
        return int(count(grid=grid))
    rows = 0  # fallback for a docling-core without the helper: rows where a header cell starts
    for r, row in enumerate(grid):
        if not any(c.column_header for c in row if c.start_row_offset_idx == r):
            break
        rows += 1
    return rows


def _label_columns(grid: list[list[Any]], start: int, n_cols: int) -> int:
    """Number of leading columns that label the rows: the flagged row headers, else column 0."""
    if n_cols < 2:
        return 0
    width = 1
    for row in grid[start:]:
        k = 0
        while k < n_cols and row[k].row_header:
            k = max(k + 1, row[k].end_col_offset_idx)
        width = max(width, k)
    return min(width, n_cols - 1)


def _joined(cells: Sequence[Any], text_of: Callable[[Any], str]) -> str:
    """Distinct non-empty texts of distinct cells (a merged cell counts once), joined by a space."""
    seen: set[int] = set()
    texts: dict[str, None] = {}
    for cell in cells:
        if id(cell) not in seen:
            seen.add(id(cell))
            if text := text_of(cell):
                texts[text] = None
    return " ".join(texts)


def _triplet(label: str, header: str, value: str) -> tuple[str, str]:
    """``(prefix, value)`` of ``label, header = value`` without the parts that are empty."""
    if label and header:
        return f"{label}, {header} = ", value
    if label or header:
        return f"{label or header} = ", value
    return "", _readable(value)


def _row_cells(
    row: list[Any], headers: list[str], label_cols: int, corner: str, text_of: Callable[[Any], str], used: set[int]
) -> tuple[tuple[str, str], ...]:
    """The triplets of one body row (see :func:`table_rows`).

    Adds to ``used`` the columns whose header a triplet carries (-1 for the corner).
    """
    label = _joined(row[:label_cols], text_of)
    if label_cols and row[0].end_col_offset_idx >= len(row):  # one cell spans the row: a section row
        return (("", _readable(label)),) if label else ()
    cells: list[tuple[str, str]] = []
    if label:
        cells.append((f"{corner} = ", label) if corner else ("", _readable(label)))
        used.add(-1)
    seen = {id(cell) for cell in row[:label_cols]}
    for j in range(label_cols, len(row)):
        cell = row[j]
        if id(cell) in seen:
            continue
        seen.add(id(cell))
        value = text_of(cell)
        if not value:
            continue
        span = range(max(cell.start_col_offset_idx, label_cols), min(cell.end_col_offset_idx, len(row)))
        used.update(span)
        header = " ".join(dict.fromkeys(h for k in span if (h := headers[k])))
        cells.append(_triplet(label, header, value))
    if label and not corner and len(cells) > 1:
        cells.pop(0)  # the label leads every triplet already
    return tuple(cells)


def _unused_headers(
    label: str, headers: list[str], label_cols: int, corner: str, used: set[int]
) -> list[tuple[str, str]]:
    """``label, header =`` triplets for header texts that no body cell carries (empty columns)."""
    texts = [corner] if corner and -1 not in used else []
    texts += [h for k, h in enumerate(headers) if k >= label_cols and h and k not in used]
    return [(f"{label}, {h} =" if label else f"{h} =", "") for h in dict.fromkeys(texts)]


def table_rows(item: Any, doc: Any = None, serializer: Any = None, visited: set[str] | None = None) -> TableRows:
    """Serialize a table row by row, in the triplet form ``row label, column header = value``.

    Reads the grid of ``item.data`` (merged cells repeated over their span, as
    docling-core's ``TableData.grid`` gives it). Column-header rows are counted as
    docling-core's table export counts them; the row label is the text of the
    flagged row-header columns, else of column 0 (as docling-core's triplets).

    For each body row, each distinct cell outside the label columns with text
    gives one triplet ``label, header = value``, where ``header`` joins the texts of
    the header cells above the columns the cell spans (a header merged over
    several columns and the rows below it read as, e.g., ``2020 Q1``). A triplet
    leaves out an empty label or header (``header = value``, ``label = value``).
    The header of the label columns (the top-left cell) opens the row as
    ``corner = label``. A row that is one merged cell (a section row) is its text.
    A table that is all header (no body rows) gives one row per grid row with the
    texts of the cells that start on it, joined by ``". "``.

    Invariants: every cell text (whitespace runs collapsed to one space) appears
    in some row's text, header cells included; no row text contains a line break;
    no triplet is made only of ``|``, ``-``, ``:`` and spaces (such a bare value is
    quoted).

    Args:
        item: A docling-core ``TableItem``.
        doc: The ``DoclingDocument`` holding ``item``; needed for the text of rich cells.
        serializer: The document serializer that turns a rich cell's content into
            text (the chunker's; docling-core builds a Markdown one when None).
        visited: Refs the serializer has already walked; a rich cell's content is
            added to it (a fresh set when None, leaving the caller's walk untouched).

    Returns:
        :class:`TableRows`: one :class:`TableRow` per body row.

    Example:
        >>> rows = table_rows(doc.tables[0], doc)  # doctest: +SKIP
        >>> rows.rows[0].text  # doctest: +SKIP
        'Region = North. North, Units = 111. North, Price = 5'
    """
    data = item.data
    grid = _grid(data)
    texts: dict[int, str] = {}

    def text_of(cell: Any) -> str:
        key = id(cell)
        if key not in texts:
            raw = cell.text
            if doc is not None and type(cell).__name__ == "RichTableCell":
                raw = cell._get_text(doc=doc, doc_serializer=serializer, visited=set() if visited is None else visited)
            texts[key] = _clean(raw)
        return texts[key]

    n_rows = len(grid)
    start = min(_header_rows(data, grid), n_rows) if grid else 0
    if grid and start == n_rows:  # all header: each row's own cells, as text
        return TableRows(rows=_plain_rows(grid, text_of), start=0, end=n_rows)
    n_cols = len(grid[0]) if grid else 0
    label_cols = _label_columns(grid, start, n_cols)
    headers = [_joined([grid[r][j] for r in range(start)], text_of) for j in range(n_cols)]
    corner = _joined([grid[r][j] for r in range(start) for j in range(label_cols)], text_of)
    used: set[int] = set()
    rows = [TableRow(r, _row_cells(grid[r], headers, label_cols, corner, text_of, used)) for r in range(start, n_rows)]
    if rows:
        first = rows[0]
        extra = _unused_headers(_joined(grid[first.index][:label_cols], text_of), headers, label_cols, corner, used)
        rows[0] = TableRow(first.index, first.cells + tuple(extra))
    return TableRows(rows=rows, start=start, end=n_rows)


class _EmptyCell:
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


def _grid(data: Any) -> list[list[Any]]:
    """``data.grid`` (docling-core's algorithm), with :class:`_EmptyCell` at the positions no cell covers.

    The grid is at least ``num_rows`` x ``num_cols``, and larger when cells reach
    beyond (an inconsistent document: docling-core's grid cuts those cells off, or
    is empty when the counts are 0, and their text would be lost). Empty when one
    side is 0 and there are no cells.
    """
    cells = data.table_cells
    n_rows = max([data.num_rows, *(cell.end_row_offset_idx for cell in cells)])
    n_cols = max([data.num_cols, *(cell.end_col_offset_idx for cell in cells)])
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
            row[:] = [_EmptyCell(i, j) if cell is None else cell for j, cell in enumerate(row)]
    return grid


def _plain_rows(grid: list[list[Any]], text_of: Callable[[Any], str]) -> list[TableRow]:
    """The rows of a header-only table: each row the texts of the cells first met on it."""
    seen: set[int] = set()
    rows = []
    for r, row in enumerate(grid):
        own = [cell for cell in row if id(cell) not in seen]
        seen.update(id(cell) for cell in own)
        texts = dict.fromkeys(text for cell in own if (text := text_of(cell)))
        rows.append(TableRow(r, tuple(("", _readable(t)) for t in texts)))
    return rows
