"""Document items to chunk text, and chunks to their contextualized (embedding) string.

Below the chunkers: :mod:`~docchunk.serialization.chunk` holds the chunk models and
``contextualize``; :mod:`~docchunk.serialization.chunking` the serializers that turn
a document's items into chunk text; :mod:`~docchunk.serialization.rows` the format of
the rows ``docchunk chunk`` writes (the rows are made by :mod:`docchunk.batch.rows`).
"""

from __future__ import annotations

from docchunk.serialization.chunk import DocChunk, DocMeta, contextualize, join_context, page_numbers_of
from docchunk.serialization.chunking import (
    SERIALIZER_MODES,
    ChunkingSerializer,
    ChunkingSerializerProvider,
    TripletTableSerializer,
    is_chunking_serializer,
)
from docchunk.serialization.rows import ROW_FIELDS, chunk_metadata

__all__ = [
    "ROW_FIELDS",
    "SERIALIZER_MODES",
    "ChunkingSerializer",
    "ChunkingSerializerProvider",
    "DocChunk",
    "DocMeta",
    "TripletTableSerializer",
    "chunk_metadata",
    "contextualize",
    "is_chunking_serializer",
    "join_context",
    "page_numbers_of",
]
