r"""The line breaks of plain text: the list of Python's ``str.splitlines``.

A line break is ``"\n"``, ``"\r\n"``, ``"\r"``, a vertical tab ``"\x0b"`` (Word's
manual line break in plain-text exports), a form feed ``"\x0c"`` (pdftotext's page
break), the information separators ``"\x1c"``, ``"\x1d"``, ``"\x1e"``, NEL ``"\x85"``,
LINE SEPARATOR U+2028 or PARAGRAPH SEPARATOR U+2029. The paragraph separator ends a
paragraph by itself, as a blank line does. Text with only ``"\n"`` takes the fast paths
(``str.find``); :func:`other_breaks` tells when the others are needed. :func:`line_start`
and :func:`line_end` know only ``"\n"``, ``"\r\n"`` and ``"\r"`` (CommonMark's line endings);
:func:`any_line_start` and :func:`any_line_end` know them all.
"""

from __future__ import annotations

import re

from docchunk.markup.fences import line_start  # the one definition (\n, \r\n, \r); exported here with line_end

__all__ = [
    "BREAK", "BREAKS", "BREAK_CHARS", "LINE_BREAKS", "OTHER_BREAKS", "PARAGRAPH_SEPARATOR", "any_line_end",
    "any_line_start", "line_end", "line_start", "other_breaks", "paragraph_break",
]  # fmt: skip

LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
"""The characters that end a line (``str.splitlines``); ``"\\r\\n"`` is one break."""
OTHER_BREAKS = LINE_BREAKS[1:]
"""The line breaks other than ``"\\n"``, most common first."""
_ASCII_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e"
PARAGRAPH_SEPARATOR = "\u2029"
"""U+2029: a paragraph break wherever a blank line is."""
BREAK_CHARS = "\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029"
""":data:`LINE_BREAKS` as the inside of a pattern's character class."""
BREAK = "(?:\r\n|\r(?!\n)|[\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029])"
"""One line break as a pattern (a ``"\\r"`` before ``"\\n"`` is no break of its own)."""
BREAKS = re.compile(BREAK)
_BREAK_CHAR = re.compile(f"[{BREAK_CHARS}]")


def other_breaks(text: str, lo: int = 0, hi: int | None = None) -> bool:
    r"""Whether ``text[lo:hi]`` holds a line break other than ``"\n"`` (of :data:`OTHER_BREAKS`).

    One ``str.find`` per kind of break: the ASCII ones only in ASCII text.
    """
    hi = len(text) if hi is None else hi
    kinds = _ASCII_BREAKS if text.isascii() else OTHER_BREAKS
    return any(text.find(c, lo, hi) != -1 for c in kinds)


def paragraph_break(breaks: str) -> bool:
    r"""Whether a run of line breaks is a blank line: two breaks or more (``"\r\n"`` is one), or U+2029."""
    return PARAGRAPH_SEPARATOR in breaks or len(BREAKS.findall(breaks)) > 1


def any_line_start(text: str, pos: int) -> int:
    """The start of the line holding ``text[pos]``, after any line break of :data:`LINE_BREAKS`.

    Searched in windows from ``pos`` back, each twice the one before: the cost follows
    the length of the line, not the offset.
    """
    hi, width = pos, 128
    while hi > 0:
        lo = max(0, hi - width)
        last = -1
        for match in _BREAK_CHAR.finditer(text, lo, hi):
            last = match.end()
        if last != -1:
            return last
        hi, width = lo, 2 * width
    return 0


def any_line_end(text: str, pos: int) -> int:
    """The end of the line from ``pos`` on: the next character of :data:`LINE_BREAKS`, or the text's end."""
    match = _BREAK_CHAR.search(text, pos)
    return len(text) if match is None else match.start()


def line_end(text: str, pos: int) -> int:
    r"""The end of the line from ``pos`` on: the next ``"\r"`` or ``"\n"``, or the text's end."""
    end = text.find("\n", pos)
    if end == -1:
        end = len(text)
    cr = text.find("\r", pos, end)
    return end if cr == -1 else cr
