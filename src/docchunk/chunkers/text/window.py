"""Sliding windows: ``offset`` new units per chunk with ``overlap`` units of context on each side."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from itertools import accumulate
from typing import Any, Literal

from docchunk.chunkers.text.base import TextChunker, check_size
from docchunk.errors import ConfigError
from docchunk.tokenizers import TokenizerSpec, WordTokenizer
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
            ``tokenizer``, cut on character boundaries: tokens that share a character,
            such as the byte tokens of one emoji, stay together and count as many).
        tokenizer: For ``unit="token"``: any spec :func:`docchunk.get_tokenizer`
            accepts that can give token offsets; ``token_count`` counts its tokens.

    Invariants: every chunk is a :class:`docchunk.types.WindowChunk` with exact
    ``start_index``/``end_index`` (full span) and ``main_start_index``/
    ``main_end_index``; the main segments tile the text (no gap, no overlap); a main
    segment holds at most ``offset`` units and a chunk's full span reaches at most
    ``overlap`` units beyond it on each side (fewer at the ends); ``token_count``
    (tokens of the chunk's own text) is at most ``chunk_size``: where a window's text
    counts more on its own, its context is trimmed, then its main segment shortened;
    only a main segment of one unit (one word; with ``unit="token"``, one character
    position) larger than ``chunk_size`` stays, with ``oversized=True``. No chunk is
    only whitespace: such a window joins the one before (the first joins the next),
    main segment and all, even over ``chunk_size`` (then ``oversized``), so that main
    segment holds more than ``offset`` units by whitespace alone.

    Raises:
        ConfigError: ``offset < 1``, ``overlap < 0`` or an unknown unit.

    Example:
        >>> [c.text for c in WindowChunker(offset=2, overlap=1)("a b c d e")]
        ['a b c ', 'b c d e', 'd e']
    """

    def __init__(
        self,
        offset: int = 20,
        overlap: int = 10,
        unit: Literal["word", "token"] = "word",
        tokenizer: TokenizerSpec = None,
    ):
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

    def _units(self, text: str) -> tuple[list[int], list[int]]:
        """Start positions of the units of ``text`` and the tokens each holds.

        A word is one unit of weight 1. With ``unit="token"``, tokens that start at the
        same character (one emoji as several byte tokens) are one unit, weighing as
        many tokens, since windows are cut at character positions.
        """
        if self.unit == "word":
            starts = [m.start() for m in _WORD.finditer(text)]
            return starts, [1] * len(starts)
        starts, weights = [], []
        for pos in self.tokenizer.token_offsets(text):
            if not starts or pos > starts[-1]:
                starts.append(pos)
                weights.append(1)
            else:
                weights[-1] += 1
        return starts, weights

    def chunk(self, text: str) -> list[WindowChunk]:  # type: ignore[override]  # WindowChunks only
        """Split ``text`` into windows (see the class invariants)."""
        text = self._check_text(text)
        if not text:
            return []
        starts, weights = self._units(text)
        n = len(starts)
        cum = [0, *accumulate(weights)]  # cum[i]: tokens of units 0..i-1

        def at(index: int) -> int:
            return 0 if index <= 0 else (len(text) if index >= n else starts[index])

        out: list[WindowChunk] = []
        first = 0
        while True:
            # the main segment: units from ``first`` holding at most ``offset`` tokens (at least one unit)
            last = max(first + 1, bisect_right(cum, cum[first] + self.offset) - 1) if n else 1
            chunk, last = self._window(text, at, cum, first, last)
            out.append(chunk)
            if last >= n:
                return self._no_blank_windows(text, out)
            first = last

    def _no_blank_windows(self, text: str, windows: list[WindowChunk]) -> list[WindowChunk]:
        """The windows, each one whose text is only whitespace joined to the one before (the first: after).

        Its main segment extends its neighbour's, so the main segments still tile the
        text; the joined window is recounted, and flagged ``oversized`` when over
        ``chunk_size`` (by whitespace alone). A text of whitespace only stays one window.
        """
        if len(windows) < 2 or not any(w.text.isspace() for w in windows):
            return windows
        out: list[WindowChunk] = []
        carried: WindowChunk | None = None  # a blank first window, waiting for the next
        for w in windows:
            if carried is not None:
                w, carried = self._joined(text, carried, w), None
            if not w.text.isspace():
                out.append(w)
            elif out:
                out[-1] = self._joined(text, out[-1], w)
            else:
                carried = w
        return out if carried is None else [carried]

    def _joined(self, text: str, a: WindowChunk, b: WindowChunk) -> WindowChunk:
        """One window over ``a`` and ``b`` (consecutive): main segments joined, spans united."""
        s, e = min(a.start_index, b.start_index), max(a.end_index, b.end_index)
        n = self.tokenizer.count_tokens(text[s:e])
        return WindowChunk(text=text[s:e], start_index=s, end_index=e, token_count=n, oversized=n > self.chunk_size,
                           main_start_index=a.main_start_index, main_end_index=b.main_end_index)  # fmt: skip

    def _window(self, text: str, at: Any, cum: list[int], first: int, last: int) -> tuple[WindowChunk, int]:
        """The window of main units ``first..last-1`` with context, within ``chunk_size`` tokens when it can be.

        Context is ``overlap`` tokens of whole units on each side. When the window's text
        counts more than ``chunk_size`` (units re-tokenize to more tokens on their own),
        context is trimmed, then the main segment shortened (down to one unit). Returns
        the window and the end of the main segment it settled on.
        """
        n = len(cum) - 1
        size = self.chunk_size
        before = bisect_left(cum, cum[first] - self.overlap)
        after = min(n, bisect_right(cum, cum[last] + self.overlap) - 1) if last < n else last
        while True:
            s, e = at(before), at(after)
            count = self.tokenizer.count_tokens(text[s:e])
            if count <= size:
                break
            if before < first or after > last:  # trim the side with more context
                if cum[first] - cum[before] >= cum[after] - cum[last]:
                    before += 1
                else:
                    after -= 1
            elif last - first > 1:
                last -= 1
                after = min(n, bisect_right(cum, cum[last] + self.overlap) - 1)
            else:
                break  # one unit (its tokens share characters) is larger than chunk_size
        chunk = WindowChunk(
            text=text[s:e], start_index=s, end_index=e, token_count=count, oversized=count > size,
            main_start_index=at(first), main_end_index=at(last),
        )  # fmt: skip
        return chunk, last
