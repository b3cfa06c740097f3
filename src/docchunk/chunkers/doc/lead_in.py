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

This module finds the lead-in (which paragraph, which sentence of it, whether it moves);
:mod:`~docchunk.chunkers.doc.lead_in_fit` fits it into the table's pieces (the rows cut
or a row split again to leave it room).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docling_core.types.doc import TableItem
from docling_core.types.doc.document import InlineGroup, ListItem

from docchunk.chunkers.doc.lead_in_fit import (
    rows_continued,
    same_items,
    sentence_as_context,
    sentence_in_text,
    split_row_again,
    whole_lead_in,
)
from docchunk.chunkers.doc.lead_in_rules import (
    ends_lead_in,
    introduces,
    is_lead_in,
    is_paragraph,
    is_table_title,
    is_trailing_note,
    lead_in_sentence,
)
from docchunk.chunkers.doc.piece import Piece, replace
from docchunk.serialization.inline import plain_inline_text
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
            while (
                j < len(pieces)
                and pieces[j].table_rows == piece.table_rows
                and same_items(pieces[j].items, piece.items)
            ):
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
                    joined = rows_continued(run, out[-1], pieces[i])
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
        return sentence_in_text(run, before, split_row_again(run, before, row_pieces, sentence), lead, size)
    whole = whole_lead_in(run, before, table_piece, lead, size)
    if whole is not None or sentence is None:
        return whole
    return sentence_as_context(run, before, table_piece, sentence)


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
