"""Heading paths as context: each text chunk gets the headings of the section it starts in."""

from __future__ import annotations

import re

from docchunk.errors import ConfigError
from docchunk.markup.fences import in_blocks
from docchunk.markup.html_blocks import opaque_blocks
from docchunk.markup.setext import setext_headings
from docchunk.refineries.base import C, SourceRunRefinery, check_chunk_list
from docchunk.refineries.runs import lone_cr_as_lf, source_runs
from docchunk.types.chunk import TextChunkLike

__all__ = ["HeadingContextRefinery"]

SYNTAXES = ("markdown", "mediawiki")
# ATX headings: up to 3 spaces, 1-6 '#', a space, the title, optional closing '#'s (CommonMark 4.2)
# (an empty one, '#' or '# #', counts as no heading); a '\r' before the line end is ignored, and so is
# a byte-order mark (U+FEFF) before the text's first line (a file saved with one, read as UTF-8)
_MARKDOWN = re.compile(r"^(?:\A\ufeff)? {0,3}(#{1,6})(?:[ \t]+(.*?))??(?:[ \t]+#+)?[ \t]*\r?$", re.MULTILINE)
# MediaWiki headings: '== Title ==' (level = number of '='), also as tokenized in WikiText-103: ' = = Title = = '
_MEDIAWIKI = re.compile(r"^[ \t]*((?:=[ \t]*){1,6})([^=\n]*?[^=\s][^=\n]*?)[ \t]*((?:=[ \t]*){1,6})\r?$", re.MULTILINE)


def _opened(path: dict[int, str], level: int, title: str) -> dict[int, str]:
    """``path`` after a heading of ``level``: it closes the headings of its level and deeper."""
    return {**{lv: t for lv, t in path.items() if lv < level}, level: title}


class HeadingContextRefinery(SourceRunRefinery):
    r"""Gives each text chunk the path of headings above where it starts, as ``context_prefix``.

    A chunk from the middle of a section rarely repeats what the section is
    about; its headings do (``Valkyria Chronicles III`` / ``Plot``). The
    refinery scans the text for headings and, for each chunk, puts the titles of
    the headings in force at the chunk's start (the last heading of each level
    above it, a heading of level n closing those of level n and deeper), one per
    line, before any context already in ``context_prefix``. ``text`` and the
    offsets never change: the path is embedded with the chunk, not retrieved.

    Heading syntaxes (``syntax``): ``"markdown"``, ATX headings (``# Title`` to
    ``###### Title``, CommonMark) and Setext headings (a paragraph over a line of
    ``===``, level 1, or ``---``, level 2; :func:`docchunk.markup.setext.setext_headings`);
    ``"mediawiki"``, ``= Title =`` to
    ``====== Title ======`` on a line of their own (also with spaces between the
    ``=``, as tokenized in the WikiText-103 corpus: ``= = Title = =``), the
    level being the number of ``=`` on the left; lines end at ``\\n``, ``\\r\\n``
    or ``\\r``, and a heading with an empty title counts as none. Headings are found in the text
    the chunks cover, rebuilt from their offsets: the chunks must come in source
    order with offsets (as docchunk's text chunkers give them); a chunk without
    offsets is left alone. A gap between chunks (separators dropped with
    ``keep_separator=False``) carries the path on, though a heading in the gap is
    not seen (the ``markdown`` preset drops a ``"\n## "`` it cuts at: use
    ``keep_separator="start"`` for heading paths); offsets that start again (the
    chunks of another text) start a new path. A chunk that starts with a heading
    (after whitespace) gets that heading's parents: its own title is in its text.
    The path is read where the chunk's own text starts, after context an
    :class:`~docchunk.OverlapRefinery` merged in. Lines inside a fenced
    code block (CommonMark: from a fence of three or more backticks or tildes to
    a fence of the same character at least as long, or to the end of the text
    when unclosed) are never headings, so a ``# comment`` in code is skipped; nor are
    the lines of a raw HTML block of CommonMark types 1-5 (``<pre>``, ``<script>``,
    ``<style>``, ``<!-- -->``; :func:`docchunk.markup.html_blocks.html_blocks`).

    Args:
        syntax: The heading syntaxes to recognise, any of ``"markdown"`` and
            ``"mediawiki"``.
        inplace: True modifies and returns the given list; False returns new
            chunks and leaves the input untouched.

    Invariants of the result: ``text``, ``start_index``, ``end_index`` and
    ``token_count`` are unchanged; ``context_prefix`` is ``"\\n".join(titles) +
    "\\n" + old context_prefix`` for chunks under at least one heading, unchanged
    otherwise. Run it after an :class:`~docchunk.OverlapRefinery` with
    ``method="prefix"``, which replaces ``context_prefix``.

    Raises:
        ConfigError: ``syntax`` is empty or names an unknown syntax, or an unknown keyword.

    Example:
        >>> from docchunk import Chunk
        >>> text = "# Fruit\\n## Apples\\nRed and round.\\n"
        >>> chunks = [Chunk(text=text[:18], start_index=0, end_index=18),
        ...           Chunk(text=text[18:], start_index=18, end_index=len(text))]
        >>> [c.context_prefix for c in HeadingContextRefinery()(chunks)]
        [None, 'Fruit\\nApples\\n']
    """

    def __init__(self, syntax: tuple[str, ...] | list[str] = SYNTAXES, inplace: bool = True):
        syntax = tuple(syntax) if isinstance(syntax, (list, tuple)) else (syntax,)
        if not syntax or any(s not in SYNTAXES for s in syntax):
            raise ConfigError(f"syntax must name one or more of {SYNTAXES!r}, got {syntax!r}; "
                              'e.g. HeadingContextRefinery(syntax=("markdown",))')  # fmt: skip
        self.syntax = syntax
        self.inplace = inplace

    def refine(self, chunks: list[C]) -> list[C]:
        """Add the heading path to each text chunk (see the class docstring); returns the refined list.

        Raises:
            ConfigError: ``chunks`` is not a list of chunks (a ``str``, a list of ``str``).
        """
        out = self._working(check_chunk_list(type(self).__name__, chunks))
        path: dict[int, str] = {}
        end = -1
        for run_start, run, members in source_runs(out):
            # a gap (a separator dropped with keep_separator=False) carries the path on; offsets
            # that start again (another text) start a new one
            path = self._refine_run(run_start, run, members, path if run_start >= end >= 0 else {})
            end = run_start + len(run)
        return out

    def refine_run(self, run_start: int, run: str, members: list[TextChunkLike]) -> None:
        """Add the heading path to each chunk of one source run (see the class docstring)."""
        self._refine_run(run_start, run, members, {})

    def _refine_run(self, run_start: int, run: str, members: list[TextChunkLike],
                    path: dict[int, str]) -> dict[int, str]:  # fmt: skip
        """Add the heading path, from ``path`` in force at the run's start, to each chunk; the path at the end.

        A chunk's path is read where its own text starts (after context an
        :class:`~docchunk.OverlapRefinery` merged in) at its first non-space
        character: a heading there is the chunk's own, so it gets the heading's
        parents (``Fruit``, not the previous sibling ``Fruit / Apples``).
        """
        found = self.headings(run)
        i = 0
        for chunk in members:
            body = getattr(chunk, "_body", None)
            start = body[0] if isinstance(body, tuple) else chunk.start_index
            own = chunk.text[start - chunk.start_index :]
            position = start - run_start
            while i < len(found) and found[i][0] < position:
                path = _opened(path, found[i][1], found[i][2])
                i += 1
            shown = path
            lead = len(own) - len(own.lstrip())
            if lead < len(own) and i < len(found) and found[i][0] <= position + lead:  # its own heading first
                shown = {lv: t for lv, t in path.items() if lv < found[i][1]}
            if shown:
                titles = "\n".join(shown[lv] for lv in sorted(shown))
                chunk.context_prefix = titles + "\n" + (chunk.context_prefix or "")
        for _, level, title in found[i:]:
            path = _opened(path, level, title)
        return path

    def headings(self, text: str) -> list[tuple[int, int, str]]:
        r"""The headings of ``text``: ``(start offset in characters, level 1-6, title)``, in order.

        Lines inside fenced code and raw HTML blocks are skipped. Lines end at ``\n``, ``\r\n`` or ``\r``.
        A heading with an empty title (``#``, ``# #``) counts as none.
        """
        text = lone_cr_as_lf(text)  # same length: offsets unchanged
        found = []
        if "markdown" in self.syntax:
            matches = [(m.start(), len(m.group(1)), (m.group(2) or "").strip()) for m in _MARKDOWN.finditer(text)]
            found += [h for h in matches if h[2]]
            found += [(h.start, h.level, h.title) for h in setext_headings(text)]  # fenced ones excluded already
        if "mediawiki" in self.syntax:
            for m in _MEDIAWIKI.finditer(text):
                left, right = m.group(1).count("="), m.group(3).count("=")
                if left == right:
                    found.append((m.start(), left, m.group(2).strip()))
        blocks = opaque_blocks(text) if found else []
        return sorted(h for h in found if not in_blocks(blocks, h[0]))
