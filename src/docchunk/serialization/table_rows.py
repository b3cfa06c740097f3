"""Tables chunked by rows: one entry per body row, packed whole into pieces.

The default (structure-faithful) table text of the document chunkers. Two phases,
each a function with its own postconditions:

1. :func:`table_rows` reads a ``TableItem``'s grid (``item.data``) and gives one
   :class:`TableRow` per body row, in one of three forms (``table_format``):

   - ``"records"`` (the default): the row label once, then each column header and
     its value, ``United States: 2019 = $614,493; 2018 = $668,580``; section rows
     (text only in the label columns) prefix the rows below them
     (``Americas / United States: ...``); multi-level headers are joined by
     ``" / "``, and consecutive columns under one top level write it once
     (``Years ended December 31: 2019 = $614,493, 2018 = $668,580``); empty
     headers and values are left out. A converter's unmerged spanning header (one
     cell over one of the columns a header row names: ``Fiscal``, ``December 31,``
     over ``2019 | 2018``) heads the whole table and is written once, on the first
     row; a note of units over the row labels (``(in millions)``) follows every
     label (``Goodwill (in millions): ...``).
   - ``"triplets"``: ``row label, column header = value`` per cell, as
     docling-core's ``TripletTableSerializer`` writes them, but with every cell
     text kept (header cells included, the top-left one too).
   - ``"markdown"``: one Markdown table line per row, under the header line(s),
     which every piece repeats.

   In every form merged cells are read once per row.
2. :func:`docchunk.chunkers.doc.tables.pack.table_pieces` packs whole rows greedily into pieces of at most
   ``available`` tokens; a row that fits is never cut; a row larger than the budget
   is split between cells (each cell's triplet keeps the row label), and a cell
   larger than the budget by text (each fragment keeps the label and header).

Every record and triplet names its column headers, and every piece of a split row
keeps its row label, so every piece carries its context in a form that reads as text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal, get_args

from docchunk.errors import ConfigError

if TYPE_CHECKING:
    from docling_core.transforms.serializer.base import BaseDocSerializer
    from docling_core.types.doc import DoclingDocument, TableItem

__all__ = ["TABLE_FORMATS", "TableFormat", "TablePiece", "TableRow", "TableRows", "col_ranges", "table_rows"]

TableFormat = Literal["records", "triplets", "markdown"]
"""How the default mode writes a table's rows (see :func:`table_rows`)."""
TABLE_FORMATS: tuple[str, ...] = get_args(TableFormat)

CELL_SEP = ". "
"""Separator of the triplets of one row (docling-core's triplet separator)."""
RECORD_SEP = "; "
"""Separator of the entries (``header = value``) of one record."""
LEVEL_SEP = " / "
"""Joins the levels of a record's labels: section rows, label columns, header rows."""
_MD_SEP = " | "
ROW_SEP = "\n"
"""Separator of the rows of a piece."""
_DEBRIS_CHARS = frozenset("|-: \t")


@dataclass(frozen=True)
class TableRow:
    """One body row of a table, serialized.

    Attributes:
        index: The row's index in ``TableItem.data.grid`` (0-based).
        cells: The row's entries as ``(prefix, value)`` pairs, in column order; the
            entry text is ``prefix + value``: a triplet ``"label, header = "`` plus
            the cell text, a record entry ``"header = "`` plus the cell text, or a
            Markdown cell (empty prefix). Empty when the row has no text.
        lead: What opens the row and every piece of it when it is split: the
            record's label (``"Americas / United States: "``), ``"| "`` for a
            Markdown row, ``""`` for triplets (each triplet names its label).
        sep: Separator of the entries: ``". "`` (triplets), ``"; "`` (records),
            ``" | "`` (Markdown).
        tail: What closes the row: ``" |"`` for a Markdown row, else ``""``.
        cols: The grid columns (0-based, of ``TableItem.data.grid``) whose cell text
            each entry holds, one tuple per entry of ``cells`` (``()`` for an entry
            that holds no cell of the row: a header over an empty column, the
            corner's ``corner = label`` triplet); read with the cells, so that a
            piece of a split row can say which columns it holds.
        lead_cols: The columns whose cell text every piece of the row repeats: the
            row's label columns with text when the label opens the row (records) or
            every triplet (triplets); ``()`` otherwise.
    """

    index: int
    cells: tuple[tuple[str, str], ...]
    lead: str = ""
    sep: str = CELL_SEP
    tail: str = ""
    cols: tuple[tuple[int, ...], ...] = ()
    lead_cols: tuple[int, ...] = ()

    @property
    def text(self) -> str:
        """The row's entry: ``lead``, its entries joined by ``sep``, ``tail``; one line, "" for an empty row."""
        if not self.cells:
            return ""
        return self.lead + self.sep.join(prefix + value for prefix, value in self.cells) + self.tail


@dataclass(frozen=True)
class TableRows:
    """The body rows of a table, serialized by :func:`table_rows`.

    Attributes:
        rows: One :class:`TableRow` per body row, in order; their ``index`` values
            are ``start, start + 1, ..., end - 1``.
        start: Grid index of the first body row (the number of column-header rows,
            or 0 for a table that is all header).
        end: One past the last body row (``TableItem.data.num_rows``).
        head: Lines that open the table and every piece of it: a Markdown table's
            header and delimiter lines; ``""`` in the other forms.
    """

    rows: list[TableRow]
    start: int
    end: int
    head: str = ""

    @property
    def text(self) -> str:
        """The whole table: the head, then the non-empty row entries, joined by newlines."""
        lines = [row.text for row in self.rows if row.cells]
        return ROW_SEP.join([self.head, *lines] if self.head else lines)


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
        cols: For a piece of a row split between pieces, the grid columns of that
            row whose cell text it holds, as half-open ranges ``(row, start, end)``
            (see :func:`col_ranges`): the columns of its entries and the row's
            :attr:`TableRow.lead_cols`, which every piece of the row repeats. An
            entry split by text lists its columns in each of its fragments. None
            for a piece of whole rows.
    """

    text: str
    rows: tuple[int, int]
    tokens: int
    oversized: bool = False
    cols: tuple[tuple[int, int, int], ...] | None = None


def col_ranges(row: int, cols: Iterable[int]) -> tuple[tuple[int, int, int], ...]:
    """The columns ``cols`` of grid row ``row`` as sorted half-open ranges ``(row, start, end)``.

    Example:
        >>> col_ranges(3, [4, 1, 2])
        ((3, 1, 3), (3, 4, 5))
    """
    out: list[tuple[int, int, int]] = []
    for j in sorted(set(cols)):
        if out and out[-1][2] == j:
            out[-1] = (row, out[-1][1], j + 1)
        else:
            out.append((row, j, j + 1))
    return tuple(out)


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


def _text_cols(row: list[Any], cols: range, text_of: Callable[[Any], str]) -> tuple[int, ...]:
    """The columns of ``cols`` whose cell (in ``row``) has text."""
    return tuple(j for j in cols if text_of(row[j]))


def _one_text(row: list[Any], text_of: Callable[[Any], str]) -> str | None:
    """The text of a row whose separate cells all hold one and the same text, or None.

    Such a row reads as one cell spanning the row, written cell by cell (Wikipedia
    tables as FeTaQA gives them: ``Toledo Rockets (Mid-American Conference)`` in each
    of six cells): the text is written once, not as ``text: header = text`` for every
    column. Only for three or more cells and a text with a letter: a row of ``0`` or
    ``-`` in every cell stays a row of values, and so does a two-column row whose value
    equals its label (``Luxembourg (Country): Capital = Luxembourg``).
    """
    if len({id(cell) for cell in row}) < 3:
        return None
    first = text_of(row[0])
    if not first or not any(ch.isalpha() for ch in first):
        return None
    return first if all(text_of(cell) == first for cell in row) else None


def _row_cells(
    r: int, row: list[Any], headers: list[str], label_cols: int, corner: str, text_of: Callable[[Any], str],
    used: set[int],
) -> TableRow:  # fmt: skip
    """The triplets of one body row ``r`` (see :func:`table_rows`), with the columns each holds.

    Adds to ``used`` the columns whose header a triplet carries (-1 for the corner).
    """
    if (spanning := _one_text(row, text_of)) is not None:  # one text in every cell: written once
        return TableRow(r, (("", _readable(spanning)),), cols=(tuple(range(len(row))),))
    label = _joined(row[:label_cols], text_of)
    label_at = _text_cols(row, range(label_cols), text_of)
    if label_cols and row[0].end_col_offset_idx >= len(row):  # one cell spans the row: a section row
        return TableRow(r, (("", _readable(label)),), cols=(label_at,)) if label else TableRow(r, ())
    cells: list[tuple[str, str]] = []
    cols: list[tuple[int, ...]] = []
    if label:
        cells.append((f"{corner} = ", label) if corner else ("", _readable(label)))
        cols.append(label_at)
        used.add(-1)
    values = 0
    for value, span in _value_cells(row, label_cols, {id(cell) for cell in row[:label_cols]}, text_of, used):
        header = " ".join(dict.fromkeys(h for k in span if (h := headers[k])))
        cells.append(_triplet(label, header, value))
        cols.append(tuple(span))
        values += 1
    if label and not corner and values:
        cells.pop(0)  # the label leads every triplet already
        cols.pop(0)
    lead_cols = label_at if label and values else ()  # every value triplet names the label
    return TableRow(r, tuple(cells), cols=tuple(cols), lead_cols=lead_cols)


def _value_cells(
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


def _unused_headers(
    label: str, headers: list[str], label_cols: int, corner: str, used: set[int]
) -> list[tuple[str, str]]:
    """``label, header =`` triplets for header texts that no body cell carries (empty columns)."""
    texts = [corner] if corner and -1 not in used else []
    texts += [h for k, h in enumerate(headers) if k >= label_cols and h and k not in used]
    return [(f"{label}, {h} =" if label else f"{h} =", "") for h in dict.fromkeys(texts)]


def table_rows(
    item: TableItem,
    doc: DoclingDocument | None = None,
    serializer: BaseDocSerializer | None = None,
    visited: set[str] | None = None,
    table_format: TableFormat = "records",
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
    after the top-left header cell's text in parentheses (``EDD+BBox (Model):``).
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

    A table that is all header (no body rows) gives, in every form, one row per
    grid row with the texts of the cells that start on it, joined by ``". "``.

    Invariants: every cell text (whitespace runs collapsed to one space; a section
    label without its trailing ``:``) appears in some row's text or the head,
    header cells included; no row text contains a line break; in records no entry
    is empty and no ``=`` lacks a header or a value; no bare value is made only of
    ``|``, ``-``, ``:`` and spaces (such a value is quoted), except in Markdown.

    Args:
        item: A docling-core ``TableItem``.
        doc: The ``DoclingDocument`` holding ``item``; needed for the text of rich cells.
        serializer: The document serializer that turns a rich cell's content into
            text (the chunker's; docling-core builds a Markdown one when None).
        visited: Refs the serializer has already walked; a rich cell's content is
            added to it (a fresh set when None, leaving the caller's walk untouched).
        table_format: ``"records"`` (default), ``"triplets"`` or ``"markdown"``.

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
    data = item.data
    grid = _grid(data)
    texts: dict[int, str] = {}

    def text_of(cell: Any) -> str:
        key = id(cell)
        if key not in texts:
            raw = cell.text
            if doc is not None and type(cell).__name__ == "RichTableCell":
                seen = set() if visited is None else visited
                raw = cell._get_text(doc=doc, doc_serializer=serializer, visited=seen)
                if table_format != "markdown":
                    raw = _without_urls(raw, cell.ref.resolve(doc), doc, serializer)
            texts[key] = _clean(raw)
        return texts[key]

    n_rows = len(grid)
    start = min(_header_rows(data, grid), n_rows) if grid else 0
    if grid and start == n_rows:  # all header: each row's own cells, as text
        return TableRows(rows=_plain_rows(grid, text_of), start=0, end=n_rows)
    if table_format == "markdown":
        return _markdown_rows(grid, start, text_of)
    n_cols = len(grid[0]) if grid else 0
    label_cols = _label_columns(grid, start, n_cols)
    if table_format == "records":
        return _record_rows(grid, start, label_cols, text_of)
    headers = [_joined([grid[r][j] for r in range(start)], text_of) for j in range(n_cols)]
    corner = _joined([grid[r][j] for r in range(start) for j in range(label_cols)], text_of)
    used: set[int] = set()
    rows = [_row_cells(r, grid[r], headers, label_cols, corner, text_of, used) for r in range(start, n_rows)]
    if rows:
        first = rows[0]
        spanning = _one_text(grid[first.index], text_of) is not None  # its text labels no header
        label = "" if spanning else _joined(grid[first.index][:label_cols], text_of)
        extra = _unused_headers(label, headers, label_cols, corner, used)
        rows[0] = replace(first, cells=first.cells + tuple(extra), cols=first.cols + ((),) * len(extra))
    return TableRows(rows=rows, start=start, end=n_rows)


def _without_urls(text: str, root: Any, doc: Any, serializer: Any) -> str:
    """A rich cell's ``text`` with each link of its content written as its text alone (records and triplets).

    A link item under ``root`` (the cell's content) is written by ``serializer`` as
    ``[text](url)``; the URL, often longer than the row it sits in, stays on the item
    (``hyperlink``) and out of the plain-text forms, as in the default mode's inline
    runs. Each link's written form is replaced once, in document order, by the same
    text written without its hyperlink.
    """
    post_process = getattr(serializer, "post_process", None)
    if post_process is None:
        return text
    pos = 0
    for item, _ in doc.iterate_items(root=root, with_groups=False, traverse_pictures=True):
        link = getattr(item, "hyperlink", None)
        if link is None or not getattr(item, "text", ""):
            continue
        formatting = getattr(item, "formatting", None)
        written = post_process(text=item.text, formatting=formatting, hyperlink=link)
        at = text.find(written, pos)  # the serializer's own output, rewritten; no offsets are recovered
        if at < 0:
            continue
        plain = post_process(text=item.text, formatting=formatting)
        text = text[:at] + plain + text[at + len(written) :]
        pos = at + len(plain)
    return text


def check_table_format(table_format: object) -> str:
    """``table_format`` when it is one of :data:`TABLE_FORMATS`; else raise :class:`ConfigError`."""
    if not isinstance(table_format, str) or table_format not in TABLE_FORMATS:
        raise ConfigError(
            f"table_format must be one of {', '.join(map(repr, TABLE_FORMATS))}, got {table_format!r}; "
            "'records' writes a row as 'label: header = value; ...', 'triplets' as 'label, header = value. ...', "
            "'markdown' as a Markdown table line"
        )
    return table_format


def _header_levels(grid: list[list[Any]], start: int, text_of: Callable[[Any], str], cols: range) -> str:
    """The header of the columns ``cols``: distinct header-cell texts above them, top-down, joined by " / "."""
    return LEVEL_SEP.join(dict.fromkeys(t for r in range(start) for j in cols if (t := text_of(grid[r][j]))))


def _record_rows(grid: list[list[Any]], start: int, label_cols: int, text_of: Callable[[Any], str]) -> TableRows:
    """The rows of a table with body rows, as records (see :func:`table_rows`)."""
    n_rows = len(grid)
    n_cols = len(grid[0]) if grid else 0
    grid, wide = _without_wide_headers(grid, start, label_cols, text_of)
    corner = _header_levels(grid, start, text_of, range(label_cols))
    # a note of units over the labels (``(in millions)``) follows each label as it is: ``Goodwill (in millions)``
    corner_note = _NOTE.match(corner) is not None
    headers = [_header_levels(grid, start, text_of, range(j, j + 1)) for j in range(n_cols)]
    levels = [_top_and_rest(grid, start, text_of, j) for j in range(n_cols)]
    used: set[int] = set()
    sections: list[str] = []
    after_section = False
    rows: list[TableRow] = []
    pending: list[int] = []  # positions in rows of section rows not yet followed by a data row
    carried = False  # whether a row's label carries the corner
    for r in range(start, n_rows):
        row = grid[r]
        if (spanning := _one_text(row, text_of)) is not None:  # one text in every cell: a row of its own, once
            rows.append(TableRow(r, (("", _readable(spanning)),), sep=RECORD_SEP, cols=(tuple(range(len(row))),)))
            after_section = False  # a section row after it starts a new path, as after a data row
            pending = []  # a section row before it keeps its own text: no data row follows it directly
            continue
        seen: set[int] = set()
        labels: list[str] = []
        for cell in row[:label_cols]:
            if id(cell) not in seen:
                seen.add(id(cell))
                if (t := text_of(cell)) and t not in labels:
                    labels.append(t)
        entries: list[tuple[str, str]] = []
        spans: list[tuple[int, ...]] = []
        tops: list[tuple[str, str] | None] = []  # (top level, the levels below) of an entry's header, when it has both
        for value, span in _value_cells(row, label_cols, seen, text_of, used):
            header = LEVEL_SEP.join(dict.fromkeys(h for k in span if (h := headers[k])))
            entries.append((f"{header} = ", value) if header else ("", _readable(value)))
            spans.append(tuple(span))
            tops.append(levels[span[0]] if len(span) == 1 else None)
        entries, spans = _shared_top_once(*_same_header_once(entries, spans, tops))
        label_at = _text_cols(row, range(label_cols), text_of)
        if labels and not entries and label_cols and _is_section(row, labels, label_cols):  # labels the rows below
            label = LEVEL_SEP.join(labels)
            section = label[:-1].rstrip() if label.endswith(":") and len(label) > 1 else label
            sections = [*sections, section] if after_section else [section]
            after_section = True
            pending.append(len(rows))
            # its text until a data row follows
            rows.append(TableRow(r, (("", _readable(label)),), sep=RECORD_SEP, cols=(label_at,)))
            continue
        if not entries and not labels:
            rows.append(TableRow(r, (), sep=RECORD_SEP))
            continue
        after_section = False
        for k in pending:  # the section's text now leads this row (and those below)
            rows[k] = TableRow(rows[k].index, (), sep=RECORD_SEP)
        pending = []
        label = LEVEL_SEP.join([*sections, *labels])
        if corner and labels:
            label = f"{label} {corner.strip()}" if corner_note else f"{label} ({corner})"
            carried = True
        if not entries:
            rows.append(TableRow(r, (("", _readable(label)),), sep=RECORD_SEP, cols=(label_at,)))
        else:
            lead = (f"{label} " if label.endswith(":") else f"{label}: ") if label else ""  # no "::"
            rows.append(TableRow(r, tuple(entries), lead, RECORD_SEP, cols=tuple(spans), lead_cols=label_at))
    unused = [*wide, *(h for k, h in enumerate(headers) if k >= label_cols and h and k not in used)]
    if corner and not carried:  # no labelled data row carries the corner (a section's lead does not)
        unused.insert(0, corner)
    if unused:
        first = next((i for i, row in enumerate(rows) if row.cells), None)
        extra = tuple(("", _readable(h)) for h in dict.fromkeys(unused))
        if first is None:  # no row has text (there is at least one body row)
            rows[0] = TableRow(rows[0].index, extra, sep=RECORD_SEP, cols=((),) * len(extra))
        else:
            kept = rows[first]
            rows[first] = replace(kept, cells=kept.cells + extra, cols=kept.cols + ((),) * len(extra))
    return TableRows(rows=rows, start=start, end=n_rows)


def _without_wide_headers(
    grid: list[list[Any]], start: int, label_cols: int, text_of: Callable[[Any], str]
) -> tuple[list[list[Any]], list[str]]:
    """``grid`` with its one-cell header rows emptied, and their texts: headers over the whole table.

    A header row whose only text is one cell over an inner column of those a header row
    names (strictly between the first and the last column with text of a row naming two
    or more value columns: ``Fiscal`` above and ``(in millions)`` below ``2019 | 2018 |
    2017``, over the middle one, where a converter wrote what was merged over the three)
    heads the whole table, not that column: read as that column's header it made it
    ``Fiscal / 2018 / (in millions)`` in every row. So does one over the first column a
    naming row below it names, when its text qualifies them all (see :func:`_qualifies_all`:
    ``December 31,`` over ``2019 | 2018``, which read as ``December 31, / 2019`` said only
    2019 was at December 31). Other one-cell headers over the first or the last named
    column, or beyond them (``Restated`` over ``2018`` alone, ``Change`` over a column of its
    own, ``(in USD)`` under ``Price``), stay that column's header.
    """
    n_cols = len(grid[0]) if grid else 0
    values = range(label_cols, n_cols)
    if len(values) < 2:
        return grid, []

    def texted(row: list[Any], cols: range) -> list[Any]:
        return list({id(row[j]): row[j] for j in cols if text_of(row[j])}.values())

    value_cells = [texted(grid[r], values) for r in range(start)]  # each header row's cells with text
    inner: set[int] = set()  # the columns strictly inside the named columns of a naming row
    first_below: dict[int, int] = {}  # the first named column of a naming row -> the lowest such row
    named_from: dict[int, int] = {}  # a column a naming row names -> the highest such row
    for r, cells in enumerate(value_cells):
        if len(cells) >= 2:
            named = [j for j in values if text_of(grid[r][j])]
            inner.update(range(named[0] + 1, named[-1]))
            first_below[named[0]] = r
            for j in named:
                named_from.setdefault(j, r)
    wide: dict[int, str] = {}
    for r, cells in enumerate(value_cells):
        if len(cells) != 1 or texted(grid[r], range(label_cols)):
            continue
        cell = cells[0]
        col = cell.start_col_offset_idx
        one_cell = cell.end_col_offset_idx - cell.start_col_offset_idx == 1
        if not one_cell or cell.end_row_offset_idx - cell.start_row_offset_idx != 1:
            continue
        text = text_of(cell)
        over_names = first_below.get(col, -1) > r and named_from.get(col, r) >= r  # no naming row above names it
        if col in inner or (over_names and _qualifies_all(text)):
            wide[r] = text
    if not wide:
        return grid, []
    out = [[_EmptyCell(r, j) for j in range(n_cols)] if r in wide else row for r, row in enumerate(grid)]
    return out, list(dict.fromkeys(wide.values()))


_NOTE = re.compile(  # a parenthesised note of units: ``(in thousands)``, ``(Dollars in millions)``, ``(%)``
    r"^\s*\((?=[^()]*(?:\b(?:in|thousands|millions|billions|dollars|usd|eur|gbp)\b|[$%€£]))[^()]*\)\s*$",
    re.IGNORECASE,
)
_QUALIFIER = re.compile(r",\s*$|\b(?:ended|as of|as at)\b", re.IGNORECASE)


def _qualifies_all(text: str) -> bool:
    """Whether a header's text reads as qualifying every column below it, not naming one.

    It ends with a comma (``December 31,`` over ``2019 | 2018``: the phrase goes on in
    the headers below it), is a parenthesised note of units (``(in thousands)``, not
    ``(unaudited)`` or a footnote mark ``(1)``, which may be one column's), or names a
    period (``Year ended 31 December``, ``As at 31 March``).
    """
    return _QUALIFIER.search(text.strip()) is not None or _NOTE.match(text) is not None


def _top_and_rest(grid: list[list[Any]], start: int, text_of: Callable[[Any], str], j: int) -> tuple[str, str] | None:
    """``(top, rest)`` of column ``j``'s header levels (see :func:`_header_levels`): the first level, the others joined.

    None when the header has fewer than two levels.
    """
    texts = list(dict.fromkeys(t for r in range(start) if (t := text_of(grid[r][j]))))
    return (texts[0], LEVEL_SEP.join(texts[1:])) if len(texts) > 1 else None


def _same_header_once(
    entries: list[tuple[str, str]], cols: list[tuple[int, ...]], tops: list[tuple[str, str] | None]
) -> tuple[list[tuple[str, str]], list[tuple[int, ...]], list[tuple[str, str] | None]]:
    """Consecutive entries under the same header as one: ``% of Total = 0.60, 0.31, 0.58``.

    Columns whose headers read the same (a header merged over sub-columns that
    have no header of their own) would repeat it for every value; the values are
    joined by ``", "`` after it once instead. ``cols`` (the columns of each entry)
    and ``tops`` (one per entry, see :func:`_shared_top_once`) are merged alike.
    """
    out: list[tuple[str, str]] = []
    out_cols: list[tuple[int, ...]] = []
    out_tops: list[tuple[str, str] | None] = []
    for (prefix, value), at, top in zip(entries, cols, tops, strict=True):
        if out and prefix and out[-1][0] == prefix:
            out[-1] = (prefix, f"{out[-1][1]}, {value}")
            out_cols[-1] = out_cols[-1] + at
        else:
            out.append((prefix, value))
            out_cols.append(at)
            out_tops.append(top)
    return out, out_cols, out_tops


def _shared_top_once(
    entries: list[tuple[str, str]], cols: list[tuple[int, ...]], tops: list[tuple[str, str] | None]
) -> tuple[list[tuple[str, str]], list[tuple[int, ...]]]:
    """Consecutive entries whose multi-level headers share the top level as one entry, the top level written once.

    ``Years ended December 31 / 2019 = 5; Years ended December 31 / 2018 = 6``
    becomes ``Years ended December 31: 2019 = 5, 2018 = 6``: the header of every
    value is still read whole (the top level, then the level under it), at a
    fraction of the tokens when the top level is long (``triple inter-annotator mAP
    @ 0.5-0.95 (%): All = 83-85, Fin = n/a, ...``). ``tops[i]`` is ``(top, rest)`` of
    entry ``i``'s header, or None when it has one level (such an entry stays as it is).
    ``cols`` (the grid columns of each entry) are joined alike.
    """
    out: list[tuple[str, str]] = []
    out_cols: list[tuple[int, ...]] = []
    i = 0
    while i < len(entries):
        top = tops[i]
        j = i
        while top is not None and j + 1 < len(entries) and (other := tops[j + 1]) is not None and other[0] == top[0]:
            j += 1
        if top is None or j == i:
            out.append(entries[i])
            out_cols.append(cols[i])
        else:
            rests = [t[1] for t in tops[i : j + 1] if t is not None]  # every one is set (the loop above)
            values = [value for _, value in entries[i : j + 1]]
            out.append((f"{top[0]}: ", ", ".join(f"{r} = {v}" for r, v in zip(rests, values, strict=True))))
            out_cols.append(tuple(k for at in cols[i : j + 1] for k in at))
        i = j + 1
    return out, out_cols


def _is_section(row: list[Any], labels: list[str], label_cols: int) -> bool:
    """Whether a row with text only in its label columns is a section row.

    It is when its label ends with ``:`` (``Americas:``), when one cell spans the
    whole row, or when docling-core flags a cell of it ``row_section``; a label
    alone without these marks (``Ann`` with empty values) is a row of its own.
    """
    return (
        labels[-1].endswith(":")
        or row[0].end_col_offset_idx >= len(row)
        or any(getattr(cell, "row_section", False) for cell in row)
    )


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|")


def _markdown_rows(grid: list[list[Any]], start: int, text_of: Callable[[Any], str]) -> TableRows:
    """The rows of a table with body rows, as Markdown table lines under its header lines."""
    n_rows = len(grid)
    if not grid:
        return TableRows(rows=[], start=0, end=0)
    n_cols = len(grid[0])

    def line_cells(row: list[Any]) -> tuple[tuple[str, str], ...]:
        return tuple(("", _md_cell(text_of(cell))) for cell in row)

    head_rows = max(start, 1)
    lines = []
    for r in range(head_rows):
        lines.append("| " + _MD_SEP.join(v for _, v in line_cells(grid[r])) + " |")
    lines.append("| " + _MD_SEP.join(["---"] * n_cols) + " |")
    rows = []
    for r in range(head_rows, n_rows):
        cells = line_cells(grid[r])
        if not any(v for _, v in cells):
            cells = ()
        at = tuple((j,) if v else () for j, (_, v) in enumerate(cells))
        rows.append(TableRow(r, cells, lead="| ", sep=_MD_SEP, tail=" |", cols=at))
    return TableRows(rows=rows, start=head_rows, end=n_rows, head=ROW_SEP.join(lines))


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
        at: dict[str, list[int]] = {}
        mine = {id(cell) for cell in own}
        for j, cell in enumerate(row):
            if id(cell) in mine and (text := text_of(cell)):
                at.setdefault(text, []).append(j)
        rows.append(TableRow(r, tuple(("", _readable(t)) for t in at), cols=tuple(tuple(js) for js in at.values())))
    return rows
