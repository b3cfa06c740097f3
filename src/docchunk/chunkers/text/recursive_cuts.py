"""Phase 1 of :class:`docchunk.RecursiveChunker`, the cuts: where a span is cut, and its size measured from that cut.

:class:`Cuts` holds what one ``chunk()`` call needs to cut a span of its text: the
separators, the memos of the named rules (Setext headings, fences, thematic breaks,
hard wraps), whether a level groups by search (:class:`~docchunk.chunkers.text.recursive_levels.Scan`),
and the :class:`~docchunk.chunkers.text.pieces.PieceSizer` of the text.
:meth:`Cuts.split_once` finds the first level that cuts a span (one level's cut is in
:mod:`~docchunk.chunkers.text.recursive_levels`); :meth:`Cuts.measure` sizes a span from
its parts at that level and keeps the cut of a span that does not fit, for
:class:`~docchunk.chunkers.text.recursive_split.Call` (the grouping) to take.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING

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
    sentence_hits,
    setext_hits,
    split_breaks,
    split_once,
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
from docchunk.markup.line_breaks import other_breaks
from docchunk.markup.sentences import (
    CLOSERS,
    FULL_STOPS,
    SENTENCE_MARK,
    WESTERN_MARKS,
    LineWraps,
    line_ends,
)  # fmt: skip
from docchunk.markup.setext import SetextHeading, setext_headings
from docchunk.tokenizers import Sizer
from docchunk.tokenizers.base import TokenPositions

if TYPE_CHECKING:
    from docchunk.chunkers.text.recursive import RecursiveChunker

__all__ = ["Cuts"]


_MARK_CHARS = WESTERN_MARKS + CLOSERS  # the characters before a Western sentence cut
_WESTERN_END = re.compile(rf"[{WESTERN_MARKS}][{re.escape(CLOSERS)}]*\s")  # a possible Western sentence end
# a sentence cut that may not be clean: before whitespace other than a space or a tab, or a FULL_STOPS mark,
# and any line break (a wrap)
_ODD_END = re.compile(rf"[{WESTERN_MARKS}][{re.escape(CLOSERS)}]*[^\S \t]|[{FULL_STOPS}\r\n]")
_ODD_ASCII_SPACE = "\n\r\x0b\x0c\x1c\x1d\x1e\x1f"  # the ASCII whitespace other than a space and a tab


class Cuts:
    """The state of one ``chunk()`` call that cutting and measuring its spans need (see the module docstring)."""

    def __init__(self, chunker: RecursiveChunker, text: str, sizer: Sizer):
        self.text = text
        self.size = chunker.chunk_size
        self.overlap = chunker.chunk_overlap
        self.separators = chunker.separators
        self.keep = chunker.keep_separator
        self.additive = chunker._additive
        self.spans = PieceSizer(sizer, text)
        self.breaks = other_breaks(text)  # line breaks other than "\n" ("\r\n", U+2028 ...): separators match all
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

    def scans_sentences(self, lo: int, hi: int) -> bool:
        """Whether the sentence level of ``text[lo:hi]`` groups by search (``Call.group_sentences``).

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

        When it does not fit, the split is kept for ``Call.visit``.
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


@lru_cache(maxsize=256)
def _overlaps_itself(sep: str) -> bool:
    """Whether two occurrences of ``sep`` can overlap: a proper prefix of it is also a suffix."""
    return any(sep[:k] == sep[-k:] for k in range(1, len(sep)))


def _contiguous(pieces: list[tuple[int, int]], lo: int, hi: int) -> bool:
    """Whether ``pieces`` tile ``lo:hi`` with nothing between them."""
    return pieces[0][0] == lo and pieces[-1][1] == hi and all(a[1] == b[0] for a, b in pairwise(pieces))
