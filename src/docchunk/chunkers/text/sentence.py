"""Whole sentences packed up to a token limit; long sentences fall back to words, then tokens."""

from __future__ import annotations

from itertools import pairwise

from docchunk.chunkers.text.base import TextChunker, absorb_whitespace_chunks, check_size
from docchunk.chunkers.text.recursive import RecursiveChunker
from docchunk.chunkers.text.token import character_windows, token_windows
from docchunk.errors import ConfigError
from docchunk.markup.sentences import sentence_spans
from docchunk.tokenizers import Sizer, TokenizerSpec
from docchunk.tokenizers.spans import JoinFixes
from docchunk.types import Chunk

__all__ = ["SentenceChunker", "sentence_spans"]

class SentenceChunker(TextChunker):
    r"""Packs whole sentences into chunks of at most ``chunk_size`` tokens.

    Args:
        tokenizer: Any spec :func:`docchunk.get_tokenizer` accepts.
        chunk_size: Tokens per chunk; >= 1.
        chunk_overlap: Trailing sentences of a chunk, up to this many tokens, repeated
            at the start of the next; 0 <= overlap < chunk_size.
        min_sentences_per_chunk: Fewest sentences in a chunk (as in chonkie); >= 1.
            A chunk holds fewer only when the text has fewer or ``chunk_size`` does
            not allow more (the limit wins, unlike chonkie). Packing is greedy, so
            only the last chunk can fall short while the budget allows more: it then
            takes sentences from the end of the chunk before, as long as that one
            keeps the minimum. A piece of a sentence longer than ``chunk_size``
            counts as one sentence.

    Sentences follow :func:`sentence_spans`: ``.``, ``!``, ``?``, ``…`` followed by
    whitespace, CJK full stops with or without it, or a newline end one; titles,
    abbreviations, initials and section numbers do not (``etc.`` before a capital
    does). A sentence longer than ``chunk_size`` is split at spaces (recursive
    splitting) and, for a word still too long, into token windows (into runs of
    characters with a tokenizer that gives no token offsets, a callable ``str -> int``).

    No chunk is only whitespace. Whitespace that fits with neither neighbour (the
    ``"\n\n"`` after the last token window of a long word) is given back part of the
    neighbour: the span of the chunk before and the whitespace is cut again at the
    latest token start where both parts fit, neither only whitespace (else the span of
    the whitespace and the chunk after, at the earliest such token start). So
    ``" naïve\n\n"`` at 2 cl100k tokens is cut ``" naï" + "ve\n\n"``, as ``"naïve"`` is
    cut ``"naï" + "ve"``.

    Invariants: exact offsets; ``token_count == count_tokens(text) <= chunk_size``
    unless the chunk cannot be cut: a single character (or one CRLF), or one token of
    the text, larger than ``chunk_size``; or a chunk over it by whitespace that fits
    with neither neighbour and that no token start cuts into two parts that fit (a run
    of whitespace longer than ``chunk_size``, or a neighbour with no room to give).
    Such a chunk is flagged ``oversized``. The last sentence is never lost; text
    without punctuation still gets chunks within the limit; without overlap the
    chunks tile the text.

    Raises:
        ConfigError: Invalid sizes.

    Example:
        >>> [c.text for c in SentenceChunker("word", chunk_size=4)("One two. Three four five. Six.")]
        ['One two. ', 'Three four five. Six.']
    """

    def __init__(self, tokenizer: TokenizerSpec = "character", chunk_size: int = 512, chunk_overlap: int = 0,
                 min_sentences_per_chunk: int = 1):  # fmt: skip
        super().__init__(tokenizer)
        self.chunk_size = check_size("chunk_size", chunk_size, 1)
        self.chunk_overlap = check_size("chunk_overlap", chunk_overlap, 0)
        self.min_sentences_per_chunk = check_size("min_sentences_per_chunk", min_sentences_per_chunk, 1)
        if chunk_overlap >= chunk_size:
            raise ConfigError(f"chunk_overlap ({chunk_overlap!r}) must be smaller than chunk_size ({chunk_size!r})")
        self._words = RecursiveChunker(chunk_size=chunk_size, separators=[" "], tokenizer=self.tokenizer)

    def _units(self, text: str, sizer: Sizer) -> list[tuple[int, int, int]]:
        """Sentences that fit, and pieces of those that do not: ``(start, end, tokens)``."""
        spans = sentence_spans(text)
        counts = sizer.span_counts(text, spans)
        units: list[tuple[int, int, int]] = []
        for (s, e), n in zip(spans, counts, strict=False):
            if n <= self.chunk_size:
                units.append((s, e, n))
                continue
            sizer.keep_span_offsets(text, s, e)  # its words are then sized from the offsets too
            for piece in self._words.chunk(text[s:e], sizer=sizer):
                start, end = piece.start_index, piece.end_index
                if piece.oversized:
                    for w in self._word_parts(piece.text):
                        units.append((s + start + w.start_index, s + start + w.end_index, w.token_count))
                else:
                    units.append((s + start, s + end, piece.token_count))
        return units

    def _word_parts(self, word: str) -> list[Chunk]:
        """``word`` (longer than ``chunk_size``) cut into parts that fit, offsets relative to it.

        Token windows (:func:`~docchunk.chunkers.text.token.token_windows`); for a tokenizer
        without token offsets (a callable ``str -> int``), windows of whole characters
        (:func:`~docchunk.chunkers.text.token.character_windows`; the hostile tester's
        finding 2 of session 7: a 90-character URL under ``tokenizer=len`` raised
        ``TokenizerError`` mid-chunking).
        """
        if self.tokenizer.gives_offsets:
            return token_windows(word, self.tokenizer, self.chunk_size)
        return character_windows(word, self.tokenizer, self.chunk_size)

    def with_budget(self, tokenizer: TokenizerSpec, chunk_size: int) -> SentenceChunker:
        """A copy with another tokenizer and ``chunk_size`` (the overlap capped below it)."""
        overlap = min(self.chunk_overlap, chunk_size - 1)
        return SentenceChunker(tokenizer, chunk_size, overlap, self.min_sentences_per_chunk)

    def chunk(self, text: str, sizer: Sizer | None = None) -> list[Chunk]:
        """Split ``text`` into sentence chunks (see the class invariants).

        Args:
            text: The text.
            sizer: A :class:`~docchunk.tokenizers.Sizer` of this chunker's tokenizer
                whose cached counts to use and extend (a document chunker shares one
                over all of a document's texts); a new one when None.
        """
        text = self._check_text(text)
        if not text:
            return []
        if sizer is None:
            sizer = Sizer(self.tokenizer)
        units = self._units(text, sizer)
        size = _JoinedSize(sizer, text, units)
        out: list[Chunk] = []
        ranges: list[tuple[int, int]] = []  # the units of each chunk
        i, n = 0, len(units)
        while i < n:
            j, total = i + 1, units[i][2]
            while j < n and total + units[j][2] <= self.chunk_size:
                total += units[j][2]
                j += 1
            exact = size(i, j, total)
            while exact > self.chunk_size and j - 1 > i:
                j -= 1
                exact = size(i, j, sum(u[2] for u in units[i:j]))
            start, end = units[i][0], units[j - 1][1]
            out.append(Chunk(text=text[start:end], start_index=start, end_index=end,
                             token_count=exact, oversized=exact > self.chunk_size))  # fmt: skip
            ranges.append((i, j))
            if j >= n:
                break
            i = self._next_start(units, i, j)
        if self.min_sentences_per_chunk > 1 and len(out) > 1:
            self._fill_last(text, units, ranges, out)
        return absorb_whitespace_chunks(text, out, self.tokenizer, self.chunk_size, recut=True)

    def _fill_last(self, text: str, units: list[tuple[int, int, int]], ranges: list[tuple[int, int]],
                   out: list[Chunk]) -> None:  # fmt: skip
        """Give the last chunk ``min_sentences_per_chunk`` sentences, taken from the end of the one before.

        Greedy packing fills every chunk but the last as far as ``chunk_size`` allows,
        so only the last can hold fewer sentences than the minimum while the budget
        allows more. Its start moves back one sentence at a time while it holds fewer
        than the minimum, stays within ``chunk_size``, and (without overlap, where the
        chunk before ends where it starts) the chunk before keeps the minimum.
        """
        need, overlap = self.min_sentences_per_chunk, bool(self.chunk_overlap)
        (pi, _), (i, j) = ranges[-2], ranges[-1]
        start, count = i, out[-1].token_count
        while j - start < need and start - 1 > pi and (overlap or start - 1 - pi >= need):
            trial = self.tokenizer.count_tokens(text[units[start - 1][0] : units[j - 1][1]])
            if trial > self.chunk_size:
                break
            start, count = start - 1, trial
        if start == i:
            return
        s, e = units[start][0], units[j - 1][1]
        out[-1] = Chunk(text=text[s:e], start_index=s, end_index=e, token_count=count, oversized=False)
        if not overlap:  # the chunk before now ends where the last one starts
            ps = units[pi][0]
            n = self.tokenizer.count_tokens(text[ps:s])
            out[-2] = Chunk(text=text[ps:s], start_index=ps, end_index=s, token_count=n,
                            oversized=n > self.chunk_size)  # fmt: skip

    def _next_start(self, units: list[tuple[int, int, int]], i: int, j: int) -> int:
        if not self.chunk_overlap:
            return j
        k, carried = j, 0
        while k - 1 > i and carried + units[k - 1][2] <= self.chunk_overlap:
            k -= 1
            carried += units[k][2]
        while k < j and carried + units[j][2] > self.chunk_size:
            carried -= units[k][2]
            k += 1
        return k


class _JoinedSize:
    """Exact token counts of runs of consecutive units, by arithmetic where the joins are clean.

    ``size(i, j, total)`` is the count of ``text[units[i].start:units[j - 1].end]``
    given ``total``, the sum of those units' counts: where the units tile the text,
    the unclean joins between them are corrected from small windows around them
    (:meth:`docchunk.tokenizers.spans.SpanSizer.group_size`, all windows counted in one
    batch); otherwise the run is counted whole.
    """

    def __init__(self, sizer: Sizer, text: str, units: list[tuple[int, int, int]]):
        self.units = units
        self.spans = sizer.spans(text)
        self.tiled = all(a[1] == b[0] for a, b in pairwise(units))
        self.fixes: JoinFixes | None = None
        if self.tiled and len(units) > 1:
            unclean = self.spans.unclean_cuts([u[0] for u in units[1:]])
            self.fixes = self.spans.join_fixes(unclean) if unclean else None

    def __call__(self, i: int, j: int, total: int) -> int:
        if j - i == 1:
            return total
        start, end = self.units[i][0], self.units[j - 1][1]
        if not self.tiled:
            return self.spans.count(start, end)
        return self.spans.group_size(self.fixes, start, end, total)
