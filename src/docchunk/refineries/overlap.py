"""Overlap: context from neighbouring chunks, for text chunks and document chunks."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Literal, cast

from docchunk.errors import ConfigError, ConfigTypeError
from docchunk.refineries.base import C, Refinery
from docchunk.refineries.boundaries import EDGE, check_stops, edge_start, open_block_after, stop_context
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
        rules: Units for ``mode="recursive"``.
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
            a blank line, which separates documents, dialogues and paragraphs, also
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
        if len(out) < 2:
            return out
        bodies = [_body_text(c) for c in out]  # the neighbours' original text, before any context
        size = self._size(bodies)
        if self.method == "suffix":
            pairs = [(i, i + 1) for i in range(len(out) - 1)]
        else:
            pairs = [(i, i - 1) for i in range(1, len(out))]
        merged: set[int] = set()  # the chunks whose text took context in (token_count recounted)
        leads = _block_leads(bodies, [_body_span(c) for c in out]) if {"heading", "table"} & set(self.stop_at) else None
        for target, neighbour in pairs:
            context = self._context(bodies[neighbour], size)
            if self.stop_at:
                outer = _outer(bodies[neighbour], context, self.method) if "table" in self.stop_at else ""
                context = stop_context(bodies[target], context, self.method == "suffix", self.stop_at,
                                       _lead(leads, bodies, target, neighbour, len(context) + len(outer), self.method),
                                       outer)  # fmt: skip
            if not text_chunks:
                self._apply_doc(out[target], bodies[target], context)
            elif context and self._apply_text(out[target], context, _body_span(out[neighbour])):
                merged.add(target)
        if merged:  # one unit in the list: the chunks left as they were are recounted as the merged ones were
            counter = self._text_counter()
            for k, chunk in enumerate(out):
                if k not in merged:
                    cast(Any, chunk).token_count = counter.count_tokens(chunk.text)
        return out

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

    # -- text chunks ----------------------------------------------------------------
    def _apply_text(self, chunk: Any, context: str, neighbour: tuple[int, int] | None) -> bool:
        """Merge ``context`` into the chunk's span (True), or store it in a context field (False).

        Merged when ``merge=True`` and the neighbour's original text is adjacent in the
        source; else stored in ``context_prefix``/``context_suffix``. Context from an earlier pass of the same
        method is replaced, never added to; the other side is left alone.
        """
        suffix = self.method == "suffix"
        span = _body_span(chunk)
        adjacent = span is not None and neighbour is not None and (
            neighbour[0] == span[1] if suffix else neighbour[1] == span[0]
        )
        if not (self.merge and adjacent):
            _unmerge_text(chunk, suffix)
            setattr(chunk, "context_suffix" if suffix else "context_prefix", context)
            return False
        assert span is not None
        s, (bs, be) = chunk.start_index, span
        if suffix:
            chunk.text = chunk.text[: be - s] + context
            chunk.end_index = be + len(context)
            chunk.context_suffix = None
        else:
            chunk.text = context + chunk.text[bs - s :]
            chunk.start_index = bs - len(context)
            chunk.context_prefix = None
        chunk._body = (bs, be)
        chunk.token_count = self._text_counter().count_tokens(chunk.text)
        return True

    def _text_counter(self) -> Tokenizer:
        """The tokenizer of ``Chunk.token_count``: the chunker's when known, else the refinery's."""
        counter = getattr(self.chunker, "tokenizer", None)
        return counter if isinstance(counter, Tokenizer) else self.tokenizer

    # -- document chunks ------------------------------------------------------------
    def _apply_doc(self, chunk: Any, body: str, context: str) -> None:
        """Put the context around the document chunk (text or meta), trimmed to the budget.

        ``meta.token_count`` is recounted in the chunker's tokens.
        """
        from docchunk.serialization import contextualize

        budget = self._doc_budget(chunk)
        context = self._fit_doc_context(chunk, body, context, budget)
        _set_doc_context(chunk, body, context, self.method, self.merge)
        if budget is not None and getattr(chunk.meta, "token_count", None) is not None:
            count = budget.tokenizer.count_tokens(contextualize(chunk, budget.delim))
            chunk.meta.token_count = count
            limit = self.max_tokens or budget.max_tokens
            if hasattr(chunk.meta, "oversized") and limit is not None:
                chunk.meta.oversized = True if count > limit else None

    def _doc_budget(self, chunk: Any) -> Any:
        """The chunker's tokenizer, limit and delim: from ``chunker=``, else the chunk's own."""
        from docchunk.serialization.chunk import ChunkBudget

        if self.chunker is not None:
            # a docchunk document chunker's token_counter, else the tokenizer of a docling-core or text chunker
            tok = getattr(self.chunker, "token_counter", None) or get_tokenizer(cast(Any, self.chunker).tokenizer)
            return ChunkBudget(tok, getattr(self.chunker, "max_tokens", None), getattr(self.chunker, "delim", "\n"))
        budget = getattr(chunk, "budget", None)
        if budget is not None:
            return budget
        if getattr(chunk.meta, "token_count", None) is not None:
            raise ConfigError(
                "OverlapRefinery: these document chunks have a meta.token_count but do not say which chunker "
                "counted it (chunks from docling-core, or loaded from JSON); pass chunker=<the chunker that made "
                "them>, e.g. OverlapRefinery(context_size=8, chunker=HybridChunker(max_tokens=64))"
            )
        return None

    def _fit_doc_context(self, chunk: Any, body: str, context: str, budget: Any) -> str:
        """Trim the context (never the body) until ``contextualize`` fits the budget.

        The budget is ``max_tokens`` if given, else the chunker's, in the chunker's tokens.
        """
        limit = self.max_tokens if self.max_tokens is not None else getattr(budget, "max_tokens", None)
        if limit is None or not context:
            return context
        from docchunk.serialization import contextualize

        counter = budget.tokenizer if budget is not None else self.tokenizer
        delim = budget.delim if budget is not None else "\n"

        def fits(ctx: str) -> bool:
            trial = chunk.model_copy()
            trial.meta = chunk.meta.model_copy()
            _set_doc_context(trial, body, ctx, self.method, self.merge)
            return counter.count_tokens(contextualize(trial, delim)) <= limit

        if fits(context):
            return context
        lo, hi = 0, len(context)  # longest fitting run of characters from the neighbour's edge
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if fits(_edge(context, mid, self.method)):
                lo = mid
            else:
                hi = mid - 1
        return _edge(context, lo, self.method)


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


def _edge(context: str, length: int, method: str) -> str:
    """The ``length`` characters of ``context`` nearest the chunk it is added to."""
    return context[:length] if method == "suffix" else context[len(context) - length :]


def _body_span(chunk: Any) -> tuple[int, int] | None:
    """Offsets of a text chunk's original text (before merged context); None for a document chunk."""
    body = getattr(chunk, "_body", None)
    if body is not None:
        return body
    return (chunk.start_index, chunk.end_index) if isinstance(chunk, Chunk) else None


def _block_leads(bodies: list[str], spans: list[tuple[int, int] | None]) -> list[str]:
    """The first line of the fenced code or HTML block open at the start of each chunk's text, in order.

    A chunk that starts inside the one before (overlapping chunks, ``spans`` their offsets)
    gets the block open at its start, read from the one before up to there, not after it
    (an overlap repeats a fence line, which would close the block again).
    """
    leads: list[str] = []
    lead = ""
    for k, body in enumerate(bodies):
        before, here = (spans[k - 1], spans[k]) if k else (None, None)
        if before is not None and here is not None and before[0] <= here[0] < before[1]:
            lead = open_block_after(leads[-1], bodies[k - 1][: here[0] - before[0]])
        leads.append(lead)
        lead = open_block_after(lead, body)
    return leads


def _outer(body: str, context: str, method: str) -> str:
    """Up to :data:`EDGE` characters of the neighbour ``body`` beyond ``context`` (before it from a line start)."""
    if method == "suffix":
        return body[len(context) : len(context) + EDGE]
    before = body[: len(body) - len(context)]
    return before[edge_start(before) :]


def _lead(leads: list[str] | None, bodies: list[str], target: int, neighbour: int, taken: int, method: str) -> str:
    """The block open where :func:`stop_context`'s window begins.

    That is at ``near[edge_start(near):]`` (suffix), or ``taken`` characters from the end
    of the neighbour (prefix: the context and the text read before it).
    """
    if leads is None:
        return ""
    if method == "suffix":
        body = bodies[target]
        return open_block_after(leads[target], body[: edge_start(body)])
    body = bodies[neighbour]
    return open_block_after(leads[neighbour], body[: len(body) - taken])


def _body_text(chunk: Any) -> str:
    """A chunk's original text: without the context an earlier merge put into ``text``."""
    body = getattr(chunk, "_body", None)
    if isinstance(body, str):  # a document chunk
        return body
    if isinstance(body, tuple):  # a text chunk: offsets of the original slice
        start = chunk.start_index
        return chunk.text[body[0] - start : body[1] - start]
    return chunk.text


def _unmerge_text(chunk: Any, suffix: bool) -> None:
    """Remove context an earlier merge put on this side of a text chunk's span."""
    span = getattr(chunk, "_body", None)
    if span is None:
        return
    s, (bs, be) = chunk.start_index, span
    if suffix and chunk.end_index != be:
        chunk.text, chunk.end_index = chunk.text[: be - s], be
    elif not suffix and s != bs:
        chunk.text, chunk.start_index = chunk.text[bs - s :], bs


def _set_doc_context(chunk: Any, body: str, context: str, method: str, merge: bool) -> None:
    """Put ``context`` on the ``method`` side of a document chunk.

    Into ``text`` on its own line (``merge=True``; document chunks are separate elements, not slices of one
    string) or into ``meta.context_prefix``/``context_suffix``. Context from an earlier
    pass on the same side is replaced; the other side is kept.
    """
    merged = list(getattr(chunk, "_merged", None) or (None, None))
    side = 1 if method == "suffix" else 0
    merged[side] = (context or None) if merge else None
    if merge:
        setattr(chunk.meta, f"context_{method}", None)
    else:
        setattr(chunk.meta, f"context_{method}", context or None)
    chunk.text = "\n".join(part for part in (merged[0], body, merged[1]) if part)
    if hasattr(chunk, "_merged"):  # docchunk's DocChunk remembers what is context (docling-core's cannot)
        chunk._merged = (merged[0], merged[1])
        chunk._body = body if any(merged) else None
