"""Recursive splitting by separator levels, greedy packing, overlap; exact offsets."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable
from itertools import accumulate, chain, compress, filterfalse, islice, pairwise, repeat
from operator import add, is_, is_not, itemgetter, lt, or_
from typing import Any

from docchunk.chunkers.text.base import TextChunker, absorb_whitespace_chunks, check_size
from docchunk.chunkers.text.separators import DEFAULT_SEPARATORS, separators_for
from docchunk.errors import ConfigError
from docchunk.tokenizers import CharacterTokenizer
from docchunk.types import Chunk
from docchunk.types.chunk import make_chunks

__all__ = ["RecursiveChunker"]

_PROBE_CHARS_PER_TOKEN = 8
# a piece longer than this many characters per token of the limit is sized from its parts
_WHOLE_CHARS_PER_TOKEN = 4
_LOCAL_REACH = 32  # characters searched on each side of an unclean join for a clean position
_UNKNOWN = (0, 0, 0)  # the correction at a join whose window is not known (see _JoinFixes)


class _CleanPairs(dict):
    """``(left, right) -> clean_boundary(left, right)``, computed on first lookup."""

    def __init__(self, clean_boundary: Callable[[str, str], bool]):
        super().__init__()
        self.clean_boundary = clean_boundary

    def __missing__(self, pair: tuple[str, str]) -> bool:
        flag = self[pair] = bool(self.clean_boundary(*pair))
        return flag


class _Counter:
    """Token counts of spans of one text; each distinct piece is counted at most once per call."""

    def __init__(self, chunker: RecursiveChunker, text: str):
        self.tok = chunker.tokenizer
        self.size = chunker.chunk_size
        self.text = text
        self.cache: dict[str, int] = {}
        self.is_len = chunker._by_length
        self._clean_pairs = _CleanPairs(self.tok.clean_boundary)
        self._deltas: dict[str, tuple[int, int, int]] = {}
        self._no_window: set[str] = set()
        self.splits: dict[tuple[int, int], list[tuple[int, int, int, bool]]] = {}  # by piece id, level
        # pieces of splits by separator: part -> id; each id's count, and in "start" mode the
        # correction at the join after the piece and whether its separator|part join is clean
        self._part_ids: dict[tuple[str, bool], dict[str, int]] = {}
        self._sizes: list[int | None] = []
        self._tails: dict[int, tuple[int, int, int] | None] = {}
        self._heads: dict[int, bool] = {}
        self.measured_cuts: dict[tuple[int, int], tuple[list[str], str, int]] = {}
        # tokenizers with clean positions call the boundary after a word clean; the rest have none
        self.local = self.clean("a", " ")

    def clean(self, left: str, right: str) -> bool:
        """The tokenizer's ``clean_boundary``, memoized per character pair."""
        return self._clean_pairs[(left, right)]

    def unclean_cuts(self, cuts: list[int], right: str | None = None) -> list[int]:
        """The cuts whose join is not clean, in order.

        A cut ``b`` (0 < b < len(text)) joins ``text[b - 1] | text[b]``; ``right``, when
        given, is ``text[b]`` at every cut.
        """
        text, clean = self.text, self.clean
        lefts = list(map(text.__getitem__, map((-1).__add__, cuts)))
        if right:
            bad_left = {c for c in set(lefts) if not clean(c, right)}
            return list(compress(cuts, map(bad_left.__contains__, lefts))) if bad_left else []
        pairs = list(zip(lefts, map(text.__getitem__, cuts), strict=False))
        bad = {pair for pair in set(pairs) if not clean(*pair)}
        return list(compress(cuts, map(bad.__contains__, pairs))) if bad else []

    def count(self, s: int, e: int) -> int:
        if self.is_len:
            return e - s
        piece = self.text[s:e]
        n = self.cache.get(piece)
        if n is None:
            n = self.cache[piece] = self.tok.count_tokens(piece)
        return n

    def size_or_over(self, s: int, e: int) -> int:
        """The count of a span, or ``size + 1`` when a prefix shows it is too long.

        The prefix ends at a clean position, so that its count is part of the whole's.
        """
        if self.is_len:
            return e - s
        probe = self.size * _PROBE_CHARS_PER_TOKEN
        if e - s > probe:
            cut = s + probe
            if self.local:  # probe up to a clean position, so the prefix's count is part of the whole's
                text, floor = self.text, max(s, cut - _LOCAL_REACH)
                while cut > floor and not self.clean(text[cut - 1], text[cut]):
                    cut -= 1
                if cut == floor:
                    return self.count(s, e)
            if self.count(s, cut) > self.size:
                return self.size + 1
        return self.count(s, e)

    def joined(self, start: int, end: int, unclean: list[int], total: int) -> int:
        """Exact count of ``text[start:end]``.

        Given the sum ``total`` of the counts of its pieces and the cuts between pieces
        that are not clean (in order).

        At a clean cut the counts add up. Around unclean cuts ``b1..bm`` only a local
        window ``p..q`` is measured, where ``p`` and ``q`` are the nearest clean
        positions (or the span's ends) with no clean position between the cuts: the
        joined count differs from the sum by ``count(p..q)`` minus the counts of
        ``p..b1, b1..b2, ..., bm..q``. A window with one cut depends only on the
        characters around it, so its difference is memoized by them.
        """
        if not self.local:
            return self.count(start, end)
        text, deltas, reach, count = self.text, self._deltas, _LOCAL_REACH, self.count
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
            p = self._clean_before(b, start)
            window = [p, b]  # [p, b1, ..., bm]; q is found after bm
            q = self._clean_after(b, end)
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

    def join_fixes(self, unclean: list[int]) -> _JoinFixes:
        """The memoized corrections at many unclean cuts of one split, for groups of its pieces."""
        text, deltas, reach = self.text, self._deltas, _LOCAL_REACH
        limit = len(text) - reach
        keys: list[str | None] = [text[b - reach : b + reach] for b in unclean]
        if unclean[0] < reach or unclean[-1] > limit:
            keys = [key if reach <= b <= limit else None for key, b in zip(keys, unclean, strict=False)]
        hits = list(map(deltas.get, keys, repeat(_UNKNOWN)))  # type: ignore[arg-type]
        missing = list(map(is_, hits, repeat(_UNKNOWN)))
        if True in missing:
            # one occurrence of each new key: the window lies within the key's characters
            todo = dict(zip(compress(keys, missing), compress(unclean, missing), strict=False))
            todo.pop(None, None)
            for key in self._no_window.intersection(todo):  # no clean position near: measured around it
                del todo[key]
            windows: list[tuple[str, int, int, int]] = []
            for key, b in todo.items():  # type: ignore[assignment]
                p, q = self._clean_before(b, b - reach), self._clean_after(b, b + reach)
                if b - reach < p and q < b + reach:
                    windows.append((key, p, b, q))
                else:
                    self._no_window.add(key)
            if windows:
                ns = iter(self.exact_counts([span for _, p, b, q in windows for span in ((p, q), (p, b), (b, q))]))
                for (key, p, b, q), whole, left, right in zip(windows, ns, ns, ns, strict=False):
                    deltas[key] = (whole - left - right, p - b, q - b)
                hits = list(map(deltas.get, keys, repeat(_UNKNOWN)))  # type: ignore[arg-type]
        return _JoinFixes(len(text), unclean, hits)  # type: ignore[arg-type]

    def _clean_before(self, b: int, floor: int) -> int:
        """The nearest clean position ``p < b``, or ``floor`` when there is none after it."""
        text, clean = self.text, self._clean_pairs.__getitem__
        p = b - 1
        while p > floor and not clean((text[p - 1], text[p])):
            p -= 1
        return max(p, floor)

    def _clean_after(self, b: int, ceil: int) -> int:
        """The nearest clean position ``q > b``, or ``ceil`` when there is none before it."""
        text, clean = self.text, self._clean_pairs.__getitem__
        q = b + 1
        while q < ceil and not clean((text[q - 1], text[q])):
            q += 1
        return min(q, ceil)

    def part_counts(self, parts: list[str], sep: str, start_mode: bool, bounds: list[int],
                    measure: Callable[[int, int], int]) -> tuple[list[int], list[int]]:  # fmt: skip
        """Exact counts and ids of the non-empty pieces of a split.

        The pieces are ``parts[0]``, then ``sep + part`` for the others (``start_mode``),
        or ``part + sep`` for all but the last, then the last. ``bounds`` are the pieces'
        offsets (empty ones included).

        Each distinct piece gets an id (per separator, by its part, so the pieces are not
        sliced out of the text again) and is counted once: equal ids mean equal piece
        texts. The unattached end piece and the pieces of a character split get ids of
        their own. A piece long enough that it probably has to be split is not tokenized
        whole: ``measure(start, end)`` sizes it from the parts its own split needs anyway.
        """
        sizes = self._sizes
        if not sep:  # characters
            counts = self.counts([(b, c) for b, c in pairwise(bounds) if b < c])
            first = len(sizes)
            sizes.extend(counts)
            return counts, list(range(first, len(sizes)))
        memo = self._part_ids.setdefault((sep, start_mode), {})
        body = parts[1:] if start_mode else parts[:-1]
        ids = list(map(memo.get, body)) if memo else None  # a first split: all new
        longest = self.size * _WHOLE_CHARS_PER_TOKEN - len(sep)
        if ids is None or None in ids:
            new = list(set(body) if ids is None else set(compress(body, map(is_, ids, repeat(None)))))
            memo.update(zip(new, range(len(sizes), len(sizes) + len(new)), strict=False))
            sizes.extend(repeat(None, len(new)))
            todo = [p for p in new if len(p) <= longest]
            if todo:
                pieces = [sep + p for p in todo] if start_mode else [p + sep for p in todo]
                for p, n in zip(todo, self.tok.count_tokens_batch(pieces), strict=False):
                    sizes[memo[p]] = n
            ids = list(map(memo.__getitem__, body))
        out = list(map(sizes.__getitem__, ids))  # type: ignore[arg-type]
        if None in out:  # long pieces
            first = 1 if start_mode else 0  # index in bounds of body[0]'s piece
            for k in [k for k, c in enumerate(out) if c is None]:
                n = sizes[ids[k]]  # type: ignore[assignment, index]
                if n is None:
                    n = sizes[ids[k]] = measure(bounds[k + first], bounds[k + first + 1])
                out[k] = n
        end = parts[0] if start_mode else parts[-1]
        if not end:
            return out, ids  # type: ignore[return-value]
        lo, hi = (bounds[0], bounds[1]) if start_mode else (bounds[-2], bounds[-1])
        n = self.count(lo, hi) if len(end) <= longest else measure(lo, hi)
        sizes.append(n)
        end_id = len(sizes) - 1
        return ([n, *out], [end_id, *ids]) if start_mode else ([*out, n], [*ids, end_id])  # type: ignore[list-item]

    def start_fixes(self, bounds: list[int], ids: list[int], sep: str) -> tuple[list[int], list[tuple[int, int, int]]]:
        """The unclean inner bounds of a "start" mode split and the correction at each.

        ``bounds`` and the piece ids come from :meth:`part_counts`; every piece but an
        unattached first one begins with ``sep``. The correction at each bound whose join
        is not clean is as in :meth:`joined`, or ``_UNKNOWN``.

        The join ``b`` after a piece is followed by ``sep``, so its window runs from the
        nearest clean position ``p`` inside the piece to the first clean position ``q``
        in ``sep``, or right after it when the next piece's ``sep|part`` join is clean.
        Both the correction and whether it applies depend on one piece each, so they
        are computed once per piece id, not per join.
        """
        text, tails, heads, w, clean = self.text, self._tails, self._heads, len(sep), self.clean
        inside = next((x for x in range(1, w) if clean(sep[x - 1], sep[x])), None)  # a clean position in sep
        if not tails.keys() >= set(ids):
            where = dict(zip(ids, range(len(ids)), strict=False))  # id -> a piece with it
            windows: list[tuple[int, int, int, int]] = []
            for uid in [uid for uid in where if uid not in tails]:
                k = where[uid]
                s, b = bounds[k], bounds[k + 1]
                heads[uid] = b - s > w and text.startswith(sep, s) and clean(sep[-1], text[s + w])
                if clean(text[b - 1], sep[0]):
                    tails[uid] = None
                    continue
                p = self._clean_before(b, s)
                if p > s:
                    windows.append((uid, p, b, inside or w))
                else:
                    tails[uid] = _UNKNOWN
            if windows:
                strings = [t for _, p, b, q in windows for t in (text[p:b] + sep[:q], text[p:b], sep[:q])]
                ns = iter(self.string_counts(strings))
                for (uid, p, b, q), whole, left, right in zip(windows, ns, ns, ns, strict=False):
                    tails[uid] = (whole - left - right, p - b, q)
        infos = list(map(tails.__getitem__, islice(ids, 0, len(ids) - 1)))
        unclean = list(map(is_not, infos, repeat(None)))
        cuts = list(compress(islice(bounds, 1, len(bounds) - 1), unclean))
        hits = list(compress(infos, unclean))
        if inside is None:  # the window ends after sep only when the next piece's sep|part join is clean
            ok = compress(map(heads.__getitem__, islice(ids, 1, None)), unclean)
            hits = [hit if good else _UNKNOWN for hit, good in zip(hits, ok, strict=False)]
        return cuts, hits  # type: ignore[return-value]

    def exact_counts(self, spans: list[tuple[int, int]]) -> list[int]:
        """Exact counts of many spans of the text (:meth:`string_counts` of their slices)."""
        text = self.text
        return self.string_counts([text[s:e] for s, e in spans])

    def string_counts(self, pieces: list[str]) -> list[int]:
        """Exact counts of many strings, in one native batch, each distinct one once."""
        cache = self.cache
        todo = [p for p in set(pieces) if p not in cache]
        if todo:
            cache.update(zip(todo, self.tok.count_tokens_batch(todo), strict=False))
        return list(map(cache.__getitem__, pieces))

    def counts(self, spans: list[tuple[int, int]]) -> list[int]:
        """:meth:`size_or_over` of many spans.

        Short ones are counted exactly in one native batch (:meth:`exact_counts`), long
        ones may stop at a prefix that is too long.
        """
        if self.is_len:
            return [e - s for s, e in spans]
        probe = self.size * _PROBE_CHARS_PER_TOKEN
        if all(e - s <= probe for s, e in spans):
            return self.exact_counts(spans)
        short = iter(self.exact_counts([(s, e) for s, e in spans if e - s <= probe]))
        return [next(short) if e - s <= probe else self.size_or_over(s, e) for s, e in spans]


def _drop_empty_end(bounds: list[int]) -> list[int]:
    """Bounds without the empty piece a split leaves at an end.

    A split leaves one when the text starts ("start" mode) or ends ("end" mode) with the
    separator.
    """
    if bounds[0] == bounds[1]:
        return bounds[1:]
    if bounds[-1] == bounds[-2]:
        return bounds[:-1]
    return bounds


class _JoinFixes:
    """Prefix sums of the memoized corrections at the unclean cuts of one split.

    A group of its pieces is then sized in O(log n); see :meth:`_Counter.joined`.
    """

    def __init__(self, text_length: int, unclean: list[int], hits: list[tuple[int, int, int]]):
        self.hits = hits  # (correction, window start - cut, window end - cut), or _UNKNOWN
        self.fix = list(accumulate(map(itemgetter(0), hits), initial=0))
        self.lo = list(map(add, unclean, map(itemgetter(1), hits)))
        self.hi = list(map(add, unclean, map(itemgetter(2), hits)))
        # bad[k]: how many of the cuts 0..k-1 are unknown or have a window that reaches the next cut
        nexts = chain(islice(unclean, 1, None), (text_length,))
        reaches = map(lt, nexts, self.hi)
        self.bad = list(accumulate(map(or_, map(is_, hits, repeat(_UNKNOWN)), reaches), initial=0))


class RecursiveChunker(TextChunker):
    r"""Splits text at the coarsest separators that make pieces fit, then packs pieces.

    Follows the recursive character splitter design (LangChain's
    ``RecursiveCharacterTextSplitter``, chunk-clj): try separators from coarsest to
    finest until each piece fits ``chunk_size``, then pack consecutive pieces
    greedily up to the limit, repeating ``chunk_overlap`` of trailing context.

    Args:
        chunk_size: Maximum size of a chunk, in tokens of ``tokenizer`` (characters
            by default); >= 1.
        chunk_overlap: Trailing context of each chunk repeated at the start of the
            next, in the same units, taken at piece boundaries; 0 <= overlap < chunk_size.
        separators: Literal separator strings, coarsest first; default
            ``["\n\n", "\n", " ", ""]`` (``""`` splits into characters).
        keep_separator: ``"start"`` attaches a separator to the piece after it (so
            Markdown ``##`` and ``def`` stay with their content), ``"end"`` to the
            piece before it, ``False`` drops separators that fall on a chunk boundary.
        language: A preset from :func:`docchunk.separators_for` (``markdown``,
            ``python``, ``clojure``, ``javascript``, ``typescript``, ``java``, ``go``,
            ``rust``, ``html``, ``latex``); not together with ``separators``.
        tokenizer: Any spec :func:`docchunk.get_tokenizer` accepts, or a callable
            ``str -> int``.

    Invariants of ``chunk(text)``: ``text[c.start_index:c.end_index] == c.text`` for
    every chunk; ``c.token_count`` is the exact size of ``c.text``; no chunk exceeds
    ``chunk_size`` except a piece with no finer separator left, which is emitted
    whole with ``oversized=True``; chunks are in order and, apart from overlap and
    (with ``keep_separator=False``) separators at chunk boundaries, cover the whole
    text; a whitespace-only chunk appears only when the input is whitespace or when
    joining it to either neighbour would exceed ``chunk_size``.
    Text that fits comes back whole as one chunk; ``""`` gives no chunk. With
    ``keep_separator=False``, text that does not fit and consists only of separators
    (e.g. 200 spaces at ``chunk_size=1``) gives no chunk: every piece is a dropped
    separator.

    Raises:
        ConfigError: Invalid sizes, ``chunk_overlap >= chunk_size``, both
            ``language`` and ``separators``, an unknown language, bad separators.

    Example:
        >>> [c.text for c in RecursiveChunker(chunk_size=12)("Hello world.\n\nBye now.")]
        ['Hello world.', '\n\nBye now.']
    """

    def __init__(
        self,
        chunk_size: int = 1000,
        chunk_overlap: int = 0,
        separators: list[str] | None = None,
        keep_separator: Any = "start",
        language: str | None = None,
        tokenizer: Any = "character",
    ):
        super().__init__(tokenizer)
        self.chunk_size = check_size("chunk_size", chunk_size, 1)
        self.chunk_overlap = check_size("chunk_overlap", chunk_overlap, 0)
        if chunk_overlap >= chunk_size:
            raise ConfigError(f"chunk_overlap ({chunk_overlap!r}) must be smaller than chunk_size ({chunk_size!r})")
        if language is not None and separators is not None:
            raise ConfigError("pass either language= or separators=, not both")
        if keep_separator is not False and keep_separator not in ("start", "end"):
            raise ConfigError(f'keep_separator must be "start", "end" or False, got {keep_separator!r}')
        if separators is not None:
            if not isinstance(separators, (list, tuple)) or not all(isinstance(s, str) for s in separators):
                raise ConfigError(f"separators must be a list of str, got {separators!r}")
            if not separators:
                raise ConfigError('separators must not be empty; pass None for the default ["\\n\\n", "\\n", " ", ""]')
            separators = list(separators)
        self.separators = separators_for(language) if language is not None else (separators or list(DEFAULT_SEPARATORS))
        self.keep_separator = keep_separator
        self.language = language
        self._by_length = isinstance(self.tokenizer, CharacterTokenizer)
        self._additive = self.tokenizer.joins_additively("")

    # -- phase 1: split -------------------------------------------------------------
    def _split(self, text: str, counter: _Counter) -> list[tuple[int, int, int, bool]]:
        """Groups ``(start, end, tokens, oversized)`` in order, each within ``chunk_size``.

        A span that does not fit is split at the first separator (from its level on)
        that occurs in it; its consecutive pieces are grouped greedily while they fit,
        and a piece that alone is too large is split again at the next level.
        """
        groups: list[tuple[int, int, int, bool]] = []
        n = counter.size_or_over(0, len(text))
        if n <= self.chunk_size:
            return [(0, len(text), n, False)]
        self._visit(text, 0, len(text), 0, counter, groups)
        return groups

    def _visit(self, text: str, lo: int, hi: int, level: int, counter: _Counter, groups: list) -> None:
        cut = counter.measured_cuts.pop((lo, level), None) or self._split_once(text, lo, hi, level)
        if cut is None:
            groups.append((lo, hi, counter.count(lo, hi), True))
            return
        parts, sep, next_level = cut
        lengths, width = list(map(len, parts)), len(sep)
        if self.keep_separator and not self.chunk_overlap:
            bounds = self._bounds(lo, lengths, width)
            if counter.is_len:
                self._visit_by_length(text, bounds, next_level, counter, groups)
            else:
                self._visit_contiguous(text, bounds, parts, sep, next_level, counter, groups)
            return
        pieces = self._pieces(lo, lengths, width)
        size = self.chunk_size
        counts = counter.counts(pieces)
        run: list[int] = []  # indices of the pieces in the current group
        total = 0
        for index, count in enumerate(counts):
            if count > size:
                self._flush(text, pieces, counts, run, total, counter, groups)
                run, total = [], 0
                s, e = pieces[index]
                self._visit(text, s, e, next_level, counter, groups)
                continue
            gap = self._gap(counter, pieces, run[-1], index) if run else 0
            # with overlap, pieces stay apart so that overlap can be taken at piece boundaries
            if run and not self.chunk_overlap and total + gap + count <= size:
                run.append(index)
                total += gap + count
            else:
                self._flush(text, pieces, counts, run, total, counter, groups)
                run, total = [index], count
        self._flush(text, pieces, counts, run, total, counter, groups)

    def _gap(self, counter: _Counter, pieces: list[tuple[int, int]], a: int, b: int) -> int:
        return counter.count(pieces[a][1], pieces[b][0]) if pieces[a][1] < pieces[b][0] else 0

    def _flush(self, text: str, pieces: list, counts: list[int], run: list[int], total: int,
               counter: _Counter, groups: list) -> None:  # fmt: skip
        """Emit a group; its size is exact by arithmetic at clean boundaries, else measured once."""
        if not run:
            return
        s, e = pieces[run[0]][0], pieces[run[-1]][1]
        if len(run) > 1 and not self._clean(text, pieces, run):
            exact = counter.count(s, e)
            if exact > self.chunk_size:  # the estimate was low: keep the pieces apart
                groups.extend((pieces[i][0], pieces[i][1], counts[i], False) for i in run)
                return
            total = exact
        groups.append((s, e, total, False))

    def _clean(self, text: str, pieces: list, run: Any) -> bool:
        """Whether the joined size of ``pieces[run]`` is the sum of their sizes."""
        if self._additive:
            return True
        tok = self.tokenizer
        for a, b in pairwise(run):
            if pieces[a][1] != pieces[b][0]:  # a dropped separator lies between: measure
                return False
            cut = pieces[b][0]
            if not tok.clean_boundary(text[cut - 1], text[cut]):
                return False
        return True

    def _visit_by_length(self, text: str, bounds: list[int], next_level: int, counter: _Counter, groups: list) -> None:
        """Character mode with contiguous pieces: greedy groups found by binary search on offsets."""
        size, last, i = self.chunk_size, len(bounds) - 1, 0
        while i < last:
            start = bounds[i]
            if bounds[i + 1] - start > size:
                self._visit(text, start, bounds[i + 1], next_level, counter, groups)
                i += 1
                continue
            j = bisect_right(bounds, start + size, i + 1) - 1
            if bounds[j] > start:
                groups.append((start, bounds[j], bounds[j] - start, False))
            i = j

    def _visit_contiguous(self, text: str, bounds: list[int], parts: list[str], sep: str, next_level: int,
                          counter: _Counter, groups: list) -> None:  # fmt: skip
        """Token mode with contiguous pieces ``bounds[k]:bounds[k + 1]``.

        The pieces are the ``parts`` of a split with ``sep`` attached per
        ``keep_separator``: greedy groups by binary search on prefix sums of the piece
        counts, sized again only across unclean joins.
        """
        bounds, counts, ids = self._piece_counts(text, bounds, parts, sep, next_level, counter)
        size, n = self.chunk_size, len(bounds) - 1
        prefix = list(accumulate(counts, initial=0))
        plan: list[tuple[int, int]] = []  # greedy groups i..j-1 by their sums; j = 0 for an oversized piece
        i = 0
        while i < n:
            if counts[i] > size:
                plan.append((i, 0))
                i += 1
            else:
                j = bisect_right(prefix, prefix[i] + size, i + 1) - 1  # pieces i..j-1 fit by their sum
                plan.append((i, j))
                i = j
        inner: list[int] = []  # unclean joins (a group's own edges need no correction and get none)
        if not self._additive:
            if sep and self.keep_separator == "start" and n > 1:  # corrections per piece: edges cost nothing
                inner, found = counter.start_fixes(bounds, ids, sep)
                fixes = _JoinFixes(len(text), inner, found)
            else:  # corrections per join: skip the groups' edges
                edges = {bounds[i] for i, _ in plan}
                inner = list(filterfalse(edges.__contains__, self._unclean_joins(counter, bounds, sep)))
                fixes = counter.join_fixes(inner) if inner else None  # type: ignore[assignment]
        if inner:
            bad, hits, lows, highs, fix = fixes.bad, fixes.hits, fixes.lo, fixes.hi, fixes.fix
        for i, j in plan:
            if not j:
                self._visit_repeated(text, bounds[i], bounds[i + 1], ids[i], next_level, counter, groups)
                continue
            start, end = bounds[i], bounds[j]
            total = prefix[j] - prefix[i]
            if inner and j - i > 1 and (a := bisect_right(inner, start)) < (z := bisect_left(inner, end)):
                if bad[z - 1] == bad[a] and hits[z - 1] is not _UNKNOWN and lows[a] >= start and highs[z - 1] <= end:
                    total += fix[z] - fix[a]
                else:  # a window reaches past a neighbour or the group: measure around them
                    total = counter.joined(start, end, inner[a:z], total)
                if total > size:  # the sum was low: keep the pieces apart, packing measures joins
                    groups.extend((bounds[k], bounds[k + 1], counts[k], False) for k in range(i, j))
                    continue
            groups.append((start, end, total, False))

    def _piece_counts(self, text: str, bounds: list[int], parts: list[str], sep: str, next_level: int,
                      counter: _Counter) -> tuple[list[int], list[int], list[int]]:  # fmt: skip
        """The bounds of the non-empty pieces of a split, their exact counts and their ids.

        See :meth:`_Counter.part_counts`; a long piece is sized from its own parts at
        ``next_level``.
        """
        counts, ids = counter.part_counts(parts, sep, self.keep_separator == "start", bounds,
                                          lambda s, e: self._measure(text, s, e, next_level, counter))  # fmt: skip
        return _drop_empty_end(bounds), counts, ids

    def _unclean_joins(self, counter: _Counter, bounds: list[int], sep: str) -> list[int]:
        """The inner bounds of contiguous pieces whose join is not clean.

        "start" mode puts ``sep`` right of every one.
        """
        return counter.unclean_cuts(bounds[1:-1], sep[:1] if self.keep_separator == "start" else None)

    def _measure(self, text: str, lo: int, hi: int, level: int, counter: _Counter) -> int:
        """Exact size of ``text[lo:hi]``.

        From the counts of its parts at ``level`` and the corrections at their unclean
        joins (contiguous pieces only).
        """
        cut = self._split_once(text, lo, hi, level)
        if cut is None or not cut[1]:  # indivisible, or characters: count it whole
            return counter.count(lo, hi)
        parts, sep, next_level = cut
        bounds = self._bounds(lo, list(map(len, parts)), len(sep))
        bounds, counts, _ = self._piece_counts(text, bounds, parts, sep, next_level, counter)
        total = sum(counts)
        unclean = [] if self._additive else self._unclean_joins(counter, bounds, sep)
        if unclean:
            total = counter.joined(lo, hi, unclean, total)
        if total > self.chunk_size:  # it will be split: keep the split for _visit
            counter.measured_cuts[(lo, level)] = cut
        return total

    def _visit_repeated(self, text: str, lo: int, hi: int, piece_id: int, level: int, counter: _Counter,
                        groups: list) -> None:  # fmt: skip
        """:meth:`_visit`, memoized per call by the piece's id.

        Equal ids, equal texts (see :meth:`_Counter.part_counts`): an oversized piece that
        occurs again (boilerplate, repeated table rows) is split the same way.
        """
        key = (piece_id, level)
        known = counter.splits.get(key)
        if known is None:
            first = len(groups)
            self._visit(text, lo, hi, level, counter, groups)
            counter.splits[key] = [(s - lo, e - lo, n, flag) for s, e, n, flag in groups[first:]]
        else:
            groups.extend([(s + lo, e + lo, n, flag) for s, e, n, flag in known])

    def _split_once(self, text: str, lo: int, hi: int, level: int) -> tuple[list[str], str, int] | None:
        """Split ``text[lo:hi]`` once, at the first separator (from ``level`` on) in it.

        Returns the parts between its occurrences, that separator and the next level;
        None when no separator is left (``""`` splits into characters).
        """
        for index in range(level, len(self.separators)):
            sep = self.separators[index]
            if sep == "":
                return (list(text[lo:hi]), sep, index + 1) if hi - lo > 1 else None
            if text.find(sep, lo, hi) == -1:
                continue
            return (text if hi - lo == len(text) else text[lo:hi]).split(sep), sep, index + 1
        return None

    def _bounds(self, lo: int, lengths: list[int], width: int) -> list[int]:
        """Boundaries of the contiguous pieces (``keep_separator`` "start" or "end"); may repeat."""
        starts = list(accumulate(map(width.__add__, lengths), initial=lo))  # starts[i]: start of part i
        hi = starts[-1] - width
        if self.keep_separator == "start":
            return [lo, *map((-width).__add__, islice(starts, 1, len(starts) - 1)), hi]
        starts[-1] = hi
        return starts

    def _pieces(self, lo: int, lengths: list[int], width: int) -> list[tuple[int, int]]:
        """Non-empty spans of the pieces, with the separator kept per ``keep_separator``."""
        if self.keep_separator:
            bounds = self._bounds(lo, lengths, width)
            return [(a, b) for a, b in pairwise(bounds) if a < b]
        starts = accumulate((n + width for n in lengths), initial=lo)
        return [(q, q + n) for q, n in zip(starts, lengths, strict=False) if n]

    # -- phase 2: pack --------------------------------------------------------------
    def _pack(
        self, groups: list[tuple[int, int, int, bool]], counter: _Counter, text: str
    ) -> list[tuple[int, int, int, bool]]:
        """Greedy packing of groups with overlap; returns ``(start, end, token_count, oversized)``."""
        size, overlap = self.chunk_size, self.chunk_overlap
        counts = [g[2] for g in groups]
        if all(a[1] == b[0] for a, b in pairwise(groups)):  # contiguous: nothing between groups
            gaps = [0] * max(0, len(groups) - 1)
        else:
            gaps = [counter.count(groups[i][1], groups[i + 1][0]) for i in range(len(groups) - 1)]
        out: list[tuple[int, int, int, bool]] = []
        n, i = len(groups), 0
        while i < n:
            if groups[i][3]:
                out.append((groups[i][0], groups[i][1], counts[i], counts[i] > size))
                i += 1
                continue
            j, total = i + 1, counts[i]
            while j < n and not groups[j][3] and total + gaps[j - 1] + counts[j] <= size:
                total += gaps[j - 1] + counts[j]
                j += 1
            if j - i > 1 and not self._clean(text, groups, range(i, j)):
                total = self._joined_groups(counter, groups, counts, i, j)
                while total > size and j - 1 > i:
                    j -= 1
                    total = self._joined_groups(counter, groups, counts, i, j)
            out.append((groups[i][0], groups[j - 1][1], total, False))
            if j >= n:
                break
            i = self._overlap_start(i, j, counts, gaps, groups) if overlap else j
        return out

    def _joined_groups(self, counter: _Counter, groups: list, counts: list[int], i: int, j: int) -> int:
        """Exact size of groups ``i..j-1`` joined: by local windows when they are contiguous."""
        start, end = groups[i][0], groups[j - 1][1]
        if any(groups[k - 1][1] != groups[k][0] for k in range(i + 1, j)):
            return counter.count(start, end)
        unclean = counter.unclean_cuts([groups[k][0] for k in range(i + 1, j)])
        return counter.joined(start, end, unclean, sum(counts[i:j]))

    def _overlap_start(self, i: int, j: int, counts: list[int], gaps: list[int], groups: list) -> int:
        """First group of the next chunk: trailing groups of this one within ``chunk_overlap``."""
        k, carried = j, 0
        while k - 1 > i and carried + counts[k - 1] + gaps[k - 1] <= self.chunk_overlap:
            k -= 1
            carried += counts[k] + gaps[k]
        if not groups[j][3]:
            while k < j and carried + gaps[j - 1] + counts[j] > self.chunk_size:
                carried -= counts[k] + gaps[k]
                k += 1
        return k

    # -- public --------------------------------------------------------------------
    def with_budget(self, tokenizer: Any, chunk_size: int) -> RecursiveChunker:
        """A copy with another tokenizer and ``chunk_size`` (the overlap capped below it)."""
        return RecursiveChunker(chunk_size, min(self.chunk_overlap, chunk_size - 1), list(self.separators),
                                self.keep_separator, None, tokenizer)  # fmt: skip

    def chunk(self, text: str) -> list[Chunk]:
        """Split ``text``; see the class docstring for the invariants."""
        text = self._check_text(text)
        if not text:
            return []
        counter = _Counter(self, text)
        chunks = make_chunks(text, self._pack(self._split(text, counter), counter, text))
        return absorb_whitespace_chunks(text, chunks, self.tokenizer, self.chunk_size)
