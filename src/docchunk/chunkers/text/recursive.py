"""Recursive splitting by separator levels, greedy packing, overlap; exact offsets."""

from __future__ import annotations

from typing import Any

from docchunk.chunkers.text.base import TextChunker, absorb_whitespace_chunks, check_size
from docchunk.chunkers.text.separators import DEFAULT_SEPARATORS, separators_for
from docchunk.errors import ConfigError
from docchunk.tokenizers import CharacterTokenizer
from docchunk.types import Chunk

__all__ = ["RecursiveChunker"]

_PROBE_CHARS_PER_TOKEN = 8


class _Counter:
    """Token counts of spans of one text; each distinct piece is counted at most once per call."""

    def __init__(self, chunker: RecursiveChunker, text: str):
        self.tok = chunker.tokenizer
        self.size = chunker.chunk_size
        self.text = text
        self.cache: dict[str, int] = {}
        self.is_len = chunker._by_length

    def count(self, s: int, e: int) -> int:
        if self.is_len:
            return e - s
        piece = self.text[s:e]
        n = self.cache.get(piece)
        if n is None:
            n = self.cache[piece] = self.tok.count_tokens(piece)
        return n

    def too_long(self, s: int, e: int) -> bool:
        """Cheap test first (a prefix that is already too long), then the exact count."""
        if self.is_len:
            return e - s > self.size
        probe = self.size * _PROBE_CHARS_PER_TOKEN
        if e - s > probe and self.count(s, s + probe) > self.size:
            return True
        return self.count(s, e) > self.size

    def prefetch(self, spans: list[tuple[int, int]]) -> None:
        """Count many short spans in one batch (native batching where the backend has it)."""
        if self.is_len:
            return
        probe = self.size * _PROBE_CHARS_PER_TOKEN
        todo = list({self.text[s:e] for s, e in spans if e - s <= probe} - self.cache.keys())
        if len(todo) > 1:
            for piece, n in zip(todo, self.tok.count_tokens_batch(todo)):
                self.cache[piece] = n


class RecursiveChunker(TextChunker):
    """Splits text at the coarsest separators that make pieces fit, then packs pieces.

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
            ``["\\n\\n", "\\n", " ", ""]`` (``""`` splits into characters).
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
    text; a whitespace-only chunk appears only when the input is whitespace.
    Text that fits comes back whole as one chunk; ``""`` gives no chunk.

    Raises:
        ConfigError: Invalid sizes, ``chunk_overlap >= chunk_size``, both
            ``language`` and ``separators``, an unknown language, bad separators.

    Example:
        >>> [c.text for c in RecursiveChunker(chunk_size=12)("Hello world.\\n\\nBye now.")]
        ['Hello world.', '\\n\\nBye now.']
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
        if keep_separator not in ("start", "end", False):
            raise ConfigError(f'keep_separator must be "start", "end" or False, got {keep_separator!r}')
        if separators is not None:
            if not isinstance(separators, (list, tuple)) or not all(isinstance(s, str) for s in separators):
                raise ConfigError(f"separators must be a list of str, got {separators!r}")
            separators = list(separators)
        self.separators = separators_for(language) if language is not None else (separators or list(DEFAULT_SEPARATORS))
        self.keep_separator = keep_separator
        self.language = language
        self._by_length = isinstance(self.tokenizer, CharacterTokenizer)
        self._additive = self.tokenizer.joins_additively("")

    # -- phase 1: split ----------------------------------------------------------
    def _split(self, text: str, counter: _Counter) -> tuple[list[tuple[int, int]], set[int]]:
        """Atoms: spans that fit (or cannot be split), in order; and the indices of oversized ones."""
        atoms: list[tuple[int, int]] = []
        oversized: set[int] = set()
        stack: list[tuple[int, int, int]] = [(0, len(text), 0)]
        while stack:
            lo, hi, level = stack.pop()
            if not counter.too_long(lo, hi):
                atoms.append((lo, hi))
                continue
            pieces, next_level = self._split_once(text, lo, hi, level)
            if pieces is None:
                oversized.add(len(atoms))
                atoms.append((lo, hi))
                continue
            counter.prefetch(pieces)
            stack.extend((s, e, next_level) for s, e in reversed(pieces))
        return atoms, oversized

    def _split_once(self, text: str, lo: int, hi: int, level: int) -> tuple[list[tuple[int, int]] | None, int]:
        """Split ``text[lo:hi]`` at the first separator from ``level`` on that occurs in it."""
        for index in range(level, len(self.separators)):
            sep = self.separators[index]
            if sep == "":
                if hi - lo <= 1:
                    return None, index + 1
                return [(i, i + 1) for i in range(lo, hi)], index + 1
            first = text.find(sep, lo, hi)
            if first == -1:
                continue
            cuts = []
            pos = first
            while pos != -1:
                cuts.append(pos)
                pos = text.find(sep, pos + len(sep), hi)
            return self._pieces(lo, hi, cuts, len(sep)), index + 1
        return None, len(self.separators)

    def _pieces(self, lo: int, hi: int, cuts: list[int], width: int) -> list[tuple[int, int]]:
        if self.keep_separator == "start":
            bounds = [lo, *cuts, hi]
            spans = list(zip(bounds, bounds[1:]))
        elif self.keep_separator == "end":
            bounds = [lo, *(c + width for c in cuts), hi]
            spans = list(zip(bounds, bounds[1:]))
        else:
            starts = [lo, *(c + width for c in cuts)]
            spans = list(zip(starts, [*cuts, hi]))
        return [(s, e) for s, e in spans if s < e]

    # -- phase 2: pack -------------------------------------------------------------
    def _pack(self, atoms: list[tuple[int, int]], oversized: set[int], counter: _Counter) -> list[tuple[int, int, int, bool]]:
        """Greedy packing with overlap; returns ``(start, end, token_count, oversized)``."""
        counts = [counter.count(s, e) for s, e in atoms]
        gaps = [counter.count(atoms[i][1], atoms[i + 1][0]) for i in range(len(atoms) - 1)]
        size, overlap = self.chunk_size, self.chunk_overlap
        out: list[tuple[int, int, int, bool]] = []
        n, i = len(atoms), 0
        while i < n:
            if i in oversized:
                out.append((atoms[i][0], atoms[i][1], counts[i], counts[i] > size))
                i += 1
                continue
            j, total = i + 1, counts[i]
            while j < n and j not in oversized and total + gaps[j - 1] + counts[j] <= size:
                total += gaps[j - 1] + counts[j]
                j += 1
            if not self._additive and j - i > 1:
                total = counter.count(atoms[i][0], atoms[j - 1][1])
                while total > size and j - 1 > i:
                    j -= 1
                    total = counter.count(atoms[i][0], atoms[j - 1][1])
            out.append((atoms[i][0], atoms[j - 1][1], total, False))
            if j >= n:
                break
            i = self._overlap_start(i, j, counts, gaps, oversized) if overlap else j
        return out

    def _overlap_start(self, i: int, j: int, counts: list[int], gaps: list[int], oversized: set[int]) -> int:
        """First atom of the next chunk: trailing atoms of this one within ``chunk_overlap``."""
        k, carried = j, 0
        while k - 1 > i and carried + counts[k - 1] + gaps[k - 1] <= self.chunk_overlap:
            k -= 1
            carried += counts[k] + gaps[k]
        if j not in oversized:
            while k < j and carried + gaps[j - 1] + counts[j] > self.chunk_size:
                carried -= counts[k] + gaps[k]
                k += 1
        return k

    # -- public --------------------------------------------------------------------
    def with_budget(self, tokenizer: Any, chunk_size: int) -> RecursiveChunker:
        return RecursiveChunker(chunk_size, min(self.chunk_overlap, chunk_size - 1), list(self.separators),
                                self.keep_separator, None, tokenizer)  # fmt: skip

    def chunk(self, text: str) -> list[Chunk]:
        """Split ``text``; see the class docstring for the invariants."""
        text = self._check_text(text)
        if not text:
            return []
        counter = _Counter(self, text)
        atoms, oversized = self._split(text, counter)
        atoms, oversized = self._absorb_whitespace(text, atoms, oversized, counter)
        chunks = [
            Chunk.model_construct(
                text=text[s:e], start_index=s, end_index=e, token_count=n, context=None, oversized=flag
            )
            for s, e, n, flag in self._pack(atoms, oversized, counter)
        ]
        return absorb_whitespace_chunks(text, chunks, self.tokenizer, self.chunk_size)

    def _absorb_whitespace(
        self, text: str, atoms: list[tuple[int, int]], oversized: set[int], counter: _Counter
    ) -> tuple[list[tuple[int, int]], set[int]]:
        """Join whitespace-only atoms to a neighbour (the next one for ``"start"``) when it fits."""
        if not any(text[s:e].isspace() for s, e in atoms) or len(atoms) < 2:
            return atoms, oversized
        order = (1, -1) if self.keep_separator != "end" else (-1, 1)
        merged: list[tuple[int, int]] = list(atoms)
        flags = [i in oversized for i in range(len(atoms))]
        i = 0
        while i < len(merged):
            s, e = merged[i]
            if len(merged) > 1 and text[s:e].isspace():
                for step in order:
                    k = i + step
                    if 0 <= k < len(merged) and not flags[k]:
                        lo, hi = min(merged[i][0], merged[k][0]), max(merged[i][1], merged[k][1])
                        if not counter.too_long(lo, hi):
                            merged[min(i, k)] = (lo, hi)
                            del merged[max(i, k)]
                            del flags[max(i, k)]
                            i = max(min(i, k) - 1, 0)
                            break
                else:
                    i += 1
                continue
            i += 1
        return merged, {i for i, f in enumerate(flags) if f}
