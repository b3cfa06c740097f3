"""Overlap: context from neighbouring chunks, for text chunks and document chunks."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Literal, cast

from docchunk.errors import ConfigError, ConfigTypeError
from docchunk.refineries.base import C, Refinery
from docchunk.refineries.boundaries import block_leads, check_stops, lead_at, outer_edge, stop_context
from docchunk.refineries.overlap_docs import apply_doc
from docchunk.refineries.overlap_text import apply_text, body_span
from docchunk.refineries.rules import RecursiveRules, split_units
from docchunk.tokenizers import Tokenizer, TokenizerSpec, get_tokenizer
from docchunk.types import Chunk
from docchunk.types.config import check_size

if TYPE_CHECKING:
    from docchunk.types import DocChunker, SpanChunker

__all__ = ["OverlapRefinery"]


class OverlapRefinery(Refinery):
    r"""Adds context from each chunk's neighbour: the start of the next one or the end of the previous one.

    Context is always taken from the neighbour's original text, never from context an
    earlier pass added to it, so a ``"prefix"`` pass followed by a ``"suffix"`` pass
    gives each middle chunk context from both neighbours; running the same method
    twice replaces that side's context instead of adding to it.

    Args:
        tokenizer: Unit of ``context_size``; any spec :func:`docchunk.get_tokenizer`
            accepts (``"character"``, ``"word"``, HF, tiktoken, a callable).
        context_size: An int >= 1 is a number of tokens of ``tokenizer``; a float in
            (0, 1] is that fraction of the largest chunk's token count (counted with
            ``tokenizer``), rounded down but never to zero.
        mode: ``"token"`` takes the first (or last) ``context_size`` tokens of the
            neighbour, cut on character boundaries (needs a tokenizer with offsets);
            ``"recursive"`` takes the longest run of whole units from the neighbour's
            edge that fits, trying the levels of ``rules`` from first to last (a run of
            whitespace alone, such as the blank line a chunk starts with, is no
            context: the next level is tried), and falls back to ``"token"`` when no
            single unit fits.
        method: ``"suffix"`` adds the start of the next chunk to each chunk (the
            last chunk gets none); ``"prefix"`` adds the end of the previous chunk
            (the first gets none).
        rules: Units for ``mode="recursive"``; default: paragraphs, sentences by
            docchunk's sentence rules (not cut in ``12.5`` or after ``Dr.``), words.
        merge: Text chunks (:class:`docchunk.Chunk`): True makes the context part
            of the chunk when the neighbour is adjacent in the source (as with every
            chunker whose chunks tile the text): ``text`` and the offsets extend over
            it, so ``text`` stays the exact slice ``source[start_index:end_index]``;
            context from a neighbour that is not adjacent (chunks that overlap or
            leave gaps) goes to ``context_prefix``/``context_suffix`` instead, as with
            False, which only sets those fields and leaves ``text`` and the offsets.
            Document chunks: True puts the context into ``text`` on its own line
            (before or after, joined by ``"\\n"``); False stores it in
            ``meta.context_prefix``/``meta.context_suffix``, which ``contextualize()``
            includes. Either way ``meta.spans`` is left as it is: it names the
            chunk's own text only, not the context copied from a neighbour (the
            one exception to "the spans of a document's chunks cover each item once":
            with context, a character is in two chunks' texts, in one chunk's spans).
        inplace: True modifies and returns the given list; False returns new
            chunks and leaves the input untouched.
        max_tokens: Budget of a document chunk's ``contextualize(chunk)``, in tokens
            of the chunker's tokenizer; default: the chunker's own ``max_tokens``.
            The context is trimmed (never the body) to keep within it.
        chunker: The chunker that made the chunks. Needed only for chunks that do
            not remember it: document chunks from docling-core or loaded from JSON
            (docchunk's document chunkers attach their ``ChunkBudget`` to each
            chunk), and text chunks, whose ``token_count`` is recounted with this
            chunker's tokenizer (default: with ``tokenizer``) when context is merged:
            then every chunk of the list is recounted, those that took no context too,
            so that one list never mixes units. Pass the chunker (or its tokenizer as
            ``tokenizer``) to keep its unit: with the defaults, ``token_count`` becomes
            a number of characters.
        stop_at: Boundaries the context never crosses: ``()`` (the default, as in
            chonkie: the neighbour's edge whatever it holds), a tuple of names from
            ``("blank_line", "heading", "table")``, or a preset name: ``"documents"``
            (all three, for chat logs and concatenated documents, where a blank line
            or a heading separates one dialogue or document from the next) or
            ``"none"`` (``()``). ``"blank_line"``:
            a blank line (two line breaks, or a U+2029 PARAGRAPH SEPARATOR),
            which separates documents, dialogues and paragraphs, also
            one that falls at the junction of the two chunks; ``"heading"``: a
            Markdown (``#``) or MediaWiki (``= x =``) heading line: context after a
            chunk stops before it, context before a chunk starts at it;
            ``"table"``: where pipe-table rows (lines with ``|``) begin or end. The
            context is the part of the neighbour's edge next to the chunk before the
            first boundary, possibly empty (then none is added).

    Invariants of the result: text chunks keep ``source[start_index:end_index] ==
    text`` (ints stay ints); document chunks keep ``meta.token_count`` equal to the
    tokens of ``contextualize(chunk)`` in the chunker's tokenizer, within the
    chunker's ``max_tokens`` unless the body alone is larger (``meta.oversized``).
    A neighbour shorter than the context is taken whole; an empty list and a single
    chunk come back unchanged. Design after chonkie's ``OverlapRefinery``.

    Raises:
        ConfigError: Invalid ``context_size``, ``mode``, ``method``, ``max_tokens`` or ``stop_at``,
            ``merge`` or ``inplace`` that is not a bool (``"no"`` or ``0`` is refused), or
            an unknown keyword argument (settings assigned after construction are
            validated in the same way); at ``refine()``, document chunks with a
            ``meta.token_count`` whose chunker is unknown and no ``chunker=``.

    Example:
        >>> chunks = TokenChunker("character", chunk_size=10)("abcdefghijklmnopqrst")  # doctest: +SKIP
        >>> [c.text for c in OverlapRefinery(context_size=3)(chunks)]  # doctest: +SKIP
        ['abcdefghijklm', 'klmnopqrst']
    """

    def __init__(
        self,
        tokenizer: TokenizerSpec = "character",
        context_size: int | float = 0.25,
        mode: Literal["token", "recursive"] = "token",
        method: Literal["suffix", "prefix"] = "suffix",
        rules: RecursiveRules | None = None,
        merge: bool = True,
        inplace: bool = True,
        max_tokens: int | None = None,
        chunker: DocChunker | SpanChunker | None = None,
        stop_at: tuple[str, ...] | str = (),
    ):
        self.tokenizer: Tokenizer = get_tokenizer(tokenizer)
        if isinstance(context_size, bool) or not isinstance(context_size, (int, float)):
            raise ConfigTypeError(f"context_size must be an int >= 1 or a float in (0, 1], got {context_size!r}")
        if isinstance(context_size, int) and context_size < 1:
            raise ConfigError(f"context_size as an int is a number of tokens and must be >= 1, got {context_size!r}")
        if isinstance(context_size, float) and not 0.0 < context_size <= 1.0:
            raise ConfigError(f"context_size as a float is a fraction in (0, 1], got {context_size!r}")
        if mode not in ("token", "recursive"):
            raise ConfigError(f'mode must be "token" or "recursive", got {mode!r}')
        if method not in ("suffix", "prefix"):
            raise ConfigError(f'method must be "suffix" or "prefix", got {method!r}')
        if max_tokens is not None:
            check_size("max_tokens", max_tokens, 1)
        for name, flag in (("merge", merge), ("inplace", inplace)):
            if not isinstance(flag, bool):
                raise ConfigError(f"{name} must be True or False, got {flag!r} ({type(flag).__name__}); "
                                  f"pass {name}=True or {name}=False")  # fmt: skip
        if mode == "token":
            self.tokenizer.token_offsets("")  # fails now when the tokenizer has no offsets
        self.context_size = context_size
        self.mode = mode
        self.method = method
        self.rules = rules or RecursiveRules()
        self.merge = merge
        self.inplace = inplace
        self.max_tokens = max_tokens
        self.chunker = chunker
        self.stop_at = check_stops(stop_at)

    def refine(self, chunks: list[C]) -> list[C]:
        """Add context to each chunk (see the class docstring); returns the refined list.

        Args:
            chunks: Text chunks (:class:`docchunk.Chunk`, from a text chunker) or
                document chunks (docling-core-shaped: ``text`` and ``meta``, from a
                document chunker), in order; not a mix of both.

        Raises:
            ConfigError: Document chunks with a ``meta.token_count`` whose chunker is
                unknown (chunks from docling-core or loaded from JSON) and no ``chunker=``;
                a list that mixes text and document chunks, or holds something that is
                neither.
        """
        text_chunks = _check_chunks(chunks)
        out = self._working(chunks)
        if not text_chunks:  # docling-core's chunks (its DocMeta has no context fields) become docchunk's
            from docchunk.serialization.chunk import as_docchunk

            out[:] = [cast(Any, as_docchunk(c)) for c in out]
        if len(out) < 2:
            return out
        bodies = [_body_text(c) for c in out]  # the neighbours' original text, before any context
        size = self._size(bodies)
        if self.method == "suffix":
            pairs = [(i, i + 1) for i in range(len(out) - 1)]
        else:
            pairs = [(i, i - 1) for i in range(1, len(out))]
        merged: set[int] = set()  # the chunks whose text took context in (token_count recounted)
        leads = block_leads(bodies, [body_span(c) for c in out]) if {"heading", "table"} & set(self.stop_at) else None
        for target, neighbour in pairs:
            context = self._context(bodies[neighbour], size)
            if self.stop_at:
                outer = outer_edge(bodies[neighbour], context, self.method) if "table" in self.stop_at else ""
                lead = lead_at(leads, bodies, target, neighbour, len(context) + len(outer), self.method)
                context = stop_context(bodies[target], context, self.method == "suffix", self.stop_at, lead, outer)
            if not text_chunks:
                apply_doc(self, out[target], bodies[target], context)
            elif context and apply_text(out[target], context, body_span(out[neighbour]), self.method == "suffix",
                                        self.merge, self._text_counter()):  # fmt: skip
                merged.add(target)
        if merged:  # one unit in the list: the chunks left as they were are recounted as the merged ones were
            counter = self._text_counter()
            for k, chunk in enumerate(out):
                if k not in merged:
                    cast(Any, chunk).token_count = counter.count_tokens(chunk.text)
        return out

    def _text_counter(self) -> Tokenizer:
        """The tokenizer of ``Chunk.token_count``: the chunker's when known, else the refinery's."""
        counter = getattr(self.chunker, "tokenizer", None)
        return counter if isinstance(counter, Tokenizer) else self.tokenizer

    # -- selection ------------------------------------------------------------------
    def _size(self, bodies: list[str]) -> int:
        if isinstance(self.context_size, int):
            return self.context_size
        largest = max(self.tokenizer.count_tokens(b) for b in bodies)
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
        """Longest run of whole units from the neighbour's edge that fits, first level that has one.

        A run of whitespace only (a paragraph separator) does not count: the next level is tried.
        """
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
            if "".join(taken).strip():  # whitespace alone (the "\n\n" a chunk starts with) is no context
                return "".join(taken)
        return ""


def _check_chunks(chunks: list[Any]) -> bool:
    """True for text chunks, False for document chunks; raises for a mix or anything else."""
    text = [isinstance(c, Chunk) for c in chunks]
    for chunk, is_text in zip(chunks, text, strict=True):
        if not is_text and (getattr(chunk, "meta", None) is None or not isinstance(getattr(chunk, "text", None), str)):
            raise ConfigTypeError(
                f"OverlapRefinery refines chunks: docchunk.Chunk from a text chunker, or document chunks "
                f"(text and meta) from a document chunker; got {type(chunk).__name__}: {chunk!r:.80}"
            )
    if any(text) and not all(text):
        raise ConfigError(
            "OverlapRefinery got a mix of text chunks (docchunk.Chunk) and document chunks; "
            "refine the chunks of one chunker at a time"
        )
    return all(text)


def _body_text(chunk: Any) -> str:
    """A chunk's original text: without the context an earlier merge put into ``text``."""
    body = getattr(chunk, "_body", None)
    if isinstance(body, str):  # a document chunk
        return body
    if isinstance(body, tuple):  # a text chunk: offsets of the original slice
        start = chunk.start_index
        return chunk.text[body[0] - start : body[1] - start]
    return chunk.text
