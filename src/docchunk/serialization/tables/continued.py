"""The table model's rule for a table continued as a second ``TableItem`` (a page-broken table).

A PDF converter emits a table that runs onto the next page as two ``TableItem`` objects: the
second repeats the header row and has no caption of its own (the round-3 documents
tester's ``api_continued_table``, finding 12). Read alone, the second part's rows
say nothing of the table they belong to nor of its unit (``2026 = 632``, where the
first part's caption says ``EUR thousands``). :func:`continued_from` names the table
it continues, whose caption its pieces then carry
(:func:`~docchunk.chunkers.doc.tables.pieces.split_table`).
"""

from __future__ import annotations

from typing import Any

from docling_core.types.doc import DocItemLabel, TableItem
from docling_core.types.doc.document import ContentLayer

from docchunk.serialization.tables.grid import read_grid
from docchunk.serialization.tables.rules import header_row_count

__all__ = ["continued_from", "sibling"]

_PAGE_FURNITURE = (DocItemLabel.PAGE_HEADER, DocItemLabel.PAGE_FOOTER)


def sibling(item: Any, doc: Any, step: int, furniture: bool = True) -> Any:
    """The item ``step`` places after ``item`` (-1: before) among its parent's children, or None.

    With ``furniture=False``, page furniture among the children (a page header or footer
    the converter put in the body with ``content_layer`` furniture, as docling-core's
    ``add_text`` does) is passed over, as if it were not there: a table and the one after
    it on the next page are then neighbours with the page's footer and header between.
    """
    if doc is None or item.parent is None:
        return None
    children = item.parent.resolve(doc).children
    at = next((k for k, ref in enumerate(children) if ref.cref == item.self_ref), None)
    if at is None:
        return None
    unit = 1 if step > 0 else -1
    for _ in range(abs(step)):
        at += unit
        while not furniture and 0 <= at < len(children) and _is_furniture(children[at].resolve(doc)):
            at += unit
        if not 0 <= at < len(children):
            return None
    return children[at].resolve(doc)


def _is_furniture(item: Any) -> bool:
    """Whether ``item`` is page furniture: in the furniture layer, or a page header or footer."""
    layer = getattr(item, "content_layer", ContentLayer.BODY)
    return layer == ContentLayer.FURNITURE or getattr(item, "label", None) in _PAGE_FURNITURE


def _header_texts(table: TableItem) -> list[list[str]]:
    """The texts of ``table``'s flagged column-header rows (:func:`~.rules.header_row_count`), stripped.

    Empty at once, without reading the grid, for a table with no flagged header cell (a
    header row is one where a flagged cell starts).
    """
    if not any(cell.column_header for cell in table.data.table_cells):
        return []
    grid = read_grid(table.data)
    rows = header_row_count(table.data, grid)
    return [[cell.text.strip() for cell in row] for row in grid[:rows]]


def continued_from(table: TableItem, doc: Any) -> TableItem | None:
    """Rule: a table without a caption that repeats the header of the table directly before it continues that table.

    The shape: a table broken by a page, converted as two ``TableItem`` objects (docling's
    PDF pipeline; the round-3 tester's ``api_continued_table``: ``Asset class | 2026 |
    2025`` on page 1 under ``Table 12.1: Carrying amounts (EUR thousands)``, then the same
    header row and eight more rows on page 2, with only the page footer and header
    between). ``table`` continues the table before it when:

    - it has no caption of its own;
    - the item directly before it among its parent's children, page furniture passed
      over (:func:`sibling`), is a table: no paragraph, heading, caption or footnote
      stands between them, so the rule never fires across a heading;
    - both have the same number of columns and the same flagged column-header rows
      (at least one, with at least two cells of text): the header repeated. Unflagged
      header rows are not compared (the rule stays on the side of not firing).

    A continuation of a continuation continues the same table: the first table of the
    run is returned. On the shared corpus and doc-qa it fires on none of the tables
    (``bench/table_rules_fire.py``, ``continued``).

    Args:
        table: A docling-core ``TableItem``.
        doc: The ``DoclingDocument`` holding it (None: no rule, None returned).

    Returns:
        The first table of the run ``table`` continues, or None.
    """
    first = None
    while not table.captions:
        before = sibling(table, doc, -1, furniture=False)
        if not isinstance(before, TableItem) or before.data.num_cols != table.data.num_cols:
            break
        head = _header_texts(table)
        if not head or sum(bool(text) for text in head[0]) < 2 or _header_texts(before) != head:
            break
        first = table = before
    return first
