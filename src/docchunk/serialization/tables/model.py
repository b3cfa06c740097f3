"""The table model: a ``TableItem`` read once, with what its rules infer, for every writer.

:func:`read_table` reads docling-core's grid (:mod:`.grid`), the cell texts (a rich
cell's content written by the document serializer) and runs the rules (:mod:`.rules`):
the column-header rows, the row-label columns, the table-wide headers, the table's kind.
The writers (:mod:`.records`, :mod:`.triplets`, :mod:`.markdown`) read only the model.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from docchunk.serialization.tables.blocks import restart_block, restarted_header_rows
from docchunk.serialization.tables.cells import holds_nested_list, read_rich_cell
from docchunk.serialization.tables.grid import EmptyCell, read_grid
from docchunk.serialization.tables.rows import TableRow, clean, readable
from docchunk.serialization.tables.rules import (
    TableKind,
    header_row_count,
    label_column_count,
    sub_header_row,
    table_kind,
    table_wide_headers,
    title_row,
)

if TYPE_CHECKING:
    from docling_core.transforms.serializer.base import BaseDocSerializer
    from docling_core.types.doc import DoclingDocument, TableItem

    from docchunk.serialization.tables.cells import CellRead, CellReads

__all__ = [
    "TableModel",
    "cell_paragraphs",
    "header_row",
    "holds_nested_list",
    "indented_lines",
    "joined",
    "read_table",
    "text_cols",
    "value_cells",
]


@dataclass
class TableModel:
    """One table as the writers read it: its grid, its cell texts and what the rules infer.

    Attributes:
        grid: docling-core's grid (:func:`~.grid.read_grid`): ``n_rows`` rows of
            ``n_cols`` cells, a merged cell the same object over its span.
        text_of: A cell's text on one line (whitespace runs as one space; a rich
            cell's content as the document serializer writes it), read once per cell.
        start: The number of column-header rows (:func:`~.rules.header_row_count`,
            one more for a sub-header row, :func:`~.rules.sub_header_row`), at most
            ``n_rows``; the body rows are ``start .. n_rows - 1``.
        label_cols: The number of leading row-label columns
            (:func:`~.rules.label_column_count`), 0 for a one-column table.
        title: The text of a title row over the whole table (:func:`~.rules.title_row`),
            or None; with a title, row 1 is a header row (``start`` at least 2) and the
            title is the first table-wide note (:attr:`wide`).
        paragraphs_of: A cell's text as its paragraphs, each on one line, Markdown
            heading marks dropped (a rich cell's headings and paragraphs, for a layout
            table's text); ``[text_of(cell)]`` or ``[]`` for a plain cell.
        reads: The rich cells read so far (:class:`~.cells.CellRead`), in the order first read.
    """

    grid: list[list[Any]]
    text_of: Callable[[Any], str]
    start: int
    label_cols: int
    title: str | None = None
    paragraphs_of: Callable[[Any], list[str]] | None = None
    reads: list[CellRead] = field(default_factory=list)

    @property
    def n_rows(self) -> int:
        """The number of grid rows (header rows included)."""
        return len(self.grid)

    @property
    def n_cols(self) -> int:
        """The number of grid columns (0 for an empty grid)."""
        return len(self.grid[0]) if self.grid else 0

    @property
    def all_header(self) -> bool:
        """Whether every row is a column-header row (a non-empty table without body rows)."""
        return bool(self.grid) and self.start == self.n_rows

    @cached_property
    def kind(self) -> TableKind:
        """``"data"``, ``"layout"`` or ``"title"`` (:func:`~.rules.table_kind`), read when first asked."""
        return table_kind(self.grid, self.start, self.text_of)

    @cached_property
    def restarts(self) -> list[int]:
        """Body rows that start a new header block (:func:`~.blocks.restarted_header_rows`), read when first asked."""
        return restarted_header_rows(self.grid, self.start, self.label_cols, self.text_of)

    @cached_property
    def blocks(self) -> dict[int, range]:
        """Each restarted header block (:func:`~.blocks.restart_block`) by its first grid row, read when first asked."""
        found = (restart_block(self.grid, r, self.start, self.label_cols, self.text_of) for r in self.restarts)
        return {block.start: block for block in found}

    @cached_property
    def wide(self) -> tuple[list[list[Any]], list[str]]:
        """``(grid, notes)``: the grid without its table-wide header rows, and their texts.

        See :func:`~.rules.table_wide_headers`; a title row (:attr:`title`) is
        emptied too and its text is the first note. Read when a writer first asks.
        """
        grid = self.grid
        if self.title is not None:
            grid = [[EmptyCell(0, j) for j in range(self.n_cols)], *grid[1:]]
        grid, notes = table_wide_headers(grid, self.start, self.label_cols, self.text_of)
        return grid, [self.title, *notes] if self.title is not None else notes


def read_table(
    item: TableItem,
    doc: DoclingDocument | None = None,
    serializer: BaseDocSerializer | None = None,
    visited: set[str] | None = None,
    keep_links: bool = False,
    table_lines: bool = False,
    cells: CellReads | None = None,
) -> TableModel:
    """Read ``item`` into a :class:`TableModel`: its grid, its cell texts, and the rules' findings.

    Args:
        item: A docling-core ``TableItem``.
        doc: The ``DoclingDocument`` holding ``item``; needed for the text of rich cells.
        serializer: The document serializer that turns a rich cell's content into
            text (the chunker's; docling-core builds a Markdown one when None).
        visited: Refs the serializer has already walked; a rich cell's content is
            added to it (a fresh set when None, leaving the caller's walk untouched).
        keep_links: Whether a link in a rich cell keeps its URL (Markdown) or is
            written as its text alone (records, triplets; see :func:`~.cells.without_urls`).
        table_lines: Whether a rich cell holding a table (:func:`~.cells.holds_table`) is its
            records, each on a line of its own indented by one space (two cost a cl100k
            token a line), after a line break (records); else one line, as any cell.
        cells: The rich cells of ``doc`` read once for the ``chunk()`` call
            (:class:`~.cells.CellReads`, for ``doc`` and ``serializer``); None reads each here.

    Returns:
        The model; cell texts are read when a writer first asks for them.
    """
    grid = read_grid(item.data)
    texts: dict[int, str] = {}
    raws: dict[int, str] = {}
    heads: dict[int, frozenset[str]] = {}
    reads: list[CellRead] = []

    def text_of(cell: Any) -> str:
        key = id(cell)
        if key not in texts:
            raw, nested, inner = cell.text, False, False
            if doc is not None and type(cell).__name__ == "RichTableCell":
                got = cells.read(cell, visited, keep_links) if cells is not None else None
                if got is None:
                    seen = set() if visited is None else visited
                    got = read_rich_cell(cell, doc, serializer, seen, keep_links, with_table=table_lines)
                raw, nested, inner = got.raw, got.nested, table_lines and got.holds_table
                heads[key] = got.headings
                reads.append(got)
            raws[key] = raw
            if nested or not inner:
                texts[key] = indented_lines(raw) if nested else clean(raw)
            else:  # the inner table's records, each on a line of its own, indented under the cell
                texts[key] = "".join(f"\n {line}" for line in cell_paragraphs(raw, heads.get(key, frozenset())))
        return texts[key]

    def paragraphs_of(cell: Any) -> list[str]:
        text_of(cell)
        return cell_paragraphs(raws[id(cell)], heads.get(id(cell), frozenset()))

    n_rows = len(grid)
    start = min(header_row_count(item.data, grid), n_rows) if grid else 0
    title = title_row(grid, start, text_of)
    if title is not None:
        start = max(start, 2)
    if sub_header_row(grid, start, text_of):
        start += 1
    label_cols = label_column_count(grid, start, len(grid[0])) if grid else 0
    return TableModel(grid, text_of, start, label_cols, title, paragraphs_of, reads)


_HEADING_MARK = re.compile(r"^#{1,6}\s+")


def cell_paragraphs(raw: str, headings: frozenset[str] = frozenset()) -> list[str]:
    """A cell's text as its paragraphs (its lines), each on one line, without the Markdown marks of its headings.

    A rich cell's content is written by the document serializer as Markdown: a heading
    ``## News item 0`` and its paragraph on lines of their own. Written on one line, the
    marks stood in the middle of a line (a tester's web page laid out as one table,
    issue 46 finding 4); each line is a paragraph here, a heading without its ``#``.
    Only a line that is one of ``headings`` (the content's heading texts,
    :attr:`~.cells.CellRead.headings`) loses its marks: a paragraph's own line that starts
    with ``## `` is text (a long random run lost those marks, 5 December).
    """
    out = []
    for line in raw.split("\n"):
        text = clean(line.strip())
        mark = _HEADING_MARK.match(text)
        if mark is not None and text[mark.end() :] in headings:
            text = text[mark.end() :]
        if text:
            out.append(text)
    return out


def indented_lines(raw: str) -> str:
    r"""A rich cell's text with its lines and their indentation kept: a nested list as the serializer writes it.

    Written on one line, a nested list in a cell read ``- Install - Install on Linux -
    Uninstall``: the sub-items as siblings of their parent (a tester's requirements
    matrix, issue 45 "0 nested items flattened"). Each line keeps its leading
    whitespace (the nesting), its other whitespace runs become one space, and empty
    lines go: ``"- Install\n    - Install on Linux\n- Uninstall"``, docling-core's
    own form of the cell in its triplets.
    """
    lines = []
    for line in raw.split("\n"):
        if text := clean(line):
            lines.append(line[: len(line) - len(line.lstrip())] + text)
    return "\n".join(lines)


def joined(cells: Sequence[Any], text_of: Callable[[Any], str]) -> str:
    """Distinct non-empty texts of distinct cells (a merged cell counts once), joined by a space."""
    seen: set[int] = set()
    texts: dict[str, None] = {}
    for cell in cells:
        if id(cell) not in seen:
            seen.add(id(cell))
            if text := text_of(cell):
                texts[text] = None
    return " ".join(texts)


def header_row(r: int, row: list[Any], text_of: Callable[[Any], str], sep: str) -> TableRow:
    """A body row that restarts the header (:attr:`TableModel.restarts`), as a row of its own.

    Its distinct texts in column order, joined by ``sep`` (``Accumulated depreciation;
    Land and buildings; Total``); the columns of each text are its entry's ``cols``.
    """
    at: dict[str, list[int]] = {}
    for j, cell in enumerate(row):
        if text := text_of(cell):
            at.setdefault(text, []).append(j)
    cells = tuple(("", readable(t)) for t in at)
    return TableRow(r, cells, sep=sep, cols=tuple(tuple(js) for js in at.values()))


def text_cols(row: list[Any], cols: range, text_of: Callable[[Any], str]) -> tuple[int, ...]:
    """The columns of ``cols`` whose cell (in ``row``) has text."""
    return tuple(j for j in cols if text_of(row[j]))


def value_cells(
    row: list[Any], label_cols: int, seen: set[int], text_of: Callable[[Any], str], used: set[int]
) -> Iterator[tuple[str, range]]:
    """``(text, columns)`` of each value cell of a body row with text, a merged cell once.

    ``seen`` holds the ids of the cells already read (the label cells) and gets the
    value cells' ids; ``used`` gets the columns each value spans, whose headers it carries.
    """
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
        yield value, span
