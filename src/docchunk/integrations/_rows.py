"""Flat, vector-store friendly metadata of a document chunk (shared by the integrations and the CLI)."""

from __future__ import annotations

from typing import Any


def chunk_metadata(chunk: Any, source: str, index: int) -> dict[str, Any]:
    """``source``, ``chunk_index``, ``headings``, ``captions``, ``page_numbers``, ``token_count``,
    ``doc_items`` (refs): only strings, ints and lists of them."""
    meta = chunk.meta
    return {
        "source": source,
        "chunk_index": index,
        "headings": list(meta.headings or []),
        "captions": list(meta.__dict__.get("captions") or []),
        "page_numbers": list(getattr(meta, "page_numbers", None) or []),
        "token_count": getattr(meta, "token_count", None),
        "doc_items": [item.self_ref for item in meta.doc_items],
    }
