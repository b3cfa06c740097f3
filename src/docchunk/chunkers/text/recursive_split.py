"""Phase 1 of :class:`docchunk.RecursiveChunker`: split the text into groups of pieces that fit.

:class:`Call` holds the state of one ``chunk()`` call; :func:`split` cuts the text at the
coarsest separator present, groups consecutive pieces greedily while they fit and splits
a piece that does not fit at the next separator level. Every size comes from one
:class:`~docchunk.chunkers.text.pieces.PieceSizer` per call.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from functools import lru_cache
from itertools import accumulate, pairwise
from typing import TYPE_CHECKING

from docchunk.chunkers.text.line_breaks import other_breaks
from docchunk.chunkers.text.pieces import WHOLE_CHARS_PER_TOKEN, PieceSizer, drop_empty_end
from docchunk.chunkers.text.recursive_levels import (
    Cut,
    Pieces,
    Scan,
    break_pieces,
    fence_hits,
    line_hits,
    literal_hits,
    piece_bounds,
    pieces_of,
    sentence_hits,
    setext_hits,
    split_breaks,
    split_once,
)  # fmt: skip
from docchunk.chunkers.text.sentences import (
    CLOSERS,
    FULL_STOPS,
    SENTENCE_MARK,
    WESTERN_MARKS,
    LineWraps,
    line_ends,
    sentence_cut_after,
    sentence_cut_before,
)  # fmt: skip
from docchunk.chunkers.text.separators import (
    FENCED_CODE,
    LANGCHAIN_SEPARATORS,
    LINE,
    RULES,
    SENTENCE,
    SETEXT_HEADING,
    THEMATIC_BREAK,
)  # fmt: skip
from docchunk.markup.breaks import thematic_breaks
from docchunk.markup.fences import fenced_blocks, in_blocks
from docchunk.markup.html_blocks import opaque_interiors
from docchunk.markup.setext import SetextHeading, setext_headings
from docchunk.tokenizers import Sizer
from docchunk.tokenizers.base import TokenPositions
from docchunk.tokenizers.spans import JoinFixes

if TYPE_CHECKING:
    from docchunk.chunkers.text.recursive import RecursiveChunker

__all__ = ["Call", "Group", "adds_up", "joined_size", "split"]

_MARK_CHARS = WESTERN_MARKS + CLOSERS  # the characters before a Western sentence cut
_WESTERN_END = re.compile(rf"[{WESTERN_MARKS}][{re.escape(CLOSERS)}]*\s")  # a possible Western sentence end
# a sentence cut that may not be clean: before whitespace other than a space or a tab, or a FULL_STOPS mark,
# and any line break (a wrap)
_ODD_END = re.compile(rf"[{WESTERN_MARKS}][{re.escape(CLOSERS)}]*[^\S \t]|[{FULL_STOPS}\r\n]")
_ODD_ASCII_SPACE = "\n\r\x0b\x0c\x1c\x1d\x1e\x1f"  # the ASCII whitespace other than a space and a tab
Group = tuple[int, int, int, bool]
"""``(start, end, tokens, oversized)``: a span of the text and its exact size."""


class Call:
    """The state of one ``chunk()`` call: the text, its span sizes, the groups found so far, memos."""

    def __init__(self, chunker: RecursiveChunker, text: str, sizer: Sizer):
        self.text = text
        self.size = chunker.chunk_size
        self.overlap = chunker.chunk_overlap
        self.separators = chunker.separators
        self.keep = chunker.keep_separator
        self.additive = chunker._additive
        self.spans = PieceSizer(sizer, text)
        self.breaks = other_breaks(text)  # line breaks other than "\n" ("\r\n", U+2028 ...): separators match all
        self.groups: list[Group] = []
        self.repeats: dict[tuple[int, int], list[Group]] = {}  # by piece id and level: relative groups
        # splits made while measuring, by start and level
        self.measured_cuts: dict[tuple[int, int], Cut | Pieces | Scan] = {}
        # levels that are not literal separators: named rules, and Markdown separators that
        # fenced code hides (a "# comment" in a code block is no heading)
        seps = self.separators
        self.interiors: list[tuple[int, int]] = []
        if chunker._markdown and ("```" in text or "~~~" in text or "<" in text):
            self.interiors = opaque_interiors(text)  # fenced code and HTML blocks
        opaque = [i for i, sep in enumerate(seps) if sep not in LANGCHAIN_SEPARATORS] if self.interiors else []
        self.special = sorted({i for i, sep in enumerate(seps) if sep in RULES} | set(opaque))
        self.setext: list[SetextHeading] | None = None
        self.breaks_at: list[int] | None = None  # thematic break lines (THEMATIC_BREAK)
        self.blocks: list[tuple[int, int]] | None = None  # fenced code blocks (FENCED_CODE)
        self.wraps: LineWraps | None = None  # the hard wraps of the text's paragraphs (LINE)
        # character mode, separators kept at the start of pieces: groups by search (group_by_search)
        self.scan = self.spans.by_length and self.keep == "start" and not self.overlap and not self.breaks
        # token mode, the same: the sentence level groups by search in the span's token offsets
        # (group_sentences), where every sentence cut before a space or a tab is clean
        tokenizer = sizer.tokenizer
        self.token_scan = (
            not self.spans.by_length and self.keep == "start" and not self.overlap and not self.breaks
            and tokenizer.positions_count_spans and all(sizer.clean(a, b) for a in _MARK_CHARS for b in " \t")
        )  # fmt: skip
        self.positions: dict[int, TokenPositions] = {}  # token offsets of measured spans, by start
        self._span: tuple[int, int, str] = (0, 0, "")  # the last span sliced for the sentence level

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
        lengths = [len(p) for p in parts]
        if self.keep and not self.overlap:
            bounds = piece_bounds(lo, lengths, len(sep), self.keep == "start")
            if self.spans.by_length:
                self.group_by_length(bounds, next_level)
            else:
                self.group_contiguous(bounds, parts, sep, next_level)
            return
        self.group_pieces(pieces_of(lo, lengths, len(sep), self.keep), next_level)

    def split_once(self, lo: int, hi: int, level: int) -> Cut | Pieces | Scan | None:
        r"""Split ``text[lo:hi]`` at the first level from ``level`` on that cuts it.

        Literal separators split as in :func:`split_once` (in text with ``"\r"``, every
        kind of line break matches ``"\n"``); a named rule (:data:`SENTENCE`,
        :data:`SETEXT_HEADING`, :data:`FENCED_CODE`, :data:`LINE`) cuts where it finds its
        boundaries; a Markdown separator never cuts inside fenced code.
        """
        index = level
        for special in self.special:
            if special < level:
                continue
            if special > index:
                cut = self.literal(lo, hi, index, special)
                if cut is not None:
                    return cut
            if self.scan and self.separators[special] == SENTENCE and SENTENCE_MARK.search(self.text, lo, hi):
                return Scan(SENTENCE, special + 1)
            if self.token_scan and self.separators[special] == SENTENCE and self.scans_sentences(lo, hi):
                return Scan(SENTENCE, special + 1)
            if self.scan and self.separators[special] == LINE and self.text.find("\n", lo + 1, hi) != -1:
                return Scan(LINE, special + 1)
            hits = self.special_hits(special, lo, hi)
            if hits is None:  # a Markdown separator with no occurrence in fenced code
                cut = self.literal(lo, hi, special, special + 1)
                if cut is not None:
                    return cut
            elif hits:
                return Pieces(break_pieces(lo, hi, hits, self.keep), special + 1)
            index = special + 1
        return self.literal(lo, hi, index, None)

    def literal(self, lo: int, hi: int, level: int, stop: int | None) -> Cut | Pieces | Scan | None:
        r"""The split at the literal separators of levels ``level`` to ``stop - 1``.

        In character mode with separators kept at the start of pieces, a :class:`Scan`:
        the groups are then found by searching the text, not by splitting it. Not for a
        separator that can overlap itself (``"\n\n"`` in ``"\n\n\n"``): a search from the
        right finds occurrences that the split, from the left, does not cut at.
        """
        if self.scan:
            text = self.text
            for index in range(level, len(self.separators) if stop is None else stop):
                sep = self.separators[index]
                if not sep:
                    return split_once(self.separators, text, lo, hi, index, index + 1)
                if text.find(sep, lo, hi) != -1:
                    if _overlaps_itself(sep):
                        return split_once(self.separators, text, lo, hi, index, index + 1)
                    return Scan(sep, index + 1)
            return None
        if self.breaks:
            return split_breaks(self.separators, self.text, lo, hi, level, self.keep, stop)
        return split_once(self.separators, self.text, lo, hi, level, stop)

    def special_hits(self, level: int, lo: int, hi: int) -> list[tuple[int, int]] | None:
        """The cuts of a rule level, or of a Markdown separator outside fenced code (None: none is inside)."""
        sep, text = self.separators[level], self.text
        if sep == SENTENCE:
            return sentence_hits(text, lo, hi, self.keep)
        if sep == LINE:
            if self.wraps is None:
                self.wraps = LineWraps(text, self.breaks)
            return line_ends(text, lo, hi, self.wraps, self.interiors)
        if sep == FENCED_CODE:
            if self.blocks is None:
                self.blocks = fenced_blocks(text) if "```" in text or "~~~" in text else []
            return fence_hits(self.blocks, lo, hi)
        if sep == SETEXT_HEADING:
            if self.setext is None:
                self.setext = setext_headings(text)
            return setext_hits(self.setext, text, lo, hi)
        if sep == THEMATIC_BREAK:
            if self.breaks_at is None:
                self.breaks_at = thematic_breaks(text)
            return line_hits(self.breaks_at, text, lo, hi, blank=True)
        hits = literal_hits(text, sep, lo, hi, self.breaks)
        kept = [h for h in hits if not in_blocks(self.interiors, h[0])]
        return None if len(kept) == len(hits) else kept

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

    def scans_sentences(self, lo: int, hi: int) -> bool:
        """Whether the sentence level of ``text[lo:hi]`` groups by search (:meth:`group_sentences`).

        When the span may end a Western sentence and every such cut is before a space
        or a tab (clean: counts add up across it); else its sentences are split and
        counted one by one.
        """
        text = self.text
        if _WESTERN_END.search(text, lo, hi) is None:
            return False
        span = self.span(lo, hi)
        skip = 0  # the leading line breaks: a separator kept at the start
        while skip < len(span) and span[skip] in "\r\n":
            skip += 1
        if span.isascii():  # the odd whitespace of ASCII, found by str.find (no CJK marks in ASCII)
            return all(span.find(c, skip) == -1 for c in _ODD_ASCII_SPACE)
        return _ODD_END.search(span, skip) is None

    def span(self, lo: int, hi: int) -> str:
        """``text[lo:hi]``, sliced once for the sentence level's checks and its tokenization."""
        last = self._span
        if last[0] != lo or last[1] != hi:
            last = self._span = (lo, hi, self.text[lo:hi])
        return last[2]

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

    def piece_counts(self, bounds: list[int], parts: list[str], sep: str,
                     next_level: int) -> tuple[list[int], list[int], list[int]]:  # fmt: skip
        """The bounds of the non-empty pieces of a split, their exact counts and their ids.

        See :meth:`PieceSizer.piece_counts`; a long piece is sized from its own parts at
        ``next_level`` (:meth:`measure`).
        """
        counts, ids = self.spans.piece_counts(parts, sep, self.keep == "start", bounds, self.size,
                                              lambda s, e: self.measure(s, e, next_level))  # fmt: skip
        return drop_empty_end(bounds), counts, ids

    def unclean_joins(self, bounds: list[int], sep: str) -> list[int]:
        """The inner bounds of contiguous pieces whose join is not clean ("start" mode: ``sep`` right of each)."""
        return self.spans.unclean_cuts(bounds[1:-1], sep[:1] if self.keep == "start" else None)

    def measure(self, lo: int, hi: int, level: int) -> int:
        """Exact size of ``text[lo:hi]``, from the counts of its parts at ``level`` and the corrections at their joins.

        When it does not fit, the split is kept for :meth:`visit`.
        """
        cut = self.split_once(lo, hi, level)
        if isinstance(cut, Pieces) and len(cut.spans) > 1 and _contiguous(cut.spans, lo, hi):  # sentences
            total = self.pieces_size(lo, hi, cut.spans, cut.next_level)
            if total > self.size:
                self.measured_cuts[(lo, level)] = cut
            return total
        if isinstance(cut, Scan) and not self.spans.by_length:  # sentences found later in the span's token offsets
            positions = self.spans.sizer.tokenizer.token_positions(self.span(lo, hi))
            self.spans.remember(lo, hi, positions.n)  # exact: group_pieces counts it again
            if positions.n > self.size:
                self.measured_cuts[(lo, level)] = cut
                self.positions[lo] = positions
            return positions.n
        if cut is None or isinstance(cut, (Pieces, Scan)) or not cut[1]:  # indivisible, characters, breaks: whole
            return self.spans.count(lo, hi)
        parts, sep, next_level = cut
        bounds = piece_bounds(lo, [len(p) for p in parts], len(sep), self.keep == "start")
        bounds, counts, _ = self.piece_counts(bounds, parts, sep, next_level)
        total = sum(counts)
        unclean = [] if self.additive else self.unclean_joins(bounds, sep)
        if unclean:
            total = self.spans.joined(lo, hi, unclean, total)
        if total > self.size:
            self.measured_cuts[(lo, level)] = cut
        return total

    def pieces_size(self, lo: int, hi: int, pieces: list[tuple[int, int]], level: int | None = None) -> int:
        """The size of ``text[lo:hi]`` from the counts of the contiguous ``pieces`` tiling it and their joins.

        Exact when within ``chunk_size``; above it when a piece alone is (its count may
        then stop at ``chunk_size + 1``). In token mode with the sentence scan, a long
        piece is first measured at ``level`` (:meth:`measure`): a line the scan will cut is
        then tokenized once, not counted whole and tokenized again for its sentences.
        """
        if level is not None and self.token_scan:
            longest = WHOLE_CHARS_PER_TOKEN * self.size
            for s, e in pieces:
                if e - s > longest and (s, level) not in self.measured_cuts:
                    self.measure(s, e, level)
        counts = self.spans.counts(pieces, self.size)
        total = sum(counts)
        if max(counts) > self.size:
            return total
        unclean = [] if self.additive else self.spans.unclean_cuts([s for s, _ in pieces[1:]])
        return self.spans.joined(lo, hi, unclean, total) if unclean else total

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



@lru_cache(maxsize=256)
def _overlaps_itself(sep: str) -> bool:
    """Whether two occurrences of ``sep`` can overlap: a proper prefix of it is also a suffix."""
    return any(sep[:k] == sep[-k:] for k in range(1, len(sep)))


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


def _contiguous(pieces: list[tuple[int, int]], lo: int, hi: int) -> bool:
    """Whether ``pieces`` tile ``lo:hi`` with nothing between them."""
    return pieces[0][0] == lo and pieces[-1][1] == hi and all(a[1] == b[0] for a, b in pairwise(pieces))
