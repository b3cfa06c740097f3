"""A table split only for a few tokens of its heading path, made one piece again (default mode).

:func:`rejoin_near_budget` runs after the lead-ins are attached (see
:mod:`docchunk.chunkers.doc.structure`); the rule for a row split only by its path is in
:mod:`docchunk.chunkers.doc.tables.pieces` (``_whole_rows``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docchunk.chunkers.doc.piece import Piece, replace
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
    room (the outer ones dropped first, named in ``headings_dropped``), as a row split
    only because of its path is (in :func:`~docchunk.chunkers.doc.tables.pieces.split_table`);
    the captions stay, they name the table. Runs after the lead-ins are attached: a table whose first piece took its
    lead-in paragraph keeps its pieces and its path (issue 46). A heading a cheap path gives up must reach another
    chunk (:func:`~docchunk.chunkers.doc.tables.paths.dropped_path_written`: content between it and the table); else
    the pieces stay, each under the whole path (round-3 tester's ``html_form_checkboxes``: ``Exterior``, over a table
    alone, was in no chunk).

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
        out.extend([whole] if whole is not None else group)
        i = j
    return out


def _same_table_pieces(a: Piece, b: Piece) -> bool:
    """Whether ``b`` goes on with ``a``'s table: whole rows, the same items, headings and captions."""
    if a.table_rows is None or b.table_rows is None or a.table_cols is not None or b.table_cols is not None:
        return False
    same_items = len(a.items) == len(b.items) and all(x is y for x, y in zip(a.items, b.items, strict=True))
    return same_items and a.headings == b.headings and a.captions == b.captions and a.table_rows[1] == b.table_rows[0]


def _rejoined(run: HybridRun, group: list[Piece]) -> Piece | None:
    """The pieces of one whole table in ``group`` as one piece under a shorter path, or None (see above)."""
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
    # a cheap path gives up only headings other content carries; an expensive one, or one fit_headings
    # already shortened, is written as text before the section (heading_paths.fit_headings), as a row
    # split only by its path does (tables.pieces._whole_rows)
    dropped = len(headings) - len(short.headings or ())
    cheap = not group[0].headings_dropped and run.headings_cost(headings) <= run.path_limit
    if cheap and dropped > len(headings) - len(group[0].heading_items or ()) and not dropped_path_written(
        run, group[0], dropped
    ):
        return None  # a heading it would give up reaches no other chunk (a section holding only this table)
    return sheet_name_once(short)
