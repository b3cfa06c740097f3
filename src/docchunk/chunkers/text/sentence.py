"""Whole sentences packed up to a token limit; long sentences fall back to words, then tokens."""

from __future__ import annotations

import re

from docchunk.chunkers.text.base import TextChunker, absorb_whitespace_chunks, check_size
from docchunk.chunkers.text.recursive import RecursiveChunker
from docchunk.chunkers.text.token import token_windows
from docchunk.errors import ConfigError
from docchunk.tokenizers import TokenizerSpec
from docchunk.types import Chunk

__all__ = ["SentenceChunker", "sentence_spans"]

# a sentence ends after terminal punctuation (and closing quotes/brackets) plus the
# whitespace that follows it, or after a run of newlines
_BOUNDARY = re.compile(r"""[.!?…。！？]+["'”’)\]]*\s+|\n+""")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Sentence spans that tile ``text`` (trailing whitespace stays with its sentence)."""
    spans, start = [], 0
    for match in _BOUNDARY.finditer(text):
        if match.end() > start:
            spans.append((start, match.end()))
            start = match.end()
    if start < len(text):
        spans.append((start, len(text)))
    return spans


class SentenceChunker(TextChunker):
    """Packs whole sentences into chunks of at most ``chunk_size`` tokens.

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

    A sentence ends after ``.``, ``!``, ``?``, ``…`` (and CJK full stops) followed by
    whitespace, or at a newline. A sentence longer than ``chunk_size`` is split at
    spaces (recursive splitting) and, for a word still too long, into token windows.

    Invariants: exact offsets; ``token_count == count_tokens(text) <= chunk_size``
    unless a single character is larger; the last sentence is never lost; text
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

    def _units(self, text: str) -> list[tuple[int, int, int]]:
        """Sentences that fit, and pieces of those that do not: ``(start, end, tokens)``."""
        spans = sentence_spans(text)
        counts = self.tokenizer.count_tokens_batch([text[s:e] for s, e in spans])
        units: list[tuple[int, int, int]] = []
        for (s, e), n in zip(spans, counts, strict=False):
            if n <= self.chunk_size:
                units.append((s, e, n))
                continue
            for piece in self._words.chunk(text[s:e]):
                start, end = piece.start_index, piece.end_index
                assert start is not None and end is not None  # a text chunker's chunks are slices
                if piece.oversized:
                    for w in token_windows(piece.text, self.tokenizer, self.chunk_size, 0, s + start):
                        assert w.start_index is not None and w.end_index is not None
                        units.append((w.start_index, w.end_index, w.token_count))
                else:
                    units.append((s + start, s + end, piece.token_count))
        return units

    def with_budget(self, tokenizer: TokenizerSpec, chunk_size: int) -> SentenceChunker:
        """A copy with another tokenizer and ``chunk_size`` (the overlap capped below it)."""
        overlap = min(self.chunk_overlap, chunk_size - 1)
        return SentenceChunker(tokenizer, chunk_size, overlap, self.min_sentences_per_chunk)

    def chunk(self, text: str) -> list[Chunk]:
        """Split ``text`` into sentence chunks (see the class invariants)."""
        text = self._check_text(text)
        if not text:
            return []
        units = self._units(text)
        out: list[Chunk] = []
        ranges: list[tuple[int, int]] = []  # the units of each chunk
        i, n = 0, len(units)
        while i < n:
            j, total = i + 1, units[i][2]
            while j < n and total + units[j][2] <= self.chunk_size:
                total += units[j][2]
                j += 1
            start = units[i][0]
            exact = self.tokenizer.count_tokens(text[start : units[j - 1][1]]) if j - i > 1 else total
            while exact > self.chunk_size and j - 1 > i:
                j -= 1
                exact = self.tokenizer.count_tokens(text[start : units[j - 1][1]])
            end = units[j - 1][1]
            out.append(Chunk(text=text[start:end], start_index=start, end_index=end,
                             token_count=exact, context=None, oversized=exact > self.chunk_size))  # fmt: skip
            ranges.append((i, j))
            if j >= n:
                break
            i = self._next_start(units, i, j)
        if self.min_sentences_per_chunk > 1 and len(out) > 1:
            self._fill_last(text, units, ranges, out)
        return absorb_whitespace_chunks(text, out, self.tokenizer, self.chunk_size)

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
        out[-1] = Chunk(text=text[s:e], start_index=s, end_index=e, token_count=count, context=None, oversized=False)
        if not overlap:  # the chunk before now ends where the last one starts
            ps = units[pi][0]
            n = self.tokenizer.count_tokens(text[ps:s])
            out[-2] = Chunk(text=text[ps:s], start_index=ps, end_index=s, token_count=n, context=None,
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
