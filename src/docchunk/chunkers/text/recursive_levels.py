r"""One split of a span at one separator level of :class:`docchunk.RecursiveChunker` (phase 1's cuts).

:func:`split_once` cuts at the first literal separator present; :func:`split_breaks`
does the same in text with other line breaks than ``"\n"`` (``"\r\n"``, ``"\r"``, U+2028 ...:
:data:`~docchunk.markup.line_breaks.LINE_BREAKS`), where every kind of line
break matches ``"\n"`` and a U+2029 matches ``"\n\n"``.
The pieces keep their separator at their start or end (``keep_separator``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import accumulate, pairwise
from typing import Literal, NamedTuple

from docchunk.markup.line_breaks import BREAK, PARAGRAPH_SEPARATOR
from docchunk.markup.sentences import sentence_ends
from docchunk.markup.setext import SetextHeading

__all__ = [
    "Cut", "Pieces", "Scan", "before_space", "break_pieces", "fence_hits", "line_hits", "literal_hits", "piece_bounds",
    "pieces_of", "sentence_hits", "setext_hits", "split_breaks", "split_once",
]  # fmt: skip

Cut = tuple[list[str], str, int]
"""A split of a span: the parts between the occurrences of a separator, the separator, the next level."""
_CHARACTER = re.compile(r"\r\n|.", re.DOTALL)  # the "" level of text with "\r": "\r\n" is one character


def split_once(separators: list[str], text: str, lo: int, hi: int, level: int, stop: int | None = None) -> Cut | None:
    """Split ``text[lo:hi]`` once, at the first separator (from ``level`` on, before ``stop``) in it.

    Returns the parts between its occurrences, that separator and the next level;
    None when no separator is left (``""`` splits into characters).
    """
    for index in range(level, len(separators) if stop is None else stop):
        sep = separators[index]
        if sep == "":
            return (list(text[lo:hi]), sep, index + 1) if hi - lo > 1 else None
        if text.find(sep, lo, hi) == -1:
            continue
        return (text if hi - lo == len(text) else text[lo:hi]).split(sep), sep, index + 1
    return None


class Scan(NamedTuple):
    """A span to cut at ``sep`` by searching for it from each group's start (character mode)."""

    sep: str
    next_level: int


class Pieces(NamedTuple):
    r"""A split of a span at separators of varying width (the line breaks of text with ``"\r"``)."""

    spans: list[tuple[int, int]]
    """The non-empty pieces, in order, with the separators kept as ``keep_separator`` says."""
    next_level: int


@lru_cache(maxsize=256)
def _break_pattern(sep: str) -> re.Pattern[str] | None:
    r"""``sep`` as a pattern whose line breaks match any line break; None without a line break.

    A run of two or more line breaks (a blank line) also matches a U+2029 (PARAGRAPH SEPARATOR).
    """
    lines = sep.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if len(lines) == 1:
        return None
    pattern, run = re.escape(lines[0]), 1  # run: the line breaks since the last text
    for part in lines[1:]:
        if part:
            pattern += _breaks(run) + re.escape(part)
            run = 1
        else:
            run += 1
    return re.compile(pattern + _breaks(run - 1))


def _breaks(n: int) -> str:
    """A pattern of ``n`` line breaks, a blank line (two or more) also a U+2029; empty for none."""
    if n < 2:
        return BREAK * n
    return f"(?:{BREAK * n}|{PARAGRAPH_SEPARATOR})"


def split_breaks(separators: list[str], text: str, lo: int, hi: int, level: int,
                 keep: Literal["start", "end", False], stop: int | None = None) -> Cut | Pieces | None:  # fmt: skip
    r""":func:`split_once` for text with line breaks other than ``"\n"`` (``"\r\n"``, ``"\r"``, U+2028 ...).

    A separator with a line break matches every kind of line break, so ``"\n\n"``
    finds the paragraphs of Windows text (``"\r\n\r\n"``, or U+2029) as of Unix text, and no
    piece ends between ``"\r"`` and ``"\n"``; ``""`` keeps ``"\r\n"`` as one
    character. Other separators split as in :func:`split_once`.
    """
    for index in range(level, len(separators) if stop is None else stop):
        sep = separators[index]
        if sep == "":
            chars = [m.span() for m in _CHARACTER.finditer(text, lo, hi)]
            return Pieces(chars, index + 1) if len(chars) > 1 else None
        pattern = _break_pattern(sep)
        if pattern is None:
            if text.find(sep, lo, hi) != -1:
                return split_once(separators, text, lo, hi, index, index + 1)
            continue
        hits = [m.span() for m in pattern.finditer(text, lo, hi)]
        if hits:
            return Pieces(break_pieces(lo, hi, hits, keep), index + 1)
    return None


def literal_hits(text: str, sep: str, lo: int, hi: int, any_break: bool) -> list[tuple[int, int]]:
    r"""``(start, end)`` of the occurrences of ``sep`` in ``text[lo:hi]``, left to right, not overlapping.

    With ``any_break``, a line break in ``sep`` matches any line break (``"\r\n"``, ``"\r"``, U+2028 ...).
    """
    pattern = (_break_pattern(sep) if any_break else None) or _literal_pattern(sep)
    return [m.span() for m in pattern.finditer(text, lo, hi)]


@lru_cache(maxsize=256)
def _literal_pattern(sep: str) -> re.Pattern[str]:
    return re.compile(re.escape(sep))


def sentence_hits(text: str, lo: int, hi: int, keep: Literal["start", "end", False]) -> list[tuple[int, int]]:
    """The cuts between the sentences of ``text[lo:hi]`` (:func:`sentence_ends`).

    With ``keep="start"`` a cut falls before the whitespace between two sentences, which
    then starts the next piece, as a separator does (and a byte-level BPE tokenizer
    does not split ``" Then"``: the cut is clean); else after it. Zero-width, as
    ``(cut, cut)``.
    """
    cuts = [e for e in sentence_ends(text, lo, hi) if e < hi]  # each piece holds a sentence's punctuation
    if keep == "start":
        cuts = [before_space(text, lo, c) for c in cuts]
    return [(c, c) for c in cuts if lo < c < hi]


def before_space(text: str, floor: int, cut: int) -> int:
    """``cut`` moved back over the whitespace before it, unless that reaches ``floor``."""
    k = cut
    while k > floor and text[k - 1].isspace():
        k -= 1
    return k if k > floor else cut


def setext_hits(headings: list[SetextHeading], text: str, lo: int, hi: int) -> list[tuple[int, int]]:
    """The line break before each Setext heading that starts inside ``text[lo:hi]``, as ``(start, end)``."""
    return line_hits([h.start for h in headings], text, lo, hi)


def line_hits(starts: list[int], text: str, lo: int, hi: int, blank: bool = False) -> list[tuple[int, int]]:
    """The line break before each line of ``starts`` (sorted offsets) inside ``text[lo:hi]``, as ``(start, end)``.

    With ``blank``, the blank lines before the line too: all the whitespace back to the text before it.
    """
    out = []
    for start in starts:
        if lo < start < hi:
            b = start - (2 if text[start - 2 : start] == "\r\n" else 1)
            while blank and b > lo + 1 and text[b - 1].isspace():
                b -= 1
            if b > lo:
                out.append((b, start))
    return out


def fence_hits(blocks: list[tuple[int, int]], lo: int, hi: int) -> list[tuple[int, int]]:
    """The cuts at the edges of each fenced code block inside ``text[lo:hi]``, zero-width, as ``(cut, cut)``.

    ``blocks`` are :func:`~docchunk.markup.fences.fenced_blocks`: from the start of an
    opening fence line (its indentation included) to the end of its closing fence line
    (before its line break). So a block is a piece of its own, exactly as long as the
    block, whatever ``keep_separator`` says: the line breaks around it go with the
    prose next to it, and nothing is dropped.
    """
    return [(cut, cut) for a, b in blocks if b > lo and a < hi for cut in (a, b) if lo < cut < hi]


def break_pieces(lo: int, hi: int, hits: list[tuple[int, int]],
                  keep: Literal["start", "end", False]) -> list[tuple[int, int]]:  # fmt: skip
    """The non-empty pieces of ``lo:hi`` between the separators at ``hits``, each kept per ``keep``."""
    if keep == "start":
        bounds = [lo, *(s for s, _ in hits), hi]
    elif keep == "end":
        bounds = [lo, *(e for _, e in hits), hi]
    else:
        edges = [lo, *(x for hit in hits for x in hit), hi]
        return [(a, b) for a, b in zip(edges[::2], edges[1::2], strict=True) if a < b]
    return [(a, b) for a, b in pairwise(bounds) if a < b]


def piece_bounds(lo: int, lengths: list[int], width: int, start_mode: bool) -> list[int]:
    """Boundaries of the contiguous pieces, the separator kept at their start or end; may repeat."""
    starts = list(accumulate((n + width for n in lengths), initial=lo))  # starts[i]: start of part i
    hi = starts[-1] - width
    if start_mode:
        return [lo, *(s - width for s in starts[1:-1]), hi]
    starts[-1] = hi
    return starts


def pieces_of(lo: int, lengths: list[int], width: int, keep: Literal["start", "end", False]) -> list[tuple[int, int]]:
    """Non-empty spans of the pieces, with the separator kept per ``keep`` (False: dropped)."""
    if keep:
        bounds = piece_bounds(lo, lengths, width, keep == "start")
        return [(a, b) for a, b in pairwise(bounds) if a < b]
    starts = accumulate((n + width for n in lengths), initial=lo)
    return [(q, q + n) for q, n in zip(starts, lengths, strict=False) if n]

