"""The default (structure-faithful) passes of the hybrid chunker.

With ``docling_compat=False`` the hybrid chunker runs these passes instead of
docling-core's; each pass is a function of the chunker's run state
(:class:`~docchunk.chunkers.doc.hybrid_run.HybridRun`: cached counts, serializer,
settings) and a list of pieces, so that they can be tested and changed one by one.
``docs/compat.md`` lists what each one changes.

Order: walk (:func:`structured_walk`) -> fit the heading paths -> split at page
changes (``merge_across_pages=False``) -> split at element boundaries -> tables by
rows (lists by items, nesting kept) -> split text at sentence ends -> lead-ins into
their tables -> merge peers (per page) -> merge pieces under
``min_tokens``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from itertools import groupby
from typing import TYPE_CHECKING, Any, cast

from docling_core.types.doc import DocItem, DoclingDocument, TableItem, TextItem

from docchunk.chunkers.doc.code_items import chunk_code_piece
from docchunk.chunkers.doc.heading_walk import heading_once, structured_walk
from docchunk.chunkers.doc.lead_in import attach_lead_ins
from docchunk.chunkers.doc.list_split import split_list_piece
from docchunk.chunkers.doc.piece import Piece
from docchunk.chunkers.doc.provenance import align, anchors_of, join_anchors
from docchunk.chunkers.doc.tables.balance import balance_tables
from docchunk.chunkers.doc.tables.pieces import by_rows, joined_cols, split_table, table_of
from docchunk.chunkers.doc.tables.user_lines import split_user_table
from docchunk.serialization.inline import one_inline_run

if TYPE_CHECKING:
    from docchunk.chunkers.doc.hybrid_run import HybridRun

__all__ = ["fit_headings", "merge_small", "pages_of", "split_table_piece", "structured_pieces"]


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
    """Split (pages, tables, text) and merge (peers, ``min_tokens``) the pieces of a run of text."""
    settings = run.settings
    if not settings.merge_across_pages:
        pieces = [s for p in pieces for s in split_at_pages(run, p)]
    # the element texts of the pieces split at element boundaries, counted in one batch (with
    # the token offsets of long ones: a long element is then split at sentences without tokenizing it again)
    elements = [run.item_text(it) for p in pieces if _split_by_items(run, p) for it in p.items]
    run.sizer.count_batch_keeping_offsets(elements, run.max // 4)
    pieces = [s for p in pieces for s in split_table_piece(run, p)]
    # the texts to size, all counted in one batch (the tokenizer spreads it over the cores); the
    # token offsets of long ones are kept, so that their sentences are sized without tokenizing again
    texts = [p.text for p in pieces if p.table_rows is None and p.text_tokens is None]
    run.sizer.count_batch_keeping_offsets(texts, run.max // 4)
    pieces = [s for p in pieces for s in ([p] if p.table_rows is not None else run.split_text(p, structured=True))]
    run.sizer.drop_offsets()
    pieces = attach_lead_ins(run, pieces)
    if settings.balance_tables:
        pieces = balance_tables(run, pieces)
    if settings.merge_peers:
        pieces = merge_with_tables(run, merge_between_tables(run, pieces))
    if settings.min_tokens:
        pieces = merge_small(run, pieces, settings.min_tokens)
    return pieces


def merge_between_tables(run: HybridRun, pieces: list[Piece]) -> list[Piece]:
    """``run.merge`` over the runs of pieces between table pieces; table pieces stay as they are.

    A table piece holds whole rows with its caption in ``captions`` and its rows in
    ``table_rows``; merging it with text would lose both. With
    ``merge_across_pages=False`` the runs are also cut where the pages change.
    """
    out: list[Piece] = []
    pending: list[Piece] = []
    for piece in pieces:
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
    piece joins at most one table piece; two table pieces never join here; with
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
            if i > 0 and (merged := _joined_if_fits(run, out[i - 1], out[i], out[i - 1])) is not None:
                out[i - 1 : i + 1] = [merged]
                i -= 1
            if i + 1 < len(out) and (merged := _joined_if_fits(run, out[i], out[i + 1], out[i + 1])) is not None:
                out[i : i + 2] = [merged]
        i += 1
    return out


def _joined_if_fits(run: HybridRun, a: Piece, b: Piece, text_piece: Piece) -> Piece | None:
    """``join_pieces(a, b)`` when ``text_piece`` (one of them) may join the other, a table piece, and it fits."""
    table_piece = b if text_piece is a else a
    if not _may_join_table(run, table_piece, text_piece):
        return None
    merged = join_pieces(run, a, b)
    if merged.text == a.text + run.delim + b.text:  # sized from the parts' counts, without tokenizing it again
        counts = run.text_counts([a, b])
        merged.text_tokens = run.sizer.join_count([a.text, b.text], counts, run.delim)
    return merged if run.ctx_count(merged) <= run.max else None


def _may_join_table(run: HybridRun, table_piece: Piece, other: Piece) -> bool:
    """Whether the text piece ``other`` may join the table piece ``table_piece`` (see :func:`merge_with_tables`)."""
    if other.table_rows is not None or other.heading_only or other.code_chunks is not None or not other.items:
        return False
    if other.headings != table_piece.headings:
        return False
    return run.settings.merge_across_pages or pages_of(other) == pages_of(table_piece)


def _merge_run(run: HybridRun, pieces: list[Piece]) -> list[Piece]:
    if not pieces:
        return []
    if run.settings.merge_across_pages:
        return run.merge(pieces)
    return [m for _, same in groupby(pieces, key=pages_of) for m in run.merge(list(same))]


# -- headings ------------------------------------------------------------------
def fit_headings(run: HybridRun, pieces: Iterable[Piece]) -> list[Piece]:
    """Shorten heading paths that take more than half of ``max_tokens``.

    Such a piece keeps, as its headings, the innermost headings whose
    contextualized size is at most half the budget (maybe none; the others are in
    its ``headings_dropped``); the headings of
    the path not emitted yet are emitted once, before the first such piece, as a
    piece of its own whose text is those headings, one per line (split later like
    any text when it is too long). A heading is one heading item: two sections
    whose headings read the same each have theirs emitted (a sheet name, which has
    no item, is emitted once).
    """
    limit = run.max // 2
    emitted: set[tuple[str, str | None]] = set()  # the headings emitted as text (see _heading_keys)
    out: list[Piece] = []
    pieces = list(pieces)
    # the texts the heading paths' costs are read from, each counted once, in one batch
    run.count_many(list({t: None for p in pieces if p.headings for t in run.heading_texts(p.headings)}))
    for piece in pieces:
        if (kept := _without_emitted(piece, emitted)) is None:
            continue
        piece = kept
        headings = piece.headings
        if not headings or run.headings_cost(headings) <= limit:
            out.append(piece)
            continue
        keys = _heading_keys(piece)
        new = next((i for i, key in enumerate(keys) if key not in emitted), len(keys))
        if new < len(headings):  # the headings not yet emitted as text, once
            emitted.update(keys)
            emitted.update((text, None) for text, _ in keys)
            items = _items_of(piece, new)
            out.append(Piece(text="\n".join(h for h in headings[new:] if h) or headings[-1], items=list(items),
                             headings=run.fitting_headings(headings[:new], limit), origin=piece.origin,
                             from_headings=True))  # fmt: skip
        if (kept := _without_emitted(piece, emitted)) is not None:  # a content heading's piece: its path went out
            fitting = run.fitting_headings(headings, limit) or []
            dropped = list(headings[: len(headings) - len(fitting)]) or None
            out.append(replace(kept, headings=fitting or None, headings_dropped=dropped))
    return out


def _without_emitted(piece: Piece, emitted: set[tuple[str, str | None]]) -> Piece | None:
    """A piece of headings as text (``from_headings``) without the heading items already emitted as text.

    None when none is left. Any other piece is returned as it is. A heading item
    is emitted once: a piece of the headings that never got content
    (:mod:`~docchunk.chunkers.doc.heading_walk`) or of content headings does not
    write again one that :func:`fit_headings` emitted for a path too long.
    """
    if not piece.from_headings or not emitted:
        return piece
    left = [it for it in piece.items if (getattr(it, "text", None), it.self_ref) not in emitted]
    if not left:
        return None
    if len(left) < len(piece.items):
        return replace(piece, text="\n".join(_heading_text(it) for it in left), items=left, text_tokens=None)
    return piece


def _heading_keys(piece: Piece) -> tuple[tuple[str, str | None], ...]:
    """Each heading of ``piece`` with the reference of its heading item, or None where it is not known.

    Two sections whose headings read the same are still two paths: the second one's
    headings must be emitted too. A sheet name has no item, and some pieces do not
    carry their heading items: those headings are known by their text alone
    (:func:`fit_headings` records every emitted heading under its text as well).
    """
    headings = piece.headings or []
    items = piece.heading_items or (piece.items if piece.heading_only else [])  # a heading-only piece: its path
    sheets = len(headings) - len(items)  # sheet names come first and have no item
    return tuple(
        (text, items[i - sheets].self_ref if 0 <= i - sheets < len(items) else None)
        for i, text in enumerate(headings)
    )


def _items_of(piece: Piece, start: int) -> list[Any]:
    """The heading items of ``piece.headings[start:]`` that have text (sheet names, which have none, come first).

    These are the items of the piece :func:`fit_headings` emits for those headings,
    whose text is their texts, one per line: :func:`split_at_pages` then cuts it
    where their pages change. Only when the headings are sheet names alone (no
    heading item) is it the piece's first item.
    """
    items = piece.heading_items or (piece.items if piece.heading_only else [])
    sheets = len(piece.headings or []) - len(items)
    own = items[max(0, start - sheets) :]
    return [it for it in own if _heading_text(it)] or own or piece.items[:1]


def _heading_text(item: DocItem) -> str:
    """The text of an item of a ``from_headings`` piece: a heading (or title) item, a text item."""
    return cast(TextItem, item).text


# -- pages ---------------------------------------------------------------------
def pages_of(piece: Piece) -> frozenset[int]:
    """The page numbers of a piece's items' provenance (empty without provenance)."""
    return frozenset(p.page_no for it in piece.items for p in (getattr(it, "prov", None) or ()))


def split_at_pages(run: HybridRun, piece: Piece) -> list[Piece]:
    """A piece of several items (a list, headings as text) cut where its items' pages change.

    A table stays whole with its caption; so does a piece whose text is not its
    items' texts joined (a heading path that starts with a sheet name).
    """
    items = piece.items
    if len(items) <= 1 or piece.heading_only or any(isinstance(it, TableItem) for it in items):
        return [piece]
    groups = [list(g) for _, g in groupby(items, key=lambda it: pages_of(Piece("", [it], None)))]
    if len(groups) == 1:
        return [piece]
    if piece.from_headings:
        if piece.text != "\n".join(_heading_text(it) for it in items):
            return [piece]
        texts = ["\n".join(_heading_text(it) for it in group) for group in groups]
    else:
        return [p for p in (_joined_items(run, piece, group) for group in groups) if p.text.strip()]
    return [replace(piece, text=t, items=g, text_tokens=None) for t, g in zip(texts, groups, strict=True) if t.strip()]


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


# -- minimum size --------------------------------------------------------------
def merge_small(run: HybridRun, pieces: list[Piece], low: int) -> list[Piece]:
    """Merge each piece under ``low`` tokens with a neighbour while the result fits.

    A neighbour with the same headings is preferred, then one across a heading
    boundary (the merged piece's headings are the common path; the headings that
    differ go into the text, before the part they head). Of two candidates of the
    same kind the smaller result wins. With ``merge_across_pages=False`` only pieces
    of the same pages merge. Rows of two tables merge only when each table is whole
    in its piece (the merged piece then has ``table_rows=None``). Afterwards no piece
    is under ``low`` unless every merge with a neighbour would exceed ``max_tokens``
    (or would join part of a table with another table).

    A piece that fits with no neighbour (each merge would exceed ``max_tokens``) takes
    text from one instead (:func:`_rebalance`): the two are joined and cut again at a
    sentence end into two pieces of at least ``low`` tokens each. Issue 45 measured the
    share of chunks under ``min_tokens=64`` at cl100k 128 on the corpus and converted
    documents (docs/quality.md): most of those left were such pieces.
    """
    ps = list(pieces)
    sizes = [run.ctx_count(p) for p in ps]
    tables = Counter(_table_ref(p) for p in ps if p.table_rows is not None)
    whole = {ref for ref, n in tables.items() if n == 1}  # tables held whole by one piece
    i = 0
    while i < len(ps):
        if sizes[i] >= low or ps[i].heading_only:
            i += 1
            continue
        best = _best_neighbour(run, ps, i, whole)
        if best is None:
            _rebalance(run, ps, sizes, i, low)
            i += 1
            continue
        j, merged, size = best
        lo = min(i, j)
        joined = (ps[lo].table_rows, ps[lo + 1].table_rows)
        ps[lo : lo + 2] = [merged]
        sizes[lo : lo + 2] = [size]
        _widen_rows(ps, merged, joined)
        i = lo
    return ps


def _rebalance(run: HybridRun, ps: list[Piece], sizes: list[int], i: int, low: int) -> None:
    """Cut ``ps[i]`` (under ``low`` tokens) and a neighbour again into two pieces of ``low`` to ``max`` tokens.

    Only text pieces of the same headings (and pages, with ``merge_across_pages=False``)
    are cut again; tables, code and heading-only pieces stay as they are. The neighbour
    before is tried first, then the one after. The joined text is cut by the mode's
    text split with a budget between half of it and what leaves ``low`` tokens to the
    second part; a cut is taken when it gives exactly two pieces within
    ``[low, max_tokens]``. Each piece keeps the items its text holds. ``ps`` and
    ``sizes`` change in place (the same length); nothing changes when no cut fits.
    """
    for j in (i - 1, i + 1):
        if not 0 <= j < len(ps) or not _may_rebalance(run, ps[i], ps[j]):
            continue
        lo = min(i, j)
        merged = join_pieces(run, ps[lo], ps[lo + 1])
        parts = _balanced_parts(run, merged, low)
        if parts is not None:
            ps[lo : lo + 2] = [_own_items(p) for p in parts]
            sizes[lo : lo + 2] = [run.ctx_count(p) for p in ps[lo : lo + 2]]
            return


def _may_rebalance(run: HybridRun, a: Piece, b: Piece) -> bool:
    plain = all(p.table_rows is None and p.code_chunks is None and not p.heading_only for p in (a, b))
    return plain and a.headings == b.headings and (run.settings.merge_across_pages or pages_of(a) == pages_of(b))


def _balanced_parts(run: HybridRun, merged: Piece, low: int) -> list[Piece] | None:
    """Two parts of ``merged``, each of ``low`` to ``max`` tokens, cut at a sentence end; else None."""
    text_tokens = run.text_count(merged)
    overhead = run.ctx_count(merged) - text_tokens
    room = run.max - overhead  # what the text of one part may hold
    half = (text_tokens + 1) // 2
    for available in sorted({half, (half + room) // 2, text_tokens - (low - overhead)}):
        if not half <= available <= room:
            continue
        parts = run.split_text_at(merged, available)
        if len(parts) == 2 and all(low <= run.ctx_count(p) <= run.max for p in parts):
            return parts
    return None


def _own_items(piece: Piece) -> Piece:
    """``piece`` with the items whose text it holds (its anchors), in order; all of them when none is anchored."""
    refs = {ref for _, ref, _, _ in anchors_of(piece)}
    kept = [it for it in piece.items if it.self_ref in refs]
    return replace(piece, items=kept) if kept else piece


def _widen_rows(ps: list[Piece], merged: Piece, joined: tuple[tuple[int, int] | None, ...]) -> None:
    """Give ``merged``'s row range to the other pieces of its table that shared a joined range.

    The pieces of one split row share its range; when one of them is merged with the
    piece of the next rows, the merged piece holds both ranges, and its siblings
    must say so too, else the ranges overlap without being equal (``(0, 4), (0, 6)``).
    Afterwards each range of a table's pieces starts where the previous one ends,
    or equals it; together the pieces sharing a range hold its rows.
    """
    rows, ref = merged.table_rows, _table_ref(merged)
    if rows is None or all(r in (None, rows) for r in joined):
        return
    for k, piece in enumerate(ps):
        if piece.table_rows in joined and piece.table_rows != rows and _table_ref(piece) == ref:
            ps[k] = replace(piece, table_rows=rows)


def _best_neighbour(run: HybridRun, ps: list[Piece], i: int, whole: set[str | None]) -> tuple[int, Piece, int] | None:
    found: dict[bool, tuple[int, Piece, int]] = {}
    for j in (i - 1, i + 1):
        if not 0 <= j < len(ps) or not _may_join(run, ps[i], ps[j], whole):
            continue
        lo, hi = sorted((i, j))
        merged = join_pieces(run, ps[lo], ps[hi])
        size = run.ctx_count(merged)
        if size > run.max:
            continue
        same = ps[i].headings == ps[j].headings
        if same not in found or size < found[same][2]:
            found[same] = (j, merged, size)
    return found.get(True) or found.get(False)


def _may_join(run: HybridRun, a: Piece, b: Piece, whole: set[str | None]) -> bool:
    if b.heading_only:
        return False
    if a.table_rows is not None and b.table_rows is not None and _table_ref(a) != _table_ref(b):
        # rows of two tables only when both are whole (the merged piece has no table_rows)
        if _table_ref(a) not in whole or _table_ref(b) not in whole:
            return False
    return run.settings.merge_across_pages or pages_of(a) == pages_of(b)


def _table_ref(piece: Piece) -> str | None:
    return next((it.self_ref for it in piece.items if isinstance(it, TableItem)), None)


def join_pieces(run: HybridRun, a: Piece, b: Piece) -> Piece:
    """``a`` then ``b`` as one piece; headings not shared go into the text."""
    ha, hb = a.headings or [], b.headings or []
    common = 0
    while common < min(len(ha), len(hb)) and ha[common] == hb[common]:
        common += 1
    # b's caption stays in captions only when no text of a would stand between it and b's whole rows (issue 46):
    # else it is written in the text, directly before them (a piece of a split row keeps it in captions)
    own_a = bool(a.captions) or (bool(a.text) and b.table_cols is None)  # b's caption then goes in the text
    captions = a.captions if a.captions == b.captions or not b.captions else None if own_a else b.captions
    parts: list[tuple[str, Any]] = []
    for part, extra in ((a, ha[common:]), (b, _not_ending(a.text, hb[common:]))):
        own = [] if captions is not None or not part.captions else list(part.captions)
        parts += [(t, ()) for t in (*extra, *own)] + [(part.text, anchors_of(part))]
    parts = [(t, anchors) for t, anchors in parts if t]
    rows = _joined_rows(a, b)
    text = run.delim.join(t for t, _ in parts)
    return Piece(
        text=text,
        anchors=(text, join_anchors(parts, run.delim)),
        items=[*a.items, *[it for it in b.items if all(it is not seen for seen in a.items)]],
        headings=list(ha[:common]) or None,
        origin=b.origin,
        captions=captions,
        table_rows=rows,
        table_cols=joined_cols(a, b) if rows is not None else None,
        headings_dropped=a.headings_dropped or b.headings_dropped,
        table_context_dropped=a.table_context_dropped or b.table_context_dropped,
    )


def _not_ending(text: str, headings: list[str]) -> list[str]:
    """``headings`` without the leading ones that ``text`` already ends with (one per line)."""
    for k in range(len(headings), 0, -1):
        if text.endswith("\n".join(headings[:k])):
            return headings[k:]
    return headings


def _joined_rows(a: Piece, b: Piece) -> tuple[int, int] | None:
    if a.table_rows and b.table_rows:
        if _table_ref(a) != _table_ref(b):
            return None  # two whole tables
        return (min(a.table_rows[0], b.table_rows[0]), max(a.table_rows[1], b.table_rows[1]))
    return a.table_rows or b.table_rows
