"""The pieces of the recursive splitter: one split of a text at a separator, counted once per distinct piece.

:class:`PieceSizer` is a :class:`~docchunk.tokenizers.spans.SpanSizer` (exact token
counts of spans of one text) that also remembers the pieces of each split by a
separator: every distinct piece is counted once, and in "start" mode the correction
at the join after it. Used by :class:`docchunk.RecursiveChunker`; ``tokenizers/``
keeps the counting and span arithmetic.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from itertools import pairwise
from typing import TYPE_CHECKING, cast

from docchunk.tokenizers.spans import UNKNOWN, Fix, JoinFixes, SpanSizer

if TYPE_CHECKING:
    from docchunk.tokenizers.sizer import Sizer

__all__ = ["WHOLE_CHARS_PER_TOKEN", "PieceSizer", "drop_empty_end"]

WHOLE_CHARS_PER_TOKEN = 4
"""A piece longer than this many characters per token of the limit is sized from its parts."""


class PieceSizer(SpanSizer):
    """Span counts of one text (:class:`SpanSizer`) plus the pieces of its splits by separator.

    Args:
        sizer: The :class:`~docchunk.tokenizers.Sizer` whose tokenizer and cache are used.
        text: The text whose spans and pieces are counted.
    """

    def __init__(self, sizer: Sizer, text: str):
        super().__init__(sizer, text)
        # pieces of splits by separator: part -> id; each id's count, and in "start" mode the
        # correction at the join after the piece and whether its separator|part join is clean
        self._piece_ids: dict[tuple[str, bool], dict[str, int]] = {}
        self._piece_sizes: list[int | None] = []
        self._tails: dict[int, Fix | None] = {}
        self._heads: dict[int, bool] = {}

    def piece_counts(self, parts: list[str], sep: str, start_mode: bool, bounds: list[int], limit: int,
                     measure: Callable[[int, int], int]) -> tuple[list[int], list[int]]:  # fmt: skip
        """Exact counts and ids of the non-empty pieces of a split of the text at ``sep``.

        Args:
            parts: The parts between the occurrences of ``sep`` (``str.split``).
            sep: The separator; ``""`` for a split into characters.
            start_mode: The pieces are ``parts[0]``, then ``sep + part`` for the others
                (True), or ``part + sep`` for all but the last, then the last (False).
            bounds: The pieces' offsets in the text (empty pieces included).
            limit: The budget in tokens; a piece longer than ``WHOLE_CHARS_PER_TOKEN *
                limit`` characters is sized by ``measure(start, end)`` instead of being
                tokenized whole (it is probably split anyway, and its parts are needed then).
            measure: The exact count of a long span.

        Returns:
            ``(counts, ids)``. Each distinct piece gets an id (per separator, by its part,
            so the pieces are not sliced out of the text again) and is counted once, all
            new ones in one native batch: equal ids mean equal piece texts. The unattached
            end piece and the pieces of a character split get ids of their own.
        """
        sizes = self._piece_sizes
        if not sep:  # characters
            counts = self.counts([(b, c) for b, c in pairwise(bounds) if b < c], limit)
            first = len(sizes)
            sizes.extend(counts)
            return counts, list(range(first, len(sizes)))
        memo = self._piece_ids.setdefault((sep, start_mode), {})
        body = parts[1:] if start_mode else parts[:-1]
        longest = limit * WHOLE_CHARS_PER_TOKEN - len(sep)
        first = 1 if start_mode else 0  # index in bounds of body[0]'s piece
        new = list({p: None for p in body if p not in memo})
        if new:
            memo.update(zip(new, range(len(sizes), len(sizes) + len(new)), strict=True))
            sizes.extend([None] * len(new))
            todo = [p for p in new if len(p) <= longest]
            offsets = self.sizer.offsets_of(self.text) if todo else None
            if offsets is not None:  # sized from the text's token offsets where both ends are clean
                pending, rest, clean_at = set(todo), [], self._clean_at
                for k, p in enumerate(body, first):  # each new piece at its first occurrence
                    if p not in pending:
                        continue
                    pending.discard(p)
                    a, b = bounds[k], bounds[k + 1]
                    if clean_at(a) and clean_at(b):
                        sizes[memo[p]] = bisect_left(offsets, b) - bisect_left(offsets, a)
                    else:
                        rest.append(p)
                    if not pending:
                        break
                todo = rest
            if todo:
                pieces = [sep + p for p in todo] if start_mode else [p + sep for p in todo]
                for p, n in zip(todo, self.sizer.tokenizer.count_tokens_batch(pieces), strict=True):
                    sizes[memo[p]] = n
        ids = list(map(memo.__getitem__, body))
        found = list(map(sizes.__getitem__, ids))
        if None in found:  # long pieces
            for k in [k for k, n in enumerate(found) if n is None]:
                known = sizes[ids[k]]  # measured already when the piece repeats
                if known is None:
                    known = sizes[ids[k]] = measure(bounds[k + first], bounds[k + first + 1])
                found[k] = known
        out = cast(list[int], found)
        end = parts[0] if start_mode else parts[-1]
        if not end:
            return out, ids
        lo, hi = (bounds[0], bounds[1]) if start_mode else (bounds[-2], bounds[-1])
        n = self.count(lo, hi) if len(end) <= longest else measure(lo, hi)
        sizes.append(n)
        end_id = len(sizes) - 1
        return ([n, *out], [end_id, *ids]) if start_mode else ([*out, n], [*ids, end_id])

    def start_fixes(self, bounds: list[int], ids: list[int], sep: str) -> JoinFixes:
        """The unclean inner bounds of a "start" mode split and the correction at each.

        ``bounds`` and the piece ids come from :meth:`piece_counts`; every piece but an
        unattached first one begins with ``sep``. The correction at each bound whose join
        is not clean is as in :meth:`joined`, or :data:`UNKNOWN`.

        The join ``b`` after a piece is followed by ``sep``, so its window runs from the
        nearest clean position ``p`` inside the piece to the first clean position ``q``
        in ``sep``, or right after it when the next piece's ``sep|part`` join is clean.
        Both the correction and whether it applies depend on one piece each, so they
        are computed once per piece id, not per join.
        """
        text, tails, heads, w, pairs = self.text, self._tails, self._heads, len(sep), self.sizer.clean_pairs
        inside = next((x for x in range(1, w) if pairs[sep[x - 1], sep[x]]), None)  # a clean position in sep
        q = inside or w  # every window ends q characters into the sep after its piece
        first, last = sep[0], sep[-1]
        missing = {uid: k for k, uid in enumerate(ids) if uid not in tails}  # id -> a piece with it
        windows: list[tuple[int, int, int, str]] = []  # (id, p, b, text[p:b])
        for uid, k in missing.items():
            s, b = bounds[k], bounds[k + 1]
            heads[uid] = b - s > w and text.startswith(sep, s) and pairs[last, text[s + w]]
            if pairs[text[b - 1], first]:
                tails[uid] = None
                continue
            p = self.clean_before(b, s)
            if p > s:
                windows.append((uid, p, b, text[p:b]))
            else:
                tails[uid] = UNKNOWN
        if windows:  # the correction depends on the piece's tail text[p:b] alone: once per distinct tail
            joint = sep[:q]
            ends = list(dict.fromkeys(end for *_, end in windows))
            ns = self.sizer.count_batch([joint, *(t for end in ends for t in (end + joint, end))])
            d = ns[0]
            delta = {end: ns[i] - ns[i + 1] - d for end, i in zip(ends, range(1, len(ns), 2), strict=True)}
            for uid, p, b, end in windows:
                tails[uid] = (delta[end], p - b, q)
        cuts: list[int] = []
        hits: list[Fix] = []
        for k, tail in enumerate(map(tails.__getitem__, ids[:-1]), 1):  # k: the bound after the piece
            if tail is not None:
                cuts.append(bounds[k])
                # the window ends after sep only when the next piece's sep|part join is clean
                hits.append(tail if inside is not None or heads[ids[k]] else UNKNOWN)
        return JoinFixes(len(text), cuts, hits)


def drop_empty_end(bounds: list[int]) -> list[int]:
    """Bounds without the empty piece a split leaves at an end (the text starts or ends with the separator)."""
    if bounds[0] == bounds[1]:
        return bounds[1:]
    if bounds[-1] == bounds[-2]:
        return bounds[:-1]
    return bounds

