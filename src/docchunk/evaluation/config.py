"""What is evaluated: a chunker, its settings, and the context embedded with each chunk."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Literal, cast

import numpy as np

from docchunk.errors import ConfigError
from docchunk.types import EmbedBatch, JSONObject, SpanChunker, TextChunkLike
from docchunk.types.config import check_size

if TYPE_CHECKING:
    from docchunk.chunkers.text.base import TextChunker

__all__ = ["CHUNKERS", "ChunkingConfig", "EvalChunks", "chunk_corpus"]

CHUNKERS = ("recursive", "token", "sentence", "window", "semantic", "sdpm")
SIDES = ("both", "prefix", "suffix")
TABLE_HEADERS = ("none", "row", "caption")


@dataclass(frozen=True)
class ChunkingConfig:
    """A chunking configuration as ``docchunk eval`` builds it.

    Attributes:
        chunker: One of ``CHUNKERS``.
        tokenizer: Tokenizer spec of ``chunk_size``, ``chunk_overlap`` and
            ``context_size`` (any :func:`docchunk.get_tokenizer` spec; None is
            docchunk's default, all-MiniLM-L6-v2).
        chunk_size: Maximum chunk size in tokens of ``tokenizer`` (``window``: the
            main segment, its ``offset``); >= 1.
        chunk_overlap: Tokens repeated between neighbouring chunks (``window``: the
            context on each side, its ``overlap``; ``semantic``/``sdpm``: must be 0).
        context_size: Tokens of each neighbouring chunk embedded with a chunk but not
            retrieved (:class:`docchunk.OverlapRefinery` with ``merge=False``); 0: none.
        context_side: ``"both"``, ``"prefix"`` (end of the previous chunk) or
            ``"suffix"`` (start of the next one).
        context_mode: ``OverlapRefinery``'s ``mode``: ``"token"`` or ``"recursive"``
            (whole sentences and words that fit).
        context_stop: ``OverlapRefinery``'s ``stop_at``: the boundaries context does
            not cross (blank lines, headings, tables; ``()`` for none).
        threshold: Semantic chunkers: quantile below which a similarity dip is a boundary.
        boundaries: Semantic chunkers: ``"paragraph"`` or ``"sentence"``.
        similarity_window: Semantic chunkers: sentences on each side of a gap besides the nearest.
        table_header: Context for chunks that start inside a pipe table
            (:class:`docchunk.TableHeaderRefinery`): ``"none"``; ``"row"``, the
            table's header row; ``"caption"``, the row and the sentence before the
            table. Embedded before any ``context_size`` prefix, not retrieved.
        headings: Embed the path of Markdown and MediaWiki headings above each
            chunk (:class:`docchunk.HeadingContextRefinery`) first, not retrieved.
    """

    chunker: str = "recursive"
    tokenizer: str | None = None
    chunk_size: int = 200
    chunk_overlap: int = 0
    context_size: int = 0
    context_side: Literal["both", "prefix", "suffix"] = "both"
    context_mode: Literal["token", "recursive"] = "token"
    context_stop: tuple[str, ...] = ("blank_line", "heading", "table")
    threshold: float = 0.8
    boundaries: Literal["paragraph", "sentence"] = "paragraph"
    similarity_window: int = 1
    table_header: Literal["none", "row", "caption"] = "none"
    headings: bool = False

    def __post_init__(self) -> None:
        if self.chunker not in CHUNKERS:
            raise ConfigError(f"chunker must be one of {CHUNKERS!r}, got {self.chunker!r}")
        if self.context_side not in SIDES:
            raise ConfigError(f"context_side must be one of {SIDES!r}, got {self.context_side!r}")
        check_size("context_size", self.context_size, 0)
        from docchunk.refineries.boundaries import check_stops

        object.__setattr__(self, "context_stop", check_stops(self.context_stop))
        if self.table_header not in TABLE_HEADERS:
            raise ConfigError(f"table_header must be one of {TABLE_HEADERS!r}, got {self.table_header!r}")
        if self.chunker in ("semantic", "sdpm") and self.chunk_overlap:
            raise ConfigError(f"chunk_overlap={self.chunk_overlap!r}: the semantic chunkers have no overlap; "
                              "use context_size for context from the neighbours")  # fmt: skip

    def to_dict(self) -> JSONObject:
        """The settings as a JSON-ready dict."""
        return asdict(self)

    def build(self, embed_batch: EmbedBatch | None = None) -> TextChunker:
        """The chunker (``embed_batch`` is needed by ``semantic`` and ``sdpm`` only).

        Raises:
            ConfigError: Invalid settings (from the chunker's own validation).
        """
        from docchunk import RecursiveChunker, SentenceChunker, TokenChunker, WindowChunker, get_tokenizer

        tok = get_tokenizer(self.tokenizer)
        size, overlap = self.chunk_size, self.chunk_overlap
        if self.chunker == "recursive":
            return RecursiveChunker(chunk_size=size, chunk_overlap=overlap, tokenizer=tok)
        if self.chunker == "token":
            return TokenChunker(tok, chunk_size=size, chunk_overlap=overlap)
        if self.chunker == "sentence":
            return SentenceChunker(tok, chunk_size=size, chunk_overlap=overlap)
        if self.chunker == "window":
            return WindowChunker(offset=size, overlap=overlap, unit="token", tokenizer=tok)
        from docchunk import SDPMChunker, SemanticChunker

        cls = SemanticChunker if self.chunker == "semantic" else SDPMChunker
        # without embed_batch the semantic chunker raises a ConfigError that says what it needs
        return cls(cast("EmbedBatch", embed_batch), threshold=self.threshold, chunk_size=size, tokenizer=tok,
                   similarity_window=self.similarity_window, boundaries=self.boundaries)  # fmt: skip


@dataclass
class EvalChunks:
    """The chunks of one corpus as evaluated.

    Attributes:
        spans: int64 array of shape ``(n, 2)``: each chunk's own ``(start_index,
            end_index)`` in characters, the span that is scored when retrieved.
        embedded: The n strings embedded: the chunk's text with any context around it.
    """

    spans: np.ndarray
    embedded: list[str]


def chunk_corpus(config: ChunkingConfig, chunker: SpanChunker, text: str) -> EvalChunks:
    """Chunk ``text`` and add the configured context to the strings to embed.

    Raises:
        DocumentError: A chunk's offsets do not slice its text out of ``text``.
    """
    from docchunk.errors import DocumentError

    chunks = list(chunker.chunk(text))
    for c in chunks:
        if c.start_index is None or text[c.start_index : c.end_index] != c.text:
            raise DocumentError(f"chunk {c.text[:40]!r} has offsets ({c.start_index!r}, {c.end_index!r}) "
                                "that do not slice it out of the corpus; evaluation needs exact spans")  # fmt: skip
    spans = np.array([(c.start_index, c.end_index) for c in chunks], dtype=np.int64).reshape(-1, 2)
    before = after = [""] * len(chunks)
    if config.context_size and len(chunks) > 1:
        if config.context_side in ("both", "prefix"):
            before = _contexts(config, chunks, "prefix")
        if config.context_side in ("both", "suffix"):
            after = _contexts(config, chunks, "suffix")
    if config.table_header != "none":
        from docchunk import TableHeaderRefinery

        refined = TableHeaderRefinery(caption=config.table_header == "caption", inplace=False)(chunks)
        before = [(r.context_prefix or "") + b for r, b in zip(refined, before, strict=True)]
    if config.headings:
        from docchunk import HeadingContextRefinery

        refined = HeadingContextRefinery(inplace=False)(chunks)
        before = [(r.context_prefix or "") + b for r, b in zip(refined, before, strict=True)]
    return EvalChunks(spans=spans, embedded=[b + c.text + a for b, c, a in zip(before, chunks, after, strict=False)])


def _contexts(config: ChunkingConfig, chunks: list[TextChunkLike], method: str) -> list[str]:
    """Each chunk's context from one side, by :class:`docchunk.OverlapRefinery` with ``merge=False``."""
    from docchunk import OverlapRefinery

    refinery = OverlapRefinery(tokenizer=config.tokenizer, context_size=config.context_size, mode=config.context_mode,
                               method=method, merge=False, inplace=False,  # type: ignore[arg-type]
                               stop_at=config.context_stop)  # fmt: skip
    side = "context_prefix" if method == "prefix" else "context_suffix"
    return [getattr(c, side) or "" for c in refinery(chunks)]
