"""One sizing engine for every chunker: cached and batched counts, joins by arithmetic, early rejection.

A chunker asks for the sizes of many texts that share most of their characters:
pieces, the same pieces joined, a long text that is obviously over the budget.
:class:`Sizer` answers those questions exactly, tokenizing as little as possible:

* every distinct text is counted once (a cache), many at a time in the tokenizer's
  native batch call (``tokenizers``' ``encode_batch``, which spreads over the cores);
* the size of ``a + b`` is ``count(a) + count(b)`` where the tokenizer says the
  boundary ``a[-1] | b[0]`` is clean (:meth:`docchunk.Tokenizer.clean_boundary`),
  else it is measured;
* "does this text exceed ``n`` tokens" first counts a prefix that ends at a clean
  position (its count is a lower bound of the whole's), so text far over the budget
  is rejected without tokenizing all of it.

:class:`SpanSizer` (from :meth:`Sizer.spans`) does the same for spans of one long
text, with local corrections at joins that are not clean.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Sequence
from itertools import pairwise

from docchunk.tokenizers.base import CharacterTokenizer, Tokenizer
from docchunk.tokenizers.spans import LOCAL_REACH, PROBE_CHARS_PER_TOKEN, SpanSizer

__all__ = ["PROBE_CHARS_PER_TOKEN", "Sizer"]



class _CleanPairs(dict[tuple[str, str], bool]):
    """``(left, right) -> clean_boundary(left, right)``, computed on first lookup."""

    def __init__(self, tokenizer: Tokenizer):
        super().__init__()
        self.clean_boundary = tokenizer.clean_boundary

    def __missing__(self, pair: tuple[str, str]) -> bool:
        flag = self[pair] = bool(self.clean_boundary(*pair))
        return flag


class Sizer:
    """Exact token counts of texts and of their joins, for one tokenizer.

    All counts are in tokens of ``tokenizer`` and exact: arithmetic is used only where
    the tokenizer guarantees that counts add up (:meth:`Tokenizer.clean_boundary`).
    A Sizer caches counts; make one per chunking call (or pass ``cache_limit``).

    Args:
        tokenizer: A docchunk :class:`~docchunk.Tokenizer` (see :func:`docchunk.get_tokenizer`).
        cache_limit: Number of cached texts after which the cache is emptied, or None
            for no limit.

    Attributes:
        tokenizer: The tokenizer.
        by_length: True when a token is a character (counts are ``len``).
        local: True when the tokenizer has clean positions at all (it calls the
            boundary after a word, ``"a" | " "``, clean); otherwise joins are measured.
        clean_pairs: ``(left, right) -> bool``, :meth:`clean` as a mapping (filled on
            first lookup), for loops over many characters.

    Example:
        >>> from docchunk.tokenizers import Sizer, get_tokenizer
        >>> sizer = Sizer(get_tokenizer("word"))
        >>> sizer.joined("two words", 2, " and three")
        4
        >>> sizer.exceeds("a b c d", 3)
        True
    """

    def __init__(self, tokenizer: Tokenizer, cache_limit: int | None = None):
        self.tokenizer = tokenizer
        self.cache: dict[str, int] = {}
        self._offsets: dict[str, Sequence[int]] = {}  # token offsets of long texts (count_batch_keeping_offsets)
        self.cache_limit = cache_limit
        self.by_length = isinstance(tokenizer, CharacterTokenizer)
        self.clean_pairs: dict[tuple[str, str], bool] = _CleanPairs(tokenizer)
        self.local = self.clean("a", " ")

    # -- counts ------------------------------------------------------------------------
    def count(self, text: str) -> int:
        """The number of tokens of ``text``, counted once per distinct text."""
        if self.by_length:
            return len(text)
        n = self.cache.get(text)
        if n is None:
            if self.cache_limit is not None and len(self.cache) > self.cache_limit:
                self.cache.clear()
                self._offsets.clear()
            n = self.cache[text] = self.tokenizer.count_tokens(text)
        return n

    def count_batch(self, texts: Sequence[str]) -> list[int]:
        """The number of tokens of each text, in order.

        Each distinct text not yet cached is counted once, all of them in one call of
        the tokenizer's batch method (:meth:`Tokenizer.count_tokens_batch`).
        """
        if self.by_length:
            return [len(t) for t in texts]
        cache = self.cache
        todo = list({t: None for t in texts if t not in cache})
        if todo:
            if self.cache_limit is not None and len(cache) + len(todo) > self.cache_limit:
                cache.clear()  # texts counted before are gone: count them all again
                self._offsets.clear()
                todo = list(dict.fromkeys(texts))
            cache.update(zip(todo, self.tokenizer.count_tokens_batch(todo), strict=True))
        return [cache[t] for t in texts]

    def count_batch_keeping_offsets(self, texts: Sequence[str], over: int) -> list[int]:
        """:meth:`count_batch`, keeping the token offsets of new texts of more than ``over`` tokens.

        With a tokenizer whose offsets count spans (:attr:`Tokenizer.offsets_count_spans`),
        the new texts are tokenized once, in one batch with offsets, so that
        :meth:`span_counts` later sizes their spans without tokenizing them again;
        with any other tokenizer this is :meth:`count_batch`.
        """
        if self.by_length or not self.tokenizer.offsets_count_spans:
            return self.count_batch(texts)
        cache = self.cache
        todo = list({t: None for t in texts if t not in cache})
        if todo:
            if self.cache_limit is not None and len(cache) + len(todo) > self.cache_limit:
                cache.clear()
                self._offsets.clear()
                todo = list(dict.fromkeys(texts))
            for text, (n, offsets) in zip(todo, self.tokenizer.counts_and_offsets_batch(todo, over), strict=True):
                cache[text] = n
                if offsets is not None:  # 4 or 8 bytes an offset, not a Python int each
                    self._offsets[text] = array("q", offsets)
        return [cache[t] for t in texts]

    def drop_offsets(self) -> None:
        """Forget all kept token offsets (their counts stay cached)."""
        self._offsets.clear()

    def span_counts(self, text: str, spans: Sequence[tuple[int, int]]) -> list[int]:
        """Exact counts of ``text[s:e]`` for each ``(s, e)`` of ``spans``.

        From the offsets kept by :meth:`count_batch_keeping_offsets` for a span whose
        ends are ends of ``text`` or clean boundaries; the others are counted, in one batch.
        """
        offsets = self.offsets_of(text)
        if offsets is None:
            return self.count_batch([text[s:e] for s, e in spans])
        n, clean = len(text), self.clean
        out: list[int] = []
        todo: list[int] = []
        for k, (s, e) in enumerate(spans):
            if (s == 0 or s == n or clean(text[s - 1], text[s])) and (e == n or e == 0 or clean(text[e - 1], text[e])):
                out.append(bisect_left(offsets, e) - bisect_left(offsets, s))
            else:
                out.append(-1)
                todo.append(k)
        if todo:
            for k, c in zip(todo, self.count_batch([text[spans[k][0] : spans[k][1]] for k in todo]), strict=True):
                out[k] = c
        return out

    def offsets_of(self, text: str) -> Sequence[int] | None:
        """The kept token offsets of ``text`` (see :meth:`count_batch_keeping_offsets`), or None.

        Without kept offsets, ``text`` is not hashed (a long text is hashed once, but a
        megabyte of it costs a millisecond).
        """
        return self._offsets.get(text) if self._offsets else None

    def keep_span_offsets(self, text: str, start: int, end: int) -> None:
        """Keep the token offsets of ``text[start:end]``, taken from those kept for ``text``.

        Only when ``text`` has kept offsets and both ends are ends of ``text`` or clean
        boundaries (the span then holds exactly the tokens of the whole that start in it).
        """
        offsets = self.offsets_of(text)
        n = len(text)
        if offsets is None or start >= end:
            return
        if start and not self.clean(text[start - 1], text[start]):
            return
        if end < n and not self.clean(text[end - 1], text[end]):
            return
        sub = array("q", [o - start for o in offsets[bisect_left(offsets, start) : bisect_left(offsets, end)]])
        span = text[start:end]
        self._offsets[span] = sub
        self.cache[span] = len(sub)

    def remember(self, text: str, tokens: int) -> None:
        """Cache ``tokens`` as the count of ``text``; it must be exact (found by arithmetic on exact counts)."""
        if not self.by_length:
            self.cache[text] = tokens

    def stripped(self, text: str, tokens: int) -> tuple[str, int | None]:
        """``(text.strip(), its count or None)``, given ``tokens == count(text)``.

        The count follows by arithmetic when the whitespace taken off each end meets
        the rest at a clean boundary (it is then remembered); None means unknown.
        """
        inner = text.strip()
        if not inner:
            return "", 0
        if len(inner) == len(text):
            self.remember(text, tokens)
            return text, tokens
        lead = text[: len(text) - len(text.lstrip())]
        trail = text[len(text.rstrip()) :]
        if (lead and not self.clean(lead[-1], inner[0])) or (trail and not self.clean(inner[-1], trail[0])):
            return inner, None
        n = tokens - (self.count(lead) if lead else 0) - (self.count(trail) if trail else 0)
        self.remember(inner, n)
        return inner, n

    def clean(self, left: str, right: str) -> bool:
        """The tokenizer's :meth:`~Tokenizer.clean_boundary` for two characters, memoized."""
        return self.clean_pairs[(left, right)]

    # -- joins -------------------------------------------------------------------------
    def joined(self, a: str, a_tokens: int, b: str) -> int:
        """``count(a + b)``, given ``a_tokens == count(a)``; by arithmetic at a clean boundary."""
        if not a:
            return self.count(b)
        if not b:
            return a_tokens
        if self.clean(a[-1], b[0]):
            return a_tokens + self.count(b)
        return self.count(a + b)

    def concat(self, parts: Sequence[str]) -> int:
        """``count("".join(parts))``: the sum of the parts' counts when every boundary is clean."""
        total, last = 0, ""
        for part in parts:
            if not part:
                continue
            if last and not self.clean(last[-1], part[0]):
                return self.count("".join(parts))
            total += self.count(part)
            last = part
        return total

    def join_count(self, texts: Sequence[str], counts: Sequence[int], delim: str) -> int:
        """``count(delim.join(texts))``, given ``counts[i] == count(texts[i])``.

        The sum of the counts and of one ``count(delim)`` per join, corrected at each join
        whose boundaries are not clean by a small window: the end of the text before it
        from its last clean position, the delimiter, and the start of the text after it
        up to its first clean position (each within ``LOCAL_REACH`` characters), measured
        against its parts. Where a text is empty, a window finds no clean position or
        two windows would overlap, the joined text is counted whole.
        """
        if len(texts) <= 1 or self.by_length:
            return sum(counts) + (len(texts) - 1) * len(delim) if self.by_length else sum(counts)
        if not delim or not all(texts):
            return self.count(delim.join(texts))
        d = self.count(delim)
        total = sum(counts) + d * (len(texts) - 1)
        head_end = 0  # how far the window of the join before reaches into the current text
        for x, y in pairwise(texts):
            if self.clean(x[-1], delim[0]) and self.clean(delim[-1], y[0]):
                head_end = 0
                continue
            p = self._last_clean(x)
            q = self._first_clean(y)
            if p is None or q is None or p < head_end:
                return self.count(delim.join(texts))
            tail, head = x[p:], y[:q]
            total += self.count(tail + delim + head) - self.count(tail) - d - self.count(head)
            head_end = q
        return total

    def _last_clean(self, text: str) -> int | None:
        """The last clean position ``0 < p < len(text)`` within ``LOCAL_REACH`` of the end, or None."""
        floor = max(0, len(text) - LOCAL_REACH)
        for p in range(len(text) - 1, floor, -1):
            if self.clean(text[p - 1], text[p]):
                return p
        return None

    def _first_clean(self, text: str) -> int | None:
        """The first clean position ``0 < q < len(text)`` within ``LOCAL_REACH`` of the start, or None."""
        for q in range(1, min(len(text), LOCAL_REACH)):
            if self.clean(text[q - 1], text[q]):
                return q
        return None

    # -- early rejection -------------------------------------------------------------------
    def probe_cut(self, text: str, start: int, end: int, limit: int) -> int | None:
        """A clean position in ``text[start:end]`` near ``PROBE_CHARS_PER_TOKEN * limit`` characters in.

        Returns None when the span is not that long, or no clean position lies within
        ``LOCAL_REACH`` characters before it; ``count(text[start:cut])`` is then a
        lower bound of ``count(text[start:end])``.
        """
        cut = start + limit * PROBE_CHARS_PER_TOKEN
        if end <= cut or not self.local:
            return None
        floor = max(start, cut - LOCAL_REACH)
        while cut > floor and not self.clean(text[cut - 1], text[cut]):
            cut -= 1
        return None if cut == floor else cut

    def count_within(self, text: str, limit: int, before: str = "", before_tokens: int = 0) -> int | None:
        """``count(before + text)`` when it is at most ``limit``, else None.

        ``before_tokens`` must be ``count(before)``. A long text is first measured up to
        a clean position (:meth:`probe_cut`), so text far over ``limit`` is rejected
        without counting all of it.
        """
        if not before or (text and self.clean(before[-1], text[0])):
            cut = self.probe_cut(text, 0, len(text), limit)
            if cut is not None and before_tokens + self.count(text[:cut]) > limit:
                return None
        n = self.joined(before, before_tokens, text)
        return n if n <= limit else None

    def exceeds(self, text: str, limit: int) -> bool:
        """Whether ``count(text) > limit``; a long text may be decided by a prefix."""
        return self.count_within(text, limit) is None

    def spans(self, text: str) -> SpanSizer:
        """A :class:`~docchunk.tokenizers.spans.SpanSizer` for spans of ``text``, sharing this cache."""
        return SpanSizer(self, text)
