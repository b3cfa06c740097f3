"""Table pieces of the default mode: a walked table becomes whole-row pieces.

Glue between the chunkers' pieces (:class:`~docchunk.chunkers.doc.piece.Piece`) and
the pure row serialization and packing of :mod:`docchunk.serialization.tables`.
The caption (and the table's ``meta.description``) moves from the text to
``captions``, so ``contextualize()`` shows it with every piece; each piece's
``table_rows`` says which grid rows it holds. What heads every piece (the caption,
the description, the title lines before the table) is written by :mod:`.titles`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docling_core.types.doc import DocItem, TableItem

from docchunk.chunkers.doc.layout_cells import by_rows
from docchunk.chunkers.doc.piece import Piece, replace
from docchunk.chunkers.doc.tables.pack import table_pieces
from docchunk.chunkers.doc.tables.paths import dropped_path_written, shorter_path
from docchunk.chunkers.doc.tables.titles import caption_text, heading_titles, heads_next_table
from docchunk.serialization.tables import ROW_SEP, TableRows, col_ranges, rows_as_written

if TYPE_CHECKING:
    from docling_core.transforms.serializer.base import BaseDocSerializer

    from docchunk.chunkers.doc.hybrid_run import HybridRun

__all__ = [
    "by_rows",
    "joined_cols",
    "near_budget",
    "only_captions_of",
    "sheet_name_once",
    "split_table",
    "table_of",
    "table_rows_of",
    "whole_table",
]


def table_of(piece: Piece) -> TableItem | None:
    """The table a walked piece holds: one ``TableItem``, the other items its captions (and their parts); else None."""
    tables = [it for it in piece.items if isinstance(it, TableItem)]
    if len(tables) != 1 or piece.from_headings or piece.heading_only or piece.layout_cell:
        return None
    table = tables[0]
    return table if only_captions_of(table, piece.items) else None


def only_captions_of(table: TableItem, items: list[Any]) -> bool:
    """Whether every item of ``items`` but ``table`` is one of its captions or a part of one's inline text.

    ``items`` in document order: a caption before the parts of its inline text (a formula,
    a link), which the caption holds.
    """
    captions = {ref.cref for ref in table.captions}
    for it in items:
        if it is table or it.self_ref in captions:
            continue
        if it.parent is None or it.parent.cref not in captions:
            return False
        captions.add(it.self_ref)
    return True


def table_rows_of(run: HybridRun, piece: Piece) -> TableRows | None:
    """The rows of the one table ``piece`` holds rows of, as the run's serializer writes them; None if none."""
    tables = [it for it in piece.items if isinstance(it, TableItem)]
    if len(tables) != 1 or not by_rows(run.serializer):
        return None
    return rows_as_written(tables[0], run.serializer)


def whole_table(piece: Piece, serializer: BaseDocSerializer) -> Piece:
    """A walked table piece with its rows as text, its caption in ``captions`` (HierarchicalChunker).

    Pieces that are not one table are returned unchanged. A table without any
    cell text gives its caption as text.
    """
    table = table_of(piece)
    if table is None:
        return piece
    rows = rows_as_written(table, serializer)
    caption = caption_text(table, serializer)
    if not rows.text:
        return replace(piece, text=caption or piece.text, captions=None, text_tokens=None)
    return replace(
        piece,
        text=rows.text,
        captions=[caption] if caption else None,
        table_rows=(rows.start, rows.end),
        text_tokens=None,
    )


def split_table(run: HybridRun, piece: Piece, table: TableItem) -> list[Piece]:
    """Pieces of whole rows of ``table`` that fit ``run.max`` with headings and caption.

    The budget for the rows is what the headings and the caption (with the
    table's ``meta.description``) leave of ``max_tokens``. When they leave no
    room, or too little for a row that would fit with the headings alone, the
    caption becomes a text piece of its own before the table (still no text
    lost), and when the headings alone leave none, the table's pieces go without
    headings.

    Args:
        run: The hybrid chunker's run state (``max``, ``tok``, ``serializer``, ``ctx_count``,
            ``split_text``).
        piece: The walked piece of the table.
        table: ``table_of(piece)``.

    Returns:
        Pieces with ``table_rows`` set (and a caption piece, without it, when needed);
        each fits ``run.max`` unless one character alone is larger (``oversized``).
        No pieces for a one-cell title table that heads the table after it
        (:func:`heads_next_table`): that table's pieces carry its text in ``captions``,
        and list it in ``meta.doc_items`` (``Piece.table_titles``: each piece whose
        context, or text for the caption's own piece, holds the caption).
    """
    same_page = not run.settings.merge_across_pages  # a title on another page heads nothing then
    if heads_next_table(table, run.doc, run.serializer, same_page):  # a one-cell title: the next table carries it
        return []
    rows = rows_as_written(table, run.serializer)
    caption = caption_text(table, run.serializer, titled=True, same_page=same_page)
    # the title tables its caption opens with: listed in the chunks whose context holds that caption
    named = heading_titles(table, getattr(run.serializer, "doc", None), run.serializer, same_page)
    titles: list[tuple[DocItem, DocItem]] | None = [(t, table) for t in named if isinstance(t, TableItem)] or None
    base = replace(piece, text="", captions=[caption] if caption else None, text_tokens=None, table_titles=titles)
    if not rows.text:
        return run.split_text(replace(base, text=caption, captions=None)) if caption else []
    fitted = _fit(run, base, rows) if not _caption_cuts_rows(run, base, rows) else None
    if fitted is not None:
        return [sheet_name_once(p) for p in _whole_rows(run, base, rows, fitted)]
    lead: list[Piece] = []
    if caption:
        caption_items = [it for it in piece.items if it is not table]
        lead = run.split_text(replace(base, text=caption, captions=None, items=caption_items or piece.items))
        base = replace(base, captions=None, table_titles=None)  # the rows' pieces go without the caption
        fitted = _fit(run, base, rows)
    if fitted is None:  # the headings alone exceed the budget (meta.headings_dropped says so)
        bare = replace(base, headings=None, plain_only=True, headings_dropped=base.headings)
        fitted = _fit(run, bare, rows) or []
    if lead:  # the caption is a piece of its own: the rows' pieces lack it
        fitted = [replace(p, table_context_dropped=("caption", *(p.table_context_dropped or ()))) for p in fitted]
    return lead + [sheet_name_once(p) for p in _whole_rows(run, base, rows, fitted)]


def near_budget(run: HybridRun, piece: Piece) -> bool:
    """Whether ``piece`` (contextualized) is at most an eighth of ``run.max`` over it: a few tokens."""
    return run.ctx_count(piece) <= run.max + run.max // 8


def sheet_name_once(piece: Piece) -> Piece:
    """``piece`` without the sheet name that ends its heading path when its rows open with that name.

    A spreadsheet's sheet name heads its tables (the heading path's first entries, without
    heading items); a sheet named after the row its piece opens with (the name the
    record's whole label, before ``: `` or its corner's `` (``) (``Raster in emf`` over the
    record ``Raster in emf (Name): Objective = ...``, ``xlsx__xlsx_emf``) would be written
    twice in ``contextualize()``: it is written once, in the text, as a content heading is
    (:func:`~docchunk.chunkers.doc.content_headings.heading_once`).
    """
    headings = piece.headings or []
    if not headings or piece.heading_items or not piece.text.startswith(headings[-1]):
        return piece
    if not piece.text[len(headings[-1]) :].startswith((": ", " (")):  # the name is not the whole label
        return piece
    return replace(piece, headings=headings[:-1] or None)


def _whole_rows(run: HybridRun, base: Piece, rows: TableRows, pieces: list[Piece]) -> list[Piece]:
    """``pieces``, where a row split only because of its heading path is one piece under a shorter path.

    A row whose record fits ``run.max`` with its captions but not with the whole
    heading path (a wide row under a deep path) would be cut between entries; when
    the path costs more than half of ``run.max``, it is one piece instead, under the
    innermost headings that leave it room (the outer ones dropped first, all of them
    if need be, and named in ``headings_dropped``). A path within half the budget
    gives up only its outer headings: the row is one piece under the innermost
    heading(s) when it fits with them (issue 46: ``docx_fin_statement`` at MiniLM 64,
    a record of both periods, 45 tokens, under a two-heading path of 18, was cut
    between its periods, 13 rows), else the path is kept and the row cut between entries
    (issue 45: the row keeps its heading path when the path fits), unless the cut falls
    inside a value a few tokens over (:func:`_value_cut_near_budget`), which may then
    give up every heading. Its text and ``table_rows`` are
    those of the pieces it replaces (the row's pieces share one range): in Markdown the
    header lines, which each of them repeated, and the row; it holds the whole row, so no
    ``table_cols``. A Markdown header piece of its own (it shares the first row's range
    but lists no columns) is no part of a split row and stays.
    """
    headings = list(pieces[0].headings or ()) if pieces else []
    if not headings:
        return pieces
    expensive = run.headings_cost(headings) > run.path_limit  # else the path stays (a row a few tokens over aside)
    texts = {row.index: row.text for row in rows.rows if row.cells}
    written: dict[int, bool] = {}  # headings dropped -> whether other content carries them
    out: list[Piece] = []
    i = 0
    while i < len(pieces):
        j = i
        while j + 1 < len(pieces) and pieces[j + 1].table_rows == pieces[i].table_rows:
            j += 1
        first = pieces[i]
        span = first.table_rows or (0, 0)
        own = [texts[k] for k in range(*span) if k in texts]
        # a row split between entries: every piece lists its columns (a Markdown header piece,
        # which shares the first row's range, lists none and is no part of the row)
        split = j > i and all(p.table_cols is not None for p in pieces[i : j + 1])
        # the whole row, after the Markdown header lines (or the table-wide notes) each of its pieces repeated
        opening = next((o for o in (rows.head, rows.notes) if o and first.text.startswith(o + ROW_SEP)), "")
        text = (opening + ROW_SEP + own[0] if opening else own[0]) if own else ""
        whole = None
        if split and len(own) == 1:  # an expensive path may go whole; a cheap one keeps its innermost heading
            whole_path = expensive or _value_cut_near_budget(run, pieces[i : j + 1], text)
            whole = shorter_path(run, first, text, headings, keep=0 if whole_path else 1)
            if whole is not None and not whole_path:  # ... when what it gives up is written elsewhere
                n = len(headings) - len(whole.headings or ())
                if n not in written:
                    written[n] = dropped_path_written(run, first, n)
                whole = whole if written[n] else None
        out.extend([whole] if whole is not None else pieces[i : j + 1])
        i = j + 1
    return out


def _value_cut_near_budget(run: HybridRun, row_pieces: list[Piece], text: str) -> bool:
    """Whether a row's pieces cut one of its values by text, and the whole row is a few tokens over with its path.

    Two pieces listing the same columns hold parts of one value: the value is cut
    mid-text and the row's label written again before its end, for the few tokens
    (:func:`near_budget`) the heading path adds (``docx_rich_cells`` at MiniLM 64: a
    long list as the label of a long formatted value, 58 + 43 tokens for a row of 63
    without the path). Such a row is better whole under a shorter path.
    """
    cols = [p.table_cols for p in row_pieces]
    return len(set(cols)) < len(cols) and near_budget(run, replace(row_pieces[0], text=text, text_tokens=None))


def _caption_cuts_rows(run: HybridRun, base: Piece, rows: TableRows) -> bool:
    """Whether the caption (with the description) leaves too little room for a row that fits without it.

    Then the caption is better a piece of its own before the table: every row that
    fits with the headings alone stays whole, rather than the caption being
    repeated with pieces of cut rows.
    """
    if not base.captions:
        return False
    full = [row.text for row in rows.rows if row.cells]
    if not full:
        return False
    # a row cut anyway needs room for its label with the start of its first value, else the
    # label stands alone and the value is cut into characters (issue 45)
    starts = [row.lead + row.cells[0][0] + row.cells[0][1][:1] for row in rows.rows if row.cells and row.lead]
    longest, first = max(run.sizer.count_batch(full)), max(run.sizer.count_batch(starts), default=0)
    if rows.head:
        longest += run.sizer.count(rows.head + "\n")
        first += run.sizer.count(rows.head + "\n")
    with_caption = run.ctx_count(replace(base, text="", text_tokens=0))
    headings_only = replace(base, captions=None, text="", text_tokens=0)
    without = run.ctx_count(headings_only) if base.headings else 0
    return any(run.max - with_caption < need <= run.max - without for need in (longest, first))


def _fit(run: HybridRun, base: Piece, rows: TableRows) -> list[Piece] | None:
    """Row pieces with ``base``'s headings and captions within ``run.max``; None when they leave no room."""
    overhead = run.ctx_count(replace(base, text="", text_tokens=0)) if base.headings or base.captions else 0
    available = run.max - overhead
    while available >= 1:
        parts = table_pieces(rows, available, run.sizer)
        out = [
            replace(
                base, text=p.text, text_tokens=p.tokens, table_rows=p.rows, table_cols=p.cols,
                table_context_dropped=p.dropped or None,
            )
            for p in parts
        ]  # fmt: skip
        overflow = max(
            (run.ctx_count(o) - run.max for o, p in zip(out, parts, strict=True) if not p.oversized), default=0
        )
        if overflow <= 0:
            return out
        available -= overflow
    return None


def joined_cols(a: Piece, b: Piece) -> tuple[tuple[int, int, int], ...] | None:
    """``table_cols`` of ``a`` and ``b`` merged into one piece (``a`` first): None unless one holds part of a row.

    A piece with ``table_cols`` lists every row it holds; of the other, each row of
    its ``table_rows`` is listed whole (all ``num_cols`` columns of the table),
    but for a row the other one lists: that row is split, and a piece without
    ``table_cols`` in its range holds none of its cells (a part of a Markdown
    table's head cut to the budget). The columns of a row both hold are joined
    (see :func:`col_ranges`).
    """
    if a.table_cols is None and b.table_cols is None:
        return None
    split = {row for piece in (a, b) for row, _, _ in piece.table_cols or ()}
    cols: dict[int, set[int]] = {}
    for piece in (a, b):
        if piece.table_cols is not None:
            for row, start, end in piece.table_cols:
                cols.setdefault(row, set()).update(range(start, end))
        elif piece.table_rows is not None:
            table = next(it for it in piece.items if isinstance(it, TableItem))
            for row in range(*piece.table_rows):
                if row not in split:
                    cols.setdefault(row, set()).update(range(table.data.num_cols))
    return tuple(r for row in sorted(cols) for r in col_ranges(row, cols[row]))
