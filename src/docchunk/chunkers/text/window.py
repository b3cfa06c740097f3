"""Sliding windows: ``offset`` new units per chunk with ``overlap`` units of context on each side."""

from __future__ import annotations

import re
from typing import Any

from docchunk.chunkers.text.base import TextChunker, check_size
from docchunk.errors import ConfigError
from docchunk.tokenizers import WordTokenizer
from docchunk.types import WindowChunk

__all__ = ["WindowChunker"]

_WORD = re.compile(r"\S+")


class WindowChunker(TextChunker):
    """Each chunk is a main segment of ``offset`` new units plus ``overlap`` units of context on both sides.

    With ``offset=20, overlap=10`` a chunk holds 10 + 20 + 10 = 40 words and starts 20
    words after the previous one. The first and last windows have context on one
    side only; text shorter than ``offset`` units gives one chunk.

    Args:
        offset: New units per chunk (the main segment); >= 1.
        overlap: Units of context before and after the main segment; >= 0.
        unit: ``"word"`` (whitespace-separated words) or ``"token"`` (tokens of
            ``tokenizer``, cut on character boundaries).
        tokenizer: For ``unit="token"``: any spec :func:`docchunk.get_tokenizer`
            accepts that can give token offsets; ``token_count`` counts its tokens.

    Invariants: every chunk is a :class:`docchunk.types.WindowChunk` with exact
    ``start_index``/``end_index`` (full span) and ``main_start_index``/
    ``main_end_index``; the main segments tile the text (no gap, no overlap); a
    chunk's full span reaches ``overlap`` units beyond its main segment on each side
    (fewer at the ends).

    Raises:
        ConfigError: ``offset < 1``, ``overlap < 0`` or an unknown unit.

    Example:
        >>> [c.text for c in WindowChunker(offset=2, overlap=1)("a b c d e")]
        ['a b c ', 'b c d e', 'd e']
    """

    def __init__(self, offset: int = 20, overlap: int = 10, unit: str = "word", tokenizer: Any = None):
        if unit not in ("word", "token"):
            raise ConfigError(f'unit must be "word" or "token", got {unit!r}')
        super().__init__(WordTokenizer() if unit == "word" else tokenizer)
        self.offset = check_size("offset", offset, 1)
        self.overlap = check_size("overlap", overlap, 0)
        self.unit = unit
        if unit == "token":
            self.tokenizer.token_offsets("")

    @property
    def chunk_size(self) -> int:
        """Units in a full chunk: ``offset + 2 * overlap``."""
        return self.offset + 2 * self.overlap

    def _unit_starts(self, text: str) -> list[int]:
        if self.unit == "word":
            return [m.start() for m in _WORD.finditer(text)]
        starts: list[int] = []
        for pos in self.tokenizer.token_offsets(text):
            if not starts or pos > starts[-1]:
                starts.append(pos)
        return starts

    def chunk(self, text: str) -> list[WindowChunk]:  # type: ignore[override]  # WindowChunks only
        """Split ``text`` into windows (see the class invariants)."""
        text = self._check_text(text)
        if not text:
            return []
        starts = self._unit_starts(text)
        n = len(starts)

        def at(index: int) -> int:
            return 0 if index <= 0 else (len(text) if index >= n else starts[index])

        out: list[WindowChunk] = []
        first = 0
        while True:
            last = first + self.offset
            s, e = at(first - self.overlap), at(last + self.overlap)
            out.append(
                WindowChunk(
                    text=text[s:e], start_index=s, end_index=e, token_count=self.tokenizer.count_tokens(text[s:e]),
                    context=None, oversized=False, main_start_index=at(first), main_end_index=at(last),
                )
            )
            if last >= n:
                return out
            first = last
