"""The text chunk: a slice of the input with its size (after chonkie's ``Chunk``)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

if TYPE_CHECKING:
    from docling_core.transforms.chunker.base import BaseChunk  # type-only: no docling-core chunker package at run time
    from docling_core.types.doc import DoclingDocument

__all__ = ["Chunk", "ChunkLike", "DocChunker", "SpanChunker", "TextChunkLike", "WindowChunk", "make_chunks"]


class ChunkLike(Protocol):
    """Any chunk a refinery takes: something with a ``text``.

    A text chunk (:class:`Chunk`) or a document chunk (docling-core's ``DocChunk``,
    docchunk's :class:`docchunk.DocChunk`: ``text`` and ``meta``); the refineries
    read the rest (offsets, ``meta``) where the kind of chunk has it.
    """

    @property
    def text(self) -> str:
        """The chunk's text."""
        ...


class TextChunkLike(Protocol):
    """A text chunk as the source-run refineries read and write it: its text, its offsets, its context prefix.

    :class:`Chunk` is one; so is any chunk with these attributes (offsets are
    ``str`` indices of the source text, ``source[start_index:end_index] == text``).
    """

    text: str
    start_index: int
    end_index: int
    context_prefix: str | None


class DocChunker(Protocol):
    """What chunks a ``DoclingDocument``: docling-core's ``BaseChunker`` interface, ``chunk`` and ``contextualize``.

    Every docchunk document chunker (and :class:`docchunk.ExpandingChunker`) and every
    docling-core chunker is one. A Protocol rather than ``BaseChunker`` where a pydantic
    field holds the chunker: a field of a model class would be serialized as that class.
    """

    def chunk(self, dl_doc: DoclingDocument, **kwargs: Any) -> Iterator[BaseChunk]:
        """The chunks of ``dl_doc``, in order."""
        ...

    def contextualize(self, chunk: BaseChunk) -> str:
        """The embedding string of ``chunk``."""
        ...


class SpanChunker(Protocol):
    """What chunks a text into exact spans: ``chunk(text)`` gives :class:`TextChunkLike` chunks in order.

    docchunk's text chunkers (:class:`docchunk.RecursiveChunker` and the others) are
    ones; so is a peer library's chunker wrapped to give chunks with these attributes
    (``docchunk eval`` compares them so).
    """

    def chunk(self, text: str) -> Sequence[TextChunkLike]:
        """The chunks of ``text``, in order: ``text[c.start_index:c.end_index] == c.text``."""
        ...


class Chunk(BaseModel):
    """A chunk of a text.

    Attributes:
        text: The chunk's text: always the slice ``source[start_index:end_index]`` of
            the input, also after an :class:`docchunk.OverlapRefinery` merged context
            into it (it then extends the offsets over the context).
        start_index: Start offset in the input (a Python ``str`` index); always an
            int: every chunk is a slice of its input, also after a refinery.
        end_index: End offset (exclusive): ``source[start_index:end_index] == text``.
        token_count: Size of ``text`` in tokens of the chunker's tokenizer (the
            unit of its ``chunk_size``): ``text`` alone, not ``context_prefix`` or
            ``context_suffix``. A document chunk's ``meta.token_count`` counts
            ``contextualize(chunk)`` instead (docs/concepts.md, "What token_count counts").
        context_prefix: Text of the previous chunk that an ``OverlapRefinery``
            attached before this one without making it part of ``text``
            (``merge=False``, or a neighbour that is not adjacent in the input);
            None otherwise. The string to embed is then
            ``(context_prefix or "") + text + (context_suffix or "")``.
        context_suffix: Likewise, text of the next chunk, after this one.
        oversized: True when ``token_count`` exceeds the chunker's limit because one
            indivisible piece (no split point inside) is larger.
        embedding: The vector an :class:`docchunk.EmbeddingsRefinery` wrote: the
            embedding of ``(context_prefix or "") + text + (context_suffix or "")``,
            ``d`` floats (float32 values); None until then.
    """

    model_config = ConfigDict(extra="forbid")

    text: str
    start_index: int
    end_index: int
    token_count: int = 0
    context_prefix: str | None = None
    context_suffix: str | None = None
    oversized: bool = False
    embedding: list[float] | None = Field(default=None, repr=False)

    # offsets of the text before an OverlapRefinery merged context into it (not serialized)
    _body: tuple[int, int] | None = PrivateAttr(default=None)

    def __len__(self) -> int:
        return len(self.text)

    def __str__(self) -> str:
        return self.text


class WindowChunk(Chunk):
    """A chunk of :class:`docchunk.WindowChunker`: context, main segment, context.

    Attributes:
        main_start_index: Start offset of the main segment (the ``offset`` new units).
        main_end_index: End offset of the main segment; the main segments of all
            chunks tile the input with no gap and no overlap.
    """

    main_start_index: int = 0
    main_end_index: int = 0


_SET = frozenset({"text", "start_index", "end_index", "token_count"})
_SET_OVERSIZED = _SET | {"oversized"}


def make_chunks(text: str, spans: Iterable[tuple[int, int, int, bool]]) -> list[Chunk]:
    """Chunks of ``text`` from ``(start, end, token_count, oversized)`` spans.

    The spans come from a chunker (ints and a bool; the text a ``str``), so the chunks
    are built as ``Chunk.model_construct`` builds them, without validation, but without
    its per-call overhead: the same ``__dict__``, fields set, extra and private state
    as ``Chunk(text=..., start_index=..., end_index=..., token_count=...)`` (and
    ``oversized=True`` when it is), about twice as fast as validating them as a list.
    """
    new, setattr_ = Chunk.__new__, object.__setattr__
    out: list[Chunk] = []
    for s, e, n, flag in spans:
        chunk = new(Chunk)
        setattr_(chunk, "__dict__", {"text": text[s:e], "start_index": s, "end_index": e, "token_count": n,
                                     "context_prefix": None, "context_suffix": None, "oversized": flag,
                                     "embedding": None})  # fmt: skip
        setattr_(chunk, "__pydantic_fields_set__", set(_SET_OVERSIZED if flag else _SET))
        setattr_(chunk, "__pydantic_extra__", None)
        setattr_(chunk, "__pydantic_private__", {"_body": None})
        out.append(chunk)
    return out
