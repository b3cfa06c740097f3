"""Markdown code fences: find fenced code blocks; keep a closing fence with the block it closes.

A recursive splitter cuts at literal separators and cannot tell an opening fence
from a closing one, so a cut can fall just before a closing fence and the next chunk
starts with it. :func:`keep_fences_closed` is a small phase after packing that moves
such a cut, so that the chunk before it ends with the closing fence.
:func:`fenced_blocks` and :func:`in_blocks` let the refineries skip the lines of
fenced code (a ``# comment`` there is no heading, a ``|`` line no table row).
"""

from __future__ import annotations

import bisect
import re

from docchunk.tokenizers import Tokenizer
from docchunk.types import Chunk

__all__ = ["closing_fences", "fenced_blocks", "in_blocks", "keep_fences_closed"]

# a fence line (CommonMark): up to three spaces, then three or more backticks or tildes
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})([^\n]*)$", re.MULTILINE)


def _fence_pairs(text: str) -> list[tuple[re.Match[str], re.Match[str] | None]]:
    """Each fence's opening line and its closing line (None when unclosed), in order (CommonMark 4.5)."""
    out: list[tuple[re.Match[str], re.Match[str] | None]] = []
    opening: re.Match[str] | None = None
    for match in _FENCE.finditer(text):
        marks, rest = match.group(1), match.group(2)
        if opening is None:
            if marks[0] == "`" and "`" in rest:
                continue  # not a fence: an info string of a backtick fence has no backtick
            opening = match
            continue
        fence = opening.group(1)
        if marks[0] == fence[0] and len(marks) >= len(fence) and not rest.strip():
            out.append((opening, match))
            opening = None
    if opening is not None:
        out.append((opening, None))
    return out


def closing_fences(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each closing fence line of ``text``, without its line break.

    Fences pair as in CommonMark: a closing fence uses the opening fence's character,
    at least as many of them, and has nothing but spaces after them. An unclosed fence
    runs to the end of the text and has no closing line.
    """
    return [(close.start(), close.end()) for _, close in _fence_pairs(text) if close is not None]


def fenced_blocks(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` character offsets of each fenced code block of ``text``, in order.

    A block runs from the start of its opening fence line to the end of its closing
    fence line (without its line break), or to ``len(text)`` when unclosed. Fences
    pair as in :func:`closing_fences` (CommonMark 4.5: three or more backticks or
    tildes, indented by at most three spaces, closed by a fence of the same
    character at least as long). The blocks do not overlap.
    """
    return [(open_.start(), close.end() if close is not None else len(text)) for open_, close in _fence_pairs(text)]


def in_blocks(blocks: list[tuple[int, int]], position: int) -> bool:
    """Whether character offset ``position`` falls inside one of ``blocks`` (sorted, from :func:`fenced_blocks`)."""
    i = bisect.bisect_right(blocks, position, key=lambda block: block[0]) - 1
    return i >= 0 and blocks[i][0] <= position < blocks[i][1]


def keep_fences_closed(text: str, chunks: list[Chunk], tokenizer: Tokenizer, limit: int) -> list[Chunk]:
    """Move each cut that falls just before a closing fence line (only whitespace between).

    The cut moves after the fence line when the chunk before still fits ``limit``
    (a chunk left empty is dropped), else back to the start of the line before the
    fence, when the chunk after still fits, else the line before and the fence
    line become a chunk of their own. A cut that can do none of these (a budget
    smaller than the fence line and the line before it) stays. Both chunks are
    recounted exactly; offsets stay exact and coverage is unchanged. The caller
    joins whitespace-only chunks to a neighbour afterwards.

    Args:
        text: The chunked text.
        chunks: Chunks of ``text`` in order (adjacent or overlapping).
        tokenizer: Counts ``token_count``.
        limit: Most tokens per chunk.

    Returns:
        The chunks, with those cuts moved.
    """
    fences = dict(closing_fences(text)) if len(chunks) > 1 else {}
    if not fences:
        return chunks
    out = list(chunks)
    i = 1
    while i < len(out):
        fence = _fence_at_start(text, out[i], fences)
        moved = _move_cut(text, out[i - 1], out[i], fence, tokenizer, limit) if fence else None
        if moved is not None:
            out[i - 1 : i + 1] = moved
            if len(moved) == 1:
                continue  # merged: the next chunk now follows out[i - 1]
        i += 1
    return out


def _offsets(chunk: Chunk) -> tuple[int, int]:
    """A chunk's offsets."""
    return chunk.start_index, chunk.end_index


_SPACE = re.compile(r"\s*")


def _fence_at_start(text: str, chunk: Chunk, fences: dict[int, int]) -> tuple[int, int] | None:
    r"""The closing fence line ``(start, end)`` that ``chunk`` begins with, if any.

    After whitespace, or with the cut before ``chunk`` inside the line (a separator
    such as ``"```\n"`` can match inside ``"````\n"``); None when the line does not
    end inside the chunk.
    """
    at, end = _offsets(chunk)
    space = _SPACE.match(text, at)
    first = space.end() if space else at  # the first non-space character
    line = text.rfind("\n", 0, first) + 1  # the start of its line (a fence may be indented)
    if line in fences and fences[line] <= end:
        return line, fences[line]
    return None


def _move_cut(text: str, prev: Chunk, cur: Chunk, fence: tuple[int, int], tokenizer: Tokenizer,
              limit: int) -> list[Chunk] | None:  # fmt: skip
    """The chunks with the cut moved past the fence, or back one line; None when neither fits."""
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
    line_before = text.rfind("\n", 0, max(0, min(fence_start, cs) - 1)) + 1
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
