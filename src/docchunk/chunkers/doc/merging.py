"""The default mode's peer merging around tables, and the rules of what may stand next to a table.

They run late in :func:`docchunk.chunkers.doc.structure.structured_pieces`'s pipeline,
with ``merge_peers``: :func:`merge_between_tables` (``HybridRun.merge`` over the text
between tables), then :func:`merge_with_tables` (a table piece takes the text next to
it); :func:`~docchunk.chunkers.doc.joining.join_pieces` joins two pieces. The rules
they read, which the minimum-size pass (:mod:`docchunk.chunkers.doc.min_tokens`) reads
too, are here: a table's own caption as a piece (:func:`caption_of_next`), its lead-in
(:func:`lead_in_of_next`, :func:`opens_with_lead_in`), what an earlier table leaves
(:func:`after_table`, :func:`ends_with_trailing_note`) and which text may join a table
piece (:func:`may_join_table`). Not here: merging pieces under ``min_tokens``
(:func:`~docchunk.chunkers.doc.min_tokens.merge_small`).
"""

from __future__ import annotations

from itertools import groupby
from typing import TYPE_CHECKING

from docling_core.types.doc import TableItem, TextItem

from docchunk.chunkers.doc.content_headings import heading_once
from docchunk.chunkers.doc.joining import join_pieces
from docchunk.chunkers.doc.lead_in import is_paragraph, is_trailing_note
from docchunk.chunkers.doc.piece import Piece, pages_of, replace
from docchunk.chunkers.doc.tables.pieces import only_captions_of

if TYPE_CHECKING:
    from docchunk.chunkers.doc.hybrid_run import HybridRun

__all__ = [
    "after_table",
    "caption_of_next",
    "ends_with_trailing_note",
    "lead_in_of_next",
    "may_join_table",
    "merge_between_tables",
    "merge_with_tables",
    "opens_with_lead_in",
]


def merge_between_tables(run: HybridRun, pieces: list[Piece]) -> list[Piece]:
    """``run.merge`` over the runs of pieces between table pieces; table pieces stay as they are.

    A table piece holds whole rows with its caption in ``captions`` and its rows in
    ``table_rows``; merging it with text would lose both. With
    ``merge_across_pages=False`` the runs are also cut where the pages change.
    """
    out: list[Piece] = []
    pending: list[Piece] = []
    for k, piece in enumerate(pieces):
        if piece.table_rows is None and caption_of_next(pieces, k):
            out.extend(_merge_run(run, pending))  # the caption stands directly before its table's rows
            pending = []
            out.append(piece)
            continue
        if piece.table_rows is None:
            pending.append(piece)
            continue
        out.extend(_merge_run(run, pending))
        pending = []
        out.append(piece)
    out.extend(_merge_run(run, pending))
    return out


def merge_with_tables(run: HybridRun, pieces: list[Piece]) -> list[Piece]:
    """Each table piece takes the text pieces next to it that share its headings, while it fits ``max_tokens``.

    docling-core's ``merge_peers`` merges a table's chunk with the text around it
    when they share headings and fit; :func:`merge_between_tables` does not (its
    merge would lose the piece's ``table_rows`` and captions). Here
    :func:`join_pieces` joins them and keeps both: the text piece before first (the
    paragraph that introduces the table), then the one after (its notes). A text
    piece directly before another table piece of the same headings is that table's
    lead-in (:func:`lead_in_of_next`): it never joins the table before it (issue 46:
    a DOCX with a short sentence before each table put each at the end of the
    previous table's chunk). A text piece joins at most one table piece; two table
    pieces never join here; with
    ``merge_across_pages=False``, only pieces of the same pages join. On the doc-qa
    reports (a table and a few paragraphs each) this gave fewer, fuller chunks and
    recall@1 +4.5 (documents 1-40) and +3.3 (41-120); see ``docs/quality.md``.

    Returns:
        The pieces in document order; every piece within ``max_tokens`` that was so before.
    """
    out = list(pieces)
    i = 0
    while i < len(out):
        if out[i].table_rows is not None:
            before = i > 0 and not (opens_with_lead_in(out[i]) and after_table(out, i - 1))
            if before and (merged := _joined_if_fits(run, out[i - 1], out[i], out[i - 1])) is not None:
                if caption_of_next(out, i - 1):  # the caption is in this piece's text, before its rows
                    kept = tuple(k for k in merged.table_context_dropped or () if k != "caption")
                    merged = replace(merged, table_context_dropped=kept or None)
                out[i - 1 : i + 1] = [merged]
                i -= 1
            after = i + 1 < len(out) and not lead_in_of_next(out, i + 1)
            if after and (merged := _joined_if_fits(run, out[i], out[i + 1], out[i + 1])) is not None:
                out[i : i + 2] = [merged]
        i += 1
    return out


def caption_of_next(pieces: list[Piece], i: int) -> bool:
    """Whether ``pieces[i]`` is the caption of the table whose rows the next piece holds, as a piece of its own.

    A caption that leaves too little room beside the table's largest row is a piece of
    its own before the rows (``tables/pieces.by_rows``). Merged with the text before it,
    it stood at the end of an unrelated paragraph's chunk, the rows' pieces without it
    (stop 56's new-user tester, finding 16; issue 46: a caption stands directly before
    the rows of its own table). Its items are the table's captions (and the parts of
    their inline text).
    """
    piece = pieces[i]
    if i + 1 >= len(pieces) or pieces[i + 1].table_rows is None or not piece.items:
        return False
    table = next((it for it in pieces[i + 1].items if isinstance(it, TableItem)), None)
    return table is not None and bool(table.captions) and only_captions_of(table, piece.items)


def lead_in_of_next(pieces: list[Piece], i: int) -> bool:
    """Whether ``pieces[i]`` is a text piece directly before a table piece of the same headings (that table's lead-in).

    The paragraph that directly precedes a table in reading order introduces it, so it
    goes with that table, never to the end of the piece of the table before it. Not
    so when its last paragraph reads as the earlier table's trailing note
    (:func:`~docchunk.chunkers.doc.lead_in.is_trailing_note`, ``Source: survey A.``),
    nor when the next table's piece already opens with its own lead-in (a paragraph
    moved in by ``attach_lead_ins``): then the piece ends the earlier table's part, as
    in docling-core (issue 46 finding 13).
    """
    piece = pieces[i]
    if piece.table_rows is not None or i + 1 >= len(pieces) or not piece.items:
        return False
    nxt = pieces[i + 1]
    if nxt.table_rows is None or nxt.headings != piece.headings or opens_with_lead_in(nxt):
        return False
    return not ends_with_trailing_note(piece)


def ends_with_trailing_note(piece: Piece) -> bool:
    """Whether ``piece``'s last item is a paragraph that reads as the earlier table's note (``Source: survey A.``)."""
    last = piece.items[-1]
    return isinstance(last, TextItem) and is_trailing_note(last.text)


def after_table(pieces: list[Piece], i: int) -> bool:
    """Whether the text piece ``pieces[i]`` directly follows a table piece of the same headings.

    Such text is what the earlier table leaves (``Values are the mean of five
    specimens.``): when the next table's piece opens with its own lead-in, the text
    never joins it, where it would stand before that lead-in (issue 46 finding 22).
    """
    if pieces[i].table_rows is not None or any(isinstance(it, TableItem) for it in pieces[i].items):
        return False  # a piece holding a table (two merged already) is no text the table before left
    return i > 0 and pieces[i - 1].table_rows is not None and pieces[i - 1].headings == pieces[i].headings


def opens_with_lead_in(table_piece: Piece) -> bool:
    """Whether a table piece holds a paragraph before its table (a lead-in moved in by ``attach_lead_ins``)."""
    for item in table_piece.items:
        if isinstance(item, TableItem):
            return False
        if is_paragraph(item):
            return True
    return False


def _joined_if_fits(run: HybridRun, a: Piece, b: Piece, text_piece: Piece) -> Piece | None:
    """``join_pieces(a, b)`` when ``text_piece`` (one of them) may join the other, a table piece, and it fits."""
    table_piece = b if text_piece is a else a
    if not may_join_table(run, table_piece, text_piece):
        return None
    merged = join_pieces(run, a, b)
    if merged.text == a.text + run.delim + b.text:  # sized from the parts' counts, without tokenizing it again
        counts = run.text_counts([a, b])
        merged.text_tokens = run.sizer.join_count([a.text, b.text], counts, run.delim)
    return merged if run.ctx_count(merged) <= run.max else None


def may_join_table(run: HybridRun, table_piece: Piece, other: Piece) -> bool:
    """Whether the text piece ``other`` may join the table piece ``table_piece`` (see :func:`merge_with_tables`)."""
    if other.table_rows is not None or other.heading_only or other.code_chunks is not None or not other.items:
        return False
    if any(isinstance(it, TableItem) for it in other.items):  # an empty table's lead-in (attach_lead_ins)
        return False
    if other.headings != table_piece.headings:
        return False
    return run.settings.merge_across_pages or pages_of(other) == pages_of(table_piece)


def _merge_run(run: HybridRun, pieces: list[Piece]) -> list[Piece]:
    if not pieces:
        return []
    if run.settings.merge_across_pages:
        return run.merge(pieces, heading_once)
    return [m for _, same in groupby(pieces, key=pages_of) for m in run.merge(list(same), heading_once)]
