"""Chunk models shared by the text chunkers and refineries."""

from docchunk.types.chunk import Chunk, ChunkLike, TextChunkLike, WindowChunk
from docchunk.types.json_value import JSONObject, JSONValue

__all__ = ["Chunk", "ChunkLike", "JSONObject", "JSONValue", "TextChunkLike", "WindowChunk"]
