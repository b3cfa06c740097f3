"""The table model's rules of a table's kind: a data table, a layout table or a title.

A *data* table holds rows of values under column headers, a *layout* table uses its
cells as page layout (prose, navigation, a bullet beside its paragraph), a *title* is a
caption converted as a table (one cell, or a title block of merged rows). Each rule is
one named function, as in :mod:`.rules` (which re-exports them); :mod:`.model` reads the
kind once per table (:func:`table_kind`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Literal

__all__ = [
    "PROSE_WORDS",
    "SENTENCE_WORDS",
    "TITLE_ROWS",
    "TITLE_WORDS",
    "TableKind",
    "distinct_cells",
    "is_key_value_table",
    "is_layout_table",
    "is_parallel_text_table",
    "is_sentence_cell",
    "is_title_block",
    "is_title_table",
    "table_kind",
    "title_shaped",
]

TableKind = Literal["data", "layout", "title"]
"""What a table is: rows of values (``"data"``), page layout (``"layout"``), a one-cell title (``"title"``)."""

PROSE_WORDS = 20
"""A cell of at least this many words holds prose (a paragraph), not a value or a label."""
SENTENCE_WORDS = 8
"""A cell of at least this many words is a sentence or a long phrase, not a value or a label."""
TITLE_WORDS = 20
"""A one-cell table of at most this many words is a title, not a paragraph boxed as a table."""
TITLE_ROWS = 3
"""A title block (:func:`is_title_block`) has at most this many rows: a title, a subtitle, a note of units."""


def distinct_cells(grid: list[list[Any]], text_of: Callable[[Any], str]) -> list[Any]:
    """The distinct cells of ``grid`` with text, in reading order (a merged cell once, where it starts)."""
    seen: dict[int, Any] = {}
    for row in grid:
        for cell in row:
            if id(cell) not in seen and text_of(cell):
                seen[id(cell)] = cell
    return list(seen.values())


def is_title_table(grid: list[list[Any]], text_of: Callable[[Any], str]) -> bool:
    """Rule: a table of one cell (one position, or one cell merged over all) with short text is a title.

    A spreadsheet's title row (``Number of freshwater ducks per year`` above the data,
    docling#2396; ``xlsx__xlsx_05_table_with_title.xlsx.json``) or a PDF table model's
    lone number (``2203.01017v2``: a one-cell table ``1``) converted as its own table. At
    most :data:`TITLE_WORDS` words and a letter in it; longer, it is a boxed paragraph.
    A title block of merged rows is one too (:func:`is_title_block`).
    """
    if len({id(cell) for row in grid for cell in row}) != 1:  # one cell, not one text among empty cells
        return is_title_block(grid, text_of)
    text = text_of(grid[0][0])
    return len(text.split()) <= TITLE_WORDS and any(ch.isalpha() for ch in text)


def title_shaped(grid: list[list[Any]]) -> bool:
    """Whether a grid has a title's shape, its texts unread: one cell, or a title block's rows.

    One distinct cell (:func:`is_title_table`), or two to :data:`TITLE_ROWS` rows of two
    or more columns, each row one cell (:func:`is_title_block`). A cheap first test (a
    rich cell's text is costly to read).
    """
    if len({id(cell) for row in grid for cell in row}) == 1:
        return True
    rows_ok = 2 <= len(grid) <= TITLE_ROWS and len(grid[0]) >= 2
    return rows_ok and all(cell is row[0] for row in grid for cell in row)


def is_title_block(grid: list[list[Any]], text_of: Callable[[Any], str]) -> bool:
    """Rule: two or three rows, each one cell merged over every column, of short text in all, are a title block.

    A spreadsheet's title and units rows above its table, each merged across the sheet
    (``Quarterly KPI report — Northern division`` over ``All figures in thousands of
    GBP``; a tester's XLSX ``xlsx_merged_title_notes``, issue 46 finding 11), which
    docling converts as a table of their own. Read as a header over one body row, it
    was written reversed (``All figures ...; Quarterly KPI report ...``) in a chunk of
    its own. As a title it heads the table after it, its lines in reading order: the
    title, then the note that holds for the whole table. Two columns or more (a
    one-column table's rows are each one cell too), every row's cell one row high and
    with text, :data:`TITLE_WORDS` words at most in all, a letter in the first.
    """
    if len(grid) < 2 or not title_shaped(grid):
        return False
    firsts = [row[0] for row in grid]
    if any(cell.end_row_offset_idx - cell.start_row_offset_idx != 1 for cell in firsts):
        return False
    texts = [text_of(cell) for cell in firsts]
    words = sum(len(text.split()) for text in texts)
    return all(texts) and words <= TITLE_WORDS and any(ch.isalpha() for ch in texts[0])


def is_layout_table(grid: list[list[Any]], start: int, text_of: Callable[[Any], str]) -> bool:
    """Rule: a table without column-header rows whose cells are page layout, not values.

    Prose cells (:data:`PROSE_WORDS` words or more) make it layout when

    - one spans two or more body rows: a navigation or sidebar cell beside the page's
      content (an old web page laid out as one table: a 491-character navigation cell
      beside every row), or
    - they hold at least half the text of a table of at most five rows: a bullet or a
      footnote mark in one cell and its paragraph in the next (the XBRL filing
      ``xbrl__mlac-20251231.xml.json``: ``●`` | risk paragraph; ``(1)`` | footnote), a
      page's two text columns side by side.

    A table with flagged column headers (``Name | Bio`` over a long value; a header cell
    of prose over its column) or flagged row headers (:func:`is_key_value_table`), or a
    data table with a long notes column and many rows (Wikipedia tables of doc-qa),
    stays a data table: each row is still one record.
    """
    if start > 0 or is_key_value_table(grid, text_of):
        return False
    cells = distinct_cells(grid, text_of)
    prose = [cell for cell in cells if len(text_of(cell).split()) >= PROSE_WORDS]
    if not prose:
        return False
    if any(cell.end_row_offset_idx - cell.start_row_offset_idx >= 2 for cell in prose):
        return True
    prose_chars = sum(len(text_of(cell)) for cell in prose)
    return len(grid) <= 5 and 2 * prose_chars >= sum(len(text_of(cell)) for cell in cells)


_SENTENCE_END = re.compile(r"[.!?\u061f\u06d4\u3002\uff01\uff1f\u0964\u0965][\"'\u201d\u2019\u00bb)\]]*$")
"""A text's last sentence end: ``.``, ``!``, ``?`` or a full stop (Arabic, Urdu, CJK, Devanagari), closers after.

The marks of ``markup/sentences.py``'s ``FULL_STOPS`` that end a cell's text;
the serialization room may not import the chunkers' (``docs/architecture.md``).
"""


def is_sentence_cell(text: str) -> bool:
    """Whether a cell's text is a sentence or more: :data:`SENTENCE_WORDS` words or more, ending as a sentence ends.

    A value of many words (``145 hp (108 kW) @ 4000 rpm ...``, a score line, an item
    list) does not end with a full stop; a clause (``Notice period: either party may
    end the lease with two months' written notice.``) does.
    """
    return len(text.split()) >= SENTENCE_WORDS and _SENTENCE_END.search(text.strip()) is not None


def is_parallel_text_table(grid: list[list[Any]], start: int, text_of: Callable[[Any], str]) -> bool:
    """Rule: a table whose every body row is two or more cells, each a sentence or more, is parallel text: layout.

    A bilingual document laid out side by side, one language a column (a tester's
    DOCX tenancy notice, ``English | العربية`` over nine rows of the same clause in
    both languages, issue 46 round-3 finding 1), or an original beside its
    translation: each row is one passage written twice, not a record. Read as data,
    its first column (a 30-word English clause) was the label of every record and was
    repeated before each piece of the Arabic cell it was split into, 45 times at
    MiniLM 64 (2.40 times compat's tokens). As layout, its cells are paragraphs in
    reading order, row by row, each once (:func:`~.write.layout_rows`).

    Two or more columns; every body row with text (the rows from ``start``: the
    header rows, ``English | العربية``, are any) holds two or more distinct cells with
    text, and each is a sentence (:func:`is_sentence_cell`); a key-value table
    (:func:`is_key_value_table`) stays data. A row with a short label beside its
    sentences (``1. Indemnity | <Draft A's clause> | <Draft B's clause>``, a tester's
    ``docx_long_cell``) is a record: the label names its values. Words are counted
    between spaces, so a script written without them (Chinese, Japanese) never fires
    it. A data table with one prose column (a notes or a description column) stays
    data, as does a ``Name | Bio`` profile; so do Wikipedia tables of many-word
    values that are no sentences (engine ratings, score lines, a succession box:
    doc-qa's ``fetaqa-1454``, ``-8173``, ``-626``, which counting words alone took
    for parallel text). On ``../shared/corpus`` and doc-qa it fires on no table
    (``bench/table_rules_fire.py``, 5 December 2026).
    """
    if not grid or len(grid[0]) < 2:
        return False
    body = False
    for row in grid[start:]:  # the first row that is no passage written twice decides (most tables: the first)
        texts = [text for text in {id(cell): text_of(cell) for cell in row}.values() if text]
        if not texts:
            continue
        body = True
        if len(texts) < 2 or not all(is_sentence_cell(text) for text in texts):
            return False
    return body and not is_key_value_table(grid, text_of)


def is_key_value_table(grid: list[list[Any]], text_of: Callable[[Any], str]) -> bool:
    """Rule: a table whose every row with text opens with a flagged row header is keys and values: data.

    An HTML profile table, ``<th scope=row>`` keys beside their values (``Name | Jane
    Roe``, ``Role | Editor``, ``Bio |`` a long paragraph; a tester's ``html_odd_tables``,
    issue 46 finding 20). docling flags the keys ``row_header``: the converter read
    them as the labels of their rows. The layout rule (few rows, mostly prose) took the
    long value for page layout and wrote the key ``Bio`` on a line of its own, apart
    from the paragraph it names; as data, every piece of the value opens with ``Bio:``.
    Needs two columns or more and a row with text.
    """
    if not grid or len(grid[0]) < 2:
        return False
    rows = [row for row in grid if any(text_of(cell) for cell in row)]
    return bool(rows) and all(row[0].row_header and text_of(row[0]) for row in rows)


def table_kind(grid: list[list[Any]], start: int, text_of: Callable[[Any], str]) -> TableKind:
    """The kind of a table: a title, layout or data (one rule each, first that fires).

    :func:`is_title_table` gives ``"title"``; :func:`is_layout_table` or
    :func:`is_parallel_text_table` gives ``"layout"``; else ``"data"``.
    """
    if is_title_table(grid, text_of):
        return "title"
    layout = is_layout_table(grid, start, text_of) or is_parallel_text_table(grid, start, text_of)
    return "layout" if layout else "data"
