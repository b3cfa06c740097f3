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

__all__ = [
    "closing_fences",
    "fence_lines",
    "fenced_blocks",
    "fenced_parts",
    "in_blocks",
    "keep_fences_closed",
    "line_start",
    "reopened_fences",
    "reopened_seam",
]

# a fence line (CommonMark): indentation, then three or more backticks or tildes; lines end at
# "\r\n", "\r" or "\n", and a fence line's match ends before its line break. Indented by more
# than three spaces it is a fence only inside a list item (indented by the list's width, see
# _in_list_item), else indented code. In a block quote (CommonMark 5.1) the line starts with its
# quote markers ("> ", "> > "; "lead" holds them with the indentation), and a byte-order mark
# may come before the text's first line
_FENCE = re.compile(
    r"(?:\A\ufeff?|(?<=\n)|(?<=\r)(?!\n))(?P<lead>(?:[ \t]*>[ \t]?)*[ \t]*)(?P<marks>`{3,}|~{3,})(?P<info>[^\r\n]*)"
)
_BREAK_AT = re.compile(r"\r\n|\r|\n")
_LIST_ITEM = re.compile(r"[ \t]*(?:[-+*]|\d{1,9}[.)])[ \t]")


def _in_list_item(text: str, start: int, indent: int) -> bool:
    """Whether the line at ``start``, indented by ``indent``, continues a list item.

    True when the nearest line above it that is indented less (blank lines skipped,
    up to 200 lines) starts a list item.
    """
    end = start
    for _ in range(200):
        if end <= 0:
            return False
        begin = line_start(text, end - 1)
        line = text[begin:end].rstrip("\r\n")
        end = begin
        if line.strip() and len(line) - len(line.lstrip(" \t")) < indent:
            return bool(_LIST_ITEM.match(line))
    return False


def _indents(lead: str) -> tuple[int, int, int]:
    """``(depth, indent, inner)`` of a fence line's lead: its quote markers, the indentation before
    the first of them (or before the marks), the indentation after the last one's optional space."""
    depth = lead.count(">")
    inner = len(lead) - lead.rindex(">") - 2 if depth else 0
    return depth, len(lead) - len(lead.lstrip(" \t")), inner


def _quote_end(text: str, at: int, depth: int) -> int:
    """Where the block quote of ``depth`` markers that holds the line ending at ``at`` ends.

    The end of its last line (before the line break of the first line after it that lacks
    the markers: fenced code has no lazy continuation lines), or ``len(text)`` when the
    quote runs to the end of the text (an empty last line included).
    """
    markers = re.compile(r"(?:[ \t]*>){%d}" % depth)
    while (brk := _BREAK_AT.match(text, at)) is not None:
        if brk.end() < len(text) and not markers.match(text, brk.end()):
            return at
        nxt = _BREAK_AT.search(text, brk.end())
        at = nxt.start() if nxt is not None else len(text)
    return len(text)


def _fence_pairs(text: str) -> list[tuple[re.Match[str], re.Match[str] | None, int]]:
    """Each fence's opening line, its closing line (None when unclosed) and the block's end, in order.

    CommonMark 4.5: a closing fence has the opening's character, at least as many, nothing
    but spaces after them, and the opening's quote markers (5.1): a fence in a block quote
    is closed in the same quote, and the end of the quote (a line without its markers)
    ends the block unclosed; a ``> ```` line inside an unquoted block is code.
    """
    out: list[tuple[re.Match[str], re.Match[str] | None, int]] = []
    opening: re.Match[str] | None = None
    depth = open_indent = 0
    block_end = len(text)
    for match in _FENCE.finditer(text):
        if opening is not None and match.start() > block_end:  # the quote ended: so did its block
            out.append((opening, None, block_end))
            opening, block_end = None, len(text)
        marks, rest = match.group("marks"), match.group("info")
        level, indent, inner = _indents(match.group("lead"))
        if inner > 3 or (indent > 3 and (open_indent <= 3 if opening is not None
                                          else not _in_list_item(text, match.start(), indent))):  # fmt: skip
            continue  # indented code, or a line inside a block that is not in a list
        if opening is None:
            if marks[0] == "`" and "`" in rest:
                continue  # not a fence: an info string of a backtick fence has no backtick
            opening, depth, open_indent = match, level, indent
            block_end = _quote_end(text, match.end(), level) if level else len(text)
            continue
        fence = opening.group("marks")
        if level == depth and marks[0] == fence[0] and len(marks) >= len(fence) and not rest.strip():
            out.append((opening, match, match.end()))
            opening, block_end = None, len(text)
    if opening is not None:
        out.append((opening, None, block_end))
    return out


def closing_fences(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each closing fence line of ``text``, without its line break and trailing whitespace.

    Fences pair as in CommonMark: a closing fence uses the opening fence's character,
    at least as many of them, and has nothing but spaces after them. An unclosed fence
    runs to the end of the text and has no closing line.
    """
    return [(close.start(), _marks_end(close)) for _, close, _ in _fence_pairs(text) if close is not None]


def _marks_end(line: re.Match[str]) -> int:
    """The end of a fence line's marks and info string: its trailing spaces and tabs are not its."""
    return line.start("info") + len(line.group("info").rstrip(" \t"))


def fenced_blocks(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` character offsets of each fenced code block of ``text``, in order.

    A block runs from the start of its opening fence line to the end of its closing
    fence line (without its line break), or to ``len(text)`` when unclosed. Fences
    pair as in :func:`closing_fences` (CommonMark 4.5: three or more backticks or
    tildes, indented by at most three spaces, or more inside a list item, closed by a
    fence of the same character at least as long). The blocks do not overlap.
    """
    return [(open_.start(), end) for open_, _, end in _fence_pairs(text)]


def fenced_parts(text: str) -> list[tuple[int, int, int, int]]:
    """``(start, body_start, body_end, end)`` of each fenced code block of ``text``, in order.

    ``start`` and ``end`` are the block's as in :func:`fenced_blocks`; its body (the code)
    runs from the end of the opening fence line to the start of the closing one, or to
    ``end`` when unclosed (at the end of the text, or of the block quote that holds it).
    """
    return [(o.start(), o.end(), c.start() if c is not None else end, end) for o, c, end in _fence_pairs(text)]


def fence_lines(text: str) -> list[tuple[int, int, bool]]:
    """``(start, end, opening)`` of each fence line of a block, without its line break and trailing whitespace, in order.

    ``opening`` is True for the line that opens a block, False for the one that closes it.
    """
    out: list[tuple[int, int, bool]] = []
    for opening, closing, _ in _fence_pairs(text):
        out.append((opening.start(), _marks_end(opening), True))
        if closing is not None:
            out.append((closing.start(), _marks_end(closing), False))
    return out


def reopened_fences(text: str, start: int, end: int) -> tuple[str, int, str]:
    r"""The fence markup that makes ``text[start:end]`` a balanced part of a split code block.

    Returns ``(before, start, after)``: the part is ``before + text[start:end] + after``.
    ``before`` is the opening fence line of the block that the part starts inside
    (after its opening line, before its closing fence line), with its info string
    (````` ```python `````) and a line break; ``after`` is a line break and the opening
    fence's marks when the part ends inside a block (its opening line written or
    reopened, its closing fence line not whole in the part). A part that starts with
    the closing fence line of a block cut before it (only whitespace before the fence)
    starts after that line instead (the part before closed the block), so no part
    holds an empty block or a lone closing fence. A block the text never closes is not
    closed here either. Fences pair as in :func:`closing_fences`. So a split fenced
    block closes at the end of each part and reopens, with the same info string, at the
    start of the next; the code's own text is ``text[start:end]``, unchanged, between.

    Example:
        >>> text = "```python\nx = 1\ny = 2\n```"
        >>> reopened_fences(text, 0, 15)
        ('', 0, '\n```')
        >>> reopened_fences(text, 16, len(text))
        ('```python\n', 16, '')
    """
    before = after = ""
    for opening, closing, _ in _fence_pairs(text):
        if closing is None or opening.start() >= end:
            break
        if closing.end() <= start:
            continue
        if opening.end() < start <= closing.start():
            if not text[start : closing.start()].strip():  # a lone closing fence: the part before closed it
                space = _SPACE.match(text, closing.end())
                start = min(end, space.end() if space is not None else closing.end())
                continue
            before = opening.group(0).lstrip(" \ufeff") + ("" if text.startswith("\n", start) else "\n")
        if opening.end() <= end < closing.end() and (before or start <= opening.start()):
            after = ("" if text[:end].endswith("\n") else "\n") + opening.group("marks")
    return before, start, after


# the markup reopened_fences writes between two parts of one block: a closing fence line
# ending the first part, an opening fence line (marks and info string) starting the next
_CLOSING_TAIL = re.compile(r"\n(`{3,}|~{3,})\Z")
_OPENING_HEAD = re.compile(r"(`{3,}|~{3,})[^\n]*\n")


def reopened_seam(before: str, after: str) -> tuple[int, int] | None:
    r"""Where the fence markup between two parts of one split code block lies, as :func:`reopened_fences` wrote it.

    Returns ``(cut_before, cut_after)``: ``before[:cut_before]`` is the first part
    without the closing fence line it ends with, and ``after[cut_after:]`` the next
    part without its opening fence line; None when ``before`` does not end with a
    closing fence or ``after`` does not start with an opening fence of the same marks.
    Whether the two parts come from one block is the caller's to check (their anchors).

    Example:
        >>> reopened_seam("```python\nx = 1\n```", "```python\ny = 2\n```")
        (15, 10)
        >>> reopened_seam("x = 1\n```", "~~~\ny = 2") is None
        True
    """
    tail, head = _CLOSING_TAIL.search(before), _OPENING_HEAD.match(after)
    if tail is None or head is None or tail.group(1) != head.group(1):
        return None
    return tail.start(), head.end()


def in_blocks(blocks: list[tuple[int, int]], position: int) -> bool:
    """Whether character offset ``position`` falls inside one of ``blocks`` (sorted, from :func:`fenced_blocks`)."""
    i = bisect.bisect_right(blocks, position, key=lambda block: block[0]) - 1
    return i >= 0 and blocks[i][0] <= position < blocks[i][1]


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


_SPACE = re.compile(r"\s*")


def line_start(text: str, position: int) -> int:
    r"""The start of the line that holds ``text[position]`` (after a ``\n``, ``\r\n`` or ``\r``).

    A ``\r`` is looked for only after the last ``\n``: the search back stops at the line.
    """
    lf = text.rfind("\n", 0, position)
    return max(lf, text.rfind("\r", lf + 1, position)) + 1


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
