"""Where a table's lead-in goes in the table's first piece (default mode), and the rows cut to make room.

:mod:`~docchunk.chunkers.doc.lead_in` finds the paragraph that introduces a table;
this module fits it into the table's pieces within ``max_tokens``:

- :func:`whole_lead_in`: the whole paragraph as the start of the first piece's text
  (before the caption, :func:`_lead_then_caption`), that piece cut to the rows that
  fit after it when the whole piece does not (:func:`_cut_rows`, by the grid row of
  each line: :func:`_line_rows`);
- :func:`sentence_as_context`: its lead-in sentence as the first caption of the first
  piece, under the whole heading path or a shorter one, the piece cut to fewer rows
  when needed (:func:`fewer_rows`);
- :func:`split_row_again`: for a first row split between entries, that row's first
  piece split again to a budget that leaves the sentence room, and
  :func:`sentence_in_text`: the paragraph in that piece's text when the sentence is
  all of it;
- :func:`rows_continued`: the rows a lead-in cut off joined to the table's next piece.

Each returns None when the lead-in does not fit that way; no text is dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from docchunk.chunkers.doc.lead_in_rules import plain
from docchunk.chunkers.doc.piece import Piece, replace
from docchunk.chunkers.doc.tables.pack import table_pieces
from docchunk.chunkers.doc.tables.paths import under_path
from docchunk.chunkers.doc.tables.pieces import table_rows_of
from docchunk.serialization.tables import ROW_SEP, TableRow, TableRows

if TYPE_CHECKING:
    from docchunk.chunkers.doc.hybrid_run import HybridRun

__all__ = [
    "fewer_rows",
    "rows_continued",
    "same_items",
    "sentence_as_context",
    "sentence_in_text",
    "split_row_again",
    "whole_lead_in",
]


def sentence_as_context(
    run: HybridRun, before: Piece, table_piece: Piece, sentence: str
) -> tuple[Piece, list[Piece]] | None:
    """(``before`` as it is, the table's first piece with the lead-in ``sentence`` as its first caption), or None.

    For a paragraph that goes nowhere whole: its lead-in sentence is the context of
    the table's first piece, under the whole heading path, else under a shorter one
    (the outer headings dropped first); when not even one row fits with it, the
    piece is cut to the rows that do (:func:`fewer_rows`), the rows after it keeping
    the whole path.

    Args:
        run: The ``chunk()`` call's state (``max``, ``ctx_count``: tokens of its tokenizer).
        before: The piece that ends with the lead-in paragraph; it stays as it is.
        table_piece: The table's first piece (whole rows).
        sentence: The lead-in sentence (:func:`~.lead_in_rules.lead_in_sentence`).

    Returns:
        ``(before, pieces)``: the first piece (or the two it was cut into), each within
        ``run.max`` with its context; None when no heading path leaves room.
    """
    headings = table_piece.headings or []
    for k in range(len(headings) + 1):
        as_context = replace(under_path(table_piece, headings[k:]), captions=[sentence, *(table_piece.captions or [])])
        if run.ctx_count(as_context) <= run.max:
            return before, [as_context]
        cut = fewer_rows(run, as_context)
        if cut is not None:
            head, tail = cut
            return before, [head, replace(tail, headings=table_piece.headings, heading_items=table_piece.heading_items)]
    return None


def rows_continued(run: HybridRun, rows: Piece, after: Piece) -> Piece | None:
    """The rows a lead-in cut off (``rows``) joined to the table's next piece ``after``, or None.

    A first piece cut to the rows that fit after its lead-in leaves the other rows to
    a piece of their own, often one row (a section's "Total"), which then stands alone
    between two full pieces. When ``after`` continues the same table with whole rows
    under the same headings and captions, and both are the rows' lines, the two are one
    piece of consecutive rows (joined by the row separator) if that fits ``max_tokens``.

    Returns:
        The joined piece (``table_rows`` the two ranges as one), within ``run.max`` with its
        context; None when the two are not such pieces or do not fit together.
    """
    if rows.table_rows is None or after.table_rows is None or rows.table_cols is not None:
        return None
    if (
        after.table_cols is not None
        or rows.table_rows[1] != after.table_rows[0]
        or not same_items(rows.items, after.items)
    ):
        return None
    if rows.headings != after.headings or (rows.captions or None) != (after.captions or None):
        return None
    for piece in (rows, after):
        if _line_rows(run, piece, piece.text.split(ROW_SEP)) is None:
            return None
    joined = replace(after, text=rows.text + ROW_SEP + after.text,
                     table_rows=(rows.table_rows[0], after.table_rows[1]), text_tokens=None)  # fmt: skip
    return joined if run.ctx_count(joined) <= run.max else None


def same_items(a: list[Any], b: list[Any]) -> bool:
    """Whether two pieces hold the same items (by identity)."""
    return len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))


def split_row_again(
    run: HybridRun, before: Piece, row_pieces: list[Piece], sentence: str
) -> tuple[Piece | None, list[Piece]] | None:
    """The first row's first piece split again so that it holds ``sentence`` as context; None if it cannot be.

    The first piece of a row split between entries holds the row's label and its
    first entries; those entries are packed again to what the sentence and the
    shortest heading path that leaves room take (and no less than what the piece's
    own context takes, so that every new piece fits): the first new piece has the
    sentence as its first caption, the others the context the piece had; the row's
    other pieces stay as they are. When the first piece is part of one entry split
    by text, the whole row is split again so.

    Args:
        run: The ``chunk()`` call's state.
        before: The piece that ends with the lead-in paragraph (returned as it is).
        row_pieces: The pieces of the table's first row, in order (one grid row's range).
        sentence: The lead-in sentence.

    Returns:
        ``(before, pieces)`` that replace ``row_pieces``, each within ``run.max`` with its
        context; None when no heading path leaves a budget of at least an eighth of ``run.max``.
    """
    first = row_pieces[0]
    rows = table_rows_of(run, first)
    span = first.table_rows
    if rows is None or span is None:
        return None
    own = [row for row in rows.rows if row.cells and span[0] <= row.index < span[1]]
    if len(own) != 1:
        return None
    row = own[0]
    entries = [prefix + value for prefix, value in row.cells]
    mark = row.sep.rstrip()
    count = next((m for m in range(1, len(entries)) if first.text == row.lead + row.sep.join(entries[:m]) + mark), None)
    if count is None:  # the first piece is part of one entry, split by text: the whole row is split again
        sub, rest = row, []
    else:  # the entries of the first piece, with their columns (each new piece lists its own)
        sub = TableRow(row.index, row.cells[:count], row.lead, row.sep, mark, row.cols[:count], row.lead_cols)
        rest = row_pieces[1:]
    # a new piece that holds all of ``sub`` holds what the first piece did (the whole row: no columns)
    whole_cols = first.table_cols if count is not None else None
    plain = run.ctx_count(replace(first, text="", text_tokens=0))
    headings = first.headings or []
    for k in range(len(headings) + 1):
        lead = replace(under_path(first, headings[k:]), captions=[sentence, *(first.captions or [])])
        available = run.max - max(run.ctx_count(replace(lead, text="", text_tokens=0)), plain)
        if available < max(1, run.max // 8):
            continue
        parts = table_pieces(TableRows(rows=[sub], start=span[0], end=span[1]), available, run.sizer)
        if not parts or any(p.oversized for p in parts):
            continue
        out = [replace(lead if n == 0 else first, text=p.text, text_tokens=p.tokens, table_rows=span,
                       table_cols=p.cols if p.cols is not None else whole_cols)
               for n, p in enumerate(parts)]  # fmt: skip
        if all(run.ctx_count(p) <= run.max for p in out):
            return before, [*out, *rest]
    return None


def sentence_in_text(
    run: HybridRun, before: Piece, moved: tuple[Piece | None, list[Piece]] | None, lead: str, size: int
) -> tuple[Piece | None, list[Piece]] | None:
    """``moved`` with the lead-in in its first piece's text when the sentence made context is all of ``before``.

    :func:`split_row_again` makes the lead-in sentence the first caption of a split
    row's first piece and leaves the paragraph where it is; when the paragraph is that
    sentence and all of ``before``, ``merge_peers`` then joined the two, and the sentence
    was written twice in one embedded text (a tester's 15-column HTML table, issue 46
    finding 1). The paragraph is content: it goes into that piece's text instead (with
    its item), as a whole lead-in does, when the piece still fits.

    Returns:
        ``(None, pieces)`` with the paragraph in the first piece's text, or ``moved`` unchanged.
    """
    if moved is None or before.text != lead or size != len(before.items):
        return moved
    _, (first, *rest) = moved
    if not first.captions or first.captions[0] != plain(lead):
        return moved
    own = replace(first, captions=first.captions[1:] or None)
    text = _lead_then_caption(run, own, lead, first.text)
    in_text = replace(own, text=text, items=[*before.items, *first.items], captions=None, text_tokens=None)
    return (None, [in_text, *rest]) if run.ctx_count(in_text) <= run.max else moved


def whole_lead_in(
    run: HybridRun, before: Piece, table_piece: Piece, lead: str, size: int = 1
) -> tuple[Piece | None, list[Piece]] | None:
    """The whole lead-in paragraph ``lead`` (``before``'s last ``size`` items) moved into the table's first piece.

    Args:
        run: The ``chunk()`` call's state.
        before: The piece that ends with the paragraph.
        table_piece: The table's first piece.
        lead: The paragraph's text, as ``before``'s text ends with it.
        size: How many of ``before``'s last items the paragraph is.

    Returns:
        ``(what stays of before or None, pieces)``: the paragraph starts the first piece's
        text (cut to the rows that fit after it when needed), each within ``run.max``;
        None when it cannot go.
    """
    if before.text == lead and size == len(before.items):
        rest = None
    elif before.text.endswith(run.delim + lead) and len(before.items) > size:
        rest = replace(before, text=before.text[: -len(run.delim + lead)], items=before.items[:-size], text_tokens=None)
    else:
        return None
    items = [*before.items[-size:], *table_piece.items]
    text = _lead_then_caption(run, table_piece, lead, table_piece.text)
    in_text = replace(table_piece, text=text, items=items, captions=None, text_tokens=None)
    if run.ctx_count(in_text) <= run.max:
        return rest, [in_text]
    cut = _fewer_rows_after(run, table_piece, lead, items)
    if cut is not None:
        return rest, cut
    return None


def _fewer_rows_after(run: HybridRun, table_piece: Piece, lead: str, items: list[Any]) -> list[Piece] | None:
    """The lead-in paragraph ``lead`` in the text of a first piece cut to the rows that fit after it.

    The paragraph is content: it goes into the piece's text (and so into its
    ``meta.spans``), never into its captions. The second part holds the other rows,
    without the paragraph's item (see :func:`_cut_rows`).
    """
    return _cut_rows(
        run,
        table_piece,
        lambda body, rows: replace(
            table_piece,
            text=_lead_then_caption(run, table_piece, lead, body),
            items=items,
            table_rows=rows,
            captions=None,
            text_tokens=None,
        ),
        lambda body, rows: replace(table_piece, text=body, table_rows=rows, text_tokens=None),
    )


def _lead_then_caption(run: HybridRun, table_piece: Piece, lead: str, body: str) -> str:
    """The text of a table's first piece with its lead-in paragraph: the lead-in, the caption, then the rows ``body``.

    A caption stands directly before its own table's rows (issue 46, docling-core PR
    #31): with the lead-in in the text, a caption left in ``captions`` would come
    before the lead-in in ``contextualize()`` (a tester's HTML: ``Table 1. Revenue by
    segment``, then ``The following table presents revenue:``, then the rows; finding
    11), so it is written in the text after the lead-in, as :func:`~docchunk.chunkers.doc.joining.join_pieces` writes
    a caption that text would stand before, and the piece's ``captions`` are None.
    """
    return run.delim.join([lead, *(table_piece.captions or []), body])


def fewer_rows(run: HybridRun, piece: Piece) -> list[Piece] | None:
    """``piece`` (a table piece with the lead-in sentence as its first caption) cut in two so that the sentence fits.

    The second part goes on without the sentence, as the table's other pieces (see :func:`_cut_rows`).

    Returns:
        ``[head, tail]``: the most rows whose head fits ``run.max`` with the sentence, then
        the others; None when not even one row fits or ``piece`` is not one line per row.
    """
    tail_captions = piece.captions[1:] or None if piece.captions else None
    return _cut_rows(
        run,
        piece,
        lambda body, rows: replace(piece, text=body, table_rows=rows, text_tokens=None),
        lambda body, rows: replace(piece, text=body, table_rows=rows, captions=tail_captions, text_tokens=None),
    )


def _cut_rows(
    run: HybridRun,
    piece: Piece,
    head_of: Callable[[str, tuple[int, int]], Piece],
    tail_of: Callable[[str, tuple[int, int]], Piece],
) -> list[Piece] | None:
    """A table piece of whole rows cut in two: the most rows whose ``head_of(text, rows)`` fits, then the others.

    Only for a piece of whole rows with one line per row that has text
    (:func:`_line_rows`); ``tail_of(text, rows)`` makes the second part. None when
    not even one row fits in the head.
    """
    if piece.table_rows is None:
        return None
    start, end = piece.table_rows
    lines = piece.text.split("\n")
    bounds = _line_rows(run, piece, lines)
    if bounds is None or len(lines) < 2:
        return None
    for k in range(len(lines) - 1, 0, -1):
        cut = bounds[k]  # the grid row of line k: the tail starts there (empty rows before it stay in the head)
        head = head_of("\n".join(lines[:k]), (start, cut))
        if run.ctx_count(head) <= run.max:
            return [head, tail_of("\n".join(lines[k:]), (cut, end))]
    return None


def _line_rows(run: HybridRun, piece: Piece, lines: list[str]) -> list[int] | None:
    """The grid row index of each line of a table piece of whole rows, or None when it is not one.

    A Markdown piece is never one: its header lines could be counted as rows when the
    piece's range holds empty rows (a cut there wrote the rows after it without the
    header lines).

    One line per row (``table_rows`` as long as the lines) gives them at once; else
    the lines are matched, in order, with the texts of the rows of the piece's range
    that have text (empty rows have no line).
    """
    assert piece.table_rows is not None
    start, end = piece.table_rows
    rows = table_rows_of(run, piece)
    if rows is not None and (rows.head or rows.notes):  # Markdown's header lines, a later piece's notes: no rows
        return None
    if len(lines) == end - start:
        return list(range(start, end))
    if rows is None:
        return None
    texts = [(row.index, row.text) for row in rows.rows if row.cells and start <= row.index < end]
    if len(texts) != len(lines) or any(text != line for (_, text), line in zip(texts, lines, strict=True)):
        return None
    return [index for index, _ in texts]
