r"""Markdown thematic breaks: a line of three or more ``*``, ``-`` or ``_`` (CommonMark 4.1).

The line holds one kind of mark, three or more of them, with spaces or tabs between them
allowed (``***``, ``-----``, ``* * *``, ``_ _ _``), after at most three spaces of indent
and nothing else. A ``---`` line right under a paragraph underlines a Setext heading
instead (:func:`docchunk.markup.setext.setext_headings`), and a line inside fenced code or
an HTML block is no break. LangChain's ``markdown`` separators read the unspaced ones
(``\n\*\*\*+\n``, ``\n---+\n``, ``\n___+\n``).
"""

from __future__ import annotations

import re

from docchunk.markup.fences import in_blocks, line_start
from docchunk.markup.html_blocks import opaque_blocks
from docchunk.markup.setext import setext_headings

__all__ = ["thematic_breaks"]

_BREAK = re.compile(
    r"(?:\A\ufeff?|(?<=\n)|(?<=\r)) {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})(?=\r|\n|\Z)"
)


def thematic_breaks(text: str) -> list[int]:
    r"""The start offset of each thematic break line of ``text``, in order.

    Example:
        >>> thematic_breaks("One.\n\n* * *\n\nTwo.\n---\n")  # "Two." over "---" is a Setext heading
        [6]
    """
    if not any(m in text for m in ("***", "---", "___", "* *", "- -", "_ _")):
        return []
    starts = [m.start() for m in _BREAK.finditer(text)]
    if not starts:
        return []
    blocks = opaque_blocks(text)
    underlines = {line_start(text, h.end) for h in setext_headings(text)}
    return [s for s in starts if s not in underlines and not in_blocks(blocks, s)]
