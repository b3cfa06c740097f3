"""Overlap: context from neighbouring chunks, for text chunks and document chunks."""

from __future__ import annotations

import copy
import math
from typing import Any, Literal

from docchunk.errors import ConfigError
from docchunk.refineries.rules import RecursiveRules, split_units
from docchunk.tokenizers import Tokenizer, get_tokenizer

__all__ = ["OverlapRefinery"]


class OverlapRefinery:
    r"""Adds context from each chunk's neighbour: the start of the next one or the end of the previous one.

    Args:
        tokenizer: Unit of ``context_size``; any spec :func:`docchunk.get_tokenizer`
            accepts (``"character"``, ``"word"``, HF, tiktoken, a callable).
        context_size: An int >= 1 is a number of tokens; a float in (0, 1] is that
            fraction of the largest chunk's token count (counted with ``tokenizer``),
            rounded down but never to zero.
        mode: ``"token"`` takes the first (or last) ``context_size`` tokens of the
            neighbour, cut on character boundaries (needs a tokenizer with offsets);
            ``"recursive"`` takes the longest run of whole units from the neighbour's
            edge that fits, trying the levels of ``rules`` from first to last, and
            falls back to ``"token"`` when no single unit fits.
        method: ``"suffix"`` appends the start of the next chunk to each chunk (the
            last chunk gets none); ``"prefix"`` prepends the end of the previous chunk
            (the first gets none).
        rules: Units for ``mode="recursive"``.
        merge: True puts the context into ``text`` (``token_count`` is recounted
            with ``tokenizer`` and may exceed the chunker's limit by the context;
            text-chunk offsets then cover the extended span when the neighbour is
            adjacent in the source, else they become None; on document chunks the
            context goes on its own line, after ``"\n"``);
            False stores it in ``chunk.context`` (document chunks:
            ``meta.context_prefix``/``meta.context_suffix``) and leaves ``text`` as is.
        inplace: True modifies and returns the given list; False returns new
            chunks and leaves the input untouched.
        max_tokens: For document chunks: keep ``contextualize(chunk)`` within this
            many tokens of ``tokenizer`` by trimming the context, never the body.

    A neighbour shorter than the context is taken whole; an empty list and a single
    chunk come back unchanged. Works on :class:`docchunk.Chunk` lists from the text
    chunkers and on ``DocChunk`` lists from the document chunkers. Design after
    chonkie's ``OverlapRefinery``.

    Raises:
        ConfigError: Invalid ``context_size``, ``mode``, ``method`` or ``max_tokens``.

    Example:
        >>> chunks = TokenChunker("character", chunk_size=10)("abcdefghijklmnopqrst")  # doctest: +SKIP
        >>> [c.text for c in OverlapRefinery(context_size=3)(chunks)]  # doctest: +SKIP
        ['abcdefghijklm', 'klmnopqrst']
    """

    def __init__(
        self,
        tokenizer: Any = "character",
        context_size: int | float = 0.25,
        mode: Literal["token", "recursive"] = "token",
        method: Literal["suffix", "prefix"] = "suffix",
        rules: RecursiveRules | None = None,
        merge: bool = True,
        inplace: bool = True,
        max_tokens: int | None = None,
    ):
        self.tokenizer: Tokenizer = get_tokenizer(tokenizer)
        if isinstance(context_size, bool) or not isinstance(context_size, (int, float)):
            raise ConfigError(f"context_size must be an int >= 1 or a float in (0, 1], got {context_size!r}")
        if isinstance(context_size, int) and context_size < 1:
            raise ConfigError(f"context_size as an int is a number of tokens and must be >= 1, got {context_size!r}")
        if isinstance(context_size, float) and not 0.0 < context_size <= 1.0:
            raise ConfigError(f"context_size as a float is a fraction in (0, 1], got {context_size!r}")
        if mode not in ("token", "recursive"):
            raise ConfigError(f'mode must be "token" or "recursive", got {mode!r}')
        if method not in ("suffix", "prefix"):
            raise ConfigError(f'method must be "suffix" or "prefix", got {method!r}')
        bad_type = isinstance(max_tokens, bool) or not isinstance(max_tokens, int)
        if max_tokens is not None and (bad_type or max_tokens < 1):
            raise ConfigError(f"max_tokens must be a positive int, got {max_tokens!r}")
        if mode == "token":
            self.tokenizer.token_offsets("")  # fails now when the tokenizer has no offsets
        self.context_size = context_size
        self.mode = mode
        self.method = method
        self.rules = rules or RecursiveRules()
        self.merge = merge
        self.inplace = inplace
        self.max_tokens = max_tokens

    def __call__(self, chunks: list[Any]) -> list[Any]:
        """Same as :meth:`refine`."""
        return self.refine(chunks)

    def refine(self, chunks: list[Any]) -> list[Any]:
        """Add context to each chunk (see the class docstring); returns the refined list."""
        out = chunks if self.inplace else [copy.deepcopy(c) for c in chunks]
        if len(out) < 2:
            return out
        size = self._size(out)
        sources = [c.text for c in out]  # neighbours' original text, before any merge
        if self.method == "suffix":
            pairs = [(i, i + 1) for i in range(len(out) - 1)]
        else:
            pairs = [(i, i - 1) for i in range(1, len(out))]
        for target, neighbour in pairs:
            context = self._context(sources[neighbour], size)
            if context:
                self._apply(out[target], context, out[neighbour])
        return out

    # -- selection ------------------------------------------------------------------
    def _size(self, chunks: list[Any]) -> int:
        if isinstance(self.context_size, int):
            return self.context_size
        largest = max(self.tokenizer.count_tokens(c.text) for c in chunks)
        return max(1, math.floor(self.context_size * largest))

    def _context(self, text: str, size: int) -> str:
        if not text:
            return ""
        if self.mode == "recursive":
            picked = self._by_units(text, size)
            if picked:
                return picked
        return self._by_tokens(text, size)

    def _by_tokens(self, text: str, size: int) -> str:
        starts = sorted(set(self.tokenizer.token_offsets(text)))
        if len(starts) <= size:
            return text
        if self.method == "suffix":
            return text[: starts[size]]  # the first `size` tokens of the next chunk
        return text[starts[-size] :]  # the last `size` tokens of the previous chunk

    def _by_units(self, text: str, size: int) -> str:
        """Longest run of whole units from the neighbour's edge that fits, first level that has one."""
        for level in self.rules.levels:
            units = split_units(text, level)
            if self.method == "prefix":
                units = units[::-1]
            taken: list[str] = []
            for unit in units:
                candidate = [unit, *taken] if self.method == "prefix" else [*taken, unit]
                if self.tokenizer.count_tokens("".join(candidate)) > size:
                    break
                taken = candidate
            if taken:
                return "".join(taken)
        return ""

    # -- application ----------------------------------------------------------------
    def _apply(self, chunk: Any, context: str, neighbour: Any) -> None:
        meta = getattr(chunk, "meta", None)
        if meta is not None and hasattr(meta, "doc_items"):
            self._apply_doc(chunk, context)
        else:
            self._apply_text(chunk, context, neighbour)

    def _apply_text(self, chunk: Any, context: str, neighbour: Any) -> None:
        if not self.merge:
            chunk.context = context
            return
        adjacent = chunk.start_index is not None and neighbour.start_index is not None
        if self.method == "suffix":
            adjacent = adjacent and neighbour.start_index == chunk.end_index
            chunk.text = chunk.text + context
            chunk.end_index = chunk.end_index + len(context) if adjacent else None
        else:
            adjacent = adjacent and neighbour.end_index == chunk.start_index
            chunk.text = context + chunk.text
            chunk.start_index = chunk.start_index - len(context) if adjacent else None
        if not adjacent:
            chunk.start_index = chunk.end_index = None
        chunk.token_count = self.tokenizer.count_tokens(chunk.text)

    def _apply_doc(self, chunk: Any, context: str) -> None:
        from docchunk.serialization import contextualize

        context = self._fit_doc_context(chunk, context)
        if not context:
            return
        if self.merge:
            chunk.text = self._join_doc(chunk.text, context)
        else:
            setattr(chunk.meta, "context_suffix" if self.method == "suffix" else "context_prefix", context)
        if hasattr(chunk.meta, "token_count"):
            chunk.meta.token_count = self.tokenizer.count_tokens(contextualize(chunk))

    def _join_doc(self, text: str, context: str) -> str:
        r"""A document chunk's text with the context, on its own line.

        Document chunks are separate elements, not slices of one string (``"\n"``, the
        chunkers' ``delim``).
        """
        return f"{text}\n{context}" if self.method == "suffix" else f"{context}\n{text}"

    def _fit_doc_context(self, chunk: Any, context: str) -> str:
        """Trim the context (never the body) until ``contextualize`` fits ``max_tokens``."""
        limit = self.max_tokens
        if limit is None:
            return context
        from docchunk.serialization import contextualize

        def fits(ctx: str) -> bool:
            trial = chunk.model_copy(deep=False)
            trial.text = self._join_doc(chunk.text, ctx)
            return self.tokenizer.count_tokens(contextualize(trial)) <= limit

        if fits(context):
            return context
        lo, hi = 0, len(context)  # longest fitting run of characters from the neighbour's edge
        while lo < hi:
            mid = (lo + hi + 1) // 2
            part = context[:mid] if self.method == "suffix" else context[len(context) - mid :]
            if fits(part):
                lo = mid
            else:
                hi = mid - 1
        return context[:lo] if self.method == "suffix" else context[len(context) - lo :]
