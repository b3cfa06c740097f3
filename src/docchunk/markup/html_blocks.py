"""Markdown raw HTML blocks with an explicit end: ``<pre>``, ``<script>``, ``<style>``, comments.

CommonMark 4.6, HTML blocks of types 1 to 5: a line that starts (after at most three
spaces) with ``<pre``, ``<script``, ``<style`` or ``<textarea`` (any case; then a space,
``>`` or the line end) runs to the first line holding ``</pre>``, ``</script>``,
``</style>`` or ``</textarea>``; ``<!--`` to ``-->``; ``<?`` to ``?>``; ``<!`` and a letter
(``<!DOCTYPE``) to ``>``; ``<![CDATA[`` to ``]]>``; unclosed, to the end of the text. Their
lines are raw HTML, never Markdown: a ``# apt-get install`` root prompt in ``<pre>`` or a
commented-out ``## Old section`` is no heading and a ``|`` line there no table row.
:func:`opaque_blocks` gives them together with fenced code. Types 6 and 7 (``<div>`` and
other tags, ended by a blank line) are not read: their lines stay Markdown.
"""

from __future__ import annotations

import re

from docchunk.markup.fences import fenced_blocks, fenced_parts, in_blocks

__all__ = ["html_blocks", "opaque_blocks", "opaque_interiors", "open_block_line"]

_START = re.compile(
    r"(?:\A|(?<=\n)|(?<=\r)) {0,3}<"
    r"(?:(?P<tag>pre|script|style|textarea)(?=[ \t>\r\n]|\Z)|(?P<other>!--|\?|!\[CDATA\[|![A-Za-z]))",
    re.IGNORECASE,
)
_ENDS = {"!--": "-->", "?": "?>", "![CDATA[": "]]>"}
_TAG_END = re.compile(r"</(?:pre|script|style|textarea)>", re.IGNORECASE)


def html_blocks(text: str, fenced: list[tuple[int, int]] | None = None) -> list[tuple[int, int]]:
    r"""``(start, end)`` character offsets of each HTML block of types 1-5 of ``text``, in order.

    A block runs from the start of its first line to the end of the line that holds its
    end marker (without its line break; the first line itself when it holds it), or to
    ``len(text)`` when unclosed. A start inside fenced code (``fenced``:
    :func:`~docchunk.markup.fences.fenced_blocks` of ``text``, computed when None) is none.

    Example:
        >>> html_blocks("Text\n<!--\n# old\n-->\n# New")
        [(5, 19)]
    """
    return [(a, b) for a, b, _ in _html_blocks(text, fenced)]


def _html_blocks(text: str, fenced: list[tuple[int, int]] | None = None) -> list[tuple[int, int, bool]]:
    """:func:`html_blocks`, each with whether its end marker closes it."""
    if "<" not in text:
        return []
    if fenced is None:
        fenced = fenced_blocks(text)
    out: list[tuple[int, int, bool]] = []
    at = 0
    while (start := _START.search(text, at)) is not None:
        if in_blocks(fenced, start.start()):
            at = start.end()
            continue
        other = start.group("other")
        if other is None:
            tag = _TAG_END.search(text, start.end())
            closed = -1 if tag is None else tag.end()
        else:
            marker = _ENDS.get(other, ">")
            found = text.find(marker, start.end())
            closed = -1 if found == -1 else found + len(marker)
        end_at = len(text) if closed == -1 else _line_end(text, closed)
        out.append((start.start(), end_at, closed != -1))
        at = end_at + 1
    return out


def open_block_line(text: str) -> str:
    r"""The first line (without its line break) of the fenced code or HTML block still open at the end of ``text``.

    "" when none is open. Prepended to a text that follows (with a line break), it opens
    the same kind of block there: ``opaque_blocks(line + "\n" + rest)``.
    """
    html = _html_blocks(text)
    if html and not html[-1][2]:
        return text[html[-1][0] : _line_end(text, html[-1][0])]
    spans = [(a, b) for a, b, _ in html]
    parts = [part for part in fenced_parts(text) if not in_blocks(spans, part[0])]
    if not parts or parts[-1][2] < len(text):  # closed, or ended with its block quote
        return ""
    return text[parts[-1][0] : parts[-1][1]]


def opaque_blocks(text: str) -> list[tuple[int, int]]:
    """Fenced code blocks and HTML blocks of types 1-5 of ``text``, sorted: their lines are no Markdown.

    A fence that starts inside an HTML block is none (``<pre>`` holding a ```` ``` ````
    line), nor an HTML block that starts inside fenced code.
    """
    fenced = fenced_blocks(text)
    html = html_blocks(text, fenced)
    if not html:
        return fenced
    return sorted([*html, *(b for b in fenced if not in_blocks(html, b[0]))])


def opaque_interiors(text: str) -> list[tuple[int, int]]:
    """The inside of each block of :func:`opaque_blocks`, sorted: where no Markdown separator cuts.

    A fenced code block's inside runs from the end of its opening fence line to the start
    of its closing one (or the end of the text); an HTML block's from the end of its first
    line to its end. A line break inside ends a line of code, never a wrapped one.
    """
    html = html_blocks(text) if "<" in text else []
    out = [(_line_end(text, a), b) for a, b in html]
    if "```" in text or "~~~" in text:
        out += [(body, body_end) for start, body, body_end, _ in fenced_parts(text) if not in_blocks(html, start)]
    return sorted(out)


def _line_end(text: str, position: int) -> int:
    """The end of the line that holds ``position``, before its line break."""
    ends = [i for i in (text.find("\n", position), text.find("\r", position)) if i != -1]
    return min(ends) if ends else len(text)
