"""The table model's rules of header blocks that restart mid-table.

A table may name its columns again below rows of values: a roll-forward's second year,
a fixed-asset note's ``Accumulated depreciation`` block, a quarterly table's second
fiscal year. Each rule is one named function, as in :mod:`.rules` (which holds the
rules of the leading header rows and of the table's kind); :mod:`.model` runs them
once per table and the writers (:mod:`.records`, :mod:`.triplets`) read the blocks
from the model: the rows of a block are written as lines of their own, and the rows
below a block read their headers, the labels' header too, from it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from docchunk.serialization.tables.rows import LEVEL_SEP
from docchunk.serialization.tables.rules import (
    UNITS_NOTE,
    is_value,
    is_year,
    names_a_column,
    table_wide_headers,
    value_texts,
)

__all__ = ["block_headers", "is_flagged_header_row", "restart_block", "restarted_header_rows"]


def restarted_header_rows(
    grid: list[list[Any]], start: int, label_cols: int, text_of: Callable[[Any], str]
) -> list[int]:
    """Rule: a body row that names the columns again, after rows of values, starts a new header block.

    A roll-forward (a fin report's ``Balance at beginning of year ... Balance at end of
    year``, once per year) repeats its header row, unflagged, above its second block:
    ``| 2018 | 2017`` under the first block's ``| 2019 | 2018``. Read as data, the
    second block's values got the first block's years. Such a row comes after a row of
    values, has text in two or more value columns, every one a year or a text of the
    header rows, and a row of values follows it; the rows below it read their columns'
    headers from it. A body row the converter flags as a header row
    (:func:`is_flagged_header_row`) starts a new block whatever its texts, when a body
    row stands before it and one after it.

    Returns:
        The grid indices of such rows, in order.
    """
    if start == 0:
        return []
    known = {t for r in range(start) for cell in grid[r] if (t := text_of(cell))}
    values_at = [any(is_value(t) for t in value_texts(row, label_cols, text_of)) for row in grid]
    out: list[int] = []
    after_values = False
    for r in range(start, len(grid)):
        if r > start and r + 1 < len(grid) and is_flagged_header_row(grid[r], label_cols, text_of):
            out.append(r)
            after_values = False
            continue
        if values_at[r]:
            after_values = True
            continue
        texts = value_texts(grid[r], label_cols, text_of)
        names = len(texts) >= 2 and all(t in known or is_year(t) for t in texts)
        if after_values and names and any(values_at[r + 1 :]):
            out.append(r)
            after_values = False
    return out


def is_flagged_header_row(row: list[Any], label_cols: int, text_of: Callable[[Any], str]) -> bool:
    """Rule: a body row whose every cell with text is flagged ``column_header`` restarts the header.

    docling flags the ``<th>`` cells of an HTML table (and a DOCX table's repeated
    header row) ``column_header`` wherever they stand; docling-core counts as header
    rows only the leading ones, so a flagged row mid-table (a roll-forward's second
    block: ``<th></th><th>Restructuring</th><th>Other</th>`` under ``Warranty |
    Legal``, a tester's HTML, issue 46 finding 1) was read as data. It needs text in
    a value column; a merged cell counts once.
    """
    cells = list({id(cell): cell for cell in row}.values())
    texted = [cell for cell in cells if text_of(cell)]
    in_values = any(cell.end_col_offset_idx > label_cols for cell in texted)
    return in_values and all(cell.column_header for cell in texted)


def _heads_columns(row: list[Any], label_cols: int, text_of: Callable[[Any], str]) -> bool:
    """Whether a row reads as a header row: no label text, some value-column text, each naming a column."""
    texts = value_texts(row, label_cols, text_of)
    labelled = any(text_of(cell) for cell in row[:label_cols])
    return bool(texts) and not labelled and all(names_a_column(t) and not is_value(t) for t in texts)


def restart_block(grid: list[list[Any]], row: int, start: int, label_cols: int, text_of: Callable[[Any], str]) -> range:
    """Rule: a restarted header block is its restart row and the header rows right above and below it.

    A quarterly table (doc-qa fin, TAT-QA ``tatqa-073a0021``) restarts with three rows,
    as its leading header: ``Fiscal 2018`` over ``First | Second | Third | Fourth`` over
    ``Quarter | ... | Total``. Only the middle one reads as a restart row
    (:func:`restarted_header_rows`: one text is no row of names); the others were data
    (``Fourth / Quarter = Fiscal 2018``, ``First = Quarter``) and the values below lost
    ``Quarter`` and ``Total``. Rows next to the restart row without a label, with text
    in a value column and every such text naming a column (no value, at most six
    words), belong to its block, up to a row of values or a labelled row (never into
    the table's leading ``start`` header rows).

    Returns:
        The grid rows of the block, the restart row among them.
    """
    first, end = row, row + 1
    while first - 1 >= start and _heads_columns(grid[first - 1], label_cols, text_of):
        first -= 1
    while end + 1 < len(grid) and _heads_columns(grid[end], label_cols, text_of):
        end += 1
    return range(first, end)


def block_headers(
    rows: list[list[Any]], label_cols: int, text_of: Callable[[Any], str], corner: str
) -> tuple[str, list[list[str]]]:
    """Rule: a restarted header block heads the rows below it, the label column's header too.

    A roll-forward of fixed assets repeats its header row above each block, the block's
    name in the label column: ``Cost | Land and buildings | Plant and machinery | Total``,
    then ``Accumulated depreciation | Land and ...`` and ``Net book value | ...`` (a
    tester's DOCX ``docx_rollforward`` and HTML ``html_restart_th``, issue 46 finding 9).
    The value columns took their headers from the restart row but the label column kept
    the first block's (``At 1 January 2025 (Cost)`` under ``Accumulated depreciation``).
    The block's rows (:func:`restart_block`) give the rows below them the texts of
    their label cells as the corner (the header of their labels) and each value column's
    texts, top-down, as that column's header levels; a header over the whole block
    (:func:`~.rules.table_wide_headers`: ``Fiscal 2018`` over the quarters) is no
    column's. A block without label text (``| 2018 | 2017`` in doc-qa's fin
    roll-forwards), or with a year or a value there (``2017 | 2019 | 2018``: a TAT-QA
    table whose converter shifted the years one column left), keeps ``corner`` only when
    it is a note of units (``(in millions)``, table-wide), else the labels have no header.

    Args:
        rows: The block's grid rows, top-down.
        label_cols: The number of row-label columns.
        text_of: A cell's text on one line.
        corner: The header of the labels in the block above.

    Returns:
        ``(corner, levels)``: the labels' header ("" for none), and per grid column the
        distinct header texts of the block above it, top-down (``[]`` for the label
        columns and a column without any).
    """
    labels = list(dict.fromkeys(t for row in rows for cell in row[:label_cols] if (t := text_of(cell))))
    if any(is_year(t) or is_value(t) for t in labels):  # a column's name shifted left, not the labels' header
        labels = []
    own = LEVEL_SEP.join(labels)
    kept = own or (corner if UNITS_NOTE.match(corner) else "")
    heads, _ = table_wide_headers(rows, len(rows), label_cols, text_of)
    n_cols = len(rows[0])
    levels = [list(dict.fromkeys(t for row in heads if (t := text_of(row[j])))) for j in range(label_cols, n_cols)]
    return kept, [[] for _ in range(label_cols)] + levels
