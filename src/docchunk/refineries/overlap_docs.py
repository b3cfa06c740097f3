"""Overlap context on document chunks: around the body, in ``text`` or in ``meta``, trimmed to the chunker's budget.

Used by :class:`docchunk.OverlapRefinery`; ``meta.token_count`` stays the chunker's count of
``contextualize(chunk)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from docchunk.errors import ConfigError
from docchunk.tokenizers import get_tokenizer

if TYPE_CHECKING:
    from docchunk.refineries.overlap import OverlapRefinery

__all__ = ["apply_doc", "doc_budget", "fit_doc_context", "set_doc_context"]


def apply_doc(refinery: OverlapRefinery, chunk: Any, body: str, context: str) -> None:
    """Put the context around the document chunk (text or meta), trimmed to the budget.

    ``meta.token_count`` is recounted in the chunker's tokens.
    """
    from docchunk.serialization import contextualize

    budget = doc_budget(refinery, chunk)
    context = fit_doc_context(refinery, chunk, body, context, budget)
    set_doc_context(chunk, body, context, refinery.method, refinery.merge)
    if budget is not None and getattr(chunk.meta, "token_count", None) is not None:
        count = budget.tokenizer.count_tokens(contextualize(chunk, budget.delim))
        chunk.meta.token_count = count
        limit = refinery.max_tokens or budget.max_tokens
        if hasattr(chunk.meta, "oversized") and limit is not None:
            chunk.meta.oversized = True if count > limit else None


def doc_budget(refinery: OverlapRefinery, chunk: Any) -> Any:
    """The chunker's tokenizer, limit and delim: from ``chunker=``, else the chunk's own."""
    from docchunk.serialization.chunk import ChunkBudget

    if refinery.chunker is not None:
        # a docchunk document chunker's token_counter, else the tokenizer of a docling-core or text chunker
        tok = getattr(refinery.chunker, "token_counter", None) or get_tokenizer(cast(Any, refinery.chunker).tokenizer)
        return ChunkBudget(tok, getattr(refinery.chunker, "max_tokens", None), getattr(refinery.chunker, "delim", "\n"))
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


def fit_doc_context(refinery: OverlapRefinery, chunk: Any, body: str, context: str, budget: Any) -> str:
    """Trim the context (never the body) until ``contextualize`` fits the budget.

    The budget is ``max_tokens`` if given, else the chunker's, in the chunker's tokens.
    """
    limit = refinery.max_tokens if refinery.max_tokens is not None else getattr(budget, "max_tokens", None)
    if limit is None or not context:
        return context
    from docchunk.serialization import contextualize

    counter = budget.tokenizer if budget is not None else refinery.tokenizer
    delim = budget.delim if budget is not None else "\n"

    def fits(ctx: str) -> bool:
        trial = chunk.model_copy()
        trial.meta = chunk.meta.model_copy()
        set_doc_context(trial, body, ctx, refinery.method, refinery.merge)
        return counter.count_tokens(contextualize(trial, delim)) <= limit

    if fits(context):
        return context
    lo, hi = 0, len(context)  # longest fitting run of characters from the neighbour's edge
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(_edge(context, mid, refinery.method)):
            lo = mid
        else:
            hi = mid - 1
    return _edge(context, lo, refinery.method)


def _edge(context: str, length: int, method: str) -> str:
    """The ``length`` characters of ``context`` nearest the chunk it is added to."""
    return context[:length] if method == "suffix" else context[len(context) - length :]


def set_doc_context(chunk: Any, body: str, context: str, method: str, merge: bool) -> None:
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
