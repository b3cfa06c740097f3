"""The default (structure-faithful) passes of the hybrid chunker.

With ``docling_compat=False`` the hybrid chunker runs these passes instead of
docling-core's; each pass is a function of the chunker's run state (counts,
serializer, settings) and a list of pieces, so that they can be tested and
changed one by one. See ``docs/compat.md`` for what each changes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from docling_core.types.doc import DoclingDocument, TableItem

from docchunk.chunkers.doc.walk import Piece, walk

__all__ = ["split_table_piece", "structured_pieces", "structured_walk"]


def structured_pieces(run: Any, doc: DoclingDocument) -> list[Piece]:
    """The hybrid chunker's pieces in the default mode, in document order.

    Args:
        run: The ``chunk()`` call's state (``hybrid._Run``): counts, serializer, settings.
        doc: The document.
    """
    chunker = run.chunker
    walked = structured_walk(doc, run.serializer, chunker.always_emit_headings)
    pieces = [s for p in walked for s in run.split_by_items(p)]
    pieces = [t for p in pieces for t in split_table_piece(run, p)]
    pieces = [s for p in pieces for s in run.split_text(p)]
    if chunker.merge_peers:
        pieces = run.merge(pieces)
    return pieces


def structured_walk(doc: DoclingDocument, serializer: Any, always_emit_headings: bool = False) -> Iterator[Piece]:
    """One piece per element, like :func:`walk`, but no heading or caption is lost (default mode)."""
    return walk(doc, serializer, always_emit_headings)


def is_table_piece(piece: Piece) -> bool:
    """True for a piece that is exactly one table."""
    return len(piece.items) == 1 and isinstance(piece.items[0], TableItem)


def split_table_piece(run: Any, piece: Piece) -> list[Piece]:
    """Pieces of one table: whole rows, each with ``table_rows`` set (default mode).

    Hook for the row-wise table chunking; pieces that are not a single table, and
    (for now) tables, pass through unchanged to the text split.
    """
    return [piece]
