"""Recursive splitting by separator levels, greedy packing, overlap; exact offsets.

The chunker runs in phases, each a function of its own:

1. :func:`_split` cuts the text at the coarsest separator present, groups consecutive
   pieces greedily while they fit and splits a piece that does not fit at the next
   separator level;
2. :func:`_pack` packs the groups greedily into chunks, each within ``chunk_size``;
3. :func:`_overlap_start` picks the groups repeated at the start of the next chunk.

Every size comes from one :class:`~docchunk.chunkers.text.pieces.PieceSizer` per call: pieces
are counted once each in native batches, and groups are sized by arithmetic at clean
joins with local corrections elsewhere.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from functools import lru_cache
from itertools import accumulate, pairwise
from typing import Literal, NamedTuple

from docchunk.chunkers.text.base import TextChunker, absorb_whitespace_chunks, check_size
from docchunk.chunkers.text.pieces import PieceSizer, drop_empty_end
from docchunk.chunkers.text.separators import DEFAULT_SEPARATORS, separators_for
from docchunk.errors import ConfigError
from docchunk.markup.fences import keep_fences_closed
from docchunk.tokenizers import Sizer, TokenizerSpec
from docchunk.tokenizers.spans import JoinFixes
from docchunk.types import Chunk
from docchunk.types.chunk import make_chunks

__all__ = ["RecursiveChunker"]

Group = tuple[int, int, int, bool]
"""``(start, end, tokens, oversized)``: a span of the text and its exact size."""
Cut = tuple[list[str], str, int]
"""A split of a span: the parts between the occurrences of a separator, the separator, the next level."""
_BREAK = r"(?:\r\n|\r(?!\n)|\n)"  # a line break: CRLF, CR or LF
_CHARACTER = re.compile(r"\r\n|.", re.DOTALL)  # the "" level of text with "\r": "\r\n" is one character


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
            ``rust``, ``html``, ``latex``, ``c``, ``cpp``, ``csharp``, ``kotlin``,
            ``php``, ``ruby``, ``scala``, ``swift``); not together with ``separators``.
        tokenizer: Any spec :func:`docchunk.get_tokenizer` accepts, or a callable
            ``str -> int``.

    Invariants of ``chunk(text)``: ``text[c.start_index:c.end_index] == c.text`` for
    every chunk; ``c.token_count`` is the exact size of ``c.text``; no chunk exceeds
    ``chunk_size`` except a piece with no finer separator left, which is emitted
    whole with ``oversized=True``; a line break is ``"\n"``, ``"\r\n"`` or ``"\r"``:
    every separator with a line break matches all three (``"\n\n"`` finds the
    paragraphs of Windows text) and no chunk ends between ``"\r"`` and ``"\n"``
    (``""`` keeps a ``"\r\n"`` whole); chunks are in order and, apart from overlap and
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
        keep_separator: Literal["start", "end", False] = "start",
        language: str | None = None,
        tokenizer: TokenizerSpec = "character",
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
        self._additive = self.tokenizer.joins_additively("")
        # Markdown code fences among the separators: keep a closing fence with its block
        self._fences = any(sep.strip("\n").startswith(("```", "~~~")) for sep in self.separators)


    def with_budget(self, tokenizer: TokenizerSpec, chunk_size: int) -> RecursiveChunker:
        """A copy with another tokenizer and ``chunk_size`` (the overlap capped below it)."""
        return RecursiveChunker(chunk_size, min(self.chunk_overlap, chunk_size - 1), list(self.separators),
                                self.keep_separator, None, tokenizer)  # fmt: skip

    def chunk(self, text: str, sizer: Sizer | None = None) -> list[Chunk]:
        """Split ``text``; see the class docstring for the invariants.

        Args:
            text: The text.
            sizer: A :class:`~docchunk.tokenizers.Sizer` of this chunker's tokenizer
                whose cached counts to use and extend (shared over many texts); a new
                one when None.
        """
        text = self._check_text(text)
        if not text:
            return []
        call = _Call(self, text, sizer or Sizer(self.tokenizer))
        chunks = make_chunks(text, _pack(call, _split(call)))
        if self._fences:
            chunks = keep_fences_closed(text, chunks, self.tokenizer, self.chunk_size)
        return absorb_whitespace_chunks(text, chunks, self.tokenizer, self.chunk_size)


class _Call:
    """The state of one ``chunk()`` call: the text, its span sizes, the groups found so far, memos."""

    def __init__(self, chunker: RecursiveChunker, text: str, sizer: Sizer):
        self.text = text
        self.size = chunker.chunk_size
        self.overlap = chunker.chunk_overlap
        self.separators = chunker.separators
        self.keep = chunker.keep_separator
        self.additive = chunker._additive
        self.spans = PieceSizer(sizer, text)
        self.breaks = "\r" in text  # line breaks may be "\r\n" or "\r": separators match them all
        self.groups: list[Group] = []
        self.repeats: dict[tuple[int, int], list[Group]] = {}  # by piece id and level: relative groups
        self.measured_cuts: dict[tuple[int, int], Cut] = {}  # splits made while measuring, by start and level

    # -- phase 1: split ------------------------------------------------------------------
    def visit(self, lo: int, hi: int, level: int) -> None:
        """Append the groups of ``text[lo:hi]``, a span that does not fit, split from ``level`` on."""
        cut = self.measured_cuts.pop((lo, level), None) or self.split_once(lo, hi, level)
        if cut is None:
            self.groups.append((lo, hi, self.spans.count(lo, hi), True))
            return
        if isinstance(cut, _Pieces):
            self.group_pieces(cut.spans, cut.next_level)
            return
        parts, sep, next_level = cut
        lengths = [len(p) for p in parts]
        if self.keep and not self.overlap:
            bounds = _bounds(lo, lengths, len(sep), self.keep == "start")
            if self.spans.by_length:
                self.group_by_length(bounds, next_level)
            else:
                self.group_contiguous(bounds, parts, sep, next_level)
            return
        self.group_pieces(_pieces(lo, lengths, len(sep), self.keep), next_level)

    def split_once(self, lo: int, hi: int, level: int) -> Cut | _Pieces | None:
        r""":func:`_split_once`; in text with ``"\r"``, every kind of line break matches ``"\n"``."""
        if self.breaks:
            return _split_breaks(self.separators, self.text, lo, hi, level, self.keep)
        return _split_once(self.separators, self.text, lo, hi, level)

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
        if len(run) > 1 and not _adds_up(self, pieces, run):
            exact = self.spans.count(s, e)
            if exact > self.size:  # the estimate was low: keep the pieces apart
                self.groups.extend((pieces[i][0], pieces[i][1], counts[i], False) for i in run)
                return
            total = exact
        self.groups.append((s, e, total, False))

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
        if cut is None or isinstance(cut, _Pieces) or not cut[1]:  # indivisible, characters, breaks: count it whole
            return self.spans.count(lo, hi)
        parts, sep, next_level = cut
        bounds = _bounds(lo, [len(p) for p in parts], len(sep), self.keep == "start")
        bounds, counts, _ = self.piece_counts(bounds, parts, sep, next_level)
        total = sum(counts)
        unclean = [] if self.additive else self.unclean_joins(bounds, sep)
        if unclean:
            total = self.spans.joined(lo, hi, unclean, total)
        if total > self.size:
            self.measured_cuts[(lo, level)] = cut
        return total

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


def _split(call: _Call) -> list[Group]:
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


def _split_once(separators: list[str], text: str, lo: int, hi: int, level: int) -> Cut | None:
    """Split ``text[lo:hi]`` once, at the first separator (from ``level`` on) in it.

    Returns the parts between its occurrences, that separator and the next level;
    None when no separator is left (``""`` splits into characters).
    """
    for index in range(level, len(separators)):
        sep = separators[index]
        if sep == "":
            return (list(text[lo:hi]), sep, index + 1) if hi - lo > 1 else None
        if text.find(sep, lo, hi) == -1:
            continue
        return (text if hi - lo == len(text) else text[lo:hi]).split(sep), sep, index + 1
    return None


class _Pieces(NamedTuple):
    r"""A split of a span at separators of varying width (the line breaks of text with ``"\r"``)."""

    spans: list[tuple[int, int]]
    """The non-empty pieces, in order, with the separators kept as ``keep_separator`` says."""
    next_level: int


@lru_cache(maxsize=256)
def _break_pattern(sep: str) -> re.Pattern[str] | None:
    r"""``sep`` as a pattern whose line breaks match ``"\r\n"``, ``"\r"`` or ``"\n"``; None without a line break."""
    lines = sep.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return re.compile(_BREAK.join(re.escape(part) for part in lines)) if len(lines) > 1 else None


def _split_breaks(separators: list[str], text: str, lo: int, hi: int, level: int,
                  keep: Literal["start", "end", False]) -> Cut | _Pieces | None:  # fmt: skip
    r""":func:`_split_once` for text with ``"\r"``: a line break is ``"\r\n"``, ``"\r"`` or ``"\n"``.

    A separator with a line break matches every kind of line break, so ``"\n\n"``
    finds the paragraphs of Windows text (``"\r\n\r\n"``) as of Unix text, and no
    piece ends between ``"\r"`` and ``"\n"``; ``""`` keeps ``"\r\n"`` as one
    character. Other separators split as in :func:`_split_once`.
    """
    for index in range(level, len(separators)):
        sep = separators[index]
        if sep == "":
            chars = [m.span() for m in _CHARACTER.finditer(text, lo, hi)]
            return _Pieces(chars, index + 1) if len(chars) > 1 else None
        pattern = _break_pattern(sep)
        if pattern is None:
            if text.find(sep, lo, hi) != -1:
                return _split_once(separators, text, lo, hi, index)
            continue
        hits = [m.span() for m in pattern.finditer(text, lo, hi)]
        if hits:
            return _Pieces(_break_pieces(lo, hi, hits, keep), index + 1)
    return None


def _break_pieces(lo: int, hi: int, hits: list[tuple[int, int]],
                  keep: Literal["start", "end", False]) -> list[tuple[int, int]]:  # fmt: skip
    """The non-empty pieces of ``lo:hi`` between the separators at ``hits``, each kept per ``keep``."""
    if keep == "start":
        bounds = [lo, *(s for s, _ in hits), hi]
    elif keep == "end":
        bounds = [lo, *(e for _, e in hits), hi]
    else:
        edges = [lo, *(x for hit in hits for x in hit), hi]
        return [(a, b) for a, b in zip(edges[::2], edges[1::2], strict=True) if a < b]
    return [(a, b) for a, b in pairwise(bounds) if a < b]


def _bounds(lo: int, lengths: list[int], width: int, start_mode: bool) -> list[int]:
    """Boundaries of the contiguous pieces, the separator kept at their start or end; may repeat."""
    starts = list(accumulate((n + width for n in lengths), initial=lo))  # starts[i]: start of part i
    hi = starts[-1] - width
    if start_mode:
        return [lo, *(s - width for s in starts[1:-1]), hi]
    starts[-1] = hi
    return starts


def _pieces(lo: int, lengths: list[int], width: int, keep: Literal["start", "end", False]) -> list[tuple[int, int]]:
    """Non-empty spans of the pieces, with the separator kept per ``keep`` (False: dropped)."""
    if keep:
        bounds = _bounds(lo, lengths, width, keep == "start")
        return [(a, b) for a, b in pairwise(bounds) if a < b]
    starts = accumulate((n + width for n in lengths), initial=lo)
    return [(q, q + n) for q, n in zip(starts, lengths, strict=False) if n]


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


def _adds_up(call: _Call, spans: Sequence[tuple[int, ...]], run: Sequence[int]) -> bool:
    """Whether the joined size of the contiguous ``spans[run]`` is the sum of their sizes."""
    if call.additive:
        return True
    text, clean = call.text, call.spans.clean
    for a, b in pairwise(run):
        cut = spans[b][0]
        if spans[a][1] != cut or not clean(text[cut - 1], text[cut]):  # a dropped separator, or an unclean join
            return False
    return True


# -- phase 2: pack ------------------------------------------------------------------------
def _pack(call: _Call, groups: list[Group]) -> list[Group]:
    """Phase 2: pack consecutive groups greedily into chunks, with overlap (phase 3).

    After it: chunks ``(start, end, tokens, oversized)`` in order; each is a run of
    whole groups of exact size within ``chunk_size`` (an oversized group is a chunk of
    its own); each chunk after the first starts with the trailing groups of the one
    before that fit ``chunk_overlap``.
    """
    size, overlap, spans = call.size, call.overlap, call.spans
    counts = [g[2] for g in groups]
    if all(a[1] == b[0] for a, b in pairwise(groups)):  # contiguous: nothing between groups
        gaps = [0] * max(0, len(groups) - 1)
    else:
        gaps = [spans.count(a[1], b[0]) for a, b in pairwise(groups)]
    out: list[Group] = []
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
        if j - i > 1 and not _adds_up(call, groups, range(i, j)):
            total = _joined_groups(call, groups, counts, i, j)
            while total > size and j - 1 > i:
                j -= 1
                total = _joined_groups(call, groups, counts, i, j)
        out.append((groups[i][0], groups[j - 1][1], total, False))
        if j >= n:
            break
        i = _overlap_start(call, i, j, counts, gaps, groups) if overlap else j
    return out


def _joined_groups(call: _Call, groups: list[Group], counts: list[int], i: int, j: int) -> int:
    """Exact size of groups ``i..j-1`` joined: by local windows when they are contiguous."""
    start, end = groups[i][0], groups[j - 1][1]
    if any(groups[k - 1][1] != groups[k][0] for k in range(i + 1, j)):
        return call.spans.count(start, end)
    unclean = call.spans.unclean_cuts([groups[k][0] for k in range(i + 1, j)])
    return call.spans.joined(start, end, unclean, sum(counts[i:j]))


# -- phase 3: overlap ---------------------------------------------------------------------
def _overlap_start(call: _Call, i: int, j: int, counts: list[int], gaps: list[int], groups: list[Group]) -> int:
    """The first group of the chunk after groups ``i..j-1``.

    After it: the groups from there to ``j - 1`` are the trailing ones of the chunk
    that fit ``chunk_overlap``, and few enough that group ``j`` still fits after them.
    """
    k, carried = j, 0
    while k - 1 > i and carried + counts[k - 1] + gaps[k - 1] <= call.overlap:
        k -= 1
        carried += counts[k] + gaps[k]
    if not groups[j][3]:
        while k < j and carried + gaps[j - 1] + counts[j] > call.size:
            carried -= counts[k] + gaps[k]
            k += 1
    return k
