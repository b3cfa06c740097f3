"""A document with text gives at least one chunk: the reason, as a :class:`DocumentError`, when it gives none.

docling-core's chunkers return no chunk and no warning when every text item is
out of their reach. Docchunk's default mode raises instead, naming how many text
items the document has and where they are (page furniture left out, a content
layer not chunked, outside the body tree, inside pictures ...), and how to reach them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from docling_core.types.doc import DoclingDocument
from docling_core.types.doc.document import ContentLayer, FormulaItem, PictureItem

from docchunk.errors import DocumentError
from docchunk.serialization.items import is_furniture

if TYPE_CHECKING:
    from docling_core.transforms.serializer.base import BaseDocSerializer
    from docling_core.types.doc import DocItem

__all__ = ["explained", "no_chunk_error", "text_items"]

_C = TypeVar("_C")


def text_items(doc: DoclingDocument) -> list[DocItem]:
    """The document's items with text: text items (formulas: or ``orig``), key-value and form items with cell text."""
    out: list[DocItem] = []
    for item in doc.texts:
        text = item.text or (item.orig if isinstance(item, FormulaItem) else "")
        if text.strip():
            out.append(item)
    graph_items: list[Any] = [*doc.key_value_items, *doc.form_items]
    for graph_item in graph_items:
        if any((cell.text or cell.orig or "").strip() for cell in graph_item.graph.cells):
            out.append(graph_item)
    return out


def _reachable(doc: DoclingDocument) -> dict[str, bool]:
    """The references under ``doc.body`` (through its children), each with whether it is inside a picture."""
    found: dict[str, bool] = {}
    stack: list[tuple[Any, bool]] = [(doc.body, False)]
    while stack:
        node, in_picture = stack.pop()
        if node.self_ref in found:
            continue
        found[node.self_ref] = in_picture
        inside = in_picture or isinstance(node, PictureItem)
        for ref in node.children:
            try:
                stack.append((ref.resolve(doc), inside))
            except (IndexError, ValueError, KeyError):  # a dangling reference: what it names is unreachable
                continue
    return found


def _where(
    item: DocItem, reachable: dict[str, bool], include_furniture: bool, layers: set[ContentLayer], excluded: set[str]
) -> str:
    """Why ``item`` may be in no chunk: the first reason that applies (``excluded``: the serializer's excluded refs)."""
    if not include_furniture and is_furniture(item):
        return "furniture"
    if item.content_layer not in layers:
        return f"layer {item.content_layer.value}"
    if item.self_ref not in reachable:
        return "outside body"
    if reachable[item.self_ref]:
        return "picture"
    return "excluded" if item.self_ref in excluded else "unwritten"


_REASONS = {
    "furniture": (
        "page headers or footers (or in the furniture layer), which the default mode leaves out",
        "pass include_furniture=True (docchunk chunk --include-furniture) to chunk them",
    ),
    "outside body": (
        "outside the document's body tree (no chain of children from doc.body reaches them; in JSON, the "
        "'body' or its 'children' may be missing or empty)",
        "convert the source again, or repair the document's tree (add the items under doc.body)",
    ),
    "picture": (
        "inside a picture, and the serializer wrote none of them",
        "use docchunk's default serializer_provider, or one whose picture serializer writes a picture's children",
    ),
    "excluded": (
        "excluded by the serializer's settings (its labels, pages or start_idx/stop_idx)",
        "check the serializer_provider's labels, pages and index range settings",
    ),
    "unwritten": (
        "written as no text by the serializer, though none of its settings excludes them",
        "check the serializer_provider's item serializers; with docchunk's default serializer this is a "
        "docchunk bug: please report it with the document",
    ),
}


def no_chunk_error(
    doc: DoclingDocument, chunker: object, serializer: BaseDocSerializer | None = None
) -> DocumentError | None:
    """The :class:`DocumentError` for a document with text items that gave no chunk; None without text items.

    Args:
        doc: The document that gave no chunk.
        chunker: The chunker (its class name and ``include_furniture`` are read).
        serializer: The serializer used (its ``params.layers`` and ``get_excluded_refs()`` are read);
            default: the body layer, nothing excluded. The message says an item is excluded by
            the serializer's settings only when its reference is among the excluded ones.
    """
    items = text_items(doc)
    if not items:
        return None
    include_furniture = bool(getattr(chunker, "include_furniture", False))
    params = getattr(serializer, "params", None)
    layers = set(getattr(params, "layers", None) or {ContentLayer.BODY})
    if include_furniture:
        layers.add(ContentLayer.FURNITURE)
    reachable = _reachable(doc)
    get_excluded = getattr(serializer, "get_excluded_refs", None)
    excluded: set[str] = set(get_excluded()) if get_excluded is not None else set()
    counts = Counter(_where(it, reachable, include_furniture, layers, excluded) for it in items)
    n = len(items)
    parts = []
    for kind, k in counts.most_common():
        if kind.startswith("layer "):
            what = f"in the {kind[6:]!r} content layer, which is not chunked"
            fix = "move them to the body layer, or use a serializer_provider whose params include that layer"
        else:
            what, fix = _REASONS[kind]
        amount = f"all {n}" if k == n else f"{k} of {n}"
        parts.append(f"{amount} text items are {what}; {fix}")
    name = getattr(doc, "name", "") or "document"
    return DocumentError(f"{type(chunker).__name__}: {name!r} has text but gave no chunk: " + "; ".join(parts))


def explained(
    chunks: Iterator[_C], doc: DoclingDocument, chunker: object, serializer: BaseDocSerializer | None = None
) -> Iterator[_C]:
    """Yield ``chunks``; if there were none and ``doc`` has text, raise :func:`no_chunk_error`'s error."""
    emitted = False
    for chunk in chunks:
        emitted = True
        yield chunk
    if not emitted:
        error = no_chunk_error(doc, chunker, serializer)
        if error is not None:
            raise error
