"""A table piece under a shorter heading path (default mode): the outer headings dropped, named in meta.

Used by the row packing (:mod:`~docchunk.chunkers.doc.tables.pieces`: a row that fits
only without its outer headings), the rejoining of a table a few tokens over
(:mod:`~docchunk.chunkers.doc.tables.rejoin`) and the lead-ins (:mod:`~docchunk.chunkers.doc.lead_in`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docling_core.types.doc import TableItem

from docchunk.chunkers.doc.heading_paths import longest_fitting_path
from docchunk.chunkers.doc.piece import Piece, replace

if TYPE_CHECKING:
    from docchunk.chunkers.doc.hybrid_run import HybridRun

__all__ = ["dropped_path_written", "shorter_path", "under_path"]


def dropped_path_written(run: HybridRun, piece: Piece, n: int) -> bool:
    """Whether the first ``n`` headings of ``piece``'s path reach another chunk when its table drops them.

    True when a content item stands between the innermost of them and the table: its
    chunk has them all in its path (the tester's ``docx_fin_statement``: a paragraph
    introduces the table). A heading with no other content (a title over the table
    alone) would be lost: the row keeps its path, cut between entries, instead. The
    table's own captions are no such content: they are written with the table, in the
    piece that gives the heading up (the ``ducks`` test: a captioned table alone under
    its heading, the heading only in ``headings_dropped``).
    """
    items, headings = piece.heading_items or [], piece.headings or []
    k = n - 1 - (len(headings) - len(items))  # the innermost dropped heading's item (sheet names have none)
    table = next((it for it in piece.items if isinstance(it, TableItem)), None)
    if k < 0 or table is None:
        return False
    own = {ref.cref for ref in table.captions}
    after = False
    for item, _ in run.doc.iterate_items():
        if item is table:
            return False
        if item is items[k]:
            after = True
        elif after and getattr(item, "label", None) not in ("title", "section_header") and item.self_ref not in own:
            return True
    return False


def shorter_path(run: HybridRun, piece: Piece, text: str, headings: list[str], keep: int = 0) -> Piece | None:
    """``piece`` holding ``text`` under the longest suffix of ``headings`` with which it fits ``run.max``, or None.

    The suffix keeps at least ``keep`` headings (the innermost ones): None when none such fits
    (:func:`~docchunk.chunkers.doc.heading_paths.longest_fitting_path`).
    """

    def under(path: list[str]) -> Piece:
        return replace(under_path(piece, path), text=text, text_tokens=run.sizer.count(text), table_cols=None)

    return longest_fitting_path(run, headings, under, keep)


def under_path(piece: Piece, path: list[str]) -> Piece:
    """``piece`` under ``path``, a suffix of its headings (the heading items cut alike; None for an empty path)."""
    items = piece.heading_items
    kept = items[len(items) - min(len(items), len(path)) :] if items and path else None
    dropped = [*(piece.headings_dropped or []), *(piece.headings or [])[: len(piece.headings or []) - len(path)]]
    return replace(piece, headings=list(path) or None, heading_items=kept or None, headings_dropped=dropped or None)
