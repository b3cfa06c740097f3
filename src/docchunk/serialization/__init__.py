"""Document items to chunk text, and chunks to their contextualized (embedding) string.

Below the chunkers: :mod:`~docchunk.serialization.chunk` holds the chunk models and
``contextualize``; :mod:`~docchunk.serialization.chunking` the serializers that turn
a document's items into chunk text.
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

__all__ = [
    "SERIALIZER_MODES",
    "ChunkingSerializer",
    "ChunkingSerializerProvider",
    "DocChunk",
    "DocMeta",
    "TripletTableSerializer",
    "contextualize",
    "is_chunking_serializer",
    "join_context",
    "page_numbers_of",
]
