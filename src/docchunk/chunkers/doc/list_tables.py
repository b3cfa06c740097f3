"""Tables inside list items (default mode): chunked as tables, under the list items above them.

A table inside a list item, or beside the items of a nested list (where docling's DOCX
and Markdown converters put it), is written by :mod:`~docchunk.chunkers.doc.list_split`
as lines of its list, indented under its item. When those lines fit a window of the
list, they stay there: the caption and the rows whole, under their item, and the piece
says which rows it holds (:func:`rows_of_listed_tables`). When they do not, the table
is chunked as any table (:func:`table_in_list`). Written as lines of its list, such a
window was over the budget and cut at sentence ends: rows that fit were cut mid-record
(``RAM = 96`` | ``GB``), the caption was a chunk of its own and no chunk had
``table_rows`` (issue 46, round-3 tester's finding 5, ``api_list_long_table``: 10 of 16
rows cut at MiniLM 64).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from docling_core.types.doc.document import ListGroup, ListItem, TableItem

from docchunk.chunkers.doc.layout_cells import by_rows
from docchunk.chunkers.doc.piece import Piece, replace
from docchunk.chunkers.doc.tables.pieces import split_table, table_rows_of

if TYPE_CHECKING:
    from docchunk.chunkers.doc.hybrid_run import HybridRun

__all__ = ["rows_of_listed_tables", "table_in_list", "tables_over_budget"]


def tables_over_budget(run: HybridRun, items: list[Any], alone: Callable[[int], Piece]) -> set[int]:
    """The indices of a list's lines that are a table written by rows, too large for a window of the list.

    Args:
        run: The ``chunk()`` call's state: the serializer (only the default mode's row
            serializer's tables are chunked by rows; a user's own is left as lines) and
            the budget.
        items: The item of each line of the list, in order.
        alone: ``alone(k)``: the window of line ``k`` alone, under its path.

    Returns:
        The indices ``k`` whose item is a table and whose window alone exceeds ``max_tokens``.
    """
    if not by_rows(run.serializer):
        return set()
    found = (k for k, item in enumerate(items) if isinstance(item, TableItem))
    return {k for k in found if run.ctx_count(alone(k)) > run.max}


def table_in_list(
    run: HybridRun, piece: Piece, items: list[Any], path: list[str], headings: list[str], parents: int
) -> list[Piece]:
    """The pieces of a table inside a list: whole rows, under the list items above it.

    Chunked as any table (:func:`~docchunk.chunkers.doc.tables.pieces.split_table`):
    whole rows within ``max_tokens``, its caption directly before its rows in every
    piece, ``table_rows`` set.

    Args:
        run: The ``chunk()`` call's state.
        piece: The walked list piece the table is a line of.
        items: The table and its captions (with their parts).
        path: The table's whole path: the section headings, then the names of the list
            items above it (outermost first), as a list window's parent items are named.
        headings: The innermost entries of ``path`` kept within half of ``max_tokens``
            (the innermost one perhaps shortened to its first words and `` …``); the
            entries left out are named in ``headings_dropped``.
        parents: How many list items the table is inside.

    Returns:
        The table's pieces, in order (none for a one-cell title table that heads the next
        table); each within ``max_tokens`` unless one character alone is larger.
    """
    table = next(it for it in items if isinstance(it, TableItem))
    whole = headings == path[len(path) - len(headings) :]  # else the innermost entry is shortened
    dropped = path[: len(path) - len(headings)] if whole else path[:-1]
    base = Piece(
        text="", items=items, headings=headings or None, origin=piece.origin,
        heading_items=piece.heading_items, item_path=min(parents, len(headings)),
        headings_dropped=[*(piece.headings_dropped or []), *dropped] or None,
    )  # fmt: skip
    return split_table(run, base, table)


def rows_of_listed_tables(run: HybridRun, pieces: list[Piece]) -> list[Piece]:
    """``pieces``, where one holds a table inside a list whole among its list's lines, with ``table_rows`` set.

    A table that fits a window of its list is written as lines of the list, its caption
    and rows whole under its item; its piece then says which rows it holds, as a
    table's own pieces do (``table_rows`` was None for every chunk of a table inside a
    list item). Run after the merging passes, which read ``table_rows`` as "a table's
    own piece of rows" and would treat the list's window as one.

    Args:
        run: The ``chunk()`` call's state.
        pieces: The final pieces of a run of text, in order.

    Returns:
        ``pieces``, the same text; a piece with a list item and one table inside a list,
        whose rows its text holds whole, has ``table_rows`` (the table's body rows).
    """
    out = []
    for piece in pieces:
        rows = table_rows_of(run, piece) if piece.table_rows is None and _in_a_list(run, piece) else None
        if rows is not None and rows.text and " ".join(rows.text.split()) in " ".join(piece.text.split()):
            piece = replace(piece, table_rows=(rows.start, rows.end))
        out.append(piece)
    return out


def _in_a_list(run: HybridRun, piece: Piece) -> bool:
    """Whether ``piece`` holds a list item and one table, the table inside a list."""
    tables = [it for it in piece.items if isinstance(it, TableItem)]
    if len(tables) != 1 or not any(isinstance(it, ListItem) for it in piece.items):
        return False
    node: Any = tables[0]
    while node.parent is not None:
        node = node.parent.resolve(run.doc)
        if isinstance(node, (ListGroup, ListItem)):
            return True
    return False
