"""A layout table's cells walked as document content (default mode).

A layout table (:func:`~docchunk.serialization.tables.rules.is_layout_table`: an old
web page laid out as one table, its navigation, content and footer in cells) is text,
not values. When its cells hold document content (docling's rich cells: a group of
lists, headings, paragraphs, pictures, tables), that content is walked where the cell
stands in reading order, as the body is: a nested list keeps its nesting, a heading
heads what follows it, a picture is written once with its caption, and the chunk's
``meta.doc_items`` name the items it holds. Written by the table's layout writer
instead, one paragraph a line, a cell's nested list was flat (``- Services`` /
``- Audit`` / ``- Tax``), its headings plain lines that could end a piece whose body
was in the next, and a picture's caption was written again after the table, as an
orphan (a tester's CMS pages, issue 46 findings 7, 8, 13). A cell of plain text is a
:class:`LayoutCell`: a paragraph of its own, whose piece names the table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from docling_core.types.doc.document import NodeItem, RichTableCell, TableItem

from docchunk.serialization.tables import RowTableSerializer

if TYPE_CHECKING:
    from docling_core.transforms.serializer.base import BaseDocSerializer
    from docling_core.types.doc import DoclingDocument

__all__ = ["LayoutCell", "by_rows", "in_reading_order", "layout_cells"]

Walk = Iterable[tuple[NodeItem, int]]


@dataclass(frozen=True)
class LayoutCell:
    """A plain-text cell of a layout table walked as content: its text, and the table it is a cell of."""

    text: str
    table: TableItem


def in_reading_order(
    doc: DoclingDocument, items: Walk, serializer: BaseDocSerializer, walk_under: Callable[[NodeItem], Walk]
) -> Iterator[tuple[NodeItem | LayoutCell, int]]:
    """``items`` (``doc.iterate_items``' walk), with each layout table of rich cells replaced by its cells' content.

    Args:
        doc: The document.
        items: ``(item, depth)`` in document order, groups included.
        serializer: The chunker's serializer; only the default mode's row serializer
            walks layout tables so (a user's own table serializer writes them itself).
        walk_under: The same walk under one node (a rich cell's group): ``(item, depth)``.

    Returns:
        An iterator of ``(item, depth)`` (``items`` itself when no table of ``doc`` has
        a rich cell, or the serializer is a user's); in place of such a table, each cell once in reading order
        (rows, then columns): a rich cell's items (depth under the table's), a plain
        cell's :class:`LayoutCell`; then the table's other children (a caption), so
        that nothing under the table is left out.
    """
    rich = _rich_tables(doc) if by_rows(serializer) else set()
    return _cells_in_place(doc, items, serializer, walk_under, rich) if rich else iter(items)


def _rich_tables(doc: DoclingDocument) -> set[str]:
    """The refs of ``doc``'s tables with a rich cell: the only ones a layout walk can replace."""
    return {t.self_ref for t in doc.tables if any(isinstance(cell, RichTableCell) for cell in t.data.table_cells)}


def _cells_in_place(
    doc: DoclingDocument,
    items: Walk,
    serializer: BaseDocSerializer,
    walk_under: Callable[[NodeItem], Walk],
    rich: set[str],
) -> Iterator[tuple[NodeItem | LayoutCell, int]]:
    """:func:`in_reading_order`'s walk, where ``rich`` names the tables with a rich cell."""
    it = iter(items)
    back: tuple[NodeItem, int] | None = None
    while True:
        step = back if back is not None else next(it, None)
        back = None
        if step is None:
            return
        item, depth = step
        cells = layout_cells(item, doc, serializer) if isinstance(item, TableItem) and item.self_ref in rich else None
        if cells is None or not isinstance(item, TableItem):
            yield item, depth
            continue
        subtree = []
        for nxt in it:  # the table's own subtree, which the cells replace
            if nxt[1] <= depth:
                back = nxt
                break
            subtree.append(nxt)
        walked: set[str] = set()
        for cell in cells:
            if isinstance(cell, str):
                yield LayoutCell(cell, item), depth + 1
                continue
            for node, d in walk_under(cell):
                walked.add(node.self_ref)
                yield node, depth + 1 + d
        yield from ((node, d) for node, d in subtree if node.self_ref not in walked)


def by_rows(serializer: BaseDocSerializer) -> bool:
    """Whether ``serializer`` writes tables by rows (the default mode's); a user's own serializer is kept as it is."""
    return isinstance(getattr(serializer, "table_serializer", None), RowTableSerializer)


def layout_cells(table: TableItem, doc: DoclingDocument, serializer: BaseDocSerializer) -> list[Any] | None:
    """A layout table's cells in reading order, each once: a rich cell's node, a plain cell's text; else None.

    None for a table with no rich cell (the layout writer writes it: nothing to walk)
    or that is not a layout table.
    """
    data = table.data
    if not any(isinstance(cell, RichTableCell) for cell in data.table_cells):
        return None
    model = serializer.table_serializer.layout_model(table, doc, serializer)  # type: ignore[attr-defined]
    if model.kind != "layout":
        return None
    out: list[Any] = []
    seen: set[str] = set()
    for row in model.grid:
        for cell in row:
            key = cell.ref.cref if isinstance(cell, RichTableCell) else f"{id(cell)}"
            if key in seen:
                continue
            seen.add(key)
            if isinstance(cell, RichTableCell):
                out.append(cell.ref.resolve(doc))
            elif text := model.text_of(cell):
                out.append(text)
    return out
