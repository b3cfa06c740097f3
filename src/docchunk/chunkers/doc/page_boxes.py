"""Where on its pages a document chunk is (``meta.page_boxes``): one box per page, the union of its items' boxes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypedDict

if TYPE_CHECKING:
    from docling_core.types.doc import DoclingDocument, NodeItem

__all__ = ["BoxDict", "PageBoxDict", "page_boxes_of"]


class BoxDict(TypedDict):
    """The box of a :class:`PageBoxDict`: its edges and their origin (``"TOPLEFT"`` or ``"BOTTOMLEFT"``)."""

    l: float  # noqa: E741  # docling-core's BoundingBox field names
    t: float
    r: float
    b: float
    coord_origin: str


class PageBoxDict(TypedDict):
    """A page box as :func:`page_boxes_of` makes it: the keyword arguments of a :class:`~docchunk.PageBox`."""

    page_no: int
    bbox: BoxDict


def page_boxes_of(items: Sequence[NodeItem], doc: DoclingDocument | None) -> list[PageBoxDict] | None:
    """One box per page: the union of ``items``' provenance boxes on it, in the first box's coordinate origin.

    Boxes of another origin are converted with the page's height
    (``doc.pages[page_no].size.height``); a box that cannot be converted (no page
    size) is left out. None when no item has provenance. The union is taken on the
    boxes' coordinates (no ``BoundingBox`` is built per item: a chunk may hold hundreds).

    Returns:
        ``[{"page_no": int, "bbox": {"l", "t", "r", "b", "coord_origin"}}]`` sorted by page.
    """
    boxes: dict[int, tuple[float, float, float, float]] = {}  # page_no -> (l, t, r, b)
    origin = None
    for item in items:
        for prov in getattr(item, "prov", None) or ():
            box = prov.bbox
            if origin is None:
                origin = box.coord_origin
            if box.coord_origin != origin:
                page = getattr(doc, "pages", {}).get(prov.page_no) if doc is not None else None
                if page is None or page.size is None:
                    continue
                height = page.size.height
                bottom_left = origin.name == "BOTTOMLEFT"
                box = box.to_bottom_left_origin(height) if bottom_left else box.to_top_left_origin(height)
            seen = boxes.get(prov.page_no)
            edges = (box.l, box.t, box.r, box.b)
            boxes[prov.page_no] = edges if seen is None else _union(seen, edges, origin.name == "TOPLEFT")
    if origin is None or not boxes:
        return None
    return [{"page_no": no, "bbox": _box_dict(boxes[no], origin.value)} for no in sorted(boxes)]


def _union(
    a: tuple[float, float, float, float], b: tuple[float, float, float, float], top_left: bool
) -> tuple[float, float, float, float]:
    """The edges ``(l, t, r, b)`` of the box that holds boxes ``a`` and ``b`` (``top_left``: y grows downwards)."""
    t = min(a[1], b[1]) if top_left else max(a[1], b[1])
    bottom = max(a[3], b[3]) if top_left else min(a[3], b[3])
    return (min(a[0], b[0]), t, max(a[2], b[2]), bottom)


def _box_dict(edges: tuple[float, float, float, float], coord_origin: str) -> BoxDict:
    left, top, right, bottom = edges
    return {"l": left, "t": top, "r": right, "b": bottom, "coord_origin": coord_origin}
