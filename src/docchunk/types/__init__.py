"""Chunk models shared by the text chunkers and refineries."""

from docchunk.types.chunk import Chunk, ChunkLike, TextChunkLike, WindowChunk

__all__ = ["Chunk", "ChunkLike", "TextChunkLike", "WindowChunk"]
