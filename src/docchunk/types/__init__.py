"""Chunk models shared by the text chunkers and refineries."""

from docchunk.types.chunk import Chunk, WindowChunk

__all__ = ["Chunk", "WindowChunk"]
