"""Whole sentences packed up to a token limit; long sentences fall back to words, then tokens."""

from __future__ import annotations

import re
from typing import Any

from docchunk.chunkers.text.base import TextChunker, absorb_whitespace_chunks, check_size
from docchunk.chunkers.text.recursive import RecursiveChunker
from docchunk.chunkers.text.token import token_windows
from docchunk.errors import ConfigError
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
        min_sentences_per_chunk: Accepted for compatibility with chonkie; >= 1. Packing
            is greedy and the limit wins, so a chunk holds fewer sentences than this
            only when the next sentence would exceed ``chunk_size``.

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

    def __init__(self, tokenizer: Any = "character", chunk_size: int = 512, chunk_overlap: int = 0,
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

    def with_budget(self, tokenizer: Any, chunk_size: int) -> SentenceChunker:
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
            if j >= n:
                break
            i = self._next_start(units, i, j)
        return absorb_whitespace_chunks(text, out, self.tokenizer, self.chunk_size)

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
