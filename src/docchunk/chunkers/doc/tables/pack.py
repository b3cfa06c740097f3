"""Phase 2 of the table rows: whole rows packed into pieces of at most ``available`` tokens.

:func:`table_pieces` packs the rows that :func:`docchunk.serialization.tables.table_rows`
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
from docchunk.chunkers.doc.fragments import attach_marks, is_debris
from docchunk.chunkers.doc.piece import replace
from docchunk.chunkers.doc.tables.long_rows import packed_row
from docchunk.serialization.tables.rows import ROW_SEP, TablePiece, TableRow, TableRows, col_ranges, readable
from docchunk.tokenizers import Sizer

__all__ = ["table_pieces"]

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


def _pack(texts: Sequence[str], joins: _Joins, available: int, begin: int = 0) -> list[tuple[list[int], int]]:
    """Greedy groups of consecutive indices (from ``begin`` on) whose joined text fits ``available``, with its tokens.

    An index whose text alone exceeds ``available`` is a group of its own.
    """
    groups: list[tuple[list[int], int]] = []
    group: list[int] = []
    size = 0
    for i in range(begin, len(texts)):
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
    they leave room; else they are a piece of their own, without the delimiter line,
    holding no body row: ``rows`` ``(start, start)``); a piece after the first
    opens with the table-wide ``notes`` on a line of their own (records: the period or
    units over every column, already at the end of the first row), while they leave a
    quarter of the budget; a row that fits the budget is never cut. A row larger
    than the budget is split between its entries (packed into pieces of even size):
    every piece starts with the row's ``lead`` (a record's label), and a piece that
    the row continues after ends with the separator's mark (``;`` of ``"; "``, ``.``
    of ``". "``, `` |`` of ``" | "``): only the separator's trailing space is replaced by the piece boundary, so that
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
        if room < max(1, available // 4):  # the head leaves too little room: a piece of its own, without debris
            alone = rows.head_alone
            lead_pieces = _split_cell("", alone, available, sizer) if alone else []
            head, room = "", available
    texts = [row.text for row in full]
    joins = _Joins(sizer, ROW_SEP, texts)
    groups, notes = _pack(texts, joins, room), rows.notes
    caps = [room] * len(groups)  # each group's budget
    later = room - sizer.count(notes + ROW_SEP) if notes else 0
    notes_left = False  # the later pieces lack the notes, which leave too little room
    if notes and len(groups) > 1 and later >= max(1, available // 4):  # the later pieces open with the notes
        groups = groups[:1] + _pack(texts, joins, later, begin=groups[0][0][-1] + 1)
        caps = [room] + [later] * (len(groups) - 1)
    else:
        notes_left, notes = bool(notes) and len(groups) > 1, ""
    pieces: list[TablePiece] = []
    covered = rows.start
    for g, (group, size) in enumerate(groups):
        first = full[group[0]]
        opening = head or (notes if g else "")
        dropped = ("headers",) * (head != rows.head) + ("notes",) * (notes_left and g > 0)
        if size > caps[g]:  # one row, too large: split between its entries
            for text, tokens, oversized, cols in _split_row(first, available, sizer, opening):
                pieces.append(TablePiece(text, (covered, first.index + 1), tokens, oversized, cols, dropped))
        else:
            text = ROW_SEP.join(texts[i] for i in group)
            if opening:
                text, size = opening + ROW_SEP + text, sizer.count(opening + ROW_SEP + text)
            pieces.append(TablePiece(text, (covered, full[group[-1]].index + 1), size, dropped=dropped))
        covered = full[group[-1]].index + 1
    if lead_pieces:  # the header lines hold no body row
        pieces = [TablePiece(t, (rows.start, rows.start), n, o) for t, n, o in lead_pieces] + pieces
    last = pieces[-1].rows
    if last[1] < rows.end:  # trailing empty rows belong to the last row's pieces
        tail = (last[0], rows.end)
        pieces = [replace(p, rows=tail) if p.rows == last else p for p in pieces]
    return pieces


def _split_row(
    row: TableRow, available: int, sizer: Sizer, head: str = ""
) -> list[tuple[str, int, bool, tuple[tuple[int, int, int], ...] | None]]:
    """``(text, tokens, oversized, cols)`` of one row too large for the budget, split between entries.

    Every piece is ``head`` (when given, on its own line), the row's lead, its
    entries joined by the row's separator, and the separator's mark when the row
    continues in the next piece (the row's tail when it ends). The entries are
    packed to a budget lowered by what lead, mark and head take, and lowered again
    by any overflow until every piece fits. ``cols`` (see :attr:`TablePiece.cols`)
    are the columns of the piece's entries and of the lead, taken from
    :attr:`TableRow.cols` as the entries are grouped; each fragment of an entry split
    by text lists that entry's columns, and each piece of a row split by text
    without regard to its entries (when the lead leaves no room) lists all of them.
    None when the row does not say its columns.
    """
    known = len(row.cols) == len(row.cells)

    def cols_of(group: Sequence[int]) -> tuple[tuple[int, int, int], ...] | None:
        return col_ranges(row.index, [*row.lead_cols, *(j for i in group for j in row.cols[i])]) if known else None

    mark = row.sep.rstrip()
    entries = [prefix + value for prefix, value in row.cells]
    opening = head + ROW_SEP + row.lead if head else row.lead
    alone = [sizer.count(opening + e + mark) for e in entries]
    if any(n > available for n in alone):  # an entry too large alone
        packed = packed_row(row, available, sizer, opening)
        if packed is not None:
            return [(t, n, o, cols_of(group)) for t, n, o, group in packed]
    for e, n in zip(entries, alone, strict=True):  # each entry's own count, known by arithmetic where clean
        _remember_inner(sizer, opening, e, mark, n)
    joins = _Joins(sizer, row.sep, entries)
    budget = available - (sizer.count(opening + mark) if opening or mark else 0)
    while budget >= 1:
        groups = _balanced(entries, joins, budget)
        out: list[tuple[str, int, bool]] = []
        at: list[tuple[tuple[int, int, int], ...] | None] = []
        for g, (group, size) in enumerate(groups):
            closing = row.tail if g == len(groups) - 1 else mark
            if size > budget:  # one entry, too large: split by text, each fragment with the lead and its prefix
                prefix, value = row.cells[group[0]]
                frags = _split_cell(opening + prefix, value + closing, available, sizer, label=len(opening))
                out.extend(frags)
                at.extend([cols_of(group)] * len(frags))
            else:
                text = opening + row.sep.join(entries[i] for i in group) + closing
                out.append((text, -1, False))
                at.append(cols_of(group))
        sizes = sizer.count_batch([t for t, n, _ in out if n < 0])
        it = iter(sizes)
        out = [(t, next(it), False) if n < 0 else (t, n, o) for t, n, o in out]
        overflow = max((n - available for _, n, o in out if not o), default=0)
        if overflow <= 0:
            return [(t, n, o, c) for (t, n, o), c in zip(out, at, strict=True)]
        budget -= overflow
    every = cols_of(range(len(entries)))
    whole = opening + row.sep.join(entries) + row.tail
    return [(t, n, o, every) for t, n, o in _split_cell("", whole, available, sizer, label=len(opening))]


def _remember_inner(sizer: Sizer, before: str, text: str, after: str, tokens: int) -> None:
    """Remember ``count(text)``, given ``tokens == count(before + text + after)``, when both boundaries are clean.

    The row's entries were counted with its lead and mark (is one too large alone?);
    their own counts then follow by arithmetic, not by tokenizing them again.
    """
    if not text or (before and not sizer.clean(before[-1], text[0])) or (after and not sizer.clean(text[-1], after[0])):
        return
    sizer.remember(text, tokens - (sizer.count(before) if before else 0) - (sizer.count(after) if after else 0))


def _split_cell(prefix: str, value: str, available: int, sizer: Sizer, label: int = 0) -> list[tuple[str, int, bool]]:
    """Fragments of one triplet too large for the budget, each starting with ``prefix``.

    The value is split to ``available - count(prefix)`` tokens, and the budget is
    lowered by any overflow the join causes until every fragment fits; when the
    prefix leaves no room, the whole triplet is split without repeating it. A
    fragment would then stand alone on its line that no reader can place; it stays
    with its neighbour, or with as much of it as fits (see :func:`.fragments.attach_marks`):
    a fragment made only of ``|``, ``-``, ``:`` and spaces, one inside the first
    ``label`` characters (the row's label, in characters of ``prefix``; it takes the
    start of what follows, so that the label opens a line with text after it), and
    a last fragment holding the whole value and no header word (a lone ``-`` or
    ``12``; it takes the end of the header before it). When that leaves a fragment
    made only of marks (a label too large to keep text after it), only such fragments
    are joined, and the label gives up its end. Only a single token larger than the
    budget is flagged oversized.
    """
    count = sizer.count
    budget = available - count(prefix) if prefix else 0
    while budget > 0 and value.strip():
        spans = _even_spans(partial(_value_spans, sizer=sizer), value, budget, sizer)
        texts = [prefix + value[s:e] for s, e in spans]
        sizes = sizer.count_batch(texts)
        overflow = max(sizes) - available
        if overflow <= 0:
            return [(t, n, False) for t, n in zip(texts, sizes, strict=True)]
        budget -= overflow
    text = readable(prefix + value)
    spans = _even_spans(lambda t, b: semchunk_split(t, b, sizer)[0], text, available, sizer)
    lone = partial(is_debris, text)
    if text == prefix + value:  # not quoted: the label and the value are where prefix and value put them
        equals = len(prefix.rstrip()) - 1 if prefix.rstrip().endswith("=") else len(text)
        lone = partial(_is_lone, text, label, equals, len(prefix))

    def fits(a: int, b: int) -> bool:
        return count(text[a:b]) <= available

    placed = attach_marks(text, spans, fits, lone)
    if any(is_debris(text, s, e) for s, e in placed):
        # a label that cannot keep text after it still gives a word to a remnant, which is worse
        placed = attach_marks(text, spans, fits, partial(is_debris, text))
    out = []
    for s, e in placed:
        n = count(text[s:e])
        out.append((text[s:e], n, n > available))
    return out


def _even_spans(
    split: Callable[[str, int], list[tuple[int, int]]], text: str, budget: int, sizer: Sizer
) -> list[tuple[int, int]]:
    """``split(text, budget)`` into as few spans as at ``budget``, with the largest as small as possible.

    Greedy spans fill each fragment and leave the rest, often a sentence, to the last
    (a value of 140 tokens at 115 gives 115 + 25, a fragment ``min_tokens`` cannot merge:
    issue 45, ``html_long_cells`` at cl100k 128); the smallest budget under which the
    text needs no more spans (found by bisection, as :func:`_balanced` does for a row's
    entries) gives fragments of even size.
    """
    spans = split(text, budget)
    if len(spans) < 2:
        return spans
    low, high = max(1, sizer.count(text) // len(spans)), budget
    while low < high:
        mid = (low + high) // 2
        if len(split(text, mid)) <= len(spans):
            high = mid
        else:
            low = mid + 1
    return split(text, high) if high < budget else spans


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


def _is_lone(text: str, label: int, equals: int, value: int, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is a fragment of a split entry that cannot stand on its own line.

    That is debris (:func:`.fragments.is_debris`), a fragment within the row's label (the first
    ``label`` characters), or one that holds the whole value (from ``value`` on to the
    end) from at or after the entry's ``=`` (at ``equals``): no word of its header.
    """
    if is_debris(text, start, end) or end <= label:
        return True
    return equals <= start <= value + len(text[value:]) - len(text[value:].lstrip()) and not text[end:].strip()
