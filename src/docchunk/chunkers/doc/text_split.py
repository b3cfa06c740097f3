"""Phase 2 of the hybrid run: an oversized piece split inside its text (docling-core's ``_split_using_plain_text``).

:func:`split_text` cuts a piece whose contextualized text exceeds ``max_tokens`` into
segments that fit with its headings and captions: tables line by line with their
header (:func:`segment`), other text by the mode's segmenter (``RunHooks.segment``) or
the user's ``text_splitter``. In the default mode a part that cuts a fenced code block
or a display formula gets the markup that balances it (:func:`segments`). The functions
take the call's :class:`~docchunk.chunkers.doc.hybrid_run.HybridRun` (as a
:class:`SplitRun`: this module sits below the run's), whose methods ``split_text`` and
``split_text_at`` call them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast

from docling_core.transforms.serializer.base import BaseDocSerializer
from docling_core.types.doc import TableItem

from docchunk.chunkers.doc.compat.table_lines import split_lines, split_table_by_columns
from docchunk.chunkers.doc.fragments import SegmentRun
from docchunk.chunkers.doc.piece import Piece, heading_items_of, replace
from docchunk.chunkers.doc.provenance import anchors_of, slice_anchors
from docchunk.markup.fences import reopened_fences
from docchunk.markup.formulas import DELIMITER, reopened_math
from docchunk.serialization import is_chunking_serializer
from docchunk.tokenizers import Tokenizer

if TYPE_CHECKING:
    from docchunk.chunkers.text.base import TextChunker

__all__ = ["SplitRun", "TextSplitter", "segment", "segments", "split_text", "split_text_at"]


class TextSplitter(Protocol):
    """A docchunk text chunker that can be given a tokenizer and a budget (``HybridChunker.text_splitter``)."""

    def with_budget(self, tokenizer: Tokenizer, chunk_size: int) -> TextChunker:
        """A copy that counts with ``tokenizer`` and packs to ``chunk_size`` tokens."""
        ...


class _SplitSettings(Protocol):
    """The settings the text split reads (``hybrid_run.RunSettings``)."""

    @property
    def repeat_table_header(self) -> bool: ...
    @property
    def omit_header_on_overflow(self) -> bool: ...
    @property
    def text_splitter(self) -> TextSplitter | None: ...


class _SplitHooks(Protocol):
    """The mode's hook the text split calls (``hybrid_run.RunHooks.segment``)."""

    @property
    def segment(self) -> Callable[[SegmentRun, str, int], list[tuple[int, int]]]: ...


class SplitRun(SegmentRun, Protocol):
    """What the text split reads (and ``line_budget``, sets) of a ``chunk()`` call's state: a ``HybridRun``."""

    max: int
    line_budget: int | None

    @property
    def settings(self) -> _SplitSettings:
        """The chunker's settings (``RunSettings``)."""
        ...

    @property
    def hooks(self) -> _SplitHooks:
        """The mode's hooks (``RunHooks``): its segmenter of oversized text."""
        ...

    @property
    def serializer(self) -> BaseDocSerializer:
        """The mode's serializer of the document."""
        ...

    def count(self, text: str) -> int:
        """Tokens of ``text`` (cached)."""
        ...

    def ctx_count(self, piece: Piece) -> int:
        """Tokens of ``piece``'s contextualized text."""
        ...

    def text_count(self, piece: Piece) -> int:
        """Tokens of ``piece.text``."""
        ...


def split_text(run: SplitRun, piece: Piece, structured: bool = False) -> list[Piece]:
    """Token-bounded segments of an oversized piece (docling-core's ``_split_using_plain_text``).

    Without ``structured``, docling-core's segments, exactly: the text budget is what
    the headings and captions leave, shrunk by each part's overflow until every part
    fits; when that does not converge, the headings and captions are dropped (named
    nowhere) and the text split alone.

    With ``structured`` (the default mode's passes), a segment that cuts a fenced code
    block closes the fence at its end and reopens it, with its info string, at its
    start (:func:`~docchunk.markup.fences.reopened_fences`; a display formula its ``$$``,
    :func:`~docchunk.markup.formulas.reopened_math`; the markup counts against
    the budget, and the anchors, so ``meta.spans``, still point at the code's own
    text). When the shrinking does not converge (the markup reopened on every part, a
    tokenizer whose counts grow faster than the text), it starts again from what the
    headings cost alone; when that fails too, the outer headings are dropped, as few as
    need be (:func:`_with_shorter_path`): they are named in ``headings_dropped`` and
    written once as text, a piece of its own before the parts, so no heading is lost.

    Returns:
        The parts, in order; each fits ``run.max`` (contextualized) unless its text alone
        cannot (then the parts are as small as the segmenter makes them).
    """
    total = run.ctx_count(piece)
    if total <= run.max:
        return [piece]
    fences = structured and _has_markup(piece.text)
    parts = _fitted(run, piece, fences, again=structured)
    if parts is not None:
        return parts
    if structured and piece.headings:
        return _with_shorter_path(run, piece, fences)
    if piece.headings is not None or piece.captions is not None:
        # headings and captions alone exceed the budget: drop them, keep the text
        return split_text(run, replace(piece, headings=None, captions=None, plain_only=True), structured)
    return segments(run, piece, run.max, fences)


def _shrunk(run: SplitRun, piece: Piece, available: int, fences: bool) -> list[Piece] | None:
    """Parts of ``piece`` that fit ``run.max``, the text budget shrunk from ``available`` by each overflow.

    None when the budget reaches 0 first (docling-core's loop).
    """
    # a code line that fits the first budget stays whole as the budget shrinks for the
    # fences of the parts: it is written without them (_line_fits_unfenced)
    run.line_budget = available if fences else None
    try:
        while available > 0:
            parts = segments(run, piece, available, fences)
            if not parts:
                return []
            overflow = max(run.ctx_count(s) for s in parts) - run.max
            if overflow <= 0:
                return parts
            available -= overflow
    finally:
        run.line_budget = None
    return None


def _fitted(run: SplitRun, piece: Piece, fences: bool, again: bool = True) -> list[Piece] | None:
    """Parts of ``piece`` that all fit with its headings and captions, or None.

    The shrinking (:func:`_shrunk`) starts from what the headings and captions add to the
    whole text (docling-core's estimate), then, with ``again``, if that does not converge,
    from what they cost alone: for a tokenizer whose count grows faster than the text
    (``words ** 2``) the first is far too small (at most 0), the second converges. For an
    additive tokenizer the two are the same, and the shrinking runs once.
    """
    total = run.ctx_count(piece)
    if total <= run.max:
        return [piece]
    first = run.max - (total - run.text_count(piece))
    if first > 0 and (parts := _shrunk(run, piece, first, fences)) is not None:
        return parts
    if not again:
        return None
    alone = run.max - run.ctx_count(replace(piece, text="", text_tokens=0))
    return _shrunk(run, piece, alone, fences) if alone > 0 and alone != first else None


def _with_shorter_path(run: SplitRun, piece: Piece, fences: bool) -> list[Piece]:
    """The parts of ``piece`` under the longest inner part of its path they all fit with, after the dropped headings.

    For a piece whose parts :func:`_fitted` could not fit under its whole path: its outer
    headings are dropped one by one, and with all of them gone (and the
    captions, as docling-core drops them) the text is split alone. The dropped headings
    are named in each part's ``headings_dropped`` and written, one per line, as a piece
    of their own before the parts (the hostile tester's finding 1 of session 7: a
    heading of 1 token of 4 over a paragraph with display math, or any heading under a
    ``words ** 2`` counter, was dropped from every part and written nowhere).
    """
    headings = piece.headings or []
    dropped_before = piece.headings_dropped or []
    parts: list[Piece] | None = None
    k = 0
    while parts is None:
        k += 1
        if k < len(headings):
            parts = _fitted(run, replace(piece, headings=headings[k:]), fences)
            continue
        bare = replace(piece, headings=None, captions=None, plain_only=True)
        parts = _fitted(run, bare, fences) or segments(run, bare, run.max, fences)
    named = [*dropped_before, *headings[:k]]
    written = Piece(text="\n".join(headings[:k]), items=heading_items_of(piece, range(k)), headings=None,
                    origin=piece.origin, from_headings=True, headings_dropped=dropped_before or None)  # fmt: skip
    return [*split_text(run, written, True), *(replace(p, headings_dropped=named) for p in parts)]


def split_text_at(run: SplitRun, piece: Piece, available: int) -> list[Piece]:
    """``piece`` cut by the mode's text split into parts whose text holds at most ``available`` tokens.

    For a pass that wants parts smaller than ``max_tokens`` (``min_tokens``'s
    rebalancing); fenced blocks are closed and reopened as in :func:`split_text`.
    """
    return segments(run, piece, available, _has_markup(piece.text))


def segments(run: SplitRun, piece: Piece, available: int, close_fences: bool = False) -> list[Piece]:
    """``piece`` split by :func:`segment`; each part keeps the anchors of the range it holds.

    With ``close_fences``, a part that cuts a fenced block gets the fence lines that
    balance it (:func:`~docchunk.markup.fences.reopened_fences`); its anchors move by
    the length of the opening fence line put before it.
    """
    anchors = anchors_of(piece)
    out = []
    for s in segment(run, piece, available):
        if isinstance(s, str):  # a rewritten text (table lines): aligned from its items when needed
            out.append(replace(piece, text=s, text_tokens=None))
            continue
        a, b = s
        before, a, after = reopened_fences(piece.text, a, b) if close_fences else ("", a, "")
        if before:  # a part that starts inside a code block keeps its first line's indentation
            a = _indented_line_start(piece.text, a)
        if before and after and _line_fits_unfenced(run, piece, before + piece.text[a:b] + after, a, b):
            before = after = ""
        elif close_fences and DELIMITER in piece.text:  # a part of a display formula: its $$ balanced
            before, a, math_after = reopened_math(piece.text, a, b)
            after = math_after + after
        text = before + piece.text[a:b] + after
        kept = tuple((pos + len(before), ref, start, n) for pos, ref, start, n in slice_anchors(anchors, a, b))
        out.append(replace(piece, text=text, text_tokens=None, anchors=(text, kept)))
    return out


def _line_fits_unfenced(run: SplitRun, piece: Piece, fenced: str, a: int, b: int) -> bool:
    """Whether ``piece.text[a:b]``, one code line inside a fenced block, fits only without its reopened fences.

    Such a line is written without them, whole (as docling-core writes it), rather than
    cut for the fences' tokens: the round-3 tester's ``html_long_pre`` at MiniLM 64,
    27 lines of about 55 tokens each, one token too many with the path and the fences;
    each line lost its last word (a 13-token piece of its own), 1.30 times compat's
    tokens (issue 46).
    """
    if "\n" in piece.text[a:b].strip("\n") or run.ctx_count(replace(piece, text=fenced, text_tokens=None)) <= run.max:
        return False
    return run.ctx_count(replace(piece, text=piece.text[a:b], text_tokens=None)) <= run.max


def segment(run: SplitRun, piece: Piece, available: int) -> Sequence[tuple[int, int] | str]:
    """Parts of at most ``available`` tokens: tables by lines, other text by the mode's segmenter.

    A part is a ``(start, end)`` range of ``piece.text``, or a new text (a table's
    lines, written again with their header).
    """
    items = piece.items
    if (
        run.settings.repeat_table_header
        and not piece.plain_only
        and is_chunking_serializer(run.serializer)
        and len(items) == 1
        and isinstance(items[0], TableItem)
    ):
        return _segment_table(run, piece.text, available)
    splitter = run.settings.text_splitter
    text = piece.text
    if splitter is not None:
        chunks = [c for c in _splitter_for(run, splitter, available).chunk(text) if c.text.strip()]
        return [(c.start_index, c.end_index) if text[c.start_index : c.end_index] == c.text else c.text
                for c in chunks]  # fmt: skip
    return run.hooks.segment(run, text, available)


def _splitter_for(run: SplitRun, splitter: TextSplitter, available: int) -> TextChunker:
    """The user's text chunker, set to our tokenizer and the remaining budget (cached)."""
    return run.cached((id(splitter), available), lambda: splitter.with_budget(run.tok, available))


def _segment_table(run: SplitRun, text: str, available: int) -> list[str]:
    omit = run.settings.omit_header_on_overflow
    table_serializer = cast(Any, run.serializer).table_serializer  # a ChunkingDocSerializer's
    header, body = table_serializer.get_header_and_body_lines(table_text=text)
    start = text.find(header[0]) if header else 0
    preamble = text[:start] if start > 0 else ""
    table_prefix = "".join(header)
    full_prefix = preamble + table_prefix
    if body and not omit and any(run.count(table_prefix + line) > available for line in body):
        by_columns = split_table_by_columns(header, body, preamble, available, run.sizer, omit)
        if by_columns is not None:
            return by_columns
    parts = split_lines(body, available, run.sizer, full_prefix, omit)
    if preamble:
        parts = parts[:1] + [s[len(preamble) :] if s.startswith(full_prefix) else s for s in parts[1:]]
    return parts


def _has_markup(text: str) -> bool:
    """Whether ``text`` may hold a fenced code block or a display formula, whose parts a split balances."""
    return "```" in text or "~~~" in text or DELIMITER in text


def _indented_line_start(text: str, start: int) -> int:
    """Where the line of ``text[start]`` starts, when only spaces and tabs are before ``start`` on it; else ``start``.

    The segmenter strips each part's leading whitespace; a part of a code block must keep
    its first line's indentation (``    return x`` is not ``return x``: the tester's finding 16
    of issue 45), so the part and its span start at the line's start.
    """
    at = start
    while at > 0 and text[at - 1] in " \t":
        at -= 1
    return at if at < start and (at == 0 or text[at - 1] == "\n") else start
