"""Chunk models of the document chunkers (defined in :mod:`docchunk.serialization.chunk`)."""

from __future__ import annotations

from docchunk.serialization.chunk import DocChunk, DocMeta, contextualize, join_context, page_numbers_of

__all__ = ["DocChunk", "DocMeta", "contextualize", "join_context", "page_numbers_of"]
