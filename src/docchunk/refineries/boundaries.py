"""Where neighbour context stops: blank lines, headings, the start or end of a table.

Used by :class:`docchunk.OverlapRefinery` (``stop_at``). Context runs from the junction
of a chunk and its neighbour into the neighbour; it stops at the first boundary it meets.
"""

from __future__ import annotations

import re
from itertools import pairwise

from docchunk.errors import ConfigError
from docchunk.refineries.headings import _MARKDOWN, _MEDIAWIKI

__all__ = ["STOPS", "check_stops", "stop_context"]

STOPS = ("blank_line", "heading", "table")
"""The boundaries context can stop at."""

_BLANK = re.compile(r"(?:\r\n|\r|\n)[ \t]*(?:\r\n|\r|\n)")  # a blank line: two line breaks, spaces between
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n|$)")
_EDGE = 400  # characters of the chunk itself looked at next to the junction


def check_stops(stop_at: object) -> tuple[str, ...]:
    """``stop_at`` as a tuple of names from :data:`STOPS`.

    Raises:
        ConfigError: Not a collection of those names.
    """
    if isinstance(stop_at, str) or not isinstance(stop_at, (list, tuple, set, frozenset)):
        raise ConfigError(f"stop_at must be a tuple of names from {STOPS!r} (or () for none), got {stop_at!r}")
    unknown = [s for s in stop_at if s not in STOPS]
    if unknown:
        raise ConfigError(f"stop_at: unknown boundary {unknown[0]!r}; known: {', '.join(STOPS)}; () for none")
    return tuple(s for s in STOPS if s in stop_at)


def stop_context(near: str, context: str, suffix: bool, stops: tuple[str, ...]) -> str:
    """``context`` cut at the first boundary from the junction with ``near``, the chunk it is added to.

    Args:
        near: The text of the chunk that gets the context.
        context: Text from its neighbour: the start of the next chunk (``suffix``) or the
            end of the previous one.
        suffix: Whether the context follows ``near`` (else it precedes it).
        stops: Names from :data:`STOPS`.

    Returns:
        The part of ``context`` next to ``near`` before any boundary: a blank line (also one
        that straddles the junction), a heading line (with ``suffix`` the context stops
        before it; before the chunk it starts there, as the heading opens the chunk's
        section), or a change between table rows (lines with ``|``) and other lines.
    """
    if not stops or not context:
        return context
    if suffix:
        joined, offset = near[-_EDGE:] + context, len(near[-_EDGE:])
    else:
        joined, offset = context + near[:_EDGE], len(context)
    cuts = _boundaries(joined, stops)
    if suffix:
        ahead = [c for c in cuts if c >= offset]
        kept = context[: min(ahead) - offset] if ahead else context
    else:
        behind = [c for c in cuts if c <= offset]
        kept = context[max(behind) :] if behind else context
    return kept if kept.strip() else ""  # a blank line across the junction leaves only line breaks


def _boundaries(text: str, stops: tuple[str, ...]) -> list[int]:
    """Positions where context must stop.

    The start and end of each blank line (the text between them belongs to neither side),
    the start of each heading line (and its end, for context before a chunk), and the start
    of each line where table rows begin or end.
    """
    cuts: list[int] = []
    if "blank_line" in stops:
        for m in _BLANK.finditer(text):
            cuts += [m.start(), m.end()]
    lines = [(m.start(), m.end()) for m in _LINE.finditer(text) if m.end() > m.start()]
    if "heading" in stops:
        for s, e in lines:
            line = text[s:e].rstrip("\r\n")
            if _MARKDOWN.fullmatch(line) or _MEDIAWIKI.fullmatch(line):
                cuts.append(s)
    if "table" in stops:
        rows = [(s, "|" in text[s:e]) for s, e in lines if text[s:e].strip()]
        cuts += [s for (_, a), (s, b) in pairwise(rows) if a != b]
    return cuts
