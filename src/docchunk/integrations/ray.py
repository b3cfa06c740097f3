"""Ray Data: chunk a Dataset of documents into a Dataset of chunk rows.

Needs the ``ray`` extra (``pip install "docchunk[ray]"``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from docchunk.errors import DocchunkError, require
from docchunk.integrations._rows import chunk_rows, describe_failure

__all__ = ["ROW_FIELDS", "chunk_dataset"]

ROW_FIELDS = ("text", "contextualized", "token_count", "page_numbers", "source", "chunk_index", "meta", "error")
"""Columns of the output rows: the CLI's JSONL fields, plus ``error``."""


class _ChunkRows:
    """The per-row function; the chunker is built once per Ray worker."""

    def __init__(self, chunker: Any):
        self.chunker = chunker

    def __call__(self, row: dict[str, Any]) -> list[dict[str, Any]]:
        from docchunk.loading import load_document

        source = str(row.get("path") or row.get("source") or "<row>")
        try:
            if row.get("json") is not None:
                doc = load_document(row["json"], format="json")
            elif row.get("bytes") is not None:
                fmt = Path(source).suffix.lstrip(".").lower() or "json"
                doc = load_document(bytes(row["bytes"]), format=fmt)
            else:
                doc = load_document(Path(source))
            rows = chunk_rows(self.chunker, source, doc)
        except (DocchunkError, OSError, ValueError) as exc:
            return [_error_row(source, exc)]
        for r in rows:
            r["meta"] = json.dumps(r["meta"], ensure_ascii=False)  # one column type across all documents
            r["error"] = None
        return rows


def _error_row(source: str, exc: Exception) -> dict[str, Any]:
    return {
        "text": None, "contextualized": None, "token_count": None, "page_numbers": [], "source": source,
        "chunk_index": None, "meta": None, "error": describe_failure(source, exc),
    }  # fmt: skip


def chunk_dataset(ds: Any, chunker: Any = None) -> Any:
    """Chunk every document of a Ray Dataset.

    Args:
        ds: A ``ray.data.Dataset`` whose rows have ``path`` (a file
            :func:`docchunk.load_document` reads), or ``bytes`` (with ``path`` naming
            the format by its extension), or ``json`` (DoclingDocument JSON).
        chunker: A docchunk document chunker; default ``HybridChunker()``.

    Returns:
        A Dataset with one row per chunk and the columns :data:`ROW_FIELDS` (the CLI's
        JSONL fields; ``meta`` is the DocMeta as a JSON string). A document that
        fails gives one row with ``error`` set (naming its path) and does not stop
        the others.
    """
    require("ray.data", "ray", "docchunk.integrations.ray")
    if chunker is None:
        from docchunk import HybridChunker

        chunker = HybridChunker()
    return ds.flat_map(_ChunkRows(chunker))
