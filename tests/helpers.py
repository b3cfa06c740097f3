"""Shared test helpers: invariants of document chunks checked against their document."""

from __future__ import annotations

import re
from typing import Any

_WS = re.compile(r"\s+")


def squash(text: str) -> str:
    """``text`` without whitespace (chunkers may split and join at whitespace)."""
    return _WS.sub("", text)


def lost_texts(doc: Any, chunks: list[Any]) -> list[str]:
    """Texts of body text items (headings, captions, footnotes included) that reach no chunk.

    A text reaches a chunk when, without whitespace, it is part of the chunks' texts
    (in order, joined) or equals one of a chunk's headings or captions.
    """
    from docling_core.types.doc import TextItem

    joined = squash("".join(c.text for c in chunks))
    context = {squash(h) for c in chunks for h in [*(c.meta.headings or []), *(c.meta.__dict__.get("captions") or [])]}
    lost = []
    for item, _ in doc.iterate_items():
        if isinstance(item, TextItem) and item.text.strip():
            text = squash(item.text)
            if text not in joined and text not in context:
                lost.append(item.text)
    return lost


def page_sets(chunk: Any) -> set[frozenset[int]]:
    """The distinct, non-empty page sets of a chunk's doc items' provenance."""
    pages = {frozenset(p.page_no for p in (getattr(it, "prov", None) or ())) for it in chunk.meta.doc_items}
    pages.discard(frozenset())
    return pages
