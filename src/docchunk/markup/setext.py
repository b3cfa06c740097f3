"""Markdown Setext headings: a paragraph underlined with ``===`` (level 1) or ``---`` (level 2).

CommonMark 4.3: the underline is a line of ``=`` or ``-`` characters, indented by at most
three spaces, with nothing but spaces after them, right below one or more lines of a
paragraph. docling's Markdown converter reads them as headings, so the ``markdown``
preset of :class:`docchunk.RecursiveChunker` cuts before them and
:class:`docchunk.HeadingContextRefinery` puts them in the heading path. Lines inside
fenced code blocks are never headings.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from docchunk.markup.fences import in_blocks
from docchunk.markup.html_blocks import opaque_blocks

__all__ = ["SetextHeading", "setext_headings"]

_UNDERLINE = re.compile(r" {0,3}(=+|-+)[ \t]*")
# lines that cannot be part of a Setext heading's paragraph: blank, ATX headings, list items,
# quotes, fences, thematic breaks, indented code, HTML blocks and table rows
_NOT_PARAGRAPH = re.compile(
    r"[ \t]*\Z| {0,3}(?:#{1,6}(?:[ \t]|\Z)|[-+*][ \t]|\d{1,9}[.)][ \t]|>|```|~~~|<|(?:[-*_][ \t]*){3,}\Z)"
    r"|(?: {4}|\t)|.*\|"
)
# lines whose paragraph the lines right below them continue (lazily, CommonMark 5.1, 5.2, 4.6), so
# that an underline below those lines is a thematic break or text, never a Setext heading
_CONTAINER = re.compile(r" {0,3}(?:[-+*][ \t]|\d{1,9}[.)][ \t]|>|<)")
_LINE = re.compile(r"([^\r\n]*)(?:\r\n|\r|\n|\Z)")


class SetextHeading(NamedTuple):
    """One Setext heading of a text."""

    start: int
    """Offset of the first character of its paragraph (the heading's first line)."""
    end: int
    """Offset just after its underline (before the underline's line break)."""
    level: int
    """1 for ``===``, 2 for ``---``."""
    title: str
    """The paragraph's lines, stripped and joined by one space."""


def setext_headings(text: str) -> list[SetextHeading]:
    r"""The Setext headings of ``text``, in order (lines end at ``"\n"``, ``"\r\n"`` or ``"\r"``).

    A heading is one or more consecutive paragraph lines (not blank, not a list item,
    quote, ATX heading, fence, table row or indented code) followed by an underline of
    ``=`` or ``-`` (up to three spaces of indent); none of its lines lies inside a
    fenced code block, and they do not continue a list item, a quote or an HTML block
    (lazy continuation lines: ``- item\n  more\n---`` has no heading, as in CommonMark).
    ``---`` after a blank line is a thematic break, not a heading. A byte-order mark
    (U+FEFF) at the text's start is read past: it is in no title. As in CommonMark, YAML
    front matter (``---\ntitle: x\n---``) reads as a Setext heading: its lines are a
    paragraph over ``---``.

    Example:
        >>> [(h.level, h.title) for h in setext_headings("Fruit\n=====\n\nApples\n---\nRed.\n")]
        [(1, 'Fruit'), (2, 'Apples')]
    """
    if "==" not in text and "--" not in text and "\n=" not in text and "\n-" not in text:
        return []
    lines = [m.span(1) for m in _LINE.finditer(text) if m.end() > m.start() or m.start() < len(text)]
    if text.startswith("\ufeff"):  # a byte-order mark is no part of the first line (its start stays 0)
        lines[0] = (1, lines[0][1])
    blocks: list[tuple[int, int]] | None = None
    out: list[SetextHeading] = []
    for k in range(1, len(lines)):
        s, e = lines[k]
        if not _UNDERLINE.fullmatch(text, s, e):
            continue
        first = k
        while first > 0 and not _NOT_PARAGRAPH.match(text, lines[first - 1][0], lines[first - 1][1]):
            if _UNDERLINE.fullmatch(text, *lines[first - 1]) and first - 1 < k:
                break
            first -= 1
        if first == k or (first > 0 and _CONTAINER.match(text, lines[first - 1][0], lines[first - 1][1])):
            continue  # no paragraph, or lazy lines of a list item, quote or HTML block: "---" is a rule
        if blocks is None:
            blocks = opaque_blocks(text)
        start = 0 if first == 0 else lines[first][0]
        if in_blocks(blocks, start) or in_blocks(blocks, s):
            continue
        title = " ".join(text[a:b].strip() for a, b in lines[first:k])
        out.append(SetextHeading(start, e, 1 if text[s:e].lstrip()[0] == "=" else 2, title))
    return out
