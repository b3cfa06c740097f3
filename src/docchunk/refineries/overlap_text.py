"""Overlap context on text chunks (:class:`docchunk.Chunk`): merged into the chunk's span, or kept beside it.

Used by :class:`docchunk.OverlapRefinery`. A merged chunk remembers the offsets of its own
text (``_body``), so that a later pass replaces its context instead of adding to it.
"""

from __future__ import annotations

from typing import Any

from docchunk.tokenizers import Tokenizer
from docchunk.types import Chunk

__all__ = ["apply_text", "body_span", "unmerge_text"]


def apply_text(chunk: Any, context: str, neighbour: tuple[int, int] | None, suffix: bool, merge: bool,
               counter: Tokenizer) -> bool:  # fmt: skip
    """Merge ``context`` into the chunk's span (True), or store it in a context field (False).

    Merged when ``merge=True`` and the neighbour's original text is adjacent in the
    source; else stored in ``context_prefix``/``context_suffix``. Context from an earlier pass of the same
    side (``suffix``: after the chunk, else before) is replaced, never added to; the other
    side is left alone. ``token_count`` of a merged chunk is recounted with ``counter``.
    """
    span = body_span(chunk)
    adjacent = (
        span is not None and neighbour is not None and (neighbour[0] == span[1] if suffix else neighbour[1] == span[0])
    )
    if not (merge and adjacent):
        unmerge_text(chunk, suffix)
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
    chunk.token_count = counter.count_tokens(chunk.text)
    return True


def body_span(chunk: Any) -> tuple[int, int] | None:
    """Offsets of a text chunk's original text (before merged context); None for a document chunk."""
    body = getattr(chunk, "_body", None)
    if body is not None:
        return body
    return (chunk.start_index, chunk.end_index) if isinstance(chunk, Chunk) else None


def unmerge_text(chunk: Any, suffix: bool) -> None:
    """Remove context an earlier merge put on this side of a text chunk's span."""
    span = getattr(chunk, "_body", None)
    if span is None:
        return
    s, (bs, be) = chunk.start_index, span
    if suffix and chunk.end_index != be:
        chunk.text, chunk.end_index = chunk.text[: be - s], be
    elif not suffix and s != bs:
        chunk.text, chunk.start_index = chunk.text[bs - s :], bs
