"""The text chunkers of the commands: a chunker of ``--chunker recursive|token|...`` and its refineries.

Light to import: the chunker and its tokenizer load when :func:`make_text_chunking`
is called; the semantic chunkers load their embedding model then too. The text inputs
(:data:`TEXT_SUFFIXES`, :func:`read_text`) and :class:`TextChunking` live in
:mod:`docchunk.batch.text` and are re-exported here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from docchunk.batch.text import TEXT_SUFFIXES, TextChunking, decode_text, read_text
from docchunk.cli.settings import ChunkSettings
from docchunk.errors import DocchunkError

if TYPE_CHECKING:
    from docchunk.chunkers.text.base import TextChunker
    from docchunk.chunkers.text.semantic import SemanticChunker
    from docchunk.tokenizers import Tokenizer

__all__ = ["TEXT_SUFFIXES", "TextChunking", "decode_text", "make_text_chunker", "make_text_chunking", "read_text"]


def make_text_chunking(settings: ChunkSettings, debug: bool) -> TextChunking:
    """The text chunker of ``settings`` and its refineries.

    Raises:
        click.UsageError: A bad tokenizer, size or overlap, a missing extra (the
            :class:`DocchunkError` itself when ``debug``).
    """
    return TextChunking(make_text_chunker(settings, debug), settings)


def make_text_chunker(settings: ChunkSettings, debug: bool) -> TextChunker:
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


def _semantic(s: ChunkSettings, tokenizer: Tokenizer, size: int) -> SemanticChunker:
    from docchunk._extras import require
    from docchunk.chunkers.text import SDPMChunker, SemanticChunker

    require("sentence_transformers", "semantic", f"--chunker {s.chunker}")
    from docchunk.embeddings.load import load_model

    cls = SemanticChunker if s.chunker == "semantic" else SDPMChunker
    return cls(load_model(s.embedding, progress=False), threshold=s.threshold, chunk_size=size, tokenizer=tokenizer,
               similarity_window=s.similarity_window, boundaries=s.boundaries)  # type: ignore[arg-type]  # fmt: skip
