"""Lead-in sentences go with the table they introduce (default mode).

A paragraph directly before a table that ends with ``:`` ("The results are shown
below:") or names a table ("Table 3 shows ...", "The following table ...", "...
in the table below") introduces that table. :func:`attach_lead_ins` moves it into
the table's first piece: as the start of its text when the piece still fits
``max_tokens`` with it, else as the start of the text of a first piece cut to the
rows that fit after it (a piece of whole rows: the other rows go on in a piece of
their own). The paragraph is content, so it always goes into a piece's text (and
its ``meta.spans``), never into its captions. When the whole paragraph fits in
neither way (a long
paragraph, or one split at sentence ends over several pieces), its lead-in
*sentence* (:func:`lead_in_sentence`: the last sentence, when the paragraph ends
with ``:``, else the last one that names a table) becomes the first caption of the
table's first piece, in the same ways, as a heading path is context: the
paragraph stays where it is, whole, and the sentence is also the table's context.
When not one row fits with the sentence and the heading path, that first piece
takes a shorter path (the outer headings dropped first; the rows after it keep
the whole path); when the table's first row is split between entries (larger than
the budget), the entries of its first piece are split again to a budget that
leaves the sentence room. Only when none of these fits does the table go without it.

A paragraph that stands between two tables (the piece of a table, then the
paragraph alone, then another table, all under the same headings) is the later
table's lead-in whatever its words ("Costs.", "Open incidents at quarter end."):
the whole paragraph moves into that table's first piece in the same ways (no
sentence of it becomes a caption unless it reads as a lead-in). Issue 46 found
such paragraphs at the end of the *previous* table's chunk, in a DOCX with a short
sentence before each of its tables (``tests/data/lead_ins.docx``). A paragraph that
reads as the earlier table's trailing note (:func:`is_trailing_note`: ``Source: ...``,
``Note: ...``, a footnote, a sentence that starts lower-case or refers back) is not
the later table's lead-in: it stays with its own table, as docling-core keeps it; so
does any paragraph before the later table's moved lead-in.

A table's title line written as a paragraph (Word's "Caption" style, ``Table 2:
Hardness by alloy``) after a sentence that introduces the table (a lead-in, or one
that ends pointing ahead: ``The hardness results are given below.``) makes one lead-in
with that sentence: both move (issue 46 finding 22, a tester's DOCX lab report, where
the sentence ended the previous table's chunk). A title line directly *after* a table,
with a paragraph that is no title line after it, is that table's caption below it
(:func:`_left_by_table`): the paragraph after it is the next table's lead-in, as if it
directly followed the table, and the title line stays with its own table (round-3
finding 2: it was written before the next table's rows); so is a paragraph after a
trailing note of the table (round-3 finding 16). A caption or footnote item that no
table links, between a lead-in and its table (:func:`~.lead_in_rules.ends_lead_in`),
is the lead-in's last line: both move (round-3 finding 17).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from docling_core.types.doc import TableItem
from docling_core.types.doc.document import InlineGroup, ListItem

from docchunk.chunkers.doc.lead_in_rules import (
    ends_lead_in,
    introduces,
    is_lead_in,
    is_paragraph,
    is_table_title,
    is_trailing_note,
    lead_in_sentence,
    plain,
)
from docchunk.chunkers.doc.piece import Piece
from docchunk.chunkers.doc.tables.pack import table_pieces
from docchunk.chunkers.doc.tables.paths import under_path
from docchunk.chunkers.doc.tables.pieces import table_rows_of
from docchunk.serialization.inline import plain_inline_text
from docchunk.serialization.tables import ROW_SEP, TableRow, TableRows
from docchunk.serialization.walk import iterate_items

if TYPE_CHECKING:
    from docchunk.chunkers.doc.hybrid_run import HybridRun

__all__ = ["attach_lead_ins", "is_lead_in", "is_paragraph", "is_trailing_note", "lead_in_sentence"]


def attach_lead_ins(run: HybridRun, pieces: list[Piece]) -> list[Piece]:
    """``pieces`` with each table's lead-in paragraph moved into the table's first piece (see the module docstring).

    Args:
        run: The ``chunk()`` call's state (``HybridRun``): ``ctx_count``, ``max``, ``delim``, ``item_text``.
        pieces: Split pieces in document order; table pieces have ``table_rows`` set.

    Returns:
        The pieces; no text is dropped (a lead-in moves, whole, into the next piece).
    """
    pieces = _with_empty_tables(run, pieces)
    out: list[Piece] = []
    i = 0
    while i < len(pieces):
        piece = pieces[i]
        previous = out[-1] if out else None
        if piece.table_rows is not None and previous is not None and previous.table_rows is None:
            apart = _title_with_its_lead_in(run, out)
            if apart is not None:  # tried as one lead-in; put back as they were when it does not move
                out[-2:] = [_joined(run, *apart)]
                previous = out[-1]
            j = i + 1  # the pieces of one split row share its range
            while j < len(pieces) and pieces[j].table_rows == piece.table_rows and _same(pieces[j].items, piece.items):
                j += 1
            between = _between_tables(run, out)
            moved = _with_lead_in(run, previous, piece, between=between)
            used = 1
            if moved is None and j > i + 1:
                moved, used = _with_lead_in(run, previous, piece, row_pieces=pieces[i:j], between=between), j - i
            if moved is not None:
                rest, table_pieces = moved
                out[-1:] = [rest] if rest is not None else []
                out.extend(table_pieces)
                i += used
                if len(table_pieces) > 1 and i < len(pieces):  # rows cut off for the lead-in
                    joined = _rows_continued(run, out[-1], pieces[i])
                    if joined is not None:
                        out[-1] = joined
                        i += 1
                continue
            if apart is not None:
                out[-1:] = list(apart)
        out.append(piece)
        i += 1
    return out


def _with_empty_tables(run: HybridRun, pieces: list[Piece]) -> list[Piece]:
    """``pieces`` with each table that writes nothing (no cell text, no caption) among the items of its lead-in's piece.

    Such a table gives no piece, so its lead-in (``All empty:``) introduced nothing:
    ``merge_peers`` joined it to the end of the previous table's chunk, where it read as
    that table's note (a tester's HTML page of odd tables, issue 46 finding 16). The
    lead-in's piece (a text piece ending with a paragraph that reads as a lead-in,
    directly before the table in reading order) holds the table's item: the chunk of
    that table, which no other table's piece joins (:mod:`~docchunk.chunkers.doc.merging`).
    """
    empty = {t.self_ref for t in run.doc.tables if _writes_nothing(t)}
    if not empty:
        return pieces
    after: dict[str, TableItem] = {}  # a paragraph's ref -> the empty table directly after it in reading order
    previous = None
    for item, _ in iterate_items(run.doc):
        if isinstance(item, TableItem) and item.self_ref in empty and previous is not None:
            after[previous] = item
        previous = item.self_ref if is_paragraph(item) else None
    out = []
    for piece in pieces:
        last = piece.items[-1] if piece.items else None
        table = after.get(last.self_ref) if last is not None and piece.table_rows is None else None
        if (
            table is not None
            and last is not None
            and piece.code_chunks is None
            and lead_in_sentence(run.item_text(last))
        ):
            piece = replace(piece, items=[*piece.items, table])
        out.append(piece)
    return out


def _writes_nothing(table: TableItem) -> bool:
    """Whether a table has no cell text and no caption (it gives no piece of its own)."""
    return not table.captions and not any(cell.text.strip() for cell in table.data.table_cells)


def _title_with_its_lead_in(run: HybridRun, out: list[Piece]) -> tuple[Piece, Piece] | None:
    """``out``'s last two pieces when they are a paragraph that introduces a table, then the table's title line.

    ``The hardness results are given below.`` / ``Table 2: Hardness by alloy`` / the
    table: only the title line moved into the table's piece, so the sentence ended the
    previous table's chunk (a tester's DOCX lab report, issue 46 finding 22). The two,
    each a piece of one paragraph under the same headings, are the table's lead-in.
    """
    if len(out) < 2:
        return None
    lead, title = out[-2], out[-1]
    for piece in (lead, title):
        if piece.table_rows is not None or piece.heading_only or piece.from_headings or piece.code_chunks is not None:
            return None
        if not piece.items or piece.captions:
            return None
    if not is_paragraph(lead.items[-1]) or lead.headings != title.headings or len(title.items) != 1:
        return None
    if not ends_lead_in(title.items[0], run.item_text(title.items[0])):  # a title line, a caption or footnote item
        return None
    size, text = _paragraph_at_end(run, lead.items)
    return (lead, title) if size == len(lead.items) and lead.text == text and introduces(text) else None


def _joined(run: HybridRun, lead: Piece, title: Piece) -> Piece:
    """The pieces of a lead-in paragraph and a table's title line as one piece (see :func:`_title_with_its_lead_in`)."""
    return replace(title, text=lead.text + run.delim + title.text, items=[*lead.items, *title.items],
                   text_tokens=None, anchors=None)  # fmt: skip


def _between_tables(run: HybridRun, out: list[Piece]) -> bool:
    """Whether ``out[-1]`` is one paragraph directly after a table's piece of the same headings.

    Or directly after what that table leaves below it (:func:`_left_by_table`: its title
    line, a trailing note): the paragraph is then the next table's lead-in all the same.
    """
    if len(out) < 2:
        return False
    before, paragraph = out[-2], out[-1]
    if len(paragraph.items) != 1 or before.headings != paragraph.headings:
        return False
    if len(out) >= 3 and _left_by_table(run, out[-3], before, paragraph):
        return True
    return before.table_rows is not None


def _left_by_table(run: HybridRun, table_piece: Piece, left: Piece, after: Piece) -> bool:
    """Whether ``left`` is what the table of ``table_piece`` leaves below it, ``after`` the paragraph after it.

    One paragraph directly after a table's piece that is the table's title line below it
    or its trailing note:

    - a title line (:func:`is_table_title`: ``Table 1: batch 0 readings.``, Word's
      "Caption" style, which docling converts as a text item), with a paragraph that is
      no title line after it: a title stands next to its table, so it is the title of
      the table above it, not of a table that a paragraph still stands before (round-3
      tester's finding 2, ``docx_labnotes``: the title line below each table was written
      before the next table's rows, and the next table's lead-in sentence left in a
      chunk without rows);
    - a trailing note (:func:`is_trailing_note`: ``Note: depot 1 figures are
      provisional.``), with a paragraph that is no note after it (round-3 finding 16,
      ``html_multi_tables``: the next table's lead-in ``Costs of depot 2 follow.`` was
      left with the note in a chunk without rows).
    """
    if table_piece.table_rows is None or table_piece.headings != left.headings or len(left.items) != 1:
        return False
    first, nxt = left.items[0], after.items[0]
    if not (is_paragraph(first) and is_paragraph(nxt)):
        return False
    text, next_text = run.item_text(first), run.item_text(nxt)
    if is_table_title(text):
        return not is_table_title(next_text)
    return is_trailing_note(text) and not is_trailing_note(next_text)


def _rows_continued(run: HybridRun, rows: Piece, after: Piece) -> Piece | None:
    """The rows a lead-in cut off (``rows``) joined to the table's next piece ``after``, or None.

    A first piece cut to the rows that fit after its lead-in leaves the other rows to
    a piece of their own, often one row (a section's "Total"), which then stands alone
    between two full pieces. When ``after`` continues the same table with whole rows
    under the same headings and captions, and both are the rows' lines, the two are one
    piece of consecutive rows (joined by the row separator) if that fits ``max_tokens``.
    """
    if rows.table_rows is None or after.table_rows is None or rows.table_cols is not None:
        return None
    if after.table_cols is not None or rows.table_rows[1] != after.table_rows[0] or not _same(rows.items, after.items):
        return None
    if rows.headings != after.headings or (rows.captions or None) != (after.captions or None):
        return None
    for piece in (rows, after):
        if _line_rows(run, piece, piece.text.split(ROW_SEP)) is None:
            return None
    joined = replace(after, text=rows.text + ROW_SEP + after.text,
                     table_rows=(rows.table_rows[0], after.table_rows[1]), text_tokens=None)  # fmt: skip
    return joined if run.ctx_count(joined) <= run.max else None


def _same(a: list[Any], b: list[Any]) -> bool:
    """Whether two pieces hold the same items (by identity)."""
    return len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))


def _with_lead_in(
    run: HybridRun, before: Piece, table_piece: Piece, row_pieces: list[Piece] | None = None, between: bool = False
) -> tuple[Piece | None, list[Piece]] | None:
    """(what stays of ``before``, the table piece(s) with the lead-in), or None when there is no lead-in to move.

    ``row_pieces``: the pieces of the table's first row, split between entries
    (``table_piece`` the first of them); given, the lead-in sentence goes as context
    of that row split again to a budget that leaves it room (the pieces returned
    replace them all). ``between``: ``before`` is one paragraph directly after
    another table's piece, so it is this table's lead-in whatever its words (only
    the whole paragraph moves, see the module docstring).
    """
    if before.heading_only or before.from_headings or before.code_chunks is not None or not before.items:
        return None
    if before.headings != table_piece.headings:
        return None
    last = before.items[-1]
    if not is_paragraph(last) and not ends_lead_in(last, run.item_text(last)):
        return None
    if any(isinstance(it, TableItem) for it in before.items):
        return None
    size, lead = _last_paragraph(run, before)
    sentence = lead_in_sentence(lead)
    if sentence is None and not is_paragraph(last) and size > 1:  # a lead-in, then a footnote item: its sentence
        sentence = lead_in_sentence(lead[: len(lead) - len(run.delim + run.item_text(last))])
    if sentence is None and (not between or is_trailing_note(lead)):
        return None
    if row_pieces is not None:
        if sentence is None:
            return None
        return _sentence_in_text(run, before, _split_row_again(run, before, row_pieces, sentence), lead, size)
    whole = _whole_lead_in(run, before, table_piece, lead, size)
    if whole is not None or sentence is None:
        return whole
    # the paragraph goes nowhere whole: its lead-in sentence is the context of the table's first piece,
    # under the whole heading path, else under a shorter one (the outer headings dropped first)
    headings = table_piece.headings or []
    for k in range(len(headings) + 1):
        as_context = replace(under_path(table_piece, headings[k:]), captions=[sentence, *(table_piece.captions or [])])
        if run.ctx_count(as_context) <= run.max:
            return before, [as_context]
        cut = _fewer_rows(run, as_context)
        if cut is not None:
            head, tail = cut
            return before, [head, replace(tail, headings=table_piece.headings, heading_items=table_piece.heading_items)]
    return None


def _split_row_again(
    run: HybridRun, before: Piece, row_pieces: list[Piece], sentence: str
) -> tuple[Piece | None, list[Piece]] | None:
    """The first row's first piece split again so that it holds ``sentence`` as context; None if it cannot be.

    The first piece of a row split between entries holds the row's label and its
    first entries; those entries are packed again to what the sentence and the
    shortest heading path that leaves room take (and no less than what the piece's
    own context takes, so that every new piece fits): the first new piece has the
    sentence as its first caption, the others the context the piece had; the row's
    other pieces stay as they are. When the first piece is part of one entry split
    by text, the whole row is split again so. None when no budget leaves room.
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


def _last_paragraph(run: HybridRun, before: Piece) -> tuple[int, str]:
    """(how many of ``before``'s last items are its last paragraph, that paragraph's text).

    A paragraph is one text item, or an inline group (the fragments of one sentence:
    text, inline code, bold ...) that is not a list item's text: its fragments are the
    piece's last items, its text the one line :func:`plain_inline_text` writes. Read as
    its last fragment, the lead-in of a Node.js API page (``... varies based on
    `rrtype`:``) was ``:``, written as the table's caption (issue 46).
    """
    size, text = _paragraph_at_end(run, before.items)
    if size < len(before.items) and ends_lead_in(before.items[-1], text) and is_paragraph(before.items[-1 - size]):
        more, lead = _paragraph_at_end(run, before.items[:-size])
        if introduces(lead):  # a lead-in sentence, then the table's title line: one lead-in (finding 22)
            return size + more, lead + run.delim + text
    return size, text


def _paragraph_at_end(run: HybridRun, items: list[Any]) -> tuple[int, str]:
    """(how many of ``items``' last items are one paragraph, its text): a text item, or an inline group's fragments."""
    doc = run.doc
    group = _inline_paragraph(items[-1], doc)
    if group is None:
        return 1, run.item_text(items[-1])
    size = 0
    while size < len(items) and _inline_paragraph(items[-1 - size], doc) is group:
        size += 1
    return size, plain_inline_text(group, doc)


def _inline_paragraph(item: Any, doc: Any) -> InlineGroup | None:
    """The outermost inline group ``item`` is a fragment of, when that group is a paragraph (not a list item's text)."""
    group = None
    node = item.parent.resolve(doc) if item.parent is not None else None
    while isinstance(node, InlineGroup):
        group = node
        node = node.parent.resolve(doc) if node.parent is not None else None
    return None if group is None or isinstance(node, ListItem) else group


def _sentence_in_text(
    run: HybridRun, before: Piece, moved: tuple[Piece | None, list[Piece]] | None, lead: str, size: int
) -> tuple[Piece | None, list[Piece]] | None:
    """``moved`` with the lead-in in its first piece's text when the sentence made context is all of ``before``.

    :func:`_split_row_again` makes the lead-in sentence the first caption of a split
    row's first piece and leaves the paragraph where it is; when the paragraph is that
    sentence and all of ``before``, ``merge_peers`` then joined the two, and the sentence
    was written twice in one embedded text (a tester's 15-column HTML table, issue 46
    finding 1). The paragraph is content: it goes into that piece's text instead (with
    its item), as a whole lead-in does, when the piece still fits.
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


def _whole_lead_in(
    run: HybridRun, before: Piece, table_piece: Piece, lead: str, size: int = 1
) -> tuple[Piece | None, list[Piece]] | None:
    """The whole lead-in paragraph ``lead`` (``before``'s last ``size`` items) moved into the table's first piece.

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


def _fewer_rows(run: HybridRun, piece: Piece) -> list[Piece] | None:
    """``piece`` (a table piece with the lead-in sentence as its first caption) cut in two so that the sentence fits.

    The second part goes on without the sentence, as the table's other pieces (see :func:`_cut_rows`).
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
