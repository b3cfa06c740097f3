"""Exact token counts of spans of one text, joined by arithmetic with local corrections.

A chunker that splits a long text into pieces and groups them needs the size of every
group. Where a join between two pieces is clean (no token spans it; see
:meth:`docchunk.Tokenizer.clean_boundary`) the group's size is the sum of its pieces'.
Around a join ``b`` that is not clean only a small window ``p..q`` between the nearest
clean positions is measured: the joined count differs from the sum by
``count(p..q) - count(p..b) - count(b..q)``. That correction depends only on the
characters around ``b``, so it is memoized by them.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from itertools import accumulate
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from docchunk.tokenizers.sizer import Sizer

__all__ = ["LOCAL_REACH", "PROBE_CHARS_PER_TOKEN", "UNKNOWN", "Fix", "JoinFixes", "SpanSizer"]

PROBE_CHARS_PER_TOKEN = 8
"""A text longer than this many characters per token of a limit is first probed by a prefix."""

LOCAL_REACH = 32
"""Characters searched on each side of a position for a clean one."""

Fix = tuple[int, int, int]
"""A correction at a join ``b``: (tokens to add, window start - b, window end - b)."""

UNKNOWN: Fix = (0, 0, 0)
"""The correction at a join whose window is not known: such a join is measured."""


class SpanSizer:
    """Token counts of spans ``text[start:end]`` of one text (see the module docstring).

    Made by :meth:`docchunk.tokenizers.Sizer.spans`; shares the Sizer's cache of counts.
    Offsets are ``str`` indices into ``text``; counts are in tokens of the Sizer's tokenizer.

    Args:
        sizer: The :class:`~docchunk.tokenizers.Sizer` whose tokenizer and cache are used.
        text: The text whose spans are counted.
    """

    def __init__(self, sizer: Sizer, text: str):
        self.sizer = sizer
        self.text = text
        self.by_length = sizer.by_length
        self.local = sizer.local
        self.clean = sizer.clean
        self._deltas: dict[str, Fix] = {}  # memoized corrections, by the characters around the join
        self._no_window: set[str] = set()  # joins with no clean position within reach
        self._known: dict[tuple[int, int], int] = {}  # exact counts of spans, by offsets (remember)

    # -- counts ------------------------------------------------------------------------
    def count(self, start: int, end: int) -> int:
        """The exact count of ``text[start:end]``.

        From the text's kept token offsets (:meth:`Sizer.count_batch_keeping_offsets`)
        when both ends are clean; else counted (once per distinct span text).
        """
        if self.by_length:
            return end - start
        known = self._known.get((start, end)) if self._known else None
        if known is not None:
            return known
        offsets = self.sizer.offsets_of(self.text)
        if offsets is not None and self._clean_at(start) and self._clean_at(end):
            return bisect_left(offsets, end) - bisect_left(offsets, start)
        return self.sizer.count(self.text[start:end])

    def remember(self, start: int, end: int, tokens: int) -> None:
        """Keep ``tokens`` as the count of ``text[start:end]``; it must be exact.

        Looked up by offsets (no slice of the text, no hash of it) by :meth:`count`,
        :meth:`size_or_over` and :meth:`counts`.
        """
        self._known[(start, end)] = tokens

    def exact_counts(self, spans: list[tuple[int, int]]) -> list[int]:
        """Exact counts of many spans: from kept offsets where both ends are clean, the rest in one native batch.

        See :meth:`Sizer.span_counts`.
        """
        return self.sizer.span_counts(self.text, spans)

    def size_or_over(self, start: int, end: int, limit: int) -> int:
        """The count of a span, or ``limit + 1`` when a prefix shows it is over ``limit``.

        The prefix ends at a clean position (:meth:`Sizer.probe_cut`), so that its count
        is part of the whole's; a span whose count is known (:meth:`remember`) is not probed.
        """
        if self.by_length:
            return end - start
        known = self._known.get((start, end)) if self._known else None
        if known is not None:
            return known
        if end - start > limit * PROBE_CHARS_PER_TOKEN:
            cut = self.sizer.probe_cut(self.text, start, end, limit)
            if cut is not None and self.count(start, cut) > limit:
                return limit + 1
        return self.count(start, end)

    def counts(self, spans: list[tuple[int, int]], limit: int) -> list[int]:
        """:meth:`size_or_over` of many spans: the short ones counted in one native batch."""
        if self.by_length:
            return [e - s for s, e in spans]
        if self._known and any(span in self._known for span in spans):  # known ones, then the rest
            rest = [span for span in spans if span not in self._known]
            found = iter(self.counts(rest, limit) if rest else [])
            return [self._known[span] if span in self._known else next(found) for span in spans]
        probe = limit * PROBE_CHARS_PER_TOKEN
        if all(e - s <= probe for s, e in spans):
            return self.exact_counts(spans)
        short = iter(self.exact_counts([(s, e) for s, e in spans if e - s <= probe]))
        return [next(short) if e - s <= probe else self.size_or_over(s, e, limit) for s, e in spans]

    # -- joins -------------------------------------------------------------------------
    def unclean_cuts(self, cuts: list[int], right: str | None = None) -> list[int]:
        """The cuts whose join is not clean, in order.

        A cut ``b`` (0 < b < len(text)) joins ``text[b - 1] | text[b]``; ``right``, when
        given, is ``text[b]`` at every cut.
        """
        text, clean = self.text, self.clean
        lefts = [text[b - 1] for b in cuts]
        if right:
            bad_left = {c for c in set(lefts) if not clean(c, right)}
            return [b for b, c in zip(cuts, lefts, strict=True) if c in bad_left] if bad_left else []
        pairs = [(c, text[b]) for c, b in zip(lefts, cuts, strict=True)]
        bad = {pair for pair in set(pairs) if not clean(*pair)}
        return [b for b, pair in zip(cuts, pairs, strict=True) if pair in bad] if bad else []

    def joined(self, start: int, end: int, unclean: list[int], total: int) -> int:
        """Exact count of ``text[start:end]``.

        Args:
            start: Start of the span.
            end: End of the span.
            unclean: The cuts between its pieces whose join is not clean, in order.
            total: The sum of the counts of its pieces.

        At a clean cut the counts add up. Around unclean cuts ``b1..bm`` only a local
        window ``p..q`` is measured, where ``p`` and ``q`` are the nearest clean
        positions (or the span's ends) with no clean position between the cuts: the
        joined count differs from the sum by ``count(p..q)`` minus the counts of
        ``p..b1, b1..b2, ..., bm..q``. A window with one cut depends only on the
        characters around it, so its difference is memoized by them.
        """
        if not self.local:
            return self.count(start, end)
        text, deltas, reach, count = self.text, self._deltas, LOCAL_REACH, self.count
        limit = len(text) - reach
        k, n = 0, len(unclean)
        while k < n:
            b = unclean[k]
            key = text[b - reach : b + reach] if reach <= b <= limit else None
            hit = deltas.get(key) if key is not None else None
            if (
                hit is not None
                and b + hit[1] >= start
                and b + hit[2] <= end
                and (k + 1 == n or unclean[k + 1] >= b + hit[2])
            ):
                total += hit[0]
                k += 1
                continue
            p = self.clean_before(b, start)
            window = [p, b]  # [p, b1, ..., bm]; q is found after bm
            q = self.clean_after(b, end)
            while k + 1 < n and unclean[k + 1] < q:  # no clean position before the next cut either:
                k += 1  # it joins this window, whose end q (the first clean position after it) stays
                window.append(unclean[k])
            delta = count(p, q) - sum(count(x, y) for x, y in zip(window, [*window[1:], q], strict=True))
            # p and q are clean positions only when the scans stopped before the span's ends
            if key is not None and len(window) == 2 and max(start, b - reach) < p and q < min(end, b + reach):
                deltas[key] = (delta, p - b, q - b)
            total += delta
            k += 1
        return total

    def join_fixes(self, unclean: list[int]) -> JoinFixes:
        """The memoized corrections at many unclean cuts, for sizing groups of pieces between them."""
        text, deltas, reach = self.text, self._deltas, LOCAL_REACH
        limit = len(text) - reach
        keys = [text[b - reach : b + reach] if reach <= b <= limit else None for b in unclean]
        hits = [UNKNOWN if key is None else deltas.get(key, UNKNOWN) for key in keys]
        todo: dict[str, int] = {}  # one occurrence of each new key: the window lies within the key's characters
        for key, b, hit in zip(keys, unclean, hits, strict=True):
            if hit is UNKNOWN and key is not None and key not in self._no_window:
                todo[key] = b
        if todo:
            windows: list[tuple[str, int, int, int]] = []
            for key, b in todo.items():
                p, q = self.clean_before(b, b - reach), self.clean_after(b, b + reach)
                if b - reach < p and q < b + reach:
                    windows.append((key, p, b, q))
                else:  # no clean position near: measured around it when it matters
                    self._no_window.add(key)
            if windows:
                ns = iter(self.exact_counts([span for _, p, b, q in windows for span in ((p, q), (p, b), (b, q))]))
                for (key, p, b, q), whole, left, right in zip(windows, ns, ns, ns, strict=True):
                    deltas[key] = (whole - left - right, p - b, q - b)
                hits = [UNKNOWN if key is None else deltas.get(key, UNKNOWN) for key in keys]
        return JoinFixes(len(text), unclean, hits)

    def _clean_at(self, b: int) -> bool:
        """Whether position ``b`` is an end of the text or a clean boundary."""
        text = self.text
        return b <= 0 or b >= len(text) or self.clean(text[b - 1], text[b])

    def clean_before(self, b: int, floor: int) -> int:
        """The nearest clean position ``p < b``, or ``floor`` when there is none after it."""
        text, pairs = self.text, self.sizer.clean_pairs
        p = b - 1
        while p > floor and not pairs[text[p - 1], text[p]]:
            p -= 1
        return max(p, floor)

    def clean_after(self, b: int, ceil: int) -> int:
        """The nearest clean position ``q > b``, or ``ceil`` when there is none before it."""
        text, pairs = self.text, self.sizer.clean_pairs
        q = b + 1
        while q < ceil and not pairs[text[q - 1], text[q]]:
            q += 1
        return min(q, ceil)

    def group_size(self, fixes: JoinFixes | None, start: int, end: int, total: int) -> int:
        """Exact count of ``text[start:end]``, a group of pieces whose counts sum to ``total``.

        ``fixes`` holds the unclean cuts between all pieces (or None when there are none).
        """
        if fixes is None:
            return total
        inner = fixes.cuts
        a, z = bisect_right(inner, start), bisect_left(inner, end)
        if a >= z:
            return total
        known = fixes.bad[z - 1] == fixes.bad[a] and fixes.hits[z - 1] is not UNKNOWN  # windows apart, all known
        if known and fixes.lo[a] >= start and fixes.hi[z - 1] <= end:
            return total + fixes.fix[z] - fixes.fix[a]
        return self.joined(start, end, inner[a:z], total)  # a window reaches past a neighbour or the group


class JoinFixes:
    """Prefix sums of the memoized corrections at the unclean cuts of one split.

    A group of its pieces is then sized in O(log n) (:meth:`SpanSizer.group_size`).

    Attributes:
        cuts: The unclean cuts, in order.
        hits: The correction at each cut (:data:`Fix`), or :data:`UNKNOWN`.
        fix: ``fix[k]``: the sum of the corrections at cuts ``0..k-1``.
        lo: The start of each cut's window.
        hi: The end of each cut's window.
        bad: ``bad[k]``: how many of the cuts ``0..k-1`` are unknown or have a window that
            reaches the next cut (a group over such a cut is measured).
    """

    def __init__(self, text_length: int, cuts: list[int], hits: list[Fix]):
        self.cuts = cuts
        self.hits = hits
        self.fix = list(accumulate((hit[0] for hit in hits), initial=0))
        self.lo = [b + hit[1] for b, hit in zip(cuts, hits, strict=True)]
        self.hi = [b + hit[2] for b, hit in zip(cuts, hits, strict=True)]
        nexts = [*cuts[1:], text_length]
        flags = (hit is UNKNOWN or nxt < hi for hit, nxt, hi in zip(hits, nexts, self.hi, strict=False))
        self.bad = list(accumulate(flags, initial=0))
