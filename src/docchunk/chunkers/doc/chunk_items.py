"""A chunk's doc items found again in a document: what the chunk expanders start from."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from docling_core.types.doc import DoclingDocument, RefItem
from docling_core.types.doc.document import NodeItem

from docchunk.errors import DocumentError

__all__ = ["items_in"]

_SHOWN = 3  # refs named in the error message; the rest are counted


def items_in(chunk_items: Sequence[Any], doc: DoclingDocument, caller: str) -> list[NodeItem]:
    """The items of ``doc`` that the chunk's ``doc_items`` stand for, in the same order.

    A chunk's item stands for the item of ``doc`` at its ``self_ref`` when that item
    has the same label and, where both have one, the same text (a chunk read back from
    JSON holds plain ``DocItem`` copies without text: the label alone is compared).

    Args:
        chunk_items: ``chunk.meta.doc_items``.
        doc: The document the chunk is expanded against.
        caller: The public name to put in the error message (``"TreeChunkExpander.expand"``).

    Returns:
        ``doc``'s own items, one for each of ``chunk_items``.

    Raises:
        DocumentError: An item is missing from ``doc`` or is another item there: the
            chunk was made from another document (or from another conversion of it).
    """
    found: list[NodeItem] = []
    wrong: list[str] = []
    for item in chunk_items:
        ref = item.self_ref
        own = _resolve(ref, doc)
        if own is None:
            wrong.append(f"no item {ref!r}")
        elif not _same(own, item):
            wrong.append(f"{ref!r} is {_describe(own)}, the chunk's is {_describe(item)}")
        else:
            found.append(own)
    if wrong:
        more = f" and {len(wrong) - _SHOWN} more" if len(wrong) > _SHOWN else ""
        raise DocumentError(
            f"{caller}(): {len(wrong)} of the chunk's {len(chunk_items)} doc item(s) are not in the document "
            f"given ({doc.name!r}: {'; '.join(wrong[:_SHOWN])}{more}); pass the DoclingDocument the chunk was "
            "made from (a document converted again may number its items differently)"
        )
    return found


def _resolve(ref: str, doc: DoclingDocument) -> NodeItem | None:
    """The item of ``doc`` at ``ref``, or None when there is none."""
    try:
        own = RefItem(cref=ref).resolve(doc)
    except (AttributeError, IndexError, RuntimeError, ValueError):
        return None
    return own if isinstance(own, NodeItem) else None


def _same(own: NodeItem, item: Any) -> bool:
    if getattr(own, "label", None) != getattr(item, "label", None):
        return False
    text, chunk_text = getattr(own, "text", None), getattr(item, "text", None)
    return text is None or chunk_text is None or text == chunk_text


def _describe(item: Any) -> str:
    label = getattr(item, "label", None)
    kind = getattr(label, "value", label) or type(item).__name__
    text = getattr(item, "text", None)
    if text is None:
        return f"a {kind}"
    shown = text if len(text) <= 40 else text[:40] + "..."
    return f"a {kind} {shown!r}"
