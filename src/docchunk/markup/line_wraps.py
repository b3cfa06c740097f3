"""Hard wraps: tells a line break inside a sentence from one that ends a line (the line level's rule).

:class:`LineWraps` judges one break; :func:`line_ends` lists the breaks of a span that end
a line. The rule is :func:`~docchunk.markup.sentences.sentence_spans`'s (a new
block, a chat turn, a short line, narrow lines, verse); docs/sentence.md states it.
"""

from __future__ import annotations

import re
from itertools import pairwise
from typing import NamedTuple

from docchunk.markup.chat_logs import TURN, is_chat_log
from docchunk.markup.fences import in_blocks
from docchunk.markup.line_breaks import (
    BREAK,
    BREAK_CHARS,
    BREAKS,
    PARAGRAPH_SEPARATOR,
    any_line_end,
    any_line_start,
    line_end,
    line_start,
    other_breaks,
)  # fmt: skip

__all__ = ["LineWraps", "line_ends"]

# the start of a line that opens a new block: a tab (code, math), list item, heading, quote, table row, fence,
# Setext underline
_BLOCK_START = re.compile(
    r"\t|[ \t]*(?:[-+*•‣◦][ \t]|(\d{1,9})[.)][ \t]|#{1,6}(?:[ \t]|$)|>|\||```|~~~|(?:=+|-{2,})[ \t]*$)"
)
_QUOTE = re.compile(r"[ \t]{0,3}(?:>[ \t]?)+")  # a quote's markers: "> ", ">> "
_MIN_WRAP_WIDTH = 40  # characters: a paragraph whose lines are all shorter was not wrapped by a program
_MAX_WRAP_WIDTH = 200  # characters: a paragraph with a longer line was not wrapped at a width (one paragraph a line)
_SLACK = 8  # a line counts as full when within width // _SLACK of the widest (proportional fonts, justified PDF)
_LINE_END_MARK = re.compile(r"[,;:.!?…—–]['\"”’»)\]]*\Z")  # a line of verse often ends with punctuation
_NON_SPACE = re.compile(r"\S")
_BLANK_LINE = re.compile(r"(?:\r\n|\r(?!\n)|\n)[^\S\r\n]*(?:\r\n|\r|\n|\Z)")  # a line break, then a blank line
_ANY_BLANK_LINE = re.compile(rf"{BREAK}[^\S{BREAK_CHARS}]*(?:{BREAK}|\Z)|{PARAGRAPH_SEPARATOR}")  # any breaks
_FIRST_WORD = re.compile(r"[ \t]*(\S*)")


class _Paragraph(NamedTuple):
    """What :class:`LineWraps` reads from a paragraph (a run of non-blank lines) once."""

    start: int
    end: int
    width: int  # its widest line, stripped
    verse: bool  # three or more lines, each begins with a capital, and not wrapped at a width
    turns: bool  # a chat log (its first line, or most of its lines, start a turn): a line that starts one is a new turn
    listed: bool  # its first line is a list item: a numbered line is a new item, whatever its number


class LineWraps:
    r"""Tells a hard wrap (a line break inside a sentence) from a line that is meant to end.

    The rule is :func:`sentence_spans`'s; each paragraph is read once. ``odd`` says
    whether the text holds line breaks other than ``"\n"`` (computed when None); without
    them lines are found by ``str.find``.
    """

    def __init__(self, text: str, odd: bool | None = None):
        self.text = text
        self.last: _Paragraph | None = None
        self.odd = other_breaks(text) if odd is None else odd
        self.line_start = any_line_start if self.odd else line_start
        self.line_end = any_line_end if self.odd else line_end

    def is_wrap(self, a: int, b: int) -> bool:
        """Whether the run of line breaks ``text[a:b]`` is a wrap inside a sentence.

        Read in place (offsets into the text, no copy of the lines around the break).
        """
        text = self.text
        if b - a > 1 and (b - a > 2 or text[a:b] != "\r\n"):  # two or more breaks: a blank line
            return False
        if b >= len(text) or (self.odd and text[a] == PARAGRAPH_SEPARATOR):
            return False
        first = self.line_start(text, a)
        line_len = _rstripped_end(text, first, a) - first  # len(line.rstrip())
        end = self.line_end(text, b)  # the line after the break: text[b:end]
        start = _NON_SPACE.search(text, b, end)
        if start is None or not line_len:  # either line is blank
            return False
        pos = b  # where the line after reads on: past a quote's markers
        quote = _QUOTE.match(text, b, end)
        if quote is not None:  # a quote's lines continue it: read what follows the same markers
            if not text.startswith(text[b : quote.end()].rstrip(), first, a):
                return False
            pos = quote.end()
        block = _BLOCK_START.match(text, pos, end)
        if block is not None and (block.group(1) is None or block.group(1) == "1"):
            return False  # (a numbered item other than 1 interrupts no paragraph: "came in\n1884. The")
        word = _FIRST_WORD.match(text, pos, end)
        assert word is not None
        word_len = word.end(1) - word.start(1)
        rest = _NON_SPACE.search(text, pos, end)  # len(after.strip()), after the quote's markers
        after_len = 0 if rest is None else _rstripped_end(text, rest.start(), end) - rest.start()
        if not _fits(line_len, word_len, after_len):  # short even next to the line after it
            return False
        para = self.paragraph(first)
        if block is not None and para.listed:
            return False
        if para.turns and TURN.match(text, pos, end):
            return False
        if para.verse or not _MIN_WRAP_WIDTH <= para.width <= _MAX_WRAP_WIDTH:
            return False
        return _fits(line_len, word_len, para.width)

    def end_before(self, lo: int, hi: int, keep: list[tuple[int, int]]) -> int:
        r"""The last ``"\n"`` in ``text[lo + 1:hi + 1]`` that ends a line (as :func:`line_ends`); -1 when none."""
        text = self.text
        at = text.rfind("\n", lo + 1, hi + 1)
        while at != -1 and not ((keep and in_blocks(keep, at)) or not self.is_wrap(at, at + 1)):
            at = text.rfind("\n", lo + 1, at)
        return at

    def end_after(self, lo: int, hi: int, keep: list[tuple[int, int]]) -> int:
        r"""The first ``"\n"`` in ``text[lo + 1:hi]`` that ends a line (as :func:`line_ends`); ``hi`` when none."""
        text = self.text
        at = text.find("\n", lo + 1, hi)
        while at != -1 and not ((keep and in_blocks(keep, at)) or not self.is_wrap(at, at + 1)):
            at = text.find("\n", at + 1, hi)
        return hi if at == -1 else at

    def paragraph(self, first: int) -> _Paragraph:
        """The paragraph around the line that starts at ``first``.

        Breaks come in text order, so the paragraph of the last call is kept: each
        paragraph is read once, from the line of its first single break to its end.
        """
        last = self.last
        if last is not None and last.start <= first < last.end:
            return last
        text, start = self.text, first
        while start > 0 and text[start - 1] != PARAGRAPH_SEPARATOR:  # back to the paragraph's first line
            prev = self.line_start(text, start - 1)  # (in order, only before its first break)
            if start - 1 > 0 and text[start - 2 : start] == "\r\n":
                prev = self.line_start(text, start - 2)
            if not text[prev:start].strip():
                break
            start = prev
        blank = (_ANY_BLANK_LINE if self.odd else _BLANK_LINE).search(text, start)  # it ends at a blank line
        end = blank.start() if blank is not None else len(text)
        body = text[start:end]
        lines = [line.strip() for line in (BREAKS.split(body) if self.odd else body.split("\n"))]
        # a line that is one unbreakable word (a long URL) was never wrapped: it sets no width
        width = max((len(line) for line in lines if " " in line), default=0) or max(len(line) for line in lines)
        verse = len(lines) >= 3 and all(line[0].isupper() for line in lines) and _not_wrapped(lines, width)
        self.last = _Paragraph(start, end + 1, width, verse, is_chat_log(lines), bool(_BLOCK_START.match(lines[0])))
        return self.last


def _full(line: str, after: str, width: int) -> bool:
    """Whether ``line`` is full: the first word of the line ``after`` it would not have fitted on it.

    See :func:`_fits`.
    """
    word = _FIRST_WORD.match(after)
    assert word is not None
    return _fits(len(line.rstrip()), len(word.group(1)), width)


def _fits(line_len: int, word_len: int, width: int) -> bool:
    """Whether a line of ``line_len`` characters (stripped on the right) is full.

    That is, a next word of ``word_len`` characters would not have fitted on it within
    ``width // _SLACK`` characters of the paragraph's widest line (``width``): a program
    that wraps at a width leaves no such room, but the characters per line of a
    proportional font vary with the letters.
    """
    return line_len + 1 + word_len > width - width // _SLACK


def _rstripped_end(text: str, lo: int, hi: int) -> int:
    """``lo + len(text[lo:hi].rstrip())``: where ``text[lo:hi]`` ends without its trailing whitespace."""
    while hi > lo and text[hi - 1].isspace():
        hi -= 1
    return hi


def _not_wrapped(lines: list[str], width: int) -> bool:
    """Whether capitalized lines read as verse: a line is not full, or most lines end with punctuation.

    Prose whose lines all begin with a capital (German nouns) and are wrapped at a width
    has full lines that seldom end with punctuation.
    """
    if any(not _full(a, b, width) for a, b in pairwise(lines)):
        return True
    return 2 * sum(bool(_LINE_END_MARK.search(line)) for line in lines[:-1]) >= len(lines) - 1


def line_ends(text: str, lo: int, hi: int, wraps: LineWraps | None = None,
              keep: list[tuple[int, int]] | None = None) -> list[tuple[int, int]]:  # fmt: skip
    r"""``(start, end)`` of each line break in ``text[lo:hi]`` that ends a line, not a hard wrap.

    A line break is ``"\n"``, ``"\r\n"``, ``"\r"`` or another of
    :data:`~docchunk.markup.line_breaks.LINE_BREAKS`; each break of a blank line
    (and U+2029) ends one; a single break ends one by :func:`sentence_spans`'s rule (a new block, a chat
    turn, a short line, narrow lines, verse), else it is a wrap inside running text.
    The line level of :class:`docchunk.RecursiveChunker`.

    Args:
        text: The text.
        lo: Start of the span, a character offset.
        hi: End of the span.
        wraps: A :class:`LineWraps` of ``text`` to reuse (it keeps the last paragraph read).
        keep: Sorted ``(start, end)`` spans whose breaks all end lines (fenced code).
    """
    a = text.find("\n", lo, hi)
    odd = wraps.odd if wraps is not None else other_breaks(text, lo, hi)
    if a == -1 and not odd:
        return []
    wraps = wraps or LineWraps(text, odd or None)
    out = []
    if odd:
        breaks = [m.span() for m in BREAKS.finditer(text, lo, hi)]
    else:  # "\n" only: found by str.find, faster than a regex in long text
        breaks = []
        while a != -1:
            breaks.append((a, a + 1))
            a = text.find("\n", a + 1, hi)
    for a, b in breaks:
        if (keep and in_blocks(keep, a)) or not wraps.is_wrap(a, b):
            out.append((a, b))
    return out
