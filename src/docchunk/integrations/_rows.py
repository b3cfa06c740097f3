"""Flat, vector-store friendly metadata of a document chunk (shared by the integrations and the CLI)."""

from __future__ import annotations

from typing import Any

from docchunk.errors import DocchunkError


def chunk_metadata(chunk: Any, source: str, index: int) -> dict[str, Any]:
    """A chunk's flat metadata: only strings, ints and lists of them.

    The keys: ``source``, ``chunk_index``, ``headings``, ``captions``, ``page_numbers``,
    ``token_count``, ``doc_items`` (refs).
    """
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


def chunk_rows(chunker: Any, source: str, doc: Any) -> list[dict[str, Any]]:
    """The rows of the CLI's JSONL for one document.

    Each has ``text``, ``contextualized``, ``token_count``, ``page_numbers``, ``source``,
    ``chunk_index``, ``meta``.
    """
    rows = []
    for index, chunk in enumerate(chunker.chunk(doc)):
        rows.append(
            {
                "text": chunk.text,
                "contextualized": chunker.contextualize(chunk),
                "token_count": chunk.meta.token_count,
                "page_numbers": chunk.meta.page_numbers or [],
                "source": source,
                "chunk_index": index,
                "meta": chunk.meta.export_json_dict(),
            }
        )
    return rows


def describe_failure(source: str, exc: BaseException) -> str:
    """One line naming the input and what went wrong (for the CLI and the Ray error rows)."""
    message = str(exc) if isinstance(exc, (DocchunkError, OSError)) else f"{type(exc).__name__}: {exc}"
    message = " ".join(message.split())[:500]
    return message if source in message else f"{source}: {message}"
