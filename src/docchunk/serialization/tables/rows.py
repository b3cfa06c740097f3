"""The rows of a table as text: the values the writers give and the table pieces hold.

:class:`TableRow` is one body row written in one form (records, triplets or Markdown),
:class:`TableRows` all of a table's rows, :class:`TablePiece` a token-bounded piece of them
(packed by :func:`docchunk.chunkers.doc.tables.pack.table_pieces`). The writers
(:mod:`.records`, :mod:`.triplets`, :mod:`.markdown`) build them from a
:class:`~docchunk.serialization.tables.model.TableModel`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, get_args

from docchunk.errors import ConfigError

__all__ = [
    "CELL_SEP",
    "DEBRIS_CHARS",
    "LEVEL_SEP",
    "RECORD_SEP",
    "ROW_SEP",
    "TABLE_FORMATS",
    "TableFormat",
    "TablePiece",
    "TableRow",
    "TableRows",
    "check_table_format",
    "clean",
    "col_ranges",
    "notes_line",
    "readable",
]

TableFormat = Literal["records", "triplets", "markdown"]
"""How the default mode writes a table's rows (see :func:`docchunk.serialization.tables.table_rows`)."""
TABLE_FORMATS: tuple[str, ...] = get_args(TableFormat)

CELL_SEP = ". "
"""Separator of the triplets of one row (docling-core's triplet separator)."""
RECORD_SEP = "; "
"""Separator of the entries (``header = value``) of one record."""
LEVEL_SEP = " / "
"""Joins the levels of a record's labels: section rows, label columns, header rows."""
ROW_SEP = "\n"
"""Separator of the rows of a piece."""
DEBRIS_CHARS = frozenset("|-: \t")


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
        """The row's entry: ``lead``, its entries joined by ``sep``, ``tail``; "" for an empty row.

        One line, except a layout table's row (a paragraph a line) and a record or
        triplet whose cell holds a nested list (an item a line).
        """
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
        notes: The table-wide notes (records: ``December 31,``, ``Fiscal; (in
            millions)``), already written at the end of the first row with text; every
            later piece of a split table opens with them on a line of their own, so
            that its values keep their period and units. ``""`` when there are none.
    """

    rows: list[TableRow]
    start: int
    end: int
    head: str = ""
    notes: str = ""

    @property
    def text(self) -> str:
        """The whole table: the head, then the non-empty row entries, joined by newlines."""
        lines = [row.text for row in self.rows if row.cells]
        return ROW_SEP.join([self.head, *lines] if self.head else lines)

    @property
    def head_alone(self) -> str:
        """The head as a piece of its own, without rows under it: its lines that hold text.

        The Markdown delimiter line (``| --- | --- |``) only joins the header lines to
        the rows below them; a head too large to stand beside a row is a piece of its
        own, where that line, cut to the budget, made pieces of nothing but dashes (a
        tester's 16-column DOCX table at MiniLM 64, issue 46 finding 15). A header line
        of empty cells (``|  |  |``) goes too. ``""`` when no line holds text.
        """
        return ROW_SEP.join(line for line in self.head.split(ROW_SEP) if not set(line) <= DEBRIS_CHARS)


@dataclass(frozen=True)
class TablePiece:
    r"""A token-bounded piece of a table.

    Attributes:
        text: Whole row entries joined by ``"\n"``, or part of one row's triplets.
        rows: Half-open range ``(start, end)`` of grid row indices (body rows) this
            piece holds; the pieces of one split row share its range. Empty rows
            belong to the piece of the next row with text (or of the last one). A
            piece of a Markdown head alone holds no body row: ``(start, start)``.
        tokens: ``count_tokens(text)`` by the tokenizer :func:`table_pieces` was given.
        oversized: True when the text exceeds the budget because it holds one
            character that alone does.
        cols: For a piece of a row split between pieces, the grid columns of that
            row whose cell text it holds, as half-open ranges ``(row, start, end)``
            (see :func:`col_ranges`): the columns of its entries and the row's
            :attr:`TableRow.lead_cols`, which every piece of the row repeats. An
            entry split by text lists its columns in each of its fragments. None
            for a piece of whole rows.
        dropped: What of the table's context the piece lacks because it did not fit
            beside a row: ``"headers"`` (the Markdown head, then a piece of its own),
            ``"notes"`` (the table-wide notes of a later piece). Empty when it carries all.
    """

    text: str
    rows: tuple[int, int]
    tokens: int
    oversized: bool = False
    cols: tuple[tuple[int, int, int], ...] | None = None
    dropped: tuple[str, ...] = ()


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


def clean(text: str) -> str:
    """Cell text on one line: runs of whitespace (line breaks too) become one space."""
    return " ".join(text.split())


def readable(text: str) -> str:
    """``text``, quoted when it is made only of ``|``, ``-``, ``:`` and spaces.

    Such a line reads as a Markdown table remnant; a cell that holds only ``-`` (a
    common "no value" mark) is kept, in quotes, when it has no label or header.
    """
    return f'"{text}"' if text and set(text) <= DEBRIS_CHARS else text


def check_table_format(table_format: object) -> str:
    """``table_format`` when it is one of :data:`TABLE_FORMATS`; else raise :class:`ConfigError`."""
    if not isinstance(table_format, str) or table_format not in TABLE_FORMATS:
        raise ConfigError(
            f"table_format must be one of {', '.join(map(repr, TABLE_FORMATS))}, got {table_format!r}; "
            "'records' writes a row as 'label: header = value; ...', 'triplets' as 'label, header = value. ...', "
            "'markdown' as a Markdown table line"
        )
    return table_format


def notes_line(notes: list[str]) -> str:
    """The table-wide notes (``December 31,``, ``Fiscal``, ``(in millions)``) as the line that opens later pieces.

    A split table's later pieces need them as much as its first (a 10-Q's values
    without their period read as undated, issue 46), so the packing opens each of them
    with this line while it leaves room (see
    :func:`docchunk.chunkers.doc.tables.pack.table_pieces`). ``""`` without notes.
    """
    return RECORD_SEP.join(readable(note) for note in dict.fromkeys(notes))
