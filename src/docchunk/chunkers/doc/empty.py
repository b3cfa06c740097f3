"""A document with text gives at least one chunk: the reason, as a :class:`DocumentError`, when it gives none.

docling-core's chunkers return no chunk and no warning when every text item is
out of their reach. Docchunk's default mode raises instead, naming how many text
items the document has and where they are (page furniture left out, a content
layer not chunked, outside the body tree, inside pictures ...), and how to reach them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from docling_core.types.doc import DoclingDocument
from docling_core.types.doc.document import ContentLayer, FormulaItem, PictureItem

from docchunk.errors import DocumentError
from docchunk.serialization.items import FURNITURE_LABELS

__all__ = ["explained", "no_chunk_error", "text_items"]


def text_items(doc: DoclingDocument) -> list[Any]:
    """The document's items with text: text items (formulas: or ``orig``), key-value and form items with cell text."""
    out: list[Any] = []
    for item in doc.texts:
        text = item.text or (item.orig if isinstance(item, FormulaItem) else "")
        if text.strip():
            out.append(item)
    for item in (*doc.key_value_items, *doc.form_items):
        if any((cell.text or cell.orig or "").strip() for cell in item.graph.cells):
            out.append(item)
    return out


def _where(item: Any, doc: DoclingDocument, include_furniture: bool, layers: set[Any]) -> str:
    """Why ``item`` may be in no chunk: the first reason that applies."""
    if not include_furniture and (item.label in FURNITURE_LABELS or item.content_layer == ContentLayer.FURNITURE):
        return "furniture"
    if item.content_layer not in layers:
        return f"layer {item.content_layer.value}"
    node, seen = item, set()
    in_picture = False
    while node.parent is not None and node.self_ref not in seen:
        seen.add(node.self_ref)
        node = node.parent.resolve(doc)
        in_picture = in_picture or isinstance(node, PictureItem)
    if node.self_ref != doc.body.self_ref:
        return "outside body"
    return "picture" if in_picture else "other"


_REASONS = {
    "furniture": (
        "page headers or footers (or in the furniture layer), which the default mode leaves out",
        "pass include_furniture=True (docchunk chunk --include-furniture) to chunk them",
    ),
    "outside body": (
        "outside the document's body tree (their parents do not lead to doc.body)",
        "attach them under doc.body (doc.add_text(..., parent=...) with a body item)",
    ),
    "picture": (
        "inside a picture, and the serializer wrote none of them",
        "use docchunk's default serializer_provider, or one whose picture serializer writes a picture's children",
    ),
    "other": (
        "excluded by the serializer's settings, or written as no text by it",
        "check the serializer_provider's labels, layers and pages settings",
    ),
}


def no_chunk_error(doc: DoclingDocument, chunker: Any, serializer: Any = None) -> DocumentError | None:
    """The :class:`DocumentError` for a document with text items that gave no chunk; None without text items.

    Args:
        doc: The document that gave no chunk.
        chunker: The chunker (its class name and ``include_furniture`` are read).
        serializer: The serializer used (its ``params.layers`` are read); default: the body layer.
    """
    items = text_items(doc)
    if not items:
        return None
    include_furniture = bool(getattr(chunker, "include_furniture", False))
    params = getattr(serializer, "params", None)
    layers = set(getattr(params, "layers", None) or {ContentLayer.BODY})
    if include_furniture:
        layers.add(ContentLayer.FURNITURE)
    counts = Counter(_where(it, doc, include_furniture, layers) for it in items)
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


def explained(chunks: Iterator[Any], doc: DoclingDocument, chunker: Any, serializer: Any = None) -> Iterator[Any]:
    """Yield ``chunks``; if there were none and ``doc`` has text, raise :func:`no_chunk_error`'s error."""
    emitted = False
    for chunk in chunks:
        emitted = True
        yield chunk
    if not emitted:
        error = no_chunk_error(doc, chunker, serializer)
        if error is not None:
            raise error
