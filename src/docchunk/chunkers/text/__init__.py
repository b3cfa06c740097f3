"""Text chunkers: any ``str`` in, :class:`docchunk.types.Chunk` objects with exact offsets out."""

from docchunk.chunkers.text.base import TextChunker
from docchunk.chunkers.text.recursive import RecursiveChunker
from docchunk.chunkers.text.semantic import SDPMChunker, SemanticChunker
from docchunk.chunkers.text.sentence import SentenceChunker
from docchunk.chunkers.text.separators import LANGUAGES, separators_for
from docchunk.chunkers.text.token import TokenChunker
from docchunk.chunkers.text.window import WindowChunker

__all__ = [
    "LANGUAGES",
    "RecursiveChunker",
    "SDPMChunker",
    "SemanticChunker",
    "SentenceChunker",
    "TextChunker",
    "TokenChunker",
    "WindowChunker",
    "separators_for",
]
