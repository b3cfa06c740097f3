"""Records: each body row as ``label: header = value; header = value``, from the table model.

The default form of the default mode's tables (``table_format="records"``); what each
part of a record is and why is in :func:`~docchunk.serialization.tables.table_rows`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from docchunk.serialization.tables.blocks import block_headers, block_levels
from docchunk.serialization.tables.model import TableModel, header_row, text_cols, value_cells
from docchunk.serialization.tables.rows import (
    LEVEL_SEP,
    RECORD_SEP,
    TableRow,
    TableRows,
    clean,
    notes_line,
    readable,
)
from docchunk.serialization.tables.rules import UNITS_NOTE, is_section_row, spanning_text

__all__ = ["write_records"]


def _header_levels(grid: list[list[Any]], start: int, text_of: Callable[[Any], str], cols: range) -> str:
    """The header of the columns ``cols``: distinct header-cell texts above them, top-down, joined by " / "."""
    return LEVEL_SEP.join(_levels(grid, start, text_of, cols))


def _levels(grid: list[list[Any]], start: int, text_of: Callable[[Any], str], cols: range) -> list[str]:
    """The distinct header-cell texts above the body in the columns ``cols``, top-down (left to right in a row)."""
    return list(dict.fromkeys(t for r in range(start) for j in cols if (t := text_of(grid[r][j]))))


def write_records(model: TableModel) -> TableRows:
    """The body rows of a table with body rows, as records (see :func:`~docchunk.serialization.tables.table_rows`).

    Reads the model's header grid without its table-wide headers (``model.wide``): those
    are written once, on the first row with text, as is a header over a column without
    any value; they are also the rows' ``notes`` (:func:`notes_line`), which open every
    later piece of a split table. In a table whose header restarts (``model.blocks``),
    a header over a whole block heads each of its value columns instead
    (:func:`~.blocks.block_levels`), the first block's too.
    """
    start, label_cols, text_of = model.start, model.label_cols, model.text_of
    n_rows, n_cols = model.n_rows, model.n_cols
    grid, wide = model.wide
    corner = _header_levels(grid, start, text_of, range(label_cols))
    # a note of units over the labels (``(in millions)``) follows each label as it is: ``Goodwill (in millions)``
    corner_note = UNITS_NOTE.match(corner) is not None
    column_levels = [_levels(grid, start, text_of, range(j, j + 1)) for j in range(n_cols)]
    if model.blocks and wide:  # several header blocks: the first block's note heads its columns, as each block's
        column_levels, wide = block_levels(column_levels, wide, label_cols), []
    headers = [LEVEL_SEP.join(texts) for texts in column_levels]
    levels = [_top_and_rest(texts) for texts in column_levels]
    first_corner, first_headers = corner, headers  # the first block's, for the headers no value carries
    used: set[int] = set()
    sections: list[str] = []
    after_section = False
    rows: list[TableRow] = []
    pending: list[int] = []  # positions in rows of section rows not yet followed by a data row
    carried = False  # whether a row's label carries the first block's corner
    first_block = True  # no header block has restarted yet
    blocks = model.blocks
    in_blocks = {r for block in blocks.values() for r in block}
    for r in range(start, n_rows):
        row = grid[r]
        if r in in_blocks:  # a header block restarts: the rows below read their headers from it
            if r in blocks:
                corner, column_levels = block_headers([grid[k] for k in blocks[r]], label_cols, text_of, corner)
                headers = [LEVEL_SEP.join(texts) for texts in column_levels]
                levels = [_top_and_rest(texts) for texts in column_levels]
                corner_note, first_block = UNITS_NOTE.match(corner) is not None, False
            rows.append(header_row(r, row, text_of, RECORD_SEP))
            continue
        if (spanning := spanning_text(row, text_of)) is not None:  # one text in every cell: a row of its own, once
            rows.append(TableRow(r, (("", readable(spanning)),), sep=RECORD_SEP, cols=(tuple(range(len(row))),)))
            after_section = False  # a section row after it starts a new path, as after a data row
            pending = []  # a section row before it keeps its own text: no data row follows it directly
            continue
        seen: set[int] = set()
        labels: list[str] = []
        for cell in row[:label_cols]:
            if id(cell) not in seen:
                seen.add(id(cell))
                t = text_of(cell)
                t = clean(t) if t.startswith("\n") else t  # a nested table as a label: on the record's line
                if t and t not in labels:
                    labels.append(t)
        entries: list[tuple[str, str]] = []
        spans: list[tuple[int, ...]] = []
        tops: list[tuple[str, str] | None] = []  # (top level, the levels below) of an entry's header, when it has both
        for value, span in value_cells(row, label_cols, seen, text_of, used):
            header = LEVEL_SEP.join(dict.fromkeys(h for k in span if (h := headers[k])))
            # a nested table's records open on the next line (:func:`.model.read_table`), under ``header:``
            eq = ":" if value.startswith("\n") else " = "
            entries.append((f"{header}{eq}", value) if header else ("", readable(value)))
            spans.append(tuple(span))
            tops.append(levels[span[0]] if len(span) == 1 else None)
        entries, spans = _shared_top_once(*_same_header_once(entries, spans, tops))
        label_at = text_cols(row, range(label_cols), text_of)
        if labels and not entries and label_cols and is_section_row(row, labels, label_cols):  # labels the rows below
            label = LEVEL_SEP.join(labels)
            section = label[:-1].rstrip() if label.endswith(":") and len(label) > 1 else label
            sections = [*sections, section] if after_section else [section]
            after_section = True
            pending.append(len(rows))
            # its text until a data row follows
            rows.append(TableRow(r, (("", readable(label)),), sep=RECORD_SEP, cols=(label_at,)))
            continue
        if not entries and not labels:
            rows.append(TableRow(r, (), sep=RECORD_SEP))
            continue
        after_section = False
        for k in pending:  # the section's text now leads this row (and those below)
            rows[k] = TableRow(rows[k].index, (), sep=RECORD_SEP)
        pending = []
        label = LEVEL_SEP.join([*sections, *labels])
        if corner and labels and (not carried or not _says_no_more(corner, labels)):  # a generic one, once
            if not label_holds_corner(label, corner):
                label = f"{label} {corner.strip()}" if corner_note else f"{label} ({corner})"
            carried = carried or first_block  # written, or held by the label
        if not entries:
            rows.append(TableRow(r, (("", readable(label)),), sep=RECORD_SEP, cols=(label_at,)))
        else:
            lead = (f"{label} " if label.endswith(":") else f"{label}: ") if label else ""  # no "::"
            rows.append(TableRow(r, tuple(entries), lead, RECORD_SEP, cols=tuple(spans), lead_cols=label_at))
    unused = [*wide, *(h for k, h in enumerate(first_headers) if k >= label_cols and h and k not in used)]
    if first_corner and not carried:  # no labelled data row carries the corner (a section's lead does not)
        unused.insert(0, first_corner)
    if unused:
        first = next((i for i, row in enumerate(rows) if row.cells), None)
        extra = tuple(("", readable(h)) for h in dict.fromkeys(unused))
        if first is None:  # no row has text (there is at least one body row)
            rows[0] = TableRow(rows[0].index, extra, sep=RECORD_SEP, cols=((),) * len(extra))
        else:
            kept = rows[first]
            rows[first] = replace(kept, cells=kept.cells + extra, cols=kept.cols + ((),) * len(extra))
    return TableRows(rows=rows, start=start, end=n_rows, notes=notes_line(wide))


GENERIC_CORNERS = frozenset({"key", "keys", "item", "items"})
"""Label-column headers that say only what a record's form says: the label is its row's key."""


def _says_no_more(corner: str, labels: list[str]) -> bool:
    """Whether the corner (the label column's header) says no more than the record's form ``label: ...``.

    ``host (Key): Value = db.internal``: a label column headed ``Key`` holds the
    keys of the rows, which is what a record's label is; the corner is
    then written once, on the first row's label, not on every label (a tester's one-table
    HTML page, ``Key | Value``: 1.36x compat's tokens, issue 46's ceiling 1.3x). ``Item``
    alike: ``Brush (Item): Qty = 2``, then ``Paint: Qty = 3`` (a table nested in a
    cell, the round-2 tester's ``docx_nested_table``: 1.35x).
    A label that is a bare number keeps it (``255 (Qty)``: the header is its meaning).
    """
    return corner.lower() in GENERIC_CORNERS and not any(label.replace(",", "").replace(".", "").isdigit()
                                                         for label in labels)  # fmt: skip


def label_holds_corner(label: str, corner: str) -> bool:
    """Rule: a record's label that holds its column's header as a word of its own is not followed by it.

    ``SKU-0005`` under ``SKU``, ``Region 11`` under ``Region``: the header after such
    a label (``SKU-0005 (SKU)``) says on every row what the label says already. Seen in
    the round-2 tester's ``xlsx_gaps`` (an XLSX inventory sheet, ``SKU | Item``: 1.31x /
    1.37x compat's tokens at MiniLM 64 / 256, over issue 46's ceiling of 1.3x) and in
    the fee schedules of the round-1 tester's DOCX and HTML contracts (``Service 2``
    under ``Service``). A word of its own: ``Regional`` does not hold ``Region``, and
    the match ignores case. A units note over the labels alike: ``Revenue (in
    millions)`` is not followed by ``(in millions)`` again.

    Args:
        label: The record's label (its sections and row labels, joined).
        corner: The label column's header (its levels joined by ``" / "``).

    Returns:
        True when ``corner`` occurs in ``label`` between non-word characters or the ends.
    """
    return re.search(rf"(?<!\w){re.escape(corner)}(?!\w)", label, re.IGNORECASE) is not None


def _top_and_rest(texts: list[str]) -> tuple[str, str] | None:
    """``(top, rest)`` of a column's header levels (:func:`_levels` of one column): the first level, the others joined.

    None when the header has fewer than two levels.
    """
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
    ``cols`` (the grid columns of each entry) are joined alike. A top level ending with
    a comma goes on in the levels below it (``Year Ended February 28, 2019 = 31%, 2018
    = 33%``), without a colon.
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
            lead = f"{top[0]} " if top[0].endswith(",") else f"{top[0]}: "  # ``December 31,`` goes on below it
            out.append((lead, ", ".join(f"{r} = {v}" for r, v in zip(rests, values, strict=True))))
            out_cols.append(tuple(k for at in cols[i : j + 1] for k in at))
        i = j + 1
    return out, out_cols
