"""Where neighbour context stops: blank lines, headings, the start or end of a table.

Used by :class:`docchunk.OverlapRefinery` (``stop_at``). Context runs from the junction
of a chunk and its neighbour into the neighbour; it stops at the first boundary it meets.
"""

from __future__ import annotations

import re

from docchunk.errors import ConfigError
from docchunk.markup.fences import in_blocks
from docchunk.markup.html_blocks import opaque_blocks, open_block_line
from docchunk.markup.setext import setext_headings
from docchunk.refineries.headings import _MARKDOWN, _MEDIAWIKI
from docchunk.refineries.runs import lone_cr_as_lf
from docchunk.refineries.table_header import pipe_tables

__all__ = [
    "EDGE", "STOPS", "STOP_PRESETS", "block_leads", "check_stops", "edge_start", "lead_at", "open_block_after",
    "outer_edge", "stop_context",
]  # fmt: skip

STOPS = ("blank_line", "heading", "table")
"""The boundaries context can stop at."""

STOP_PRESETS: dict[str, tuple[str, ...]] = {"none": (), "documents": STOPS}
"""Named ``stop_at`` values: ``"none"`` (chonkie's behaviour, the default: context from the
neighbour whatever it holds) and ``"documents"`` (all of :data:`STOPS`: for chat logs and
concatenated documents, whose blank lines and headings separate dialogues or documents)."""

# a blank line: two line breaks ("\r\n" is one), or a U+2029 PARAGRAPH SEPARATOR (with the line breaks and
# spaces around it), a paragraph break wherever a blank line is (as to the chunkers and sentence_spans)
_BLANK = re.compile(r"(?:\r\n|\r(?!\n)|\n)[ \t]*(?:\r\n|\r|\n)|[\r\n \t]*\u2029[\r\n \t]*")
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n|$)")
EDGE = 400  # characters of the chunk itself looked at next to the junction


def check_stops(stop_at: object) -> tuple[str, ...]:
    """``stop_at`` as a tuple of names from :data:`STOPS`; a name of :data:`STOP_PRESETS` gives its tuple.

    Raises:
        ConfigError: Neither a preset name nor a collection of names from :data:`STOPS`.
    """
    if isinstance(stop_at, str) and stop_at in STOP_PRESETS:
        return STOP_PRESETS[stop_at]
    if isinstance(stop_at, str) or not isinstance(stop_at, (list, tuple, set, frozenset)):
        raise ConfigError(f"stop_at must be a preset name from {tuple(STOP_PRESETS)!r} or a tuple of names from "
                          f"{STOPS!r} (() for none), got {stop_at!r}")  # fmt: skip
    unknown = [s for s in stop_at if s not in STOPS]
    if unknown:
        raise ConfigError(f"stop_at: unknown boundary {unknown[0]!r}; known: {', '.join(STOPS)}; () for none")
    return tuple(s for s in STOPS if s in stop_at)


def open_block_after(lead: str, text: str) -> str:
    """The first line of the fenced code or HTML block still open at the end of ``text`` ("" when none).

    Args:
        lead: The first line of the block open at the start of ``text`` ("" when none).
        text: Markdown.
    """
    return open_block_line(lead + "\n" + text if lead else text)


def stop_context(near: str, context: str, suffix: bool, stops: tuple[str, ...], lead: str = "",
                 outer: str = "") -> str:  # fmt: skip
    """``context`` cut at the first boundary from the junction with ``near``, the chunk it is added to.

    Args:
        near: The text of the chunk that gets the context.
        context: Text from its neighbour: the start of the next chunk (``suffix``) or the
            end of the previous one.
        suffix: Whether the context follows ``near`` (else it precedes it).
        stops: Names from :data:`STOPS`.
        lead: The first line of the fenced code or HTML block (:func:`open_block_after`)
            open where the two texts begin, at ``near[edge_start(near):]`` (``suffix``;
            about the last 400 characters, from a line start) or ``context``: lines inside
            fenced code or an HTML block are no headings or table rows.
        outer: The neighbour's text beyond the context (``suffix``: after it; else before
            it, from a line start, and ``lead`` is then the block open at its start): a
            line there may make a table of a ``|`` line at the context's edge.

    Returns:
        The part of ``context`` next to ``near`` before any boundary: a blank line (also one
        that straddles the junction), a heading line (with ``suffix`` the context stops
        before it; before the chunk it starts there, as the heading opens the chunk's
        section), or the start or end of a table (two or more consecutive lines with
        ``|``, as :func:`~docchunk.refineries.table_header.pipe_tables` reads them). A
        boundary that ``near`` opens with, after nothing but whitespace (the line break a
        separator kept at a chunk's start), is at the junction: no context precedes a
        chunk that starts a section or a table.
    """
    if not stops or not context:
        return context
    if suffix:
        window = near[edge_start(near) :]
        joined, offset = window + context + outer, len(window)
    else:
        joined, offset = outer + context + near[:EDGE], len(outer) + len(context)
    cuts = _boundaries(joined, stops, lead)
    if suffix:
        ahead = [c for c in cuts if c >= offset]
        kept = context[: min(ahead) - offset] if ahead else context
    else:  # a boundary after only whitespace of the chunk is at the junction: a chunk that opens with "\n## x"
        behind = [c for c in cuts if c <= offset or not joined[offset:c].strip()]
        kept = context[max(0, max(behind) - len(outer)) :] if behind else context
    return kept if kept.strip() else ""  # a blank line across the junction leaves only line breaks


def edge_start(near: str) -> int:
    """Where :func:`stop_context` starts reading a chunk before the context that follows it.

    The start of the line that holds ``near[-EDGE:]``'s first character, so that the window
    never starts inside a fence line (a ```` ``` ```` cut to ```` `` ```` opens no block).
    """
    if len(near) <= EDGE:
        return 0
    at = len(near) - EDGE
    return max(near.rfind("\n", 0, at), near.rfind("\r", 0, at)) + 1


def _boundaries(text: str, stops: tuple[str, ...], lead: str = "") -> list[int]:
    """Positions where context must stop.

    The start and end of each blank line (the text between them belongs to neither side),
    the start of each heading line (ATX, Setext or MediaWiki), and the start of each line
    where a table begins and the first line after it; lines inside fenced code or HTML blocks of types 1-5
    (:func:`~docchunk.markup.html_blocks.opaque_blocks`; ``lead``: the block open at
    the start of ``text``) are neither headings nor rows.
    """
    cuts: list[int] = []
    if "blank_line" in stops:
        for m in _BLANK.finditer(text):
            cuts += [m.start(), m.end()]
    lines = [(m.start(), m.end()) for m in _LINE.finditer(text) if m.end() > m.start()]
    starts = [s for s, e in lines if text[s:e].strip()]  # of the non-blank lines
    if "heading" in stops or "table" in stops:
        shift = len(lead) + 1 if lead else 0
        blocks = [(a - shift, b - shift) for a, b in opaque_blocks(lead + "\n" + text if lead else text)]
        lines = [(s, e) for s, e in lines if not in_blocks(blocks, s)]
    if "heading" in stops:
        for s, e in lines:
            line = text[s:e].rstrip("\r\n")
            atx = _MARKDOWN.fullmatch(line)  # an empty one ("#") is no heading, as to HeadingContextRefinery
            if (atx and (atx.group(2) or "").strip()) or _MEDIAWIKI.fullmatch(line):
                cuts.append(s)
        cuts += [h.start for h in setext_headings(text) if not in_blocks(blocks, h.start)]
    if "table" in stops:  # the start of each table, and the first line after it (TableHeaderRefinery's tables)
        for first, end in pipe_tables(lone_cr_as_lf(text), blocks):
            cuts.append(first)
            cuts += [s for s in starts if s > end][:1]
    return cuts


def block_leads(bodies: list[str], spans: list[tuple[int, int] | None]) -> list[str]:
    """The first line of the fenced code or HTML block open at the start of each chunk's text, in order.

    A chunk that starts inside the one before (overlapping chunks, ``spans`` their offsets)
    gets the block open at its start, read from the one before up to there, not after it
    (an overlap repeats a fence line, which would close the block again).
    """
    leads: list[str] = []
    lead = ""
    for k, body in enumerate(bodies):
        before, here = (spans[k - 1], spans[k]) if k else (None, None)
        if before is not None and here is not None and before[0] <= here[0] < before[1]:
            lead = open_block_after(leads[-1], bodies[k - 1][: here[0] - before[0]])
        leads.append(lead)
        lead = open_block_after(lead, body)
    return leads


def outer_edge(body: str, context: str, method: str) -> str:
    """Up to :data:`EDGE` characters of the neighbour ``body`` beyond ``context`` (before it from a line start)."""
    if method == "suffix":
        return body[len(context) : len(context) + EDGE]
    before = body[: len(body) - len(context)]
    return before[edge_start(before) :]


def lead_at(leads: list[str] | None, bodies: list[str], target: int, neighbour: int, taken: int, method: str) -> str:
    """The block open where :func:`stop_context`'s window begins.

    That is at ``near[edge_start(near):]`` (suffix), or ``taken`` characters from the end
    of the neighbour (prefix: the context and the text read before it).
    """
    if leads is None:
        return ""
    if method == "suffix":
        body = bodies[target]
        return open_block_after(leads[target], body[: edge_start(body)])
    body = bodies[neighbour]
    return open_block_after(leads[neighbour], body[: len(body) - taken])
