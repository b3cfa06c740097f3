"""The table model's rules: each inference about a table's shape is one named function.

Each rule reads docling-core's grid (rows of cells, a merged cell the same object at
every position it spans, see :mod:`.grid`) and the cell texts (``text_of``: a cell's
text on one line). :mod:`.model` runs them once per table; the writers read the model,
never the rules' inputs. Each rule's docstring names the table shape it was written
for and where such tables were seen (``tests/serialization/tables/test_rules.py``
rebuilds each shape).

The rules of a table's kind (data, layout, title) are in :mod:`.kinds`, those of header
blocks that restart mid-table in :mod:`.blocks`; this module re-exports the kinds' names.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from docchunk.serialization.tables.grid import EmptyCell
from docchunk.serialization.tables.kinds import (
    PROSE_WORDS,
    SENTENCE_WORDS,
    TITLE_ROWS,
    TITLE_WORDS,
    TableKind,
    is_key_value_table,
    is_layout_table,
    is_parallel_text_table,
    is_title_block,
    is_title_table,
    table_kind,
    title_shaped,
)

__all__ = [
    "PROSE_WORDS",
    "SENTENCE_WORDS",
    "TITLE_ROWS",
    "TITLE_WORDS",
    "UNITS_NOTE",
    "TableKind",
    "header_row_count",
    "is_key_value_table",
    "is_layout_table",
    "is_parallel_text_table",
    "is_section_row",
    "is_title_block",
    "is_title_table",
    "is_value",
    "is_year",
    "label_column_count",
    "names_a_column",
    "qualifies_all",
    "spanning_text",
    "sub_header_row",
    "table_kind",
    "table_wide_headers",
    "title_row",
    "title_shaped",
    "value_texts",
]


def header_row_count(data: Any, grid: list[list[Any]]) -> int:
    """Rule: the column-header rows are the leading rows docling-core's table export counts.

    Flagged headers (``column_header``) as the converter set them (DOCX, HTML ``<th>``,
    the PDF table model); seen in every corpus file with a table.
    """
    count = getattr(data, "_count_column_header_rows", None)
    if count is not None:
        return int(count(grid=grid))
    rows = 0  # fallback for a docling-core without the helper: rows where a header cell starts
    for r, row in enumerate(grid):
        if not any(c.column_header for c in row if c.start_row_offset_idx == r):
            break
        rows += 1
    return rows


_NUMBER = re.compile(r"^[\s(\[$\u20ac\u00a3\u00a5+\-\u2212\u2013]*\d[\d,.\s]*(?:%|pp|bps|x)?[\s)\]]*[*\u2020]*$")
_YEAR = re.compile(r"^(?:FY\s?|Q[1-4]\s)?(?:19|20)\d\d\b")


def is_year(text: str) -> bool:
    """Whether a cell's text opens with a year that names a column: ``2019``, ``FY2019``, ``Q1 2019``."""
    return _YEAR.match(text) is not None


def is_value(text: str) -> bool:
    """Whether a cell's text reads as a number of a table's body: ``$614,493``, ``(5,149)``, ``12.5%``, ``—1``.

    A bare year (``2019``, ``FY2019``) is not one: years name the columns of report tables.
    """
    return _NUMBER.match(text) is not None and _YEAR.match(text.strip(" ($")) is None


def value_texts(row: list[Any], label_cols: int, text_of: Callable[[Any], str]) -> list[str]:
    """The distinct texts of a row's value columns (a merged cell once), in column order."""
    return list(dict.fromkeys(t for cell in {id(c): c for c in row[label_cols:]}.values() if (t := text_of(cell))))


def sub_header_row(grid: list[list[Any]], start: int, text_of: Callable[[Any], str]) -> bool:
    """Rule: an unflagged row that names the sub-columns of a merged header cell above it is a header row.

    A financial statement's second header row: ``30 Sep 2025 | 30 Sep 2024`` under a
    ``Three months ended`` merged over both (a tester's DOCX income statement), ``H1 |
    H2`` under ``FY2024`` (a tester's XLSX P&L, ``Line item`` at its left); docling's DOCX
    and XLSX converters flag only the first row (issue 46 finding 2; the HTML version,
    both rows ``<th>``, read right: ``FY2023: Q1 = 810``). Read as data, the dates were a
    record of their own and every value lost its period. The row just below the
    flagged header rows (``start`` of them, one or more) is a header row when

    - a cell of the last header row spans two or more columns and ends there, and the
      row holds two or more distinct texts under it (it divides the merged header);
    - every cell of it with text beside the first column, under a merged header or
      not, names a column (no value, at most six words, no sentence end) and is one
      row high; and
    - a row with a value (:func:`is_value`) follows it.

    Returns:
        Whether ``grid[start]`` is such a row.
    """
    if start < 1 or start + 1 >= len(grid) or len(grid[0]) < 3:
        return False
    row = grid[start]
    cells = list({id(cell): cell for cell in row[1:]}.values())
    texted = [cell for cell in cells if text_of(cell)]
    if not texted or any(cell.end_row_offset_idx > start + 1 or cell.row_header for cell in texted):
        return False
    if not all(names_a_column(text_of(cell)) for cell in texted):
        return False
    above = grid[start - 1][1:]
    merged = {id(cell): cell for cell in above if cell.end_col_offset_idx - cell.start_col_offset_idx >= 2}
    divides = any(
        cell.end_row_offset_idx == start
        and len({text_of(row[j]) for j in range(cell.start_col_offset_idx, cell.end_col_offset_idx)} - {""}) >= 2
        for cell in merged.values()
    )
    return divides and any(is_value(text_of(cell)) for below in grid[start + 1 :] for cell in below[1:])


def title_row(grid: list[list[Any]], start: int, text_of: Callable[[Any], str]) -> str | None:
    """Rule: a first row that is one cell over every column, above a row naming the columns, is the table's title.

    A form's or schedule's title merged across the table's top (``Schedule A: Fees
    payable`` over ``Service | Fee | Due``; a tester's HTML with ``<td colspan=3>``
    above a ``<th>`` row, and a DOCX and a PPTX with a merged first row, which docling
    flags as the only header row; issue 46 finding 2). Read as a header it headed
    every column (``Schedule A: ... = 200 EUR``) and as a section row it prefixed
    every label; the row below it, not flagged or flagged alone, was data. The title
    is the text of such a row (two words or more: ``Action`` merged over two columns
    heads them, ``html_rich_table_cells``) when the table has two or more columns, the
    row is one row high, and the row below it is flagged ``column_header`` or, under a
    flagged title, names two or more columns (short texts, no value, no sentence
    end), with a body row after it. The caller reads row 1 as the header and the title as a
    table-wide note.

    Returns:
        The title's text, or None.
    """
    if len(grid) < 3 or len(grid[0]) < 2:
        return None
    top = grid[0][0]
    if any(cell is not top for cell in grid[0]) or top.end_row_offset_idx != 1 or not (title := text_of(top)):
        return None
    below = list({id(cell): cell for cell in grid[1]}.values())
    texts = [t for cell in below if (t := text_of(cell))]
    if not texts or any(cell.end_row_offset_idx > 2 for cell in below):
        return None
    if len(title.split()) < 2:  # one word over the columns (``Action`` over two) is a header, not a title
        return None
    flagged = all(cell.column_header for cell in below if text_of(cell))
    names = start >= 1 and len(texts) >= 2 and all(names_a_column(t) for t in texts)
    return title if flagged or names else None


def names_a_column(text: str) -> bool:
    """Whether a cell's text reads as a column's name: no value, at most six words, no sentence end."""
    return not is_value(text) and len(text.split()) <= 6 and not text.rstrip().endswith(".")


def label_column_count(grid: list[list[Any]], start: int, n_cols: int) -> int:
    """Rule: the row-label columns are the flagged row headers, else column 0 (docling-core's triplets).

    A one-column table has none (its cells are values). Seen in doc-qa's fin tables
    (``Revenue | 2019 | 2018``: column 0) and HTML tables with ``<th scope=row>``.
    """
    if n_cols < 2:
        return 0
    width = 1
    for row in grid[start:]:
        k = 0
        while k < n_cols and row[k].row_header:
            k = max(k + 1, row[k].end_col_offset_idx)
        width = max(width, k)
    return min(width, n_cols - 1)


def spanning_text(row: list[Any], text_of: Callable[[Any], str]) -> str | None:
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


def is_section_row(row: list[Any], labels: list[str], label_cols: int) -> bool:
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


def table_wide_headers(
    grid: list[list[Any]], start: int, label_cols: int, text_of: Callable[[Any], str]
) -> tuple[list[list[Any]], list[str]]:
    """``grid`` with its one-cell header rows emptied, and their texts: headers over the whole table.

    A header row whose only text is one cell over an inner column of those a header row
    names (strictly between the first and the last column with text of a row naming two
    or more value columns: ``Fiscal`` above and ``(in millions)`` below ``2019 | 2018 |
    2017``, over the middle one, where a converter wrote what was merged over the three)
    heads the whole table, not that column: read as that column's header it made it
    ``Fiscal / 2018 / (in millions)`` in every row. So does one over the first column a
    naming row below it names, when its text qualifies them all (see :func:`qualifies_all`:
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
        if col in inner or (over_names and qualifies_all(text)):
            wide[r] = text
    if not wide:
        return grid, []
    out = [[EmptyCell(r, j) for j in range(n_cols)] if r in wide else row for r, row in enumerate(grid)]
    return out, list(dict.fromkeys(wide.values()))


UNITS_NOTE = re.compile(  # a parenthesised note of units: ``(in thousands)``, ``(Dollars in millions)``, ``(%)``
    r"^\s*\((?=[^()]*(?:\b(?:in|thousands|millions|billions|dollars|usd|eur|gbp)\b|[$%€£]))[^()]*\)\s*$",
    re.IGNORECASE,
)
_QUALIFIER = re.compile(r",\s*$|\b(?:ended|as of|as at)\b", re.IGNORECASE)


def qualifies_all(text: str) -> bool:
    """Whether a header's text reads as qualifying every column below it, not naming one.

    It ends with a comma (``December 31,`` over ``2019 | 2018``: the phrase goes on in
    the headers below it), is a parenthesised note of units (``(in thousands)``, not
    ``(unaudited)`` or a footnote mark ``(1)``, which may be one column's), or names a
    period (``Year ended 31 December``, ``As at 31 March``).
    """
    return _QUALIFIER.search(text.strip()) is not None or UNITS_NOTE.match(text) is not None
