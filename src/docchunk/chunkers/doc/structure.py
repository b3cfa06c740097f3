"""The default (structure-faithful) passes of the hybrid chunker.

With ``docling_compat=False`` the hybrid chunker runs these passes instead of
docling-core's; each pass is a function of the chunker's run state
(:class:`~docchunk.chunkers.doc.hybrid_run.HybridRun`: cached counts, serializer,
settings) and a list of pieces, so that they can be tested and changed one by one.
``docs/compat.md`` lists what each one changes.

The pipeline (:func:`structured_pieces`, then :func:`_text_phases` on each run of text
between code items), one named pass each:

1. walk: :func:`~docchunk.chunkers.doc.heading_walk.structured_walk`;
2. fit the heading paths: :func:`~docchunk.chunkers.doc.heading_paths.fit_headings`;
3. split at page changes (``merge_across_pages=False``): :func:`split_at_pages`;
4. split at element boundaries, tables by rows, lists by items (nesting kept):
   :func:`split_elements`;
5. split text at sentence ends: :func:`split_texts`;
6. lead-ins into their tables: :func:`~docchunk.chunkers.doc.lead_in.attach_lead_ins`, then
   a table split only for a few tokens of its path made whole:
   :func:`~docchunk.chunkers.doc.tables.rejoin.rejoin_near_budget`;
7. even out a table's last two pieces: :func:`~docchunk.chunkers.doc.tables.balance.balance_tables`;
8. merge peers (per page), between and with tables:
   :func:`~docchunk.chunkers.doc.merging.merge_between_tables`,
   :func:`~docchunk.chunkers.doc.merging.merge_with_tables`;
9. merge pieces under ``min_tokens``: :func:`~docchunk.chunkers.doc.min_tokens.merge_small`;
10. a table whole among its list's lines says which rows it holds:
    :func:`~docchunk.chunkers.doc.list_tables.rows_of_listed_tables`.

The passes import the run's module and never the mode's: the mode
(:data:`~docchunk.chunkers.doc.mode.STRUCTURED`) names :func:`structured_pieces`.
"""

from __future__ import annotations

from itertools import groupby, pairwise
from typing import TYPE_CHECKING, Any

from docling_core.types.doc import DoclingDocument, TableItem

from docchunk.chunkers.doc.code_items import chunk_code_piece
from docchunk.chunkers.doc.content_headings import heading_once
from docchunk.chunkers.doc.heading_paths import fit_headings, heading_text
from docchunk.chunkers.doc.heading_walk import structured_walk
from docchunk.chunkers.doc.lead_in import attach_lead_ins
from docchunk.chunkers.doc.list_split import split_list_piece
from docchunk.chunkers.doc.list_tables import rows_of_listed_tables
from docchunk.chunkers.doc.merging import merge_between_tables, merge_with_tables
from docchunk.chunkers.doc.min_tokens import merge_small
from docchunk.chunkers.doc.piece import Piece, pages_of, replace
from docchunk.chunkers.doc.provenance import align, anchors_of, slice_anchors
from docchunk.chunkers.doc.tables.balance import balance_tables
from docchunk.chunkers.doc.tables.pieces import by_rows, split_table, table_of
from docchunk.chunkers.doc.tables.rejoin import rejoin_near_budget
from docchunk.chunkers.doc.tables.user_lines import split_user_table
from docchunk.serialization.inline import one_inline_run

if TYPE_CHECKING:
    from docchunk.chunkers.doc.hybrid_run import HybridRun

__all__ = ["split_at_pages", "split_elements", "split_table_piece", "split_texts", "structured_pieces"]


def structured_pieces(run: HybridRun, doc: DoclingDocument) -> list[Piece]:
    """The hybrid chunker's pieces in the default mode, in document order.

    With a ``code_chunking_strategy``, each code item is a piece whose
    ``code_chunks`` hold its final chunks (:func:`chunk_code_piece`); the text
    phases (split, merge) run on the pieces between code items, so no text is
    merged with code.

    Args:
        run: The ``chunk()`` call's state (``HybridRun``): counts, serializer, settings.
        doc: The document.
    """
    settings = run.settings
    strategy = settings.code_chunking_strategy
    walked = structured_walk(doc, run.serializer, settings.always_emit_headings, code=strategy is not None)
    out: list[Piece] = []
    for is_code, group in groupby(fit_headings(run, walked), key=lambda p: p.code_chunks is not None):
        if not is_code:
            out.extend(heading_once(p) for p in _text_phases(run, list(group)))
            continue
        assert strategy is not None  # code pieces are walked only with a strategy
        for piece in group:
            chunks = chunk_code_piece(piece, strategy, doc, run.tok, run.delim, run.max)
            out.append(replace(piece, code_chunks=chunks))
    return out


def _text_phases(run: HybridRun, pieces: list[Piece]) -> list[Piece]:
    """The passes over the pieces of a run of text, in order: split (pages, elements, text), then merge."""
    settings = run.settings
    if not settings.merge_across_pages:
        pieces = [s for p in pieces for s in split_at_pages(run, p)]
    pieces = split_elements(run, pieces)
    pieces = split_texts(run, pieces)
    pieces = rejoin_near_budget(run, attach_lead_ins(run, pieces))
    if settings.balance_tables:
        pieces = balance_tables(run, pieces)
    if settings.merge_peers:
        pieces = merge_with_tables(run, merge_between_tables(run, pieces))
    if settings.min_tokens:
        pieces = merge_small(run, pieces, settings.min_tokens)
    return rows_of_listed_tables(run, pieces)


def split_elements(run: HybridRun, pieces: list[Piece]) -> list[Piece]:
    """Each piece split by :func:`split_table_piece`: tables by rows, lists by items, others at element boundaries."""
    # the element texts of the pieces split at element boundaries, counted in one batch (with
    # the token offsets of long ones: a long element is then split at sentences without tokenizing it again)
    elements = [run.item_text(it) for p in pieces if _split_by_items(run, p) for it in p.items]
    run.sizer.count_batch_keeping_offsets(elements, run.max // 4)
    return [s for p in pieces for s in split_table_piece(run, p)]


def split_texts(run: HybridRun, pieces: list[Piece]) -> list[Piece]:
    """Each piece that is not a table's rows and exceeds ``max_tokens`` split inside its text (``run.split_text``)."""
    # the texts to size, all counted in one batch (the tokenizer spreads it over the cores); the
    # token offsets of long ones are kept, so that their sentences are sized without tokenizing again
    texts = [p.text for p in pieces if p.table_rows is None and p.text_tokens is None]
    run.sizer.count_batch_keeping_offsets(texts, run.max // 4)
    pieces = [s for p in pieces for s in ([p] if p.table_rows is not None else run.split_text(p, structured=True))]
    run.sizer.drop_offsets()
    return pieces


# -- pages ---------------------------------------------------------------------
def split_at_pages(run: HybridRun, piece: Piece) -> list[Piece]:
    """A piece of several items (a list, headings as text) cut where its items' pages change.

    A table stays whole with its caption; so does a piece whose text is not its
    items' texts joined (a heading path that starts with a sheet name). A list is cut
    in its own text, its nesting kept (:func:`_cut_at_items`).
    """
    items = piece.items
    tables = any(isinstance(it, TableItem) for it in items)
    if len(items) <= 1 or piece.heading_only or (tables and table_of(piece) is not None):
        return [piece]
    groups = _page_groups(items)
    if len(groups) == 1:
        return [piece]
    if piece.from_headings:
        if piece.text != "\n".join(heading_text(it) for it in items):
            return [piece]
        texts = ["\n".join(heading_text(it) for it in group) for group in groups]
    else:
        parts = _cut_at_items(piece, groups)
        if parts is None and tables:  # a list holding a table: its rows are no item's text
            return [piece]
        parts = parts or [_joined_items(run, piece, group) for group in groups]
        return [p for p in parts if p.text.strip()]
    return [replace(piece, text=t, items=g, text_tokens=None) for t, g in zip(texts, groups, strict=True) if t.strip()]


def _page_groups(items: list[Any]) -> list[list[Any]]:
    """``items`` in runs of the same pages; an item with no page (a caption, a nested item) goes with the one before."""
    groups: list[list[Any]] = []
    last = None
    for it in items:
        pages = pages_of(Piece("", [it], None))
        if groups and (not pages or pages == last):
            groups[-1].append(it)
        else:
            groups.append([it])
        last = pages or last
    return groups


def _cut_at_items(piece: Piece, groups: list[list[Any]]) -> list[Piece] | None:
    """``piece``'s own text cut at the start of the line where each group's first written item begins.

    A list keeps the nesting its text was written with (each part holds its lines as they
    are, indentation and markers included), where re-joining its items' texts wrote them
    flat. None when some group writes no anchored text, or the cuts are not in order: the
    caller joins the items' texts instead. (The round-3 tester's finding 15: ``api_list_tables``
    with ``merge_across_pages=False``, a list of items on pages 1 and 2 was one chunk.)
    """
    anchors = anchors_of(piece)
    starts = []
    for group in groups[1:]:
        refs = {it.self_ref for it in group}
        pos = next((a[0] for a in anchors if a[1] in refs), None)
        if pos is None:
            return None
        starts.append(piece.text.rfind("\n", 0, pos) + 1)  # the start of its line (its marker, its indentation)
    bounds = [0, *starts, len(piece.text)]
    if any(a >= b for a, b in pairwise(bounds)):
        return None
    out = []
    for group, a, b in zip(groups, bounds, bounds[1:], strict=False):
        end = len(piece.text[:b].rstrip("\n"))
        text = piece.text[a:end]
        out.append(
            replace(piece, text=text, items=group, text_tokens=None, anchors=(text, slice_anchors(anchors, a, end)))
        )
    return out


def _joined_items(run: HybridRun, piece: Piece, items: list[Any]) -> Piece:
    """``piece`` holding ``items`` alone: their texts joined by ``delim``, with their anchors."""
    text = run.delim.join(t for t in (run.item_text(it) for it in items) if t)
    return replace(piece, text=text, items=items, text_tokens=None, anchors=(text, align(text, items)))


# -- tables --------------------------------------------------------------------
def _row_table(run: HybridRun, piece: Piece) -> TableItem | None:
    """The table :func:`split_table_piece` splits ``piece`` by rows of, or None (split at element boundaries)."""
    table = table_of(piece)
    return table if table is not None and by_rows(run.serializer) else None


def _split_by_items(run: HybridRun, piece: Piece) -> bool:
    """Whether :func:`split_table_piece` splits ``piece`` at element boundaries, counting each element.

    Not a table written by rows, nor one inline run (one sentence's fragments, split at
    sentence ends only): the counts of their elements would never be read.
    """
    return (
        len(piece.items) > 1
        and not piece.from_headings
        and _row_table(run, piece) is None
        and not one_inline_run(run.doc, piece.items)
    )


def split_table_piece(run: HybridRun, piece: Piece) -> list[Piece]:
    """Pieces of one walked piece: a table's whole rows, each with ``table_rows`` set (default mode).

    A table is chunked by rows (:func:`docchunk.chunkers.doc.tables.pieces.split_table`)
    when the serializer writes tables by rows (the default); a table of a user's own
    Markdown table serializer by whole lines under its header (:func:`split_user_table`);
    any other piece at element boundaries (``run.split_by_items``).
    """
    table = _row_table(run, piece)
    if table is None:
        own = table_of(piece)  # a table of the user's serializer: Markdown lines split by rows, if it writes them
        by_lines = split_user_table(run, piece, own) if own is not None else None
        if by_lines is not None:
            return by_lines
        listed = split_list_piece(run, piece)
        if listed is not None:
            return listed
        if one_inline_run(run.doc, piece.items):
            return [replace(piece, captions=None)]  # one sentence's fragments: split at sentence ends only
        return run.split_by_items(piece)
    return split_table(run, piece, table)
