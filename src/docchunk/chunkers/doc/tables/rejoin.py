"""A table split only for a few tokens of its heading path, made one piece again (default mode).

:func:`rejoin_near_budget` runs after the lead-ins are attached (see
:mod:`docchunk.chunkers.doc.structure`); the rule for a row split only by its path is in
:mod:`docchunk.chunkers.doc.tables.pieces` (``_whole_rows``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from docchunk.chunkers.doc.piece import Piece
from docchunk.chunkers.doc.tables.paths import dropped_path_written, shorter_path
from docchunk.chunkers.doc.tables.pieces import near_budget, sheet_name_once, table_rows_of

if TYPE_CHECKING:
    from docchunk.chunkers.doc.hybrid_run import HybridRun

__all__ = ["rejoin_near_budget"]


def rejoin_near_budget(run: HybridRun, pieces: list[Piece]) -> list[Piece]:
    """``pieces`` with each table split only for a few tokens of its heading path made one piece again.

    A table whose rows, captions and whole heading path exceed ``run.max`` by at most
    an eighth of it (:func:`~docchunk.chunkers.doc.tables.pieces.near_budget`) is split in two, each piece repeating the
    path and the captions, for a handful of tokens (``xlsx_05_table_with_title`` at
    MiniLM 64: one token over, two pieces of 45 and 28 tokens against compat's one of
    50). Its pieces are one piece instead under the innermost headings that leave it
    room (the outer ones dropped first, named in ``headings_dropped``; those that no
    other chunk writes go before it as text: :func:`_lost_headings`), as a row split
    only because of its path is (in :func:`~docchunk.chunkers.doc.tables.pieces.split_table`);
    the captions stay, they name the table. Runs after the lead-ins are attached: a table whose first piece took its
    lead-in paragraph keeps its pieces and its path (issue 46).

    Returns:
        The pieces in document order; only whole-row pieces that hold all of one table's
        rows, under the same headings and captions, with no other item, are joined.
    """
    out: list[Piece] = []
    i = 0
    while i < len(pieces):
        j = i + 1
        while j < len(pieces) and _same_table_pieces(pieces[i], pieces[j]):
            j += 1
        group = pieces[i:j]
        whole = _rejoined(run, group) if len(group) > 1 else None
        out.extend(whole or group)
        i = j
    return out


def _same_table_pieces(a: Piece, b: Piece) -> bool:
    """Whether ``b`` goes on with ``a``'s table: whole rows, the same items, headings and captions."""
    if a.table_rows is None or b.table_rows is None or a.table_cols is not None or b.table_cols is not None:
        return False
    same_items = len(a.items) == len(b.items) and all(x is y for x, y in zip(a.items, b.items, strict=True))
    return same_items and a.headings == b.headings and a.captions == b.captions and a.table_rows[1] == b.table_rows[0]


def _rejoined(run: HybridRun, group: list[Piece]) -> list[Piece] | None:
    """The pieces of one whole table in ``group`` as one piece under a shorter path, or None (see above).

    The piece is preceded by the dropped headings no other chunk writes (:func:`_lost_headings`).
    """
    rows = table_rows_of(run, group[0])
    first, last = group[0].table_rows, group[-1].table_rows
    headings = group[0].headings or []
    if rows is None or first is None or last is None or (first[0], last[1]) != (rows.start, rows.end) or not headings:
        return None
    whole = replace(group[0], text=rows.text, text_tokens=None, table_rows=(rows.start, rows.end),
                    table_context_dropped=None)  # fmt: skip
    if run.ctx_count(whole) <= run.max or not near_budget(run, whole):
        return None
    short = shorter_path(run, whole, rows.text, headings)
    if short is None:
        return None
    return [*_lost_headings(run, whole, len(headings) - len(short.headings or ())), sheet_name_once(short)]


def _lost_headings(run: HybridRun, piece: Piece, n: int) -> list[Piece]:
    """The first ``n`` headings of ``piece``'s path that no other chunk writes, as a piece of text (or none).

    A dropped heading whose section holds other content before the table is in that
    content's path (:func:`~docchunk.chunkers.doc.tables.paths.dropped_path_written`);
    the inner ones, whose section holds only the table, are written once as text before
    it, under the outer ones that are written elsewhere (concepts.md), as
    :func:`~docchunk.chunkers.doc.heading_paths.fit_headings` writes a path too long.
    (The round-3 tester's finding 14: ``html_glossary_nested``, ``table_format="triplets"``
    at MiniLM 64, a section ``Tables in tables`` holding one table: the rejoined table
    dropped the whole path and ``Tables in tables`` reached no chunk.)
    """
    headings = piece.headings or []
    items = piece.heading_items or []
    sheets = len(headings) - len(items)  # sheet names come first and have no item
    # a sheet name heads every chunk of its sheet's tables before this one: never written here
    written = max(sheets, next((k for k in range(n, 0, -1) if dropped_path_written(run, piece, k)), 0))
    if written >= n:
        return []
    own = [items[k - sheets] for k in range(written, n)]
    outer = items[: max(0, written - sheets)] or None
    text = "\n".join(headings[written:n])
    return [Piece(text=text, items=own, headings=headings[:written] or None, heading_items=outer,
                  origin=piece.origin, from_headings=True)]  # fmt: skip
