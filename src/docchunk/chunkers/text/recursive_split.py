"""Phase 1 of :class:`docchunk.RecursiveChunker`: split the text into groups of pieces that fit.

:class:`Call` holds the state of one ``chunk()`` call; :func:`split` cuts the text at the
coarsest separator present, groups consecutive pieces greedily while they fit and splits
a piece that does not fit at the next separator level. Where a span is cut, and its size
measured from that cut, is :class:`~docchunk.chunkers.text.recursive_cuts.Cuts`, the base
of :class:`Call`; every size comes from one
:class:`~docchunk.chunkers.text.pieces.PieceSizer` per call.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate, pairwise
from typing import TYPE_CHECKING

from docchunk.chunkers.text.recursive_cuts import Cuts
from docchunk.chunkers.text.recursive_levels import Pieces, Scan, piece_bounds, pieces_of
from docchunk.chunkers.text.separators import LINE, SENTENCE
from docchunk.markup.sentences import LineWraps, sentence_cut_after, sentence_cut_before
from docchunk.tokenizers import Sizer
from docchunk.tokenizers.spans import JoinFixes

if TYPE_CHECKING:
    from docchunk.chunkers.text.recursive import RecursiveChunker

__all__ = ["Call", "Group", "adds_up", "joined_size", "split"]

Group = tuple[int, int, int, bool]
"""``(start, end, tokens, oversized)``: a span of the text and its exact size."""


class Call(Cuts):
    """The state of one ``chunk()`` call: the text, its span sizes, the groups found so far, memos.

    Where and how a span is cut and measured comes from :class:`Cuts`; this class groups
    the pieces of each cut (phase 1).
    """

    def __init__(self, chunker: RecursiveChunker, text: str, sizer: Sizer):
        super().__init__(chunker, text, sizer)
        self.groups: list[Group] = []
        self.repeats: dict[tuple[int, int], list[Group]] = {}  # by piece id and level: relative groups

    # -- phase 1: split ------------------------------------------------------------------
    def visit(self, lo: int, hi: int, level: int) -> None:
        """Append the groups of ``text[lo:hi]``, a span that does not fit, split from ``level`` on."""
        cut = self.measured_cuts.pop((lo, level), None) or self.split_once(lo, hi, level)
        if cut is None:
            self.groups.append((lo, hi, self.spans.count(lo, hi), True))
            return
        if isinstance(cut, Pieces):
            self.group_pieces(cut.spans, cut.next_level)
            return
        if isinstance(cut, Scan):
            if self.spans.by_length:
                self.group_by_search(lo, hi, cut.sep, cut.next_level)
            else:
                self.group_sentences(lo, hi, cut.next_level)
            return
        parts, sep, next_level = cut
        lengths = list(map(len, parts))
        if self.keep and not self.overlap:
            bounds = piece_bounds(lo, lengths, len(sep), self.keep == "start")
            if self.spans.by_length:
                self.group_by_length(bounds, next_level)
            else:
                self.group_contiguous(bounds, parts, sep, next_level)
            return
        self.group_pieces(pieces_of(lo, lengths, len(sep), self.keep), next_level)

    def group_pieces(self, pieces: list[tuple[int, int]], next_level: int) -> None:
        """Greedy groups of pieces that may have dropped separators between them.

        With overlap, every piece stays a group of its own, so that overlap can be
        taken at piece boundaries.
        """
        size = self.size
        counts = self.spans.counts(pieces, size)
        run: list[int] = []  # indices of the pieces in the current group
        total = 0
        for index, count in enumerate(counts):
            if count > size:
                self.flush(pieces, counts, run, total)
                run, total = [], 0
                self.visit(*pieces[index], next_level)
                continue
            gap = self.gap(pieces[run[-1]], pieces[index]) if run else 0
            if run and not self.overlap and total + gap + count <= size:
                run.append(index)
                total += gap + count
            else:
                self.flush(pieces, counts, run, total)
                run, total = [index], count
        self.flush(pieces, counts, run, total)

    def gap(self, before: tuple[int, int], after: tuple[int, int]) -> int:
        """Tokens of the dropped separator between two pieces."""
        return self.spans.count(before[1], after[0]) if before[1] < after[0] else 0

    def flush(self, pieces: list[tuple[int, int]], counts: list[int], run: list[int], total: int) -> None:
        """Append a group of ``pieces[run]``; exact by arithmetic at clean joins, else measured once."""
        if not run:
            return
        s, e = pieces[run[0]][0], pieces[run[-1]][1]
        if len(run) > 1 and not adds_up(self, pieces, run):
            exact = joined_size(self, pieces, counts, run[0], run[-1] + 1)
            if exact > self.size:  # the estimate was low: keep the pieces apart
                self.groups.extend((pieces[i][0], pieces[i][1], counts[i], False) for i in run)
                return
            total = exact
        self.groups.append((s, e, total, False))

    def group_by_search(self, lo: int, hi: int, sep: str, next_level: int) -> None:
        """Character mode, ``sep`` kept at the start of each piece: greedy groups found with ``str.rfind``.

        Each group runs from its start to the last occurrence of ``sep`` within
        ``chunk_size`` characters of it, found by one search instead of a split of the
        whole span: the cost follows the number of groups, not of pieces. A piece with no
        occurrence within reach runs to the next occurrence and is split at ``next_level``.
        """
        text, size, width, start = self.text, self.size, len(sep), lo
        sentences, lines = sep == SENTENCE, sep == LINE
        if lines and self.wraps is None:
            self.wraps = LineWraps(text, self.breaks)
        while start < hi:
            if hi - start <= size:
                self.groups.append((start, hi, hi - start, False))
                return
            if sentences:
                p = sentence_cut_before(text, start, start + size, hi)
            elif lines and self.wraps is not None:
                p = self.wraps.end_before(start, start + size, self.interiors)
            else:
                p = text.rfind(sep, start + 1, start + size + width)
            if p > start:
                self.groups.append((start, p, p - start, False))
                start = p
                continue
            if sentences:
                end = sentence_cut_after(text, start, hi)
            elif lines and self.wraps is not None:
                end = self.wraps.end_after(start, hi, self.interiors)
            else:
                q = text.find(sep, start + 1, hi)
                end = hi if q == -1 else q
            self.visit(start, end, next_level)
            start = end

    def group_sentences(self, lo: int, hi: int, next_level: int) -> None:
        """Token mode, the sentence level: greedy groups of sentences found in the span's token offsets.

        The span is tokenized once (or its offsets come from :meth:`measure`). Each
        group runs from its start to the last sentence cut at most ``chunk_size``
        tokens on, found from there backwards (:func:`sentence_cut_before`); its size
        is the number of token offsets between. The same groups as splitting the span
        into sentences, counting each and adding them while they fit, since every cut
        is clean (:meth:`scans_sentences`); a sentence that alone does not fit is
        split at ``next_level``.
        """
        text, size = self.text, self.size
        positions = self.positions.pop(lo, None) or self.spans.sizer.tokenizer.token_positions(self.span(lo, hi))
        n, start, k = positions.n, lo, 0
        while n - k > size:
            cut = sentence_cut_before(text, start, lo + positions.at(k + size), hi)
            if cut > start:
                kc = positions.before(cut - lo)
                self.groups.append((start, cut, kc - k, False))
                start, k = cut, kc
                continue
            end = sentence_cut_after(text, start, hi)
            self.visit(start, end, next_level)
            if end >= hi:
                return
            start, k = end, positions.before(end - lo)
        self.groups.append((start, hi, n - k, False))

    def group_by_length(self, bounds: list[int], next_level: int) -> None:
        """Character mode, contiguous pieces: greedy groups found by binary search on offsets."""
        size, last, i = self.size, len(bounds) - 1, 0
        while i < last:
            start = bounds[i]
            if bounds[i + 1] - start > size:
                self.visit(start, bounds[i + 1], next_level)
                i += 1
                continue
            j = bisect_right(bounds, start + size, i + 1) - 1
            if bounds[j] > start:
                self.groups.append((start, bounds[j], bounds[j] - start, False))
            i = j

    def group_contiguous(self, bounds: list[int], parts: list[str], sep: str, next_level: int) -> None:
        """Token mode, contiguous pieces ``bounds[k]:bounds[k + 1]`` (``sep`` kept per ``keep_separator``).

        Greedy groups by binary search on prefix sums of the piece counts, sized again
        only across unclean joins; a piece that alone does not fit is split again.
        """
        bounds, counts, ids = self.piece_counts(bounds, parts, sep, next_level)
        size = self.size
        prefix = list(accumulate(counts, initial=0))
        plan = _greedy_plan(counts, prefix, size)
        fixes: JoinFixes | None = None  # corrections at the unclean joins inside groups
        if not self.additive:
            if sep and self.keep == "start" and len(bounds) > 2:  # corrections per piece: edges cost nothing
                fixes = self.spans.start_fixes(bounds, ids, sep)
            else:  # corrections per join: skip the groups' edges
                edges = {bounds[i] for i, _ in plan}
                inner = [b for b in self.unclean_joins(bounds, sep) if b not in edges]
                fixes = self.spans.join_fixes(inner) if inner else None
        for i, j in plan:
            if not j:
                self.visit_repeated(bounds[i], bounds[i + 1], ids[i], next_level)
                continue
            start, end = bounds[i], bounds[j]
            total = self.spans.group_size(fixes, start, end, prefix[j] - prefix[i])
            if total > size:  # the sum was low: keep the pieces apart, packing measures joins
                self.groups.extend((bounds[k], bounds[k + 1], counts[k], False) for k in range(i, j))
                continue
            self.groups.append((start, end, total, False))

    def visit_repeated(self, lo: int, hi: int, piece_id: int, level: int) -> None:
        """:meth:`visit`, memoized by the piece's id.

        Equal ids, equal texts (see :meth:`PieceSizer.piece_counts`): an oversized piece
        that occurs again (boilerplate, repeated table rows) is split the same way.
        """
        key = (piece_id, level)
        known = self.repeats.get(key)
        if known is None:
            first = len(self.groups)
            self.visit(lo, hi, level)
            self.repeats[key] = [(s - lo, e - lo, n, flag) for s, e, n, flag in self.groups[first:]]
        else:
            self.groups.extend([(s + lo, e + lo, n, flag) for s, e, n, flag in known])


def split(call: Call) -> list[Group]:
    """Phase 1: split the text into groups.

    After it: the groups are in order and cover the text except separators dropped
    with ``keep_separator=False``; each one's size is exact and within ``chunk_size``,
    except a piece with no finer separator left (flagged oversized). Text that fits
    is one group.
    """
    text, size = call.text, call.size
    n = call.spans.size_or_over(0, len(text), size)
    if n <= size:
        return [(0, len(text), n, False)]
    call.visit(0, len(text), 0)
    return call.groups


def _greedy_plan(counts: list[int], prefix: list[int], size: int) -> list[tuple[int, int]]:
    """Greedy groups ``i..j-1`` of pieces by the sums of their counts; ``(i, 0)`` for an oversized piece."""
    plan: list[tuple[int, int]] = []
    i, n = 0, len(counts)
    while i < n:
        if counts[i] > size:
            plan.append((i, 0))
            i += 1
        else:
            j = bisect_right(prefix, prefix[i] + size, i + 1) - 1  # pieces i..j-1 fit by their sum
            plan.append((i, j))
            i = j
    return plan


def adds_up(call: Call, spans: Sequence[tuple[int, ...]], run: Sequence[int]) -> bool:
    """Whether the joined size of the contiguous ``spans[run]`` is the sum of their sizes."""
    if call.additive:
        return True
    text, clean = call.text, call.spans.clean
    for a, b in pairwise(run):
        cut = spans[b][0]
        if spans[a][1] != cut or not clean(text[cut - 1], text[cut]):  # a dropped separator, or an unclean join
            return False
    return True


def joined_size(call: Call, spans: Sequence[tuple[int, ...]], counts: list[int], i: int, j: int) -> int:
    """Exact size of ``spans[i..j-1]`` joined, ``counts`` being theirs.

    By local windows at their unclean joins when they are contiguous (:meth:`SpanSizer.joined`);
    counted whole when separators were dropped between them.
    """
    start, end = spans[i][0], spans[j - 1][1]
    if any(spans[k - 1][1] != spans[k][0] for k in range(i + 1, j)):
        return call.spans.count(start, end)
    unclean = call.spans.unclean_cuts([spans[k][0] for k in range(i + 1, j)])
    return call.spans.joined(start, end, unclean, sum(counts[i:j]))
