"""The default mode's merging passes: peers (with and between tables), then pieces under ``min_tokens``.

They run last in :func:`docchunk.chunkers.doc.structure.structured_pieces`'s pipeline:
:func:`merge_between_tables` (``HybridRun.merge`` over the text between tables),
:func:`merge_with_tables` (a table piece takes the text next to it), both with
``merge_peers``; then :func:`merge_small` with ``min_tokens``. :func:`~docchunk.chunkers.doc.joining.join_pieces`
joins two pieces for both.
"""

from __future__ import annotations

from collections import Counter
from itertools import groupby
from typing import TYPE_CHECKING

from docling_core.types.doc import TableItem, TextItem

from docchunk.chunkers.doc.content_headings import heading_once
from docchunk.chunkers.doc.joining import common_length, join_pieces, table_ref
from docchunk.chunkers.doc.lead_in import is_paragraph, is_trailing_note
from docchunk.chunkers.doc.piece import Piece, pages_of, replace
from docchunk.chunkers.doc.provenance import anchors_of
from docchunk.chunkers.doc.table_recut import recut_table, whole_rows_of
from docchunk.chunkers.doc.tables.pieces import only_captions_of

if TYPE_CHECKING:
    from docchunk.chunkers.doc.hybrid_run import HybridRun

__all__ = ["lead_in_of_next", "merge_between_tables", "merge_small", "merge_with_tables"]


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
            before = i > 0 and not (_opens_with_lead_in(out[i]) and _after_table(out, i - 1))
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
    if nxt.table_rows is None or nxt.headings != piece.headings or _opens_with_lead_in(nxt):
        return False
    return not _ends_with_trailing_note(piece)


def _ends_with_trailing_note(piece: Piece) -> bool:
    """Whether ``piece``'s last item is a paragraph that reads as the earlier table's note (``Source: survey A.``)."""
    last = piece.items[-1]
    return isinstance(last, TextItem) and is_trailing_note(last.text)


def _after_table(pieces: list[Piece], i: int) -> bool:
    """Whether the text piece ``pieces[i]`` directly follows a table piece of the same headings.

    Such text is what the earlier table leaves (``Values are the mean of five
    specimens.``): when the next table's piece opens with its own lead-in, the text
    never joins it, where it would stand before that lead-in (issue 46 finding 22).
    """
    if pieces[i].table_rows is not None or any(isinstance(it, TableItem) for it in pieces[i].items):
        return False  # a piece holding a table (two merged already) is no text the table before left
    return i > 0 and pieces[i - 1].table_rows is not None and pieces[i - 1].headings == pieces[i].headings


def _opens_with_lead_in(table_piece: Piece) -> bool:
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
    (or would join part of a table with another table, or would put a table's
    lead-in, :func:`lead_in_of_next`, at the end of another table's piece).

    A piece that fits with no neighbour (each merge would exceed ``max_tokens``) takes
    text from one instead (:func:`_rebalance`): the two are joined and cut again at a
    sentence end into two pieces of at least ``low`` tokens each; when no such cut
    exists, the piece and two neighbours into three (or two). Issue 45 measured the
    share of chunks under ``min_tokens=64`` at cl100k 128 on the corpus and converted
    documents (docs/quality.md): most of those left were such pieces.
    """
    ps = list(pieces)
    sizes = [run.ctx_count(p) for p in ps]
    tables = Counter(table_ref(p) for p in ps if p.table_rows is not None)
    whole = {ref for ref, n in tables.items() if n == 1}  # tables held whole by one piece
    i = 0
    while i < len(ps):
        if sizes[i] >= low or ps[i].heading_only:
            i += 1
            continue
        best = _best_neighbour(run, ps, i, whole)
        if best is None:
            if not _rebalance(run, ps, sizes, i, low) and _recut_near_table(run, ps, sizes, i, low):
                tables = Counter(table_ref(p) for p in ps if p.table_rows is not None)
                whole = {ref for ref, n in tables.items() if n == 1}
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


def _rebalance(run: HybridRun, ps: list[Piece], sizes: list[int], i: int, low: int) -> bool:
    """Cut ``ps[i]`` (under ``low`` tokens) and its neighbours again into pieces of ``low`` to ``max`` tokens.

    Only text pieces of the same headings (and pages, with ``merge_across_pages=False``)
    are cut again; tables, code and heading-only pieces stay as they are. First with one
    neighbour (the one before, then the one after): the joined text is cut by the mode's
    text split with a budget between half of it and what leaves ``low`` tokens to the
    second part, and a cut is taken when it gives exactly two pieces within
    ``[low, max_tokens]``. When neither gives one (the sentence ends of two pieces allow no
    such cut: a closing sentence after a full paragraph), the same with the piece and two
    neighbours, cut into three pieces, or two, each within ``[low, max_tokens]``. Each
    piece keeps the items its text holds. ``ps`` and ``sizes`` change in place; nothing
    changes when no cut fits (then it returns False).
    """
    for lo, hi in ((i - 1, i), (i, i + 1), (i - 2, i), (i - 1, i + 1), (i, i + 2)):
        if lo < 0 or hi >= len(ps) or not all(_may_rebalance(run, ps[k], ps[k + 1]) for k in range(lo, hi)):
            continue
        merged = ps[lo]
        for k in range(lo + 1, hi + 1):
            merged = join_pieces(run, merged, ps[k])
        parts = _balanced_parts(run, merged, low, hi - lo + 1)
        if parts is not None:
            ps[lo : hi + 1] = [_own_items(p) for p in parts]
            sizes[lo : hi + 1] = [run.ctx_count(p) for p in parts]
            return True
    return False


_RECUT_REACH = 2
"""Pieces of a table each side that :func:`_recut_near_table` cuts again first (then all the table's pieces)."""


def _recut_near_table(run: HybridRun, ps: list[Piece], sizes: list[int], i: int, low: int) -> bool:
    """Cut the table pieces at or beside ``ps[i]`` (under ``low``) again so that no piece is under ``low``.

    The integrator's decision for issue 45: table pieces may be cut again to take a small
    neighbour. When ``ps[i]`` is a piece of whole rows of a split table, its table's
    pieces around it are packed again (:func:`~docchunk.chunkers.doc.table_recut.recut_table`).
    When it is text that may join a table piece beside it (:func:`_may_join_table`; a lead-in
    of the next table never joins the table before, a trailing note never the table after),
    it is joined to that piece and the table's pieces are packed again with it. ``ps`` and
    ``sizes`` change in place; returns whether they did.
    """
    tries: list[tuple[int, int, Piece | None]] = []  # (first, last) of the pieces replaced, the joined piece
    if whole_rows_of(ps[i]) is not None:
        for reach in (1, _RECUT_REACH, len(ps)):  # its neighbours first, then two pieces each side, then all
            lo, hi = _table_run(ps, i, i - reach, i + reach)
            if hi > lo and (lo, hi, None) not in tries:
                tries.append((lo, hi, None))
    for j in (i - 1, i + 1):
        if not 0 <= j < len(ps) or whole_rows_of(ps[j]) is None or not _may_join_table(run, ps[j], ps[i]):
            continue
        if (j < i and lead_in_of_next(ps, i)) or (j > i and _ends_with_trailing_note(ps[i])):
            continue
        both = join_pieces(run, ps[i], ps[j]) if j > i else join_pieces(run, ps[j], ps[i])
        for reach in (_RECUT_REACH, len(ps)):  # two more pieces of the table, then all
            lo, hi = _table_run(ps, j, j - reach * (j < i), j + reach * (j > i))
            if (min(lo, i), max(hi, i), both) not in tries:
                tries.append((min(lo, i), max(hi, i), both))
    for lo, hi, joined in tries:
        window = list(ps[lo : hi + 1])
        if joined is not None:  # the small piece and its table piece, one piece
            k = 0 if lo == i else len(window) - 2
            window[k : k + 2] = [joined]
        table_piece = ps[i + 1] if joined is not None and lo == i else ps[lo]
        later = next((p.captions for p in ps[lo + 1 : hi + 1] if whole_rows_of(p) is not None), table_piece.captions)
        cut = recut_table(run, window, low, later)
        if cut is not None:
            ps[lo : hi + 1] = cut
            sizes[lo : hi + 1] = [run.ctx_count(p) for p in cut]
            return True
    return False


def _table_run(ps: list[Piece], i: int, first: int, last: int) -> tuple[int, int]:
    """The range of pieces of whole rows of ``ps[i]``'s table around ``i``, within ``first`` to ``last``."""
    table = whole_rows_of(ps[i])
    lo = hi = i
    while lo - 1 >= max(first, 0) and whole_rows_of(ps[lo - 1]) is table:
        lo -= 1
    while hi + 1 <= min(last, len(ps) - 1) and whole_rows_of(ps[hi + 1]) is table:
        hi += 1
    return lo, hi


def _may_rebalance(run: HybridRun, a: Piece, b: Piece) -> bool:
    plain = all(p.table_rows is None and p.code_chunks is None and not p.heading_only for p in (a, b))
    return plain and a.headings == b.headings and (run.settings.merge_across_pages or pages_of(a) == pages_of(b))


_SPREAD = 6
"""Budgets tried between a third of three pieces' text and a whole piece's room, to cut them again."""


def _balanced_parts(run: HybridRun, merged: Piece, low: int, pieces: int = 2) -> list[Piece] | None:
    """``merged`` (``pieces`` pieces joined) cut at sentence ends into parts of ``low`` to ``max`` tokens, or None.

    Two pieces give two parts; three give three, or two.
    """
    text_tokens = run.text_count(merged)
    overhead = run.ctx_count(merged) - text_tokens
    room = run.max - overhead  # what the text of one part may hold
    share = -(-text_tokens // pieces)
    if pieces == 2:
        budgets = {share, (share + room) // 2, text_tokens - (low - overhead)}
    else:
        budgets = {share + (room - share) * k // _SPREAD for k in range(_SPREAD + 1)}
    for available in sorted(budgets):
        if not share <= available <= room:
            continue
        parts = run.split_text_at(merged, available)
        fits = 2 <= len(parts) <= pieces and all(low <= run.ctx_count(p) <= run.max for p in parts)
        if fits and len(parts) >= pieces - 1:
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
    rows, ref = merged.table_rows, table_ref(merged)
    if rows is None or all(r in (None, rows) for r in joined):
        return
    for k, piece in enumerate(ps):
        if piece.table_rows in joined and piece.table_rows != rows and table_ref(piece) == ref:
            ps[k] = replace(piece, table_rows=rows)


def _best_neighbour(run: HybridRun, ps: list[Piece], i: int, whole: set[str | None]) -> tuple[int, Piece, int] | None:
    found: dict[bool, tuple[int, Piece, int]] = {}
    for j in (i - 1, i + 1):
        if not 0 <= j < len(ps) or not _may_join(run, ps[i], ps[j], whole):
            continue
        lo, hi = sorted((i, j))
        if ps[hi].from_headings:
            continue  # headings written as text open what follows them: never the end of the piece before
        if ps[lo].table_rows is not None and lead_in_of_next(ps, hi):
            continue  # a table's lead-in never ends the piece of the table before it
        if ps[hi].table_rows is not None and _opens_with_lead_in(ps[hi]) and _after_table(ps, lo):
            continue  # nor does what an earlier table leaves (its caption below) stand before that lead-in
        merged = join_pieces(run, ps[lo], ps[hi])
        size = run.ctx_count(merged)
        if size > run.max:
            continue
        same = ps[i].headings == ps[j].headings
        if same not in found or size < found[same][2]:
            found[same] = (j, merged, size)
    return found.get(True) or found.get(False)


def _may_join(run: HybridRun, a: Piece, b: Piece, whole: set[str | None]) -> bool:
    if b.heading_only or _nesting_apart(a, b):
        return False
    if a.table_rows is not None and b.table_rows is not None and table_ref(a) != table_ref(b):
        # rows of two tables only when both are whole (the merged piece has no table_rows)
        if table_ref(a) not in whole or table_ref(b) not in whole:
            return False
    return run.settings.merge_across_pages or pages_of(a) == pages_of(b)


def _nesting_apart(a: Piece, b: Piece) -> bool:
    """Whether joining ``a`` and ``b`` would write a list window's parent items into the text (``item_path``).

    Windows of a nested list are written relative to their first item, under their
    parent items in ``headings``; joined with a piece of another path, their lines would
    lose their nesting and the parent path (perhaps shortened to its first words and
    ``…``) would become text (tester's findings 6 and 8 of issue 45).
    """
    ha, hb = a.headings or [], b.headings or []
    common = common_length(ha, hb)
    return any(p.item_path and common < len(h) for h, p in ((ha, a), (hb, b)))
