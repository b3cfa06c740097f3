"""Phase 2 of the table rows: whole rows packed into pieces of at most ``available`` tokens.

:func:`table_pieces` packs the rows that :func:`docchunk.serialization.table_rows.table_rows`
reads, greedily and then balanced: a row that fits is never cut; a row larger than
the budget is split between its entries (each piece keeps the row label) into
pieces of even size, and an entry larger than the budget by text (each fragment
keeps the label and header), never inside a link's text. Token counts come from the
shared :class:`docchunk.tokenizers.Sizer`.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from functools import partial

from docchunk.chunkers.doc.compat.semsplit import semchunk_split
from docchunk.serialization.table_rows import (
    _DEBRIS_CHARS,
    ROW_SEP,
    TablePiece,
    TableRow,
    TableRows,
    _readable,
)
from docchunk.tokenizers import Sizer

__all__ = ["table_pieces", "take_start"]

_LINK_URL = re.compile(r"\]\(")


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
        dirty = [i for i, t in enumerate(texts) if not t or not sizer.clean(sep[-1], t[0])]
        if dirty:
            for i, k in zip(dirty, sizer.count_batch([sep + texts[i] for i in dirty]), strict=True):
                self.m[i] = k

    def add(self, group: list[int], size: int, i: int) -> int:
        """Tokens of the texts of ``group + [i]`` joined, given ``size`` for ``group``."""
        if not group:
            return self.n[i]
        last = self.texts[group[-1]]
        if last and self.sizer.clean(last[-1], self.sep[0]):
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
    counted. A piece holds consecutive whole rows joined by ``"\n"`` (after the
    table's ``head``, the Markdown header lines, which every piece repeats while
    they leave room; else they are a piece of their own); a row that fits the
    budget is never cut. A row larger than the budget is split between its entries
    (packed into pieces of even size): every piece starts with the row's ``lead``
    (a record's label), and a piece that the row continues after ends with the
    separator's mark (``;`` of ``"; "``, ``.`` of ``". "``, `` |`` of ``" | "``): only
    the separator's trailing space is replaced by the piece boundary, so that
    ``first + " " + second[len(lead):]`` is the row text again. An entry larger than
    the budget is split by text (semchunk's rules, at the largest separators first)
    and each fragment repeats the row's lead and the entry's ``header =`` prefix
    while they leave room.

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
        one split row); every row text and every entry text is whole in one piece
        or, when larger than the budget, spread over consecutive pieces in order,
        no character of it lost but the separator spaces named above. An empty
        table gives ``[]``.

    Example:
        >>> pieces = table_pieces(table_rows(table, doc), 120, Sizer(get_tokenizer()))  # doctest: +SKIP
    """
    available = max(available, 1)
    full = [row for row in rows.rows if row.cells]
    if not full:
        if rows.head:
            return [
                TablePiece(t, (rows.start, rows.end), n, o) for t, n, o in _split_cell("", rows.head, available, sizer)
            ]
        return []
    head, lead_pieces = rows.head, []
    room = available
    if head:
        room = available - sizer.count(head + ROW_SEP)
        if room < max(1, available // 4):  # the head leaves too little room: a piece of its own
            lead_pieces = [t for t in _split_cell("", head, available, sizer)]
            head, room = "", available
    texts = [row.text for row in full]
    joins = _Joins(sizer, ROW_SEP, texts)
    pieces: list[TablePiece] = []
    covered = rows.start
    for group, size in _pack(texts, joins, room):
        first = full[group[0]]
        if size > room:  # one row, too large: split between its entries
            for text, tokens, oversized in _split_row(first, available, sizer, head):
                pieces.append(TablePiece(text, (covered, first.index + 1), tokens, oversized))
        else:
            text = ROW_SEP.join(texts[i] for i in group)
            if head:
                text, size = head + ROW_SEP + text, sizer.count(head + ROW_SEP + text)
            pieces.append(TablePiece(text, (covered, full[group[-1]].index + 1), size))
        covered = full[group[-1]].index + 1
    if lead_pieces:
        end = pieces[0].rows[1]
        pieces = [TablePiece(t, (rows.start, end), n, o) for t, n, o in lead_pieces] + pieces
    last = pieces[-1].rows
    if last[1] < rows.end:  # trailing empty rows belong to the last row's pieces
        tail = (last[0], rows.end)
        pieces = [TablePiece(p.text, tail, p.tokens, p.oversized) if p.rows == last else p for p in pieces]
    return pieces


def _split_row(row: TableRow, available: int, sizer: Sizer, head: str = "") -> list[tuple[str, int, bool]]:
    """``(text, tokens, oversized)`` of one row too large for the budget, split between entries.

    Every piece is ``head`` (when given, on its own line), the row's lead, its
    entries joined by the row's separator, and the separator's mark when the row
    continues in the next piece (the row's tail when it ends). The entries are
    packed to a budget lowered by what lead, mark and head take, and lowered again
    by any overflow until every piece fits.
    """
    mark = row.sep.rstrip()
    entries = [prefix + value for prefix, value in row.cells]
    opening = head + ROW_SEP + row.lead if head else row.lead
    joins = _Joins(sizer, row.sep, entries)
    budget = available - (sizer.count(opening + mark) if opening or mark else 0)
    while budget >= 1:
        groups = _balanced(entries, joins, budget)
        out: list[tuple[str, int, bool]] = []
        for g, (group, size) in enumerate(groups):
            closing = row.tail if g == len(groups) - 1 else mark
            if size > budget:  # one entry, too large: split by text, each fragment with the lead and its prefix
                prefix, value = row.cells[group[0]]
                frags = _split_cell(opening + prefix, value + closing, available, sizer)
                out.extend(frags)
            else:
                text = opening + row.sep.join(entries[i] for i in group) + closing
                out.append((text, -1, False))
        sizes = sizer.count_batch([t for t, n, _ in out if n < 0])
        it = iter(sizes)
        out = [(t, next(it), False) if n < 0 else (t, n, o) for t, n, o in out]
        overflow = max((n - available for _, n, o in out if not o), default=0)
        if overflow <= 0:
            return out
        budget -= overflow
    return _split_cell("", opening + row.sep.join(entries) + row.tail, available, sizer)


def _split_cell(prefix: str, value: str, available: int, sizer: Sizer) -> list[tuple[str, int, bool]]:
    """Fragments of one triplet too large for the budget, each starting with ``prefix``.

    The value is split to ``available - count(prefix)`` tokens, and the budget is
    lowered by any overflow the join causes until every fragment fits; when the
    prefix leaves no room, the whole triplet is split without repeating it, and a
    fragment made only of ``|``, ``-``, ``:`` and spaces stays with its neighbour, or
    with as much of it as fits (see :func:`_no_debris`); only a single token larger
    than the budget is flagged oversized.
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
    for s, e in _no_debris(text, spans, lambda a, b: count(text[a:b]) <= available):
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


def _no_debris(text: str, spans: list[tuple[int, int]], fits: Callable[[int, int], bool]) -> list[tuple[int, int]]:
    """``spans`` where a span made only of ``|``, ``-``, ``:`` and spaces is joined to a neighbour.

    Such a fragment would read as a Markdown table remnant; it is kept with the text
    before it (or after it, for the first) when ``fits(start, end)`` says the joined
    span is within the budget, else with as much of that neighbour as fits (the rest
    of the neighbour a span of its own); it stays alone only when not even one
    character of the neighbour fits with it.
    """
    out: list[tuple[int, int]] = []
    for s, e in spans:
        if not out:
            out.append((s, e))
            continue
        ps, pe = out[-1]
        if set(text[s:e]) <= _DEBRIS_CHARS:  # marks after text: they take the end of the previous span
            if fits(ps, e):
                out[-1] = (ps, e)
                continue
            cut = _shortest_fitting(ps, pe, partial(_fits_before, fits, e))
            if text[cut:pe].strip() and text[ps:cut].strip() and fits(ps, cut):  # the rest must fit too
                out[-1] = (ps, cut)
                out.append((cut, e))
                continue
        elif set(text[ps:pe]) <= _DEBRIS_CHARS:  # marks before text: they take its start
            if fits(ps, e):
                out[-1] = (ps, e)
                continue
            taken = take_start(text, ps, s, e, fits)
            if taken is not None:
                out[-1] = (ps, taken)
                out.append((taken, e))
                continue
        out.append((s, e))
    return out


def _fits_before(fits: Callable[[int, int], bool], end: int, start: int) -> bool:
    return fits(start, end)


def take_start(text: str, marks: int, start: int, end: int, fits: Callable[[int, int], bool]) -> int | None:
    """Where to cut ``text[start:end]`` so that the marks ``text[marks:start]`` take as much of its start as fits.

    Returns the cut when both the marks with the start and the rest fit
    (``fits(a, b)``: whether ``text[a:b]`` is within the budget) and neither part is
    blank; None when no such cut exists (the marks then stand alone). A cut inside a
    word can make the rest count more than the whole did, hence the second check.
    """
    cut = _longest_fitting(start, end, partial(fits, marks))
    if text[start:cut].strip() and text[cut:end].strip() and fits(cut, end):
        return cut
    return None


def _longest_fitting(start: int, end: int, fits: Callable[[int], bool]) -> int:
    """The largest ``cut`` in ``[start, end]`` with ``fits(cut)`` (binary search; ``start`` when none does)."""
    lo, hi = start, end
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _shortest_fitting(start: int, end: int, fits: Callable[[int], bool]) -> int:
    """The smallest ``cut`` in ``[start, end]`` with ``fits(cut)`` (binary search; ``end`` when none does)."""
    lo, hi = start, end
    while lo < hi:
        mid = (lo + hi) // 2
        if fits(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo
