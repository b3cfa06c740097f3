"""A phase after packing: keep each fence line with the code block it opens or closes.

A recursive splitter cuts at literal separators and cannot tell an opening fence
from a closing one, so a cut can fall just before a closing fence and the next chunk
starts with it. :func:`keep_fences_closed` moves such a cut, so that the chunk before
it ends with the closing fence (fence lines: :func:`docchunk.markup.fences.fence_lines`).
"""

from __future__ import annotations

import re

from docchunk.markup.fences import fence_lines, line_start
from docchunk.tokenizers import Tokenizer
from docchunk.types import Chunk

__all__ = ["keep_fences_closed"]

_SPACE = re.compile(r"\s*")


def keep_fences_closed(text: str, chunks: list[Chunk], tokenizer: Tokenizer, limit: int) -> list[Chunk]:
    r"""Keep each fence line with the block it belongs to, by moving the cuts next to fences.

    Two kinds of cut move, left to right:

    * a cut just before a closing fence line (only whitespace between): it moves
      after the fence line when the chunk before still fits ``limit`` (a chunk left
      empty is dropped), else back to the start of the line before the fence, when
      the chunk after still fits, else the line before and the fence line become a
      chunk of their own;
    * a cut just after an opening fence line (the chunk before ends with it, only
      whitespace after): it moves back before the fence line and the whitespace
      before it, else to the start of the fence line, when the chunk after still
      fits, else forward past the block's first line (and past the closing fence
      when it follows) when the chunk before still fits, else the fence line and
      that line become a chunk of their own.

    So a block is cut only between its own lines, never right after a closing fence
    or right after an opening one. A cut that can do none of these (a budget
    smaller than a fence line and the line next to it) stays. Both chunks are
    recounted exactly; offsets stay exact and coverage is unchanged. The caller
    joins whitespace-only chunks to a neighbour afterwards. Line breaks are
    ``"\n"``, ``"\r\n"`` or ``"\r"``.

    Args:
        text: The chunked text.
        chunks: Chunks of ``text`` in order (adjacent or overlapping).
        tokenizer: Counts ``token_count``.
        limit: Most tokens per chunk.

    Returns:
        The chunks, with those cuts moved.
    """
    lines = fence_lines(text) if len(chunks) > 1 else []
    if not lines:
        return chunks
    closing = {s: e for s, e, opening in lines if not opening}
    opening = {s: e for s, e, is_open in lines if is_open}
    out = list(chunks)
    i = 1
    while i < len(out):
        moved = None
        fence = _fence_at_start(text, out[i], closing)
        if fence:
            moved = _move_cut(text, out[i - 1], out[i], fence, tokenizer, limit, opening)
        elif out[i - 1].end_index == out[i].start_index:
            fence = _fence_at_end(text, out[i - 1], opening)
            moved = _move_open_cut(text, out[i - 1], out[i], fence, tokenizer, limit, closing) if fence else None
        if moved is not None:
            out[i - 1 : i + 1] = moved
            if len(moved) == 1:
                continue  # merged: the next chunk now follows out[i - 1]
        i += 1
    return out


def _offsets(chunk: Chunk) -> tuple[int, int]:
    """A chunk's offsets."""
    return chunk.start_index, chunk.end_index


def _line_before(text: str, position: int) -> int:
    """The start of the line of ``text[position]``, or of the line before when ``position`` starts a line."""
    line = line_start(text, position)
    return line_start(text, _break_before(text, line)) if line == position else line


def _break_before(text: str, line: int) -> int:
    """The start of the line break that ends right before ``line`` (a line start); ``line`` at the text's start."""
    if text.startswith("\r\n", line - 2):
        return line - 2
    return line - 1 if line > 0 and text[line - 1] in "\r\n" else line


def _fence_at_start(text: str, chunk: Chunk, fences: dict[int, int]) -> tuple[int, int] | None:
    r"""The closing fence line ``(start, end)`` that ``chunk`` begins with, if any.

    After whitespace, or with the cut before ``chunk`` inside the line (a separator
    such as ``"```\n"`` can match inside ``"````\n"``); None when the line does not
    end inside the chunk.
    """
    at, end = _offsets(chunk)
    space = _SPACE.match(text, at)
    first = space.end() if space else at  # the first non-space character
    if first >= end:
        return None  # only whitespace: it goes to a neighbour afterwards
    line = line_start(text, first)  # the start of its line (a fence may be indented)
    if line in fences and fences[line] <= end:
        return line, fences[line]
    return None


def _fence_at_end(text: str, chunk: Chunk, fences: dict[int, int]) -> tuple[int, int] | None:
    """The opening fence line ``(start, end)`` that ``chunk`` ends with (only whitespace after it), if any."""
    at, end = _offsets(chunk)
    last = at + len(text[at:end].rstrip())  # after the last non-space character
    if last == at:
        return None
    line = line_start(text, last - 1)
    if line in fences and fences[line] == last and line >= at:
        return line, last
    return None


def _move_open_cut(text: str, prev: Chunk, cur: Chunk, fence: tuple[int, int], tokenizer: Tokenizer,
                   limit: int, closing: dict[int, int]) -> list[Chunk] | None:  # fmt: skip
    """The chunks with the cut moved before the opening fence line, or past the block's first line.

    Past the closing fence line when it follows the first line (a cut must not come before it).
    """
    (ps, _), (cs, ce) = _offsets(prev), _offsets(cur)
    fence_start, fence_end = fence
    back = ps + len(text[ps:fence_start].rstrip())  # before the whitespace that leads to the fence line
    for cut in dict.fromkeys((back, line_start(text, fence_start))):  # with that whitespace, else without
        after = _span(text, cut, ce, tokenizer, limit)
        if after.token_count <= limit:
            return [after] if cut == ps else [_span(text, ps, cut, tokenizer, limit), after]
    first_break = _next_break(text, fence_end, ce)  # the end of the block's first line
    if first_break is None or first_break <= cs:
        return None
    space = _SPACE.match(text, first_break)
    after_line = space.end() if space else first_break
    if line_start(text, after_line) in closing:  # a one-line block: the cut goes after its closing fence
        first_break = closing[line_start(text, after_line)]
        if first_break >= ce:
            return None
    before = _span(text, ps, first_break, tokenizer, limit)
    if before.token_count <= limit:
        return [before, _span(text, first_break, ce, tokenizer, limit)]
    # last resort: the fence line and the block's first line become a chunk of their own
    start = line_start(text, fence_start)
    head = _span(text, start, first_break, tokenizer, limit)
    if start <= ps or head.token_count > limit:
        return None
    return [_span(text, ps, start, tokenizer, limit), head, _span(text, first_break, ce, tokenizer, limit)]


def _next_break(text: str, position: int, end: int) -> int | None:
    """The start of the line break that ends the line after the one ending at ``position``, within ``end``."""
    at = position + (2 if text.startswith("\r\n", position) else 1)  # past the fence line's own break
    for i in range(at, end):
        if text[i] in "\r\n":
            return i
    return None


def _move_cut(text: str, prev: Chunk, cur: Chunk, fence: tuple[int, int], tokenizer: Tokenizer,
              limit: int, opening: dict[int, int]) -> list[Chunk] | None:  # fmt: skip
    """The chunks with the cut moved past the fence, or back one line; None when neither fits.

    Back before the opening fence line when the line before is the block's first (a cut must not come after it).
    """
    fence_start, fence_end = fence
    (ps, pe), (cs, ce) = _offsets(prev), _offsets(cur)
    adjacent = pe == cs
    if adjacent:
        after = _span(text, ps, fence_end, tokenizer, limit)
        if after.token_count <= limit:
            if fence_end == ce or not text[fence_end:ce].strip():
                whole = _span(text, ps, ce, tokenizer, limit)
                if whole.token_count <= limit:
                    return [whole]
            if fence_end < ce:
                return [after, _span(text, fence_end, ce, tokenizer, limit)]
    line_before = _line_before(text, min(fence_start, cs))
    opens = _line_before(text, line_before) if line_before > 0 else line_before
    if opens in opening and not text[opening[opens] : line_before].strip():  # the block's first line
        line_before = opens
    if line_before <= ps:
        return None  # (a whitespace-only rest of prev is joined to a neighbour afterwards)
    head = [_span(text, ps, line_before, tokenizer, limit)] if adjacent else [prev]
    before = _span(text, line_before, ce, tokenizer, limit)
    if before.token_count <= limit:
        return [*head, before]
    # last resort: the line before and the fence become a chunk of their own
    block_end = _span(text, line_before, fence_end, tokenizer, limit)
    if block_end.token_count > limit or fence_end >= ce:
        return None
    return [*head, block_end, _span(text, fence_end, ce, tokenizer, limit)]


def _span(text: str, s: int, e: int, tokenizer: Tokenizer, limit: int) -> Chunk:
    n = tokenizer.count_tokens(text[s:e])
    return Chunk(text=text[s:e], start_index=s, end_index=e, token_count=n, oversized=n > limit)
