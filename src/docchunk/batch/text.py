"""Text inputs for the text chunkers: which files are read as text, how, and the chunker with its refineries.

Light to import: the refineries load when a :class:`TextChunking` refines chunks.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from docchunk.chunkers.text.base import TextChunker
    from docchunk.tokenizers import Tokenizer
    from docchunk.types.chunk import Chunk

__all__ = ["TEXT_SUFFIXES", "RefinerySettings", "TextChunking", "decode_text", "read_text"]

TEXT_SUFFIXES = (".txt", ".md", ".markdown", ".text")
"""Files a text chunker reads as plain text (UTF-8); other inputs are loaded as documents
and chunked as their Markdown export."""


class RefinerySettings(Protocol):
    """The refinery options of a :class:`TextChunking` (the CLI's ``ChunkSettings`` has them)."""

    @property
    def context_size(self) -> int:
        """Tokens of neighbour context (0: none)."""

    @property
    def context_side(self) -> str:
        """``"both"``, ``"prefix"`` or ``"suffix"``."""

    @property
    def context_mode(self) -> str:
        """``"token"`` or ``"recursive"``."""

    @property
    def context_stop(self) -> tuple[str, ...]:
        """Where that context stops (``OverlapRefinery``'s ``stop_at``; ``()``: it does not)."""

    @property
    def table_header(self) -> str:
        """``"none"``, ``"row"`` or ``"caption"``."""

    @property
    def headings(self) -> bool:
        """Whether the heading path goes into ``context_prefix``."""


@dataclass
class TextChunking:
    """A text chunker and the refineries that add context to its chunks.

    Attributes:
        chunker: A docchunk text chunker (``chunk(text) -> list[Chunk]``).
        settings: Its refinery options (:class:`RefinerySettings`, e.g. the CLI's
            ``ChunkSettings``).
    """

    chunker: TextChunker
    settings: RefinerySettings

    @property
    def tokenizer(self) -> Tokenizer:
        """The chunker's tokenizer: the unit of ``chunk_size``, ``context_size`` and ``token_count``."""
        return self.chunker.tokenizer

    def chunk(self, text: str) -> list[Chunk]:
        """The chunks of ``text``, refined: ``text[c.start_index:c.end_index] == c.text`` for each.

        The refineries never change ``text`` or the offsets; they set
        ``context_prefix`` (neighbour context, then the table header, then the
        heading path, outermost first) and ``context_suffix``.
        """
        chunks = self.chunker.chunk(text)
        s = self.settings
        if s.context_size and len(chunks) > 1:
            from docchunk.refineries.overlap import OverlapRefinery

            mode: Any = s.context_mode  # "token" or "recursive", checked by the caller and the refinery
            for method in ("prefix", "suffix"):
                if s.context_side in ("both", method):
                    OverlapRefinery(tokenizer=self.tokenizer, context_size=s.context_size, mode=mode,
                                    method=method, merge=False, stop_at=s.context_stop)(chunks)  # fmt: skip
        if s.table_header != "none":
            from docchunk.refineries.table_header import TableHeaderRefinery

            TableHeaderRefinery(caption=s.table_header == "caption")(chunks)
        if s.headings:
            from docchunk.refineries.headings import HeadingContextRefinery

            HeadingContextRefinery()(chunks)
        return chunks


def decode_text(data: bytes, where: str) -> str:
    """``data`` as UTF-8 text, as is: no newline translation, so offsets count the input's own characters.

    Raises:
        DocumentError: ``data`` is not UTF-8.
    """
    from docchunk.errors import DocumentError

    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DocumentError(f"{where}: not UTF-8 text ({exc.reason} at byte {exc.start}); convert it to UTF-8") from exc


def read_text(path: Path) -> str:
    """The text a text chunker chunks for ``path``: a text file as is, another input's Markdown export.

    Raises:
        DocumentError: The file is missing, unreadable, not UTF-8, or not a document.
    """
    from docchunk.errors import DocumentError

    if path.suffix.lower() not in TEXT_SUFFIXES:
        from docchunk.loading import load_document

        return str(load_document(path).export_to_markdown())
    try:
        return decode_text(path.read_bytes(), str(path))
    except FileNotFoundError:
        raise DocumentError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise DocumentError(f"{path}: is a folder") from None
    except OSError as exc:
        raise DocumentError(f"{path}: cannot read: {exc.strerror or exc}") from exc
