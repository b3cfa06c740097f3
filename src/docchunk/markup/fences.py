"""Markdown code fences: find fenced code blocks (also in block quotes and list items).

The one place fences are recognised (CommonMark 4.5, in containers 5.1 and 5.2).
:func:`fenced_blocks` and :func:`in_blocks` let the refineries skip the lines of
fenced code (a ``# comment`` there is no heading, a ``|`` line no table row);
:func:`fence_lines` and :func:`closing_fences` let the recursive chunker keep a
closing fence with the block it closes
(:func:`docchunk.chunkers.text.fence_cuts.keep_fences_closed`).
"""

from __future__ import annotations

import bisect
import re

__all__ = [
    "closing_fences",
    "fence_lines",
    "fenced_blocks",
    "fenced_parts",
    "in_blocks",
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
    """``(depth, indent, inner)`` of a fence line's lead (its quote markers and indentation).

    The number of quote markers, the indentation before the first of them (or before
    the marks), and the indentation after the last one's optional space.
    """
    depth = lead.count(">")
    inner = len(lead) - lead.rindex(">") - 2 if depth else 0
    return depth, len(lead) - len(lead.lstrip(" \t")), inner


def _quote_end(text: str, at: int, depth: int) -> int:
    """Where the block quote of ``depth`` markers that holds the line ending at ``at`` ends.

    The end of its last line (before the line break of the first line after it that lacks
    the markers: fenced code has no lazy continuation lines), or ``len(text)`` when the
    quote runs to the end of the text (an empty last line included).
    """
    markers = re.compile(rf"(?:[ \t]*>){{{depth}}}")
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
    """``(start, end, opening)`` of each fence line of a block, in order.

    A line runs without its line break and trailing whitespace. ``opening`` is True
    for the line that opens a block, False for the one that closes it.
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


_SPACE = re.compile(r"\s*")


def line_start(text: str, position: int) -> int:
    r"""The start of the line that holds ``text[position]`` (after a ``\n``, ``\r\n`` or ``\r``).

    A ``\r`` is looked for only after the last ``\n``: the search back stops at the line.
    """
    lf = text.rfind("\n", 0, position)
    return max(lf, text.rfind("\r", lf + 1, position)) + 1
