"""The text chunkers of the commands: a chunker of ``--chunker recursive|token|...`` and its refineries.

Light to import: the chunker and its tokenizer load when :func:`make_text_chunking`
is called; the semantic chunkers load their embedding model then too.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from docchunk.cli.settings import ChunkSettings
from docchunk.errors import DocchunkError

__all__ = ["TEXT_SUFFIXES", "TextChunking", "decode_text", "make_text_chunker", "make_text_chunking", "read_text"]

TEXT_SUFFIXES = (".txt", ".md", ".markdown", ".text")
"""Files a text chunker reads as plain text (UTF-8); other inputs are loaded as documents
and chunked as their Markdown export."""


@dataclass
class TextChunking:
    """A text chunker and the refineries that add context to its chunks.

    Attributes:
        chunker: A docchunk text chunker (``chunk(text) -> list[Chunk]``).
        settings: The settings it was built from (its refinery options).
    """

    chunker: Any
    settings: ChunkSettings

    @property
    def tokenizer(self) -> Any:
        """The chunker's tokenizer: the unit of ``chunk_size``, ``context_size`` and ``token_count``."""
        return self.chunker.tokenizer

    def chunk(self, text: str) -> list[Any]:
        """The chunks of ``text``, refined: ``text[c.start_index:c.end_index] == c.text`` for each.

        The refineries never change ``text`` or the offsets; they set
        ``context_prefix`` (neighbour context, then the table header, then the
        heading path, outermost first) and ``context_suffix``.
        """
        chunks = self.chunker.chunk(text)
        s = self.settings
        if s.context_size and len(chunks) > 1:
            from docchunk.refineries.overlap import OverlapRefinery

            mode: Any = s.context_mode  # "token" or "recursive", checked by click and the refinery
            for method in ("prefix", "suffix"):
                if s.context_side in ("both", method):
                    OverlapRefinery(tokenizer=self.tokenizer, context_size=s.context_size, mode=mode,
                                    method=method, merge=False)(chunks)  # fmt: skip
        if s.table_header != "none":
            from docchunk.refineries.table_header import TableHeaderRefinery

            TableHeaderRefinery(caption=s.table_header == "caption")(chunks)
        if s.headings:
            from docchunk.refineries.headings import HeadingContextRefinery

            HeadingContextRefinery()(chunks)
        return chunks


def make_text_chunking(settings: ChunkSettings, debug: bool) -> TextChunking:
    """The text chunker of ``settings`` and its refineries.

    Raises:
        click.UsageError: A bad tokenizer, size or overlap, a missing extra (the
            :class:`DocchunkError` itself when ``debug``).
    """
    return TextChunking(make_text_chunker(settings, debug), settings)


def make_text_chunker(settings: ChunkSettings, debug: bool) -> Any:
    """A text chunker (``recursive``, ``token``, ``sentence``, ``window``, ``semantic``, ``sdpm``).

    ``chunk_size`` defaults to the tokenizer's own limit. For ``window`` it is the
    number of new tokens per window (``offset``) and ``chunk_overlap`` the tokens
    of context on each side. ``semantic`` and ``sdpm`` embed with ``embedding`` (a
    sentence-transformers model, offline; the ``semantic`` extra).

    Raises:
        click.UsageError: No ``chunk_size`` for a tokenizer without a limit, or a
            bad tokenizer, size or overlap (the :class:`DocchunkError` when ``debug``).
    """
    from docchunk.tokenizers import get_tokenizer

    s = settings
    try:
        tokenizer = get_tokenizer(s.tokenizer)
        size = s.chunk_size if s.chunk_size is not None else tokenizer.max_tokens
        if size is None:
            raise click.UsageError(f"--tokenizer {s.tokenizer} has no token limit of its own; give --chunk-size N")
        if s.chunker in ("semantic", "sdpm"):
            return _semantic(s, tokenizer, size)
        from docchunk.chunkers.text import RecursiveChunker, SentenceChunker, TokenChunker, WindowChunker

        if s.chunker == "window":
            return WindowChunker(offset=size, overlap=s.chunk_overlap, unit="token", tokenizer=tokenizer)
        if s.chunker == "recursive":
            return RecursiveChunker(chunk_size=size, chunk_overlap=s.chunk_overlap, tokenizer=tokenizer)
        make = {"token": TokenChunker, "sentence": SentenceChunker}[s.chunker]
        return make(tokenizer=tokenizer, chunk_size=size, chunk_overlap=s.chunk_overlap)
    except DocchunkError as exc:
        if debug:
            raise
        raise click.UsageError(str(exc)) from exc


def _semantic(s: ChunkSettings, tokenizer: Any, size: int) -> Any:
    from docchunk._extras import require
    from docchunk.chunkers.text import SDPMChunker, SemanticChunker

    require("sentence_transformers", "semantic", f"--chunker {s.chunker}")
    from docchunk.evaluation.embed import load_model

    cls = SemanticChunker if s.chunker == "semantic" else SDPMChunker
    return cls(load_model(s.embedding, progress=False), threshold=s.threshold, chunk_size=size, tokenizer=tokenizer,
               similarity_window=s.similarity_window, boundaries=s.boundaries)  # type: ignore[arg-type]  # fmt: skip


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
