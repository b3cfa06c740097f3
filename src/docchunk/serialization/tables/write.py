"""``table_rows``: a table read into its model, then written row by row in the chosen form."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docchunk.serialization.tables.markdown import write_markdown
from docchunk.serialization.tables.model import read_table
from docchunk.serialization.tables.records import write_records
from docchunk.serialization.tables.rows import (
    CELL_SEP,
    ROW_SEP,
    TableFormat,
    TableRow,
    TableRows,
    check_table_format,
    readable,
)
from docchunk.serialization.tables.triplets import write_triplets

if TYPE_CHECKING:
    from collections.abc import Callable

    from docling_core.transforms.serializer.base import BaseDocSerializer
    from docling_core.types.doc import DoclingDocument, TableItem

    from docchunk.serialization.tables.cells import CellReads
    from docchunk.serialization.tables.model import TableModel

__all__ = ["layout_rows", "model_options", "plain_rows", "table_rows", "written"]


def table_rows(
    item: TableItem,
    doc: DoclingDocument | None = None,
    serializer: BaseDocSerializer | None = None,
    visited: set[str] | None = None,
    table_format: TableFormat = "records",
    cells: CellReads | None = None,
) -> TableRows:
    r"""Serialize a table row by row, in the form ``table_format`` names.

    Reads the grid of ``item.data`` (merged cells repeated over their span, as
    docling-core's ``TableData.grid`` gives it). Column-header rows are counted as
    docling-core's table export counts them; the row label is the text of the
    flagged row-header columns, else of column 0 (as docling-core's triplets).
    A column's header joins the texts of the header cells above it, top-down (a
    header merged over several columns and the rows below it read as
    ``2020 / Q1`` in records, ``2020 Q1`` in triplets); a cell spanning several
    columns is read once, under the headers of all of them.

    ``"records"``: each body row is ``label: header = value; header = value``,
    the label once. The label joins the row's label-column texts by ``" / "``,
    after the top-left header cell's text in parentheses (``EDD+BBox (Model):``),
    unless the label holds that text as a word (``SKU-0005:`` under ``SKU``,
    :func:`~.records.label_holds_corner`).
    A section row, one with text only in its label columns that ends with ``:``,
    spans the whole row or is flagged ``row_section``, gives no text of its
    own: its text (a trailing ``:`` dropped) prefixes the labels of the rows below
    it, up to the next section row (consecutive section rows nest:
    ``Americas / North / Canada:``); a section row with no data row after it is its
    text. A row whose separate cells all hold one text (with a letter) reads as one
    cell spanning the row that was written cell by cell: its text, once, is a row of
    its own (it does not prefix the rows below: equal texts in separate cells may
    be values). Empty header cells and empty values are left out (a value without a
    header is an entry of its own); consecutive values under the same header are
    one entry, ``header = v1, v2``; consecutive entries whose multi-level headers
    share the top level are one entry with it once, ``top: a = v1, b = v2``
    (an entry alone under its top level reads ``top / a = v1``); a header over a
    column without any value is
    an entry without ``=`` on the first row, so its text is not lost. A header row
    whose only text is one cell over a column strictly between the first and the last
    column that another header row names (``Fiscal`` over the middle one of ``2019 |
    2018 | 2017``: a converter's unmerged spanning header) heads the whole table: it is
    no column's header and is written once on the first row, as such a header is.

    ``"triplets"``: each distinct cell with text outside the label columns gives
    ``label, header = value``; the header of the label columns (the top-left
    cell) opens the row as ``corner = label``; a row that is one merged cell, or
    whose separate cells all hold one text (as in records), is its text; a header
    over an empty column gives ``label, header =`` on the first row.

    ``"markdown"``: a Markdown table, ``| a | b |`` per row, under the header
    line(s) and the delimiter line (:attr:`TableRows.head`); a table without
    header rows takes its first row as the header, as docling-core's Markdown
    export does. ``|`` in a cell is escaped as ``\|``.

    A table that is all header (no body rows), or a title block
    (:func:`~docchunk.serialization.tables.rules.is_title_block`), gives, in every form,
    one row per grid row with the texts of the cells that start on it, joined by ``". "``. A
    layout table (:func:`~docchunk.serialization.tables.rules.is_layout_table`: cells
    used as page layout) is text, in every form: one row per grid row with the
    paragraphs of the cells first met on it, each on a line of its own, each cell
    once (:func:`layout_rows`, ``start`` 0).

    Invariants: every cell text (whitespace runs collapsed to one space; a section
    label without its trailing ``:``; a layout cell's heading marks dropped; a cell's
    nested list one item a line, each line's own whitespace runs collapsed) appears
    in some row's text or the head, header cells included; no row text contains a
    line break, except a layout table's (one paragraph per line) and, in records and
    triplets, a cell holding a nested list (one item per line, sub-items indented:
    :func:`~docchunk.serialization.tables.model.indented_lines`) and, in records, a cell holding a
    table (its records one a line, indented: ``Contents:\n Brush (Item): Qty = 2``); in records no entry
    is empty and no ``=`` lacks a header or a value; no bare value is made only of
    ``|``, ``-``, ``:`` and spaces (such a value is quoted), except in Markdown.

    Args:
        item: A docling-core ``TableItem``; ``doc``, ``serializer`` and ``visited`` as
            :func:`~docchunk.serialization.tables.model.read_table` reads them (the
            document, for rich cells; the serializer that writes a rich cell's content;
            the refs it has walked).
        doc: See ``item``.
        serializer: See ``item``.
        visited: See ``item``.
        table_format: ``"records"`` (default), ``"triplets"`` or ``"markdown"``.
        cells: The rich cells read once for the ``chunk()`` call (see ``read_table``), or None.

    Returns:
        :class:`TableRows`: one :class:`TableRow` per body row.

    Raises:
        ConfigError: ``table_format`` is none of the three.

    Example:
        >>> rows = table_rows(doc.tables[0], doc)  # doctest: +SKIP
        >>> rows.rows[0].text  # doctest: +SKIP
        'North (Region): Units = 111; Price = 5'
    """
    check_table_format(table_format)
    model = read_table(item, doc, serializer, visited, *model_options(table_format), cells=cells)
    return written(model, table_format)


def model_options(table_format: TableFormat) -> tuple[bool, bool]:
    """``(keep_links, table_lines)`` of the model ``table_format`` is written from (see ``read_table``)."""
    return table_format == "markdown", table_format == "records"


def written(model: TableModel, table_format: TableFormat) -> TableRows:
    """``model`` written in ``table_format`` (the rows :func:`table_rows` gives), read with :func:`model_options`."""
    if model.all_header or model.kind == "title":  # all header, or a title block: each row's own cells, as text
        return TableRows(rows=plain_rows(model.grid, model.text_of), start=0, end=model.n_rows)
    if model.kind == "layout":  # page layout, not values: its cells as text, in reading order, each once
        return TableRows(rows=layout_rows(model), start=0, end=model.n_rows)
    if table_format == "markdown":
        return write_markdown(model)
    if table_format == "records":
        return write_records(model)
    return write_triplets(model)


def plain_rows(grid: list[list[Any]], text_of: Callable[[Any], str], sep: str = CELL_SEP) -> list[TableRow]:
    """Each grid row as the texts of the cells first met on it, joined by ``sep``: a merged cell once.

    The rows of a header-only table (``". "``); a layout table's are :func:`layout_rows`.
    """
    seen: set[int] = set()
    rows = []
    for r, row in enumerate(grid):
        own = [cell for cell in row if id(cell) not in seen]
        seen.update(id(cell) for cell in own)
        at: dict[str, list[int]] = {}
        mine = {id(cell) for cell in own}
        for j, cell in enumerate(row):
            if id(cell) in mine and (text := text_of(cell)):
                at.setdefault(text, []).append(j)
        cells = tuple(("", readable(t)) for t in at)
        rows.append(TableRow(r, cells, sep=sep, cols=tuple(tuple(js) for js in at.values())))
    return rows


def layout_rows(model: TableModel) -> list[TableRow]:
    r"""The rows of a layout table as text: each cell once, where first met, its paragraphs on lines of their own.

    A cell of prose (a navigation bar, a page's content cell holding headings and
    paragraphs) is one or more paragraphs, each on a line of its own (a heading as a
    line without its ``#`` marks, :func:`~.model.cell_paragraphs`); a short mark
    without a word (``●``, ``(1)``) opens the line of the cell after it, as a bullet
    beside its paragraph. One row per grid row; its entries are the lines (``sep``
    ``"\n"``), so a row too large for a piece is split between paragraphs. A tester's
    web page laid out as one table (issue 46 finding 4) had ``## `` marks in the middle
    of a line and its navigation and content cells on one line.
    """
    assert model.paragraphs_of is not None
    seen: set[int] = set()
    rows = []
    for r, row in enumerate(model.grid):
        entries: list[tuple[str, str]] = []
        cols: list[tuple[int, ...]] = []
        mark: tuple[str, tuple[int, ...]] | None = None  # a bullet waiting for the cell after it
        for j, cell in enumerate(row):
            if id(cell) in seen:
                continue
            seen.add(id(cell))
            at = tuple(k for k in range(j, len(row)) if row[k] is cell)
            lines = model.paragraphs_of(cell)
            if len(lines) == 1 and _is_mark(lines[0]):
                mark = (lines[0], at) if mark is None else (f"{mark[0]} {lines[0]}", mark[1] + at)
                continue
            for n, line in enumerate(lines):
                if n == 0 and mark is not None:
                    line, at, mark = f"{mark[0]} {line}", mark[1] + at, None
                entries.append(("", readable(line)))
                cols.append(at)
        if mark is not None:
            entries.append(("", readable(mark[0])))
            cols.append(mark[1])
        rows.append(TableRow(r, tuple(entries), sep=ROW_SEP, cols=tuple(cols)))
    return rows


def _is_mark(text: str) -> bool:
    """Whether a cell's text is a mark beside a paragraph (``●``, ``-``, ``(1)``, ``a.``), not a paragraph."""
    return len(text) <= 4 and sum(ch.isalpha() for ch in text) <= 1
