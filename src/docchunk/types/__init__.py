"""Chunk models shared by the text chunkers and refineries, and the types of the seams between rooms."""

from docchunk.types.chunk import Chunk, ChunkLike, DocChunker, SpanChunker, TextChunkLike, WindowChunk
from docchunk.types.embedding import EmbedBatch
from docchunk.types.json_value import JSONObject, JSONValue

__all__ = [
    "Chunk",
    "ChunkLike",
    "DocChunker",
    "EmbedBatch",
    "JSONObject",
    "JSONValue",
    "SpanChunker",
    "TextChunkLike",
    "WindowChunk",
]
