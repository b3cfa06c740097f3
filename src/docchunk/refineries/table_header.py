"""Table headers as context: a chunk that starts inside a pipe table gets the table's first row."""

from __future__ import annotations

import bisect
import re

from docchunk.markup.fences import in_blocks
from docchunk.markup.html_blocks import opaque_blocks
from docchunk.refineries.base import SourceRunRefinery
from docchunk.refineries.runs import lone_cr_as_lf
from docchunk.types.chunk import TextChunkLike
from docchunk.types.config import check_size

__all__ = ["TableHeaderRefinery", "pipe_tables"]

_SENTENCE_END = re.compile(r"[.!?:;][\"')\]]*\s+")


class TableHeaderRefinery(SourceRunRefinery):
    r"""Gives each text chunk that starts inside a pipe table the table's header row as context.

    A row of a table cut between chunks says nothing about its columns
    (``2008 | 37.28 | 19.35``); the header row (``quarter | high | low``) and the
    sentence introducing the table do. This refinery finds, for each chunk, the
    table its first non-blank line belongs to and, when that table's first row is
    not in the chunk, puts the row (and, with ``caption=True``, the sentence before the table) in
    ``context_prefix``, before any context already there. ``text`` and the offsets
    never change, so the context is embedded with the chunk but not retrieved.

    A pipe table is a run of at least two consecutive lines that each contain
    ``|``: GitHub-flavoured Markdown tables (with or without the ``|---|``
    delimiter row) and the ``a | b | c`` rows of text exports. Its header is its
    first line (without its line break; lines end at ``\\n``, ``\\r\\n`` or
    ``\\r``). Lines inside a fenced code block (CommonMark: from a fence of
    three or more backticks or tildes to a fence of the same character at least
    as long, or to the end of the text when unclosed) and inside a raw HTML block
    (``<pre>``, ``<!-- -->``: :mod:`docchunk.markup.html_blocks`) are never table rows. The
    text before a chunk is read from the chunks before it, so the chunks must
    come in source order with offsets (as every docchunk text chunker gives
    them); a chunk without offsets, or after a gap, starts a new run, and the
    context stops at that run's start.

    Args:
        caption: Also take the sentence introducing the table: the last sentence
            of the nearest non-blank line before the header, at most
            ``max_caption_chars`` characters (its end if longer); none when
            that line is fenced code.
        max_caption_chars: Limit of the caption, in characters; >= 1.
        inplace: True modifies and returns the given list; False returns new
            chunks and leaves the input untouched.

    Invariants of the result: ``text``, ``start_index``, ``end_index`` and
    ``token_count`` are unchanged; ``context_prefix`` is ``header + "\\n" + old
    context_prefix`` (``caption + "\\n" + header + ...`` with ``caption=True``) for
    chunks inside a table whose header is before them, unchanged otherwise. Run it after an
    :class:`~docchunk.OverlapRefinery` with ``method="prefix"``, which replaces
    ``context_prefix``.

    Raises:
        ConfigError: ``max_caption_chars`` is not an int >= 1, or an unknown keyword.

    Example:
        >>> from docchunk import Chunk
        >>> text = "year | sales\\n2007 | 10\\n2008 | 12\\n"
        >>> chunks = [Chunk(text=text[:23], start_index=0, end_index=23),
        ...           Chunk(text=text[23:], start_index=23, end_index=len(text))]
        >>> [c.context_prefix for c in TableHeaderRefinery()(chunks)]
        [None, 'year | sales\\n']
    """

    def __init__(self, caption: bool = False, max_caption_chars: int = 200, inplace: bool = True):
        check_size("max_caption_chars", max_caption_chars, 1)
        self.caption = caption
        self.max_caption_chars = max_caption_chars
        self.inplace = inplace

    def refine_run(self, run_start: int, run: str, members: list[TextChunkLike]) -> None:
        """Add the table header context to each chunk of one source run that starts inside a table."""
        run = lone_cr_as_lf(run)
        blocks = opaque_blocks(run) if "|" in run else []
        tables = pipe_tables(run, blocks) if "|" in run else []
        for chunk in members:
            context = self._context(run, chunk.start_index - run_start, tables, blocks)
            if context:
                chunk.context_prefix = context + (chunk.context_prefix or "")

    def context_for(self, text: str, position: int) -> str:
        """The header context of a chunk starting at ``position`` (characters) in ``text``; "" if none.

        Args:
            text: The source text (or the part of it that holds the chunk and what precedes it).
            position: The chunk's start offset in ``text``.
        """
        text = lone_cr_as_lf(text)
        blocks = opaque_blocks(text)
        return self._context(text, position, pipe_tables(text, blocks), blocks)

    def _context(self, text: str, position: int, tables: list[tuple[int, int]], blocks: list[tuple[int, int]]) -> str:
        """:meth:`context_for`, with the ``tables`` of ``text`` (from :func:`pipe_tables`) and its fenced ``blocks``."""
        while position < len(text) and text[position].isspace():
            position += 1  # the chunk's first non-blank line decides
        if position >= len(text):
            return ""
        line_start = text.rfind("\n", 0, position) + 1
        i = bisect.bisect_right(tables, line_start, key=lambda table: table[0]) - 1
        if i < 0 or line_start >= tables[i][1] or line_start == tables[i][0]:
            return ""  # not in a table, or in its header itself
        header = tables[i][0]
        context = _line_at(text, header).rstrip("\r") + "\n"
        if self.caption:
            caption = self._caption(text, header, blocks)
            context = (caption + "\n" if caption else "") + context
        return context

    def _caption(self, text: str, header: int, blocks: list[tuple[int, int]]) -> str:
        """The last sentence of the nearest non-blank line before ``header``, at most max_caption_chars.

        "" when that line is fenced code (code is no caption).
        """
        window = max(0, header - 4 * self.max_caption_chars)
        before = text[window:header].rstrip()
        line = before[before.rfind("\n") + 1 :].strip()
        if not line or in_blocks(blocks, window + before.rfind("\n") + 1):
            return ""
        ends = [m.end() for m in _SENTENCE_END.finditer(line)]
        sentence = line[ends[-1] :] if ends else line
        return sentence[-self.max_caption_chars :].strip()


def _line_at(text: str, start: int) -> str:
    end = text.find("\n", start)
    return text[start : end if end >= 0 else len(text)]


def pipe_tables(text: str, blocks: list[tuple[int, int]]) -> list[tuple[int, int]]:
    r"""``(header line start, end of the last row)`` of each pipe table of ``text``, in order, in one pass.

    A table is a run of two or more consecutive lines that hold a ``|`` and are not blank
    or in ``blocks`` (fenced code, HTML blocks); lines end at ``"\n"`` (turn lone ``"\r"``
    into ``"\n"`` first: :func:`~docchunk.refineries.runs.lone_cr_as_lf`).
    """
    tables: list[tuple[int, int]] = []
    first = end = -1  # the current run of rows: its first line's start, its last line's end
    rows = 0
    start = 0
    while start <= len(text):
        stop = text.find("\n", start)
        stop = len(text) if stop < 0 else stop
        line = text[start:stop]
        if "|" in line and line.strip() and not in_blocks(blocks, start):
            first, rows = (first, rows + 1) if rows else (start, 1)
            end = stop
        else:
            if rows >= 2:
                tables.append((first, end))
            rows = 0
        start = stop + 1
    if rows >= 2:
        tables.append((first, end))
    return tables
