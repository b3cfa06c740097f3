"""The default (structure-faithful) passes of the hybrid chunker.

With ``docling_compat=False`` the hybrid chunker runs these passes instead of
docling-core's; each pass is a function of the chunker's run state (counts,
serializer, settings) and a list of pieces, so that they can be tested and
changed one by one. See ``docs/compat.md`` for what each changes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from docling_core.types.doc import DoclingDocument

from docchunk.chunkers.doc.table_split import split_table, table_of
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
    pieces = [s for p in walked for s in split_table_piece(run, p)]
    pieces = [s for p in pieces for s in ([p] if p.table_rows is not None else run.split_text(p))]
    if chunker.merge_peers:
        pieces = merge_between_tables(run, pieces)
    return pieces


def merge_between_tables(run: Any, pieces: list[Piece]) -> list[Piece]:
    """``run.merge`` over the runs of pieces between table pieces; table pieces stay as they are.

    A table piece holds whole rows with its caption in ``captions`` and its rows in
    ``table_rows``; merging it with text would lose both.
    """
    out: list[Piece] = []
    pending: list[Piece] = []
    for piece in pieces:
        if piece.table_rows is None:
            pending.append(piece)
            continue
        out.extend(run.merge(pending) if pending else [])
        pending = []
        out.append(piece)
    out.extend(run.merge(pending) if pending else [])
    return out


def structured_walk(doc: DoclingDocument, serializer: Any, always_emit_headings: bool = False) -> Iterator[Piece]:
    """One piece per element, like :func:`walk`, but no heading or caption is lost (default mode)."""
    return walk(doc, serializer, always_emit_headings)


def is_table_piece(piece: Piece) -> bool:
    """True for a walked piece that is one table (with its caption items)."""
    return table_of(piece) is not None


def split_table_piece(run: Any, piece: Piece) -> list[Piece]:
    """Pieces of one walked piece: a table's whole rows, each with ``table_rows`` set (default mode).

    A table is chunked by rows (:func:`docchunk.chunkers.doc.table_split.split_table`);
    any other piece is split at element boundaries (``run.split_by_items``).
    """
    table = table_of(piece)
    if table is None:
        return run.split_by_items(piece)
    return split_table(run, piece, table)
