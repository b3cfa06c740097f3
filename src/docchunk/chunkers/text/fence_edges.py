"""A phase after packing: no chunk starts with the fence that closes a code block.

:func:`docchunk.chunkers.text.fence_cuts.keep_fences_closed` moves a cut next to a closing fence
when a neighbour has room for the fence and the line next to it; at tiny budgets
(a few tokens) neither has, and a chunk would start with a bare ```` ``` ````. This
phase gives such a fence the end of the block before it instead.
"""

from __future__ import annotations

import bisect

from docchunk.markup.fences import closing_fences
from docchunk.markup.sentences import line_start
from docchunk.tokenizers import Tokenizer
from docchunk.types import Chunk

__all__ = ["no_fence_first"]


def no_fence_first(text: str, chunks: list[Chunk], tokenizer: Tokenizer, limit: int) -> list[Chunk]:
    r"""Chunks of which none starts (after whitespace) with a closing code fence.

    For each chunk that touches the one before (or follows it after a dropped
    whitespace separator, which then goes with the fence) and starts with a closing fence line
    (only whitespace before it), the fence line is given the longest end of the chunk
    before that fits ``limit`` with it (cut after whitespace when it can, else after
    any character, leaving more than whitespace before it), as a chunk of its own;
    the rest of the chunk follows (only whitespace after the fence stays with it). When not even
    one character fits with the fence, the fence line joins the chunk before, which is
    then over the limit by the fence alone (flagged ``oversized``). First, chunks cut
    between the marks of a closing fence are joined (:func:`_whole_fences`). Runs after
    the whitespace-only chunks are given to a neighbour, which may give one to a fence. Offsets stay exact,
    the chunks still tile what they tiled, and every ``token_count`` is exact.

    Args:
        text: The chunked text.
        chunks: Chunks of ``text`` in order.
        tokenizer: Counts ``token_count``.
        limit: Most tokens per chunk.
    """
    # a chunk starting with a closing fence, or cut inside its marks, starts (after whitespace) with a mark
    # (or a quote marker, in a block quote): only then is there anything to do (the fence scan of the whole
    # text is the costly part)
    if len(chunks) < 2 or not any(c.text.lstrip().startswith(("`", "~", ">")) for c in chunks[1:]):
        return chunks
    ends = {start: end for start, end in closing_fences(text)}
    if not ends:
        return chunks
    chunks = _whole_fences(text, chunks, ends, tokenizer, limit)
    out: list[Chunk] = [chunks[0]]
    for chunk in chunks[1:]:
        prev = out[-1]
        lead = chunk.start_index + len(chunk.text) - len(chunk.text.lstrip())
        fence_end = ends.get(line_start(text, lead))  # an indented fence's line starts before it
        if fence_end is None or lead == chunk.end_index or not _touch(text, prev, chunk) or fence_end > chunk.end_index:
            out.append(chunk)
            continue
        while not prev.text.strip() and len(out) > 1 and _touch(text, out[-2], prev):
            # whitespace only: it joins the line before
            prev = _span(text, out[-2].start_index, prev.end_index, tokenizer, limit)
            out[-2:] = [prev]
        out[-1:] = _give_fence_a_line(text, prev, fence_end, tokenizer, limit)
        if text[fence_end : chunk.end_index].strip():
            out.append(_span(text, fence_end, chunk.end_index, tokenizer, limit))
        elif fence_end < chunk.end_index:  # only whitespace after the fence: it stays with it
            out[-1] = _span(text, out[-1].start_index, chunk.end_index, tokenizer, limit)
    return out


def _whole_fences(text: str, chunks: list[Chunk], ends: dict[int, int], tokenizer: Tokenizer,
                  limit: int) -> list[Chunk]:  # fmt: skip
    """``chunks`` joined where a cut falls inside the marks of a closing fence line (``ends``: line start to end).

    The marks run from the line's first non-space character (a quote marker ``>`` in a
    block quote) to its end; a space dropped there (``keep_separator=False``) joins too.

    A fence longer than ``limit`` (```` ~~~~~~~ ```` at 6 characters, ```` ``` ```` at 2
    MiniLM tokens) is then one chunk's, over the limit by the fence, flagged ``oversized``.
    """
    marks = sorted((start + len(text[start:end]) - len(text[start:end].lstrip()), end) for start, end in ends.items())
    out: list[Chunk] = []
    for chunk in chunks:
        i = bisect.bisect_right(marks, chunk.start_index, key=lambda m: m[0]) - 1
        inside = i >= 0 and marks[i][0] < chunk.start_index < marks[i][1]
        if out and inside and marks[i][0] < out[-1].end_index and _touch(text, out[-1], chunk):
            out[-1] = _span(text, out[-1].start_index, chunk.end_index, tokenizer, limit)
        else:
            out.append(chunk)
    return out


def _give_fence_a_line(text: str, prev: Chunk, fence_end: int, tokenizer: Tokenizer, limit: int) -> list[Chunk]:
    """The chunk before, cut so that its longest end that fits goes with the fence line (``:fence_end``)."""
    start, cut = prev.start_index, None
    for c in range(prev.end_index - 1, start, -1):  # moving left: the fence's part grows
        if tokenizer.count_tokens(text[c:fence_end]) > limit:
            break
        if text[c - 1 : c + 1] == "\r\n" or not text[start:c].strip():
            continue  # never inside a CRLF, never leaving only whitespace before
        if text[c : prev.end_index].strip() and (cut is None or text[c - 1].isspace() or not text[cut - 1].isspace()):
            cut = c
    if cut is None:
        return [_span(text, start, fence_end, tokenizer, limit)]
    return [_span(text, start, cut, tokenizer, limit), _span(text, cut, fence_end, tokenizer, limit)]


def _touch(text: str, before: Chunk, after: Chunk) -> bool:
    """Whether ``after`` follows ``before`` with at most whitespace between (dropped with ``keep_separator=False``)."""
    return before.end_index <= after.start_index and not text[before.end_index : after.start_index].strip()


def _span(text: str, start: int, end: int, tokenizer: Tokenizer, limit: int) -> Chunk:
    n = tokenizer.count_tokens(text[start:end])
    return Chunk(text=text[start:end], start_index=start, end_index=end, token_count=n, oversized=n > limit)
