"""Chunk models of the document chunkers (defined in :mod:`docchunk.serialization.chunk`)."""

from __future__ import annotations

from docchunk.serialization.chunk import ChunkBudget, DocChunk, DocMeta, contextualize, join_context, page_numbers_of

__all__ = ["ChunkBudget", "DocChunk", "DocMeta", "contextualize", "join_context", "page_numbers_of"]
