"""The default mode's minimum-size pass: pieces under ``min_tokens`` merged with a neighbour, or cut again.

It runs last in :func:`docchunk.chunkers.doc.structure.structured_pieces`'s pipeline,
after the peer merging (:mod:`docchunk.chunkers.doc.merging`), when ``min_tokens`` is
set: :func:`merge_small` merges each small piece with a neighbour while the result fits
``max_tokens``; where no merge fits, it takes text from a neighbour (the pieces joined
and cut again at sentence ends) or packs the pieces of a table beside it again
(:func:`~docchunk.chunkers.doc.table_recut.recut_table`).
:func:`~docchunk.chunkers.doc.joining.join_pieces` joins two pieces. The rules of what
may stand next to a table (a table's lead-in, what an earlier table leaves, which text
may join a table piece) are the peer merging's, read from
:mod:`~docchunk.chunkers.doc.merging`.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from docchunk.chunkers.doc.joining import common_length, join_pieces, table_ref
from docchunk.chunkers.doc.merging import (
    after_table,
    ends_with_trailing_note,
    lead_in_of_next,
    may_join_table,
    opens_with_lead_in,
)
from docchunk.chunkers.doc.piece import Piece, pages_of, replace
from docchunk.chunkers.doc.provenance import anchors_of
from docchunk.chunkers.doc.table_recut import recut_table, whole_rows_of

if TYPE_CHECKING:
    from docchunk.chunkers.doc.hybrid_run import HybridRun

__all__ = ["merge_small"]


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
    When it is text that may join a table piece beside it (:func:`may_join_table`; a lead-in
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
        if not 0 <= j < len(ps) or whole_rows_of(ps[j]) is None or not may_join_table(run, ps[j], ps[i]):
            continue
        if (j < i and lead_in_of_next(ps, i)) or (j > i and ends_with_trailing_note(ps[i])):
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
        if ps[hi].table_rows is not None and opens_with_lead_in(ps[hi]) and after_table(ps, lo):
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
