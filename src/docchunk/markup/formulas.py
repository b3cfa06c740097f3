"""Display formulas: the ``$$`` delimiters of a formula split between chunks, closed and reopened.

docling-core writes a display formula as ``$$<LaTeX>$$``. A formula longer than the
budget is cut into parts; as a split code block closes its fence at the end of each
part and reopens it at the start of the next (:func:`docchunk.markup.fences.reopened_fences`),
each part of a split formula gets the delimiters that balance it, so that no part
opens ``$$`` without closing it or closes one it never opened (round-3 documents
tester, finding 7). ``$$`` inside a fenced code block (a shell's process id) is no
delimiter.
"""

from __future__ import annotations

import re

from docchunk.markup.fences import fenced_blocks, in_blocks

__all__ = ["DELIMITER", "math_blocks", "reopened_math", "reopened_math_seam"]

DELIMITER = "$$"
"""A display formula's delimiter, before and after its LaTeX."""

_DELIMITER = re.compile(r"(?<!\\)\$\$")  # (an escaped "\$$" is a dollar sign, then a dollar)


def math_blocks(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each ``$$...$$`` display formula of ``text``, delimiters included, in order.

    Delimiters pair in order, outside fenced code blocks; an unpaired last ``$$`` opens
    no block.

    Example:
        >>> math_blocks("Let $$x^2$$ and $$y$$.")
        [(4, 11), (16, 21)]
    """
    code = fenced_blocks(text) if "```" in text or "~~~" in text else []
    marks = [m.start() for m in _DELIMITER.finditer(text) if not in_blocks(code, m.start())]
    return [(a, b + len(DELIMITER)) for a, b in zip(marks[::2], marks[1::2], strict=False)]


def reopened_math(text: str, start: int, end: int) -> tuple[str, int, str]:
    """The delimiters that make ``text[start:end]`` a balanced part of a split display formula.

    Returns ``(before, start, after)``: the part is ``before + text[start:end] + after``.
    ``before`` is ``$$`` when the part starts inside a formula (after its opening
    delimiter, before its closing one); ``after`` is ``$$`` when it ends inside one
    whose opening delimiter it holds or reopened. A part that starts with the closing
    delimiter of a formula cut just before it (only whitespace before) starts after
    it instead, so that no part holds a lone ``$$``. The formula's own text is
    ``text[start:end]``, unchanged, between.

    Example:
        >>> text = "$$a + b + c$$"
        >>> reopened_math(text, 0, 6)
        ('', 0, '$$')
        >>> reopened_math(text, 7, len(text))
        ('$$', 7, '')
    """
    before = after = ""
    n = len(DELIMITER)
    for a, b in math_blocks(text):
        if a >= end:
            break
        if b <= start:
            continue
        close = b - n
        if a + n <= start <= close:
            if not text[start:close].strip():  # a lone closing delimiter: the part before closed the formula
                start = min(end, b)
                continue
            before = DELIMITER
        if a + n < end <= close and (before or start <= a):
            after = DELIMITER
    return before, start, after


def reopened_math_seam(before: str, after: str) -> tuple[int, int] | None:
    """Where the delimiters between two parts of one split formula lie, as :func:`reopened_math` wrote them.

    Returns ``(cut_before, cut_after)``: ``before[:cut_before]`` is the first part
    without the ``$$`` it ends with, ``after[cut_after:]`` the next part without the
    ``$$`` it starts with; None when the parts do not end and start so. Whether the two
    parts come from one formula is the caller's to check (their anchors).
    """
    if before.endswith(DELIMITER) and after.startswith(DELIMITER):
        return len(before) - len(DELIMITER), len(DELIMITER)
    return None
