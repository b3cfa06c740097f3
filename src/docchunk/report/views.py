"""What a report shows of each chunk: plain, validated data taken from any docchunk chunker's output."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from pydantic import BaseModel, ConfigDict, Field, field_validator

if TYPE_CHECKING:
    from docling_core.types.doc import DoclingDocument, NodeItem

    from docchunk.chunkers.doc.base import DocumentChunker
    from docchunk.chunkers.text.base import TextChunker
    from docchunk.serialization._docling import DocChunk
    from docchunk.types import Chunk, DocChunker

__all__ = ["ChunkView", "DocumentView", "budget_of", "describe_chunker", "inspect_document", "rows_label"]


class ChunkView(BaseModel):
    """One chunk as a report shows it.

    Attributes:
        index: Position of the chunk in its document's chunk list (0-based), as
            ``chunk_index`` in ``docchunk chunk``'s output.
        text: The chunk's text.
        contextualized: What is embedded: ``chunker.contextualize(chunk)`` for
            document chunks; the text for text chunks (their refinery context, if
            any, is in ``context``).
        token_count: Tokens of the chunker's tokenizer: of ``contextualized`` for
            document chunks (``meta.token_count``), of ``text`` for text chunks.
        headings: The heading path, outermost first (document chunks).
        captions: Captions attached to the chunk (document chunks).
        pages: Sorted distinct 1-based page numbers (document chunks with provenance).
        labels: Distinct docling labels of the chunk's doc items (``"text"``, ``"table"`` ...).
        oversized: The chunk exceeds the budget because one indivisible piece is larger.
        table_rows: For a piece of a table: the rows it holds, as ``meta.table_rows``
            gives them (when the chunker sets it): the half-open range ``(start, end)``
            of 0-based grid row indices, header rows included; else None. Shown in
            1-based, inclusive words by :func:`rows_label`.
        start_index: Start offset in the source text (text chunks), else None.
        end_index: End offset (exclusive) in the source text (text chunks), else None.
        context: Context a refinery attached without merging it (text chunks), else None.
    """

    model_config = ConfigDict(extra="forbid")

    index: int = Field(ge=0)
    text: str
    contextualized: str
    token_count: int | None = None
    headings: list[str] = Field(default_factory=list)
    captions: list[str] = Field(default_factory=list)
    pages: list[int] = Field(default_factory=list)
    labels: list[str] = Field(default_factory=list)
    oversized: bool = False
    table_rows: tuple[int, int] | None = None
    start_index: int | None = None
    end_index: int | None = None
    context: str | None = None

    @field_validator("table_rows")
    @classmethod
    def _half_open(cls, value: tuple[int, int] | None) -> tuple[int, int] | None:
        if value is not None and not 0 <= value[0] < value[1]:
            raise ValueError(f"table_rows must be a half-open range (start, end) with 0 <= start < end, got {value!r}")
        return value


def rows_label(table_rows: tuple[int, int]) -> str:
    """A half-open, 0-based row range in 1-based, inclusive words: ``(2, 3)`` is "row 3", ``(2, 4)`` "rows 3–4".

    Rows are counted as in the table's grid, header rows included (the first row is row 1).
    """
    start, end = table_rows
    return f"row {end}" if end - start == 1 else f"rows {start + 1}–{end}"


class DocumentView(BaseModel):
    """The chunks of one input and how they were made.

    Attributes:
        source: Name of the input (its path as given).
        chunker: The chunker and its settings (:func:`describe_chunker`).
        tokenizer: Name of the tokenizer that counts ``token_count``.
        budget: Tokens per chunk the chunker aims for (``max_tokens`` or
            ``chunk_size``), or None when it has none.
        text: The source text when the input was chunked as text (so the report can
            show the text between and across chunks), else None.
        chunks: The chunks, in the chunker's order (reading order).
    """

    model_config = ConfigDict(extra="forbid")

    source: str
    chunker: str
    tokenizer: str
    budget: int | None = Field(default=None, ge=1)
    text: str | None = None
    chunks: list[ChunkView]


def budget_of(chunker: DocChunker | TextChunker) -> int | None:
    """The token budget per chunk of a docchunk chunker, or None.

    ``max_tokens`` of a document chunker, ``chunk_size`` of a text chunker
    (``offset + 2 * overlap`` for ``WindowChunker``), else the tokenizer's own limit.
    """
    for name in ("max_tokens", "chunk_size"):
        value = getattr(chunker, name, None)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
    tokenizer = getattr(chunker, "token_counter", None) or getattr(chunker, "tokenizer", None)
    limit = getattr(tokenizer, "max_tokens", None)
    return limit if isinstance(limit, int) and limit > 0 else None


def describe_chunker(chunker: DocChunker | TextChunker) -> str:
    """``Name(field=value, ...)`` of a chunker: its plain settings, its tokenizer by name.

    Unlike ``repr`` of a document chunker, it holds no object addresses, so the same
    configuration always reads the same.
    """
    fields = getattr(type(chunker), "model_fields", None)
    if fields is None:  # the text chunkers' repr is already plain
        return repr(chunker)
    parts = []
    for name in fields:
        value = getattr(chunker, name, None)
        if name == "tokenizer":  # a docchunk document chunker's
            value = cast("DocumentChunker", chunker).token_counter.name
        if value is None or isinstance(value, (bool, int, float, str)):
            parts.append(f"{name}={value!r}")
    return f"{type(chunker).__name__}({', '.join(parts)})"


def inspect_document(chunker: DocChunker | TextChunker, source: str, document: DoclingDocument | str) -> DocumentView:
    """Chunk one input and describe every chunk.

    Args:
        chunker: A docchunk document chunker (``HybridChunker``, ``HierarchicalChunker``)
            when ``document`` is a ``DoclingDocument``, or a text chunker
            (``RecursiveChunker``, ``TokenChunker`` ...) when it is a ``str``.
        source: Name of the input, shown in the report.
        document: A ``DoclingDocument`` or a text.

    Returns:
        A :class:`DocumentView` with one :class:`ChunkView` per chunk that
        ``chunker.chunk(document)`` returns, in the same order.

    Raises:
        DocumentError: ``document`` is not what ``chunker`` takes (raised by the chunker).
    """
    # the casts say what each kind of input needs; the wrong chunker raises when called
    if isinstance(document, str):
        text_chunker = cast("TextChunker", chunker)
        views = [_text_view(i, c) for i, c in enumerate(text_chunker.chunk(document))]
        text: str | None = document
        tokenizer = text_chunker.tokenizer
    else:
        doc_chunker = cast("DocumentChunker", chunker)
        views = [_doc_view(i, cast("DocChunk", c), doc_chunker) for i, c in enumerate(doc_chunker.chunk(document))]
        text = None
        tokenizer = doc_chunker.token_counter
    return DocumentView(source=source, chunker=describe_chunker(chunker), tokenizer=tokenizer.name,
                        budget=budget_of(chunker), text=text, chunks=views)  # fmt: skip


def _text_view(index: int, chunk: Chunk) -> ChunkView:
    return ChunkView(index=index, text=chunk.text, contextualized=chunk.text, token_count=chunk.token_count,
                     oversized=chunk.oversized, start_index=chunk.start_index, end_index=chunk.end_index,
                     context=_text_context(chunk))  # fmt: skip


def _text_context(chunk: Chunk) -> str | None:
    """A text chunk's refinery context, prefix and suffix, or None."""
    parts = [part for part in (chunk.context_prefix, chunk.context_suffix) if part]
    return " … ".join(parts) if parts else None


def _doc_view(index: int, chunk: DocChunk, chunker: DocChunker) -> ChunkView:
    meta = chunk.meta
    fields = meta.__dict__  # read captions without the deprecation warning of the property
    return ChunkView(
        index=index,
        text=chunk.text,
        contextualized=chunker.contextualize(chunk),
        token_count=fields.get("token_count"),
        headings=list(meta.headings or ()),
        captions=list(fields.get("captions") or ()),
        pages=list(fields.get("page_numbers") or ()),
        labels=_labels(meta.doc_items),
        oversized=bool(fields.get("oversized")),
        table_rows=fields.get("table_rows"),
    )


def _labels(items: Sequence[NodeItem]) -> list[str]:
    labels: list[str] = []
    for item in items:
        label = str(getattr(getattr(item, "label", None), "value", getattr(item, "label", "")) or "")
        if label and label not in labels:
            labels.append(label)
    return labels
