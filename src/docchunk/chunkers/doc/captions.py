"""Which items of a document are a caption, or a part of a caption's inline text.

The default mode's item-text filter and one-element rule
(:func:`docchunk.chunkers.doc.mode.without_caption_parts`,
:func:`docchunk.chunkers.doc.mode.only_captions`) ask it of each element a
hybrid chunker's run splits at element boundaries; the run holds one
:class:`CaptionParts` per document and hands it to them.
"""

from __future__ import annotations

from typing import Literal

from docling_core.types.doc import DoclingDocument, FloatingItem, NodeItem
from docling_core.types.doc.document import RefItem

__all__ = ["CaptionPart", "CaptionParts"]

CaptionPart = Literal["caption", "inside"] | None
"""``"caption"`` for a floating item's caption, ``"inside"`` for a part of one's inline text, else None."""


class CaptionParts:
    """The caption part of each item of ``doc`` (:data:`CaptionPart`), found once, when first asked.

    Args:
        doc: The document whose tables, pictures, texts, key-value and form items' captions are read.
    """

    def __init__(self, doc: DoclingDocument) -> None:
        self.doc = doc
        self._parts: tuple[dict[str, str], set[str]] | None = None  # (caption -> its owner, parts of their inline text)

    def _read(self) -> tuple[dict[str, str], set[str]]:
        if self._parts is None:
            doc = self.doc
            nodes = (*doc.tables, *doc.pictures, *doc.texts, *doc.key_value_items, *doc.form_items)
            owners: dict[str, str] = {}
            for it in nodes:
                for ref in it.captions if isinstance(it, FloatingItem) else ():
                    owners.setdefault(ref.cref, it.self_ref)
            items = [RefItem(cref=ref).resolve(doc) for ref in owners]
            inside: set[str] = set()
            stack = [child.resolve(doc) for it in items for child in it.children]
            while stack:
                node = stack.pop()
                inside.add(node.self_ref)
                stack.extend(child.resolve(doc) for child in node.children)
            self._parts = (owners, inside)
        return self._parts

    def __call__(self, item: NodeItem) -> CaptionPart:
        """``"caption"`` for a floating item's caption, ``"inside"`` for a part of one's inline text, else None."""
        owners, inside = self._read()
        ref = item.self_ref
        return "caption" if ref in owners else "inside" if ref in inside else None

    def owner(self, item: NodeItem) -> str | None:
        """The reference of the floating item ``item`` is a caption of (the first, if several), or None."""
        return self._read()[0].get(item.self_ref)
