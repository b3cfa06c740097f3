"""Tables chunked by rows: one triplet entry per body row, packed whole into pieces.

The default (structure-faithful) table text of the document chunkers. Two phases,
each a function with its own postconditions:

1. :func:`table_rows` reads a ``TableItem``'s grid (``item.data``) and gives one
   :class:`TableRow` per body row, in the triplet form ``row label, column header =
   value`` that docling-core's ``TripletTableSerializer`` uses, but with every cell
   text kept (header cells included, the top-left one too), merged cells read once
   per row, and no Markdown anywhere.
2. :func:`table_pieces` packs whole rows greedily into pieces of at most
   ``available`` tokens; a row that fits is never cut; a row larger than the budget
   is split between cells (each cell's triplet keeps the row label), and a cell
   larger than the budget by text (each fragment keeps the label and header).

Every triplet repeats its row label and column header, so every piece carries its
column-header context in a form that reads as text.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from docling_core.types.doc import TableCell

from docchunk.chunkers.doc.semsplit import semchunk_split
from docchunk.tokenizers import Sizer

__all__ = ["TablePiece", "TableRow", "TableRows", "table_pieces", "table_rows"]

CELL_SEP = ". "
"""Separator of the triplets of one row (docling-core's triplet separator)."""
ROW_SEP = "\n"
"""Separator of the rows of a piece."""
_DEBRIS_CHARS = frozenset("|-: \t")
_LINK_URL = re.compile(r"\]\(")


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
    grid = _grid(data) if data.num_rows > 0 and data.num_cols > 0 else []
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


def _grid(data: Any) -> list[list[Any]]:
    """``data.grid`` (docling-core's algorithm), with the empty filler cells built without validation.

    docling-core validates a new ``TableCell`` for every grid position, most of them
    overwritten at once; ``model_construct`` gives equal cells at a fraction of the
    cost (the table grid was a tenth of the default mode's time on table-heavy input).
    """
    n_rows, n_cols = data.num_rows, data.num_cols
    grid = [
        [
            TableCell.model_construct(
                text="",
                start_row_offset_idx=i,
                end_row_offset_idx=i + 1,
                start_col_offset_idx=j,
                end_col_offset_idx=j + 1,
            )
            for j in range(n_cols)
        ]
        for i in range(n_rows)
    ]
    for cell in data.table_cells:
        for i in range(min(cell.start_row_offset_idx, n_rows), min(cell.end_row_offset_idx, n_rows)):
            row = grid[i]
            for j in range(min(cell.start_col_offset_idx, n_cols), min(cell.end_col_offset_idx, n_cols)):
                row[j] = cell
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


# -- phase 2: pack --------------------------------------------------------------


class _Joins:
    """Token counts of texts joined by ``sep``, by arithmetic where the boundary is clean.

    ``size(first) = n[first]`` and, when the boundary ``prev[-1] | sep[0]`` is clean,
    ``size(... + sep + texts[i]) = size(...) + m[i]`` with ``m[i] = count(sep + texts[i])``
    (itself ``count(sep) + n[i]`` when ``sep[-1]`` and ``texts[i][0]`` are clean).
    Elsewhere the joined text is counted.
    """

    def __init__(self, sizer: Sizer, sep: str, texts: Sequence[str]):
        self.sizer, self.sep, self.texts = sizer, sep, texts
        self.n = sizer.count_batch(texts) if texts else []
        sep_n = sizer.count(sep)
        self.m = [sep_n + k for k in self.n]
        dirty = [i for i, t in enumerate(texts) if not sizer.clean(sep[-1], t[0])]
        if dirty:
            for i, k in zip(dirty, sizer.count_batch([sep + texts[i] for i in dirty]), strict=True):
                self.m[i] = k

    def add(self, group: list[int], size: int, i: int) -> int:
        """Tokens of the texts of ``group + [i]`` joined, given ``size`` for ``group``."""
        if not group:
            return self.n[i]
        if self.sizer.clean(self.texts[group[-1]][-1], self.sep[0]):
            return size + self.m[i]
        return self.sizer.count(self.sep.join(self.texts[k] for k in [*group, i]))


def _pack(texts: Sequence[str], joins: _Joins, available: int) -> list[tuple[list[int], int]]:
    """Greedy groups of consecutive indices whose joined text fits ``available``, with its tokens.

    An index whose text alone exceeds ``available`` is a group of its own.
    """
    groups: list[tuple[list[int], int]] = []
    group: list[int] = []
    size = 0
    for i in range(len(texts)):
        joined = joins.add(group, size, i)
        if group and joined > available:
            groups.append((group, size))
            group, size = [i], joins.n[i]
        else:
            group, size = [*group, i], joined
    if group:
        groups.append((group, size))
    return groups


def _balanced(texts: Sequence[str], joins: _Joins, available: int) -> list[tuple[list[int], int]]:
    """:func:`_pack` into as few groups as greedy packing, with the largest group as small as possible.

    Greedy packing fills each group and leaves the rest, often a small fragment, to
    the last (a row of 267 tokens at 256 gives 231 + 36); the smallest cap under
    which greedy packing needs no more groups (found by bisection) gives pieces of
    even size (134 + 133), which ``min_tokens`` need not merge. Groups made of a
    single text larger than ``available`` are left to the caller, as by ``_pack``.
    """
    groups = _pack(texts, joins, available)
    if len(groups) < 2 or any(size > available for _, size in groups):
        return groups
    # _pack(high) has len(groups) groups; find the smallest such cap, from the mean group size up
    low, high = max(1, sum(size for _, size in groups) // len(groups)), available
    while low < high:
        mid = (low + high) // 2
        trial = _pack(texts, joins, mid)
        if len(trial) <= len(groups) and all(size <= mid for _, size in trial):
            high = mid
        else:
            low = mid + 1
    return _pack(texts, joins, high)


def table_pieces(rows: TableRows, available: int, sizer: Sizer) -> list[TablePiece]:
    r"""Pack whole rows greedily into pieces of at most ``available`` tokens.

    Each row's text is counted once (:meth:`Sizer.count_batch`); sizes of joined rows
    follow by arithmetic where the tokenizer's boundary is clean, else they are
    counted. A piece holds consecutive whole rows joined by ``"\n"``; a row that
    fits the budget is never cut. A row larger than the budget is split between
    its triplets (packed greedily, joined by ``". "``), each of which carries the
    row label; a triplet larger than the budget is split by text (semchunk's rules,
    at the largest separators first) and each fragment repeats the triplet's
    ``label, header =`` prefix while that prefix leaves room.

    Args:
        rows: The table's rows, from :func:`table_rows`.
        available: Budget per piece text, in tokens of the sizer's tokenizer (what is
            left of ``max_tokens`` after headings and captions); values below 1 count as 1.
        sizer: The chunking call's :class:`~docchunk.tokenizers.Sizer` (the chunker's tokenizer).

    Returns:
        Pieces in row order, none empty. Invariants: ``count(piece.text) <=
        available`` unless ``piece.oversized`` (one character alone is larger);
        the ``rows`` ranges cover ``[rows.start, rows.end)`` in order (each piece's
        range starts where the previous one ends, or equals it for the pieces of
        one split row); every row text and
        every triplet text is whole in one piece or, when larger than the budget,
        spread over consecutive pieces in order. An empty table gives ``[]``.

    Example:
        >>> pieces = table_pieces(table_rows(table, doc), 120, Sizer(get_tokenizer()))  # doctest: +SKIP
    """
    available = max(available, 1)
    full = [row for row in rows.rows if row.cells]
    if not full:
        return []
    texts = [row.text for row in full]
    joins = _Joins(sizer, ROW_SEP, texts)
    pieces: list[TablePiece] = []
    covered = rows.start
    for group, size in _pack(texts, joins, available):
        first = full[group[0]]
        if size > available:  # one row, too large: split between its triplets
            for text, tokens, oversized in _split_row(first, available, sizer):
                pieces.append(TablePiece(text, (covered, first.index + 1), tokens, oversized))
        else:
            text = ROW_SEP.join(texts[i] for i in group)
            pieces.append(TablePiece(text, (covered, full[group[-1]].index + 1), size))
        covered = full[group[-1]].index + 1
    last = pieces[-1].rows
    if last[1] < rows.end:  # trailing empty rows belong to the last row's pieces
        tail = (last[0], rows.end)
        pieces = [TablePiece(p.text, tail, p.tokens, p.oversized) if p.rows == last else p for p in pieces]
    return pieces


def _split_row(row: TableRow, available: int, sizer: Sizer) -> list[tuple[str, int, bool]]:
    """``(text, tokens, oversized)`` of one row too large for the budget, split between triplets."""
    texts = [prefix + value for prefix, value in row.cells]
    joins = _Joins(sizer, CELL_SEP, texts)
    out: list[tuple[str, int, bool]] = []
    for group, size in _balanced(texts, joins, available):
        if size > available:
            out.extend(_split_cell(*row.cells[group[0]], available, sizer))
        else:
            out.append((CELL_SEP.join(texts[i] for i in group), size, False))
    return out


def _split_cell(prefix: str, value: str, available: int, sizer: Sizer) -> list[tuple[str, int, bool]]:
    """Fragments of one triplet too large for the budget, each starting with ``prefix``.

    The value is split to ``available - count(prefix)`` tokens, and the budget is
    lowered by any overflow the join causes until every fragment fits; when the
    prefix leaves no room, the whole triplet is split without repeating it, and a
    fragment made only of ``|``, ``-``, ``:`` and spaces stays with its neighbour
    (flagged oversized when that exceeds the budget).
    """
    count = sizer.count
    budget = available - count(prefix) if prefix else 0
    while budget > 0 and value.strip():
        spans = _value_spans(value, budget, sizer)
        texts = [prefix + value[s:e] for s, e in spans]
        sizes = sizer.count_batch(texts)
        overflow = max(sizes) - available
        if overflow <= 0:
            return [(t, n, False) for t, n in zip(texts, sizes, strict=True)]
        budget -= overflow
    text = _readable(prefix + value)
    spans, _ = semchunk_split(text, available, sizer)
    out = []
    for s, e in _no_debris(text, spans):
        n = count(text[s:e])
        out.append((text[s:e], n, n > available))
    return out


def _value_spans(value: str, budget: int, sizer: Sizer) -> list[tuple[int, int]]:
    """Spans of ``value`` of at most ``budget`` tokens each, cut inside no link text that fits.

    A Markdown link ``[text](url)`` of a rich cell is often larger than the budget
    because of its URL, while its text fits; split where the URL starts, so that
    the link text (a text item of the document) stays whole in one fragment and
    the URL is split alone. Adjacent parts are then packed greedily up to the budget.
    """
    count = sizer.count
    cuts = [m.start() + 1 for m in _LINK_URL.finditer(value)]
    if not cuts:
        return semchunk_split(value, budget, sizer)[0]
    parts: list[tuple[int, int]] = []
    for s, e in itertools.pairwise([0, *cuts, len(value)]):
        if value[s:e].strip():
            parts.extend((s + a, s + b) for a, b in semchunk_split(value[s:e], budget, sizer)[0])
    out: list[tuple[int, int]] = []
    for s, e in parts:
        if out and count(value[out[-1][0] : e]) <= budget:
            out[-1] = (out[-1][0], e)
        else:
            out.append((s, e))
    return out


def _no_debris(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``spans`` where a span made only of ``|``, ``-``, ``:`` and spaces is joined to a neighbour.

    Such a fragment would read as a Markdown table remnant; it is kept with the text
    before it (or after it, for the first), as one indivisible unit.
    """
    out: list[tuple[int, int]] = []
    for s, e in spans:
        if out and (set(text[s:e]) <= _DEBRIS_CHARS or set(text[out[-1][0] : out[-1][1]]) <= _DEBRIS_CHARS):
            out[-1] = (out[-1][0], e)
        else:
            out.append((s, e))
    return out
