"""Chunk models of the document chunkers and their contextualized (embedding) form.

``DocChunk``/``DocMeta`` are docling-core's chunk models (loaded without docling-core's
chunker package, see :mod:`docchunk.serialization._docling`) with docchunk's
additions; :func:`contextualize` turns a chunk into the string an embedding model sees.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, Field, PrivateAttr

from docchunk.serialization._docling import BaseChunk, BaseChunker
from docchunk.serialization._docling import DocChunk as _DLDocChunk
from docchunk.serialization._docling import DocMeta as _DLDocMeta

if TYPE_CHECKING:
    from docling_core.types.doc import NodeItem

    from docchunk.tokenizers import Tokenizer

__all__ = [
    "ChunkBudget", "DocChunk", "DocMeta", "ItemSpan", "PageBox", "as_docchunk", "contextualize", "join_context",
    "page_numbers_of",
]  # fmt: skip


_OWN_FIELDS = ["token_count", "page_numbers", "oversized", "context_prefix", "context_suffix", "expanded", "table_rows",
               "table_cols", "spans", "page_boxes", "headings_dropped", "table_context_dropped", "role"]


class ItemSpan(BaseModel):
    """The half-open character range ``[start, end)`` of the ``text`` of the item ``ref`` that a chunk holds."""

    ref: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)


class PageBox(BaseModel):
    """One page of a chunk: its number (1-based) and the union of the chunk's items' boxes on it."""

    page_no: int
    bbox: dict[str, Any]


class DocMeta(_DLDocMeta):
    """docling-core's ``DocMeta`` (headings, captions, doc_items, origin) with docchunk's additions.

    The additions are excluded from embedding and LLM serialization, so
    ``contextualize()`` gives the same string as for docling-core's ``DocMeta``, and
    ``export_json_dict()`` keeps docling-core's keys and adds these:

    Attributes:
        captions: The caption texts of the table or picture the chunk holds (default
            mode of :class:`docchunk.HybridChunker`); else None. The same field and JSON
            key as docling-core's, which marks the attribute deprecated because its own
            chunkers no longer fill it; docchunk's does, so reading it gives no warning.
        token_count: Tokens of ``contextualize(chunk)`` (headings, captions, attached
            context and text: the string to embed), counted by the chunker's tokenizer;
            a text chunk's :attr:`docchunk.Chunk.token_count` counts its ``text`` alone
            (docs/concepts.md, "What token_count counts").
        page_numbers: Sorted, distinct page numbers (1-based) of the provenance of
            ``doc_items``; None when the items carry no provenance.
        oversized: True when ``token_count`` exceeds the chunker's ``max_tokens``
            because one indivisible piece (no split point inside) is larger; else None.
        context_prefix: Text of the previous chunk that an ``OverlapRefinery`` with
            ``merge=False`` attached; ``contextualize()`` puts it before the text.
        context_suffix: Likewise, text of the next chunk, put after the text.
        expanded: Set by the chunk expanders (:class:`docchunk.TreeChunkExpander`,
            :class:`docchunk.PageChunkExpander`): True when the chunk was expanded,
            False when the expansion would exceed their ``max_tokens``; else None.
        table_rows: For a chunk that holds rows of one table (default mode of
            :class:`docchunk.HybridChunker`), the half-open range ``(start, end)`` of
            the table's row indices it holds (0-based, header rows included), so the
            table can be rebuilt from its chunks; else None.
        table_cols: For a chunk that holds part of a table row split between
            chunks (a row larger than the budget), the grid columns (0-based, of
            ``TableItem.data.grid``) of every row it holds, as half-open ranges
            ``[row, start, end]``, sorted: the columns of the row's entries that it
            holds, plus the row's label columns, which every piece of the row
            repeats (records and triplets); the rows it holds whole list all the
            table's columns. The pieces of a split row list each of its other
            columns once, except a cell whose text alone exceeds the budget, listed
            by each piece that holds a part of it. Computed while the row is split.
            None for chunks of whole rows and of other origins.
        spans: The characters of each text item's ``text`` that ``text`` holds, in
            document order: ``{"ref": self_ref, "start", "end"}`` (character offsets
            into the item's ``text``, half-open). Computed while chunking (see
            :mod:`docchunk.chunkers.doc.provenance` for the serializer's escaping
            they allow for: Markdown hard line breaks, list markers, formatting);
            the spans of a document's chunks cover each chunked item's text once.
            An ``OverlapRefinery`` adds no spans for the context it copies. None
            for chunks of other origins.
        page_boxes: Where the items have provenance, one box per page: ``{"page_no",
            "bbox": {"l", "t", "r", "b", "coord_origin"}}``, the union of the
            chunk's items' boxes on that page, in the coordinate origin of the
            items' boxes; else None.
        headings_dropped: Default mode of :class:`docchunk.HybridChunker`: the outer
            headings of the chunk's section path that ``headings`` leaves out because
            they did not fit ``max_tokens`` with its text (outermost first; ``headings``
            holds the rest of the path, maybe nothing): a table row kept whole under a
            path costing more than half the budget, or a path larger than the budget
            on its own. None when ``headings`` is the whole path.
        table_context_dropped: Default mode of :class:`docchunk.HybridChunker`, for a
            chunk of a split table's rows: what of the table's context the chunk lacks
            because it did not fit ``max_tokens`` beside a row, in this order:
            ``"caption"`` (the caption and description, then a chunk of their own before
            the table), ``"headers"`` (the Markdown header lines, a chunk of their own;
            a user's Markdown table serializer's header, when larger than the budget),
            ``"notes"`` (the table-wide notes, a period or units over every column, that
            open each later piece of a records or triplets table). None when the chunk
            carries all of them (or the table has none).
        role: What the chunk is when a boilerplate rule of :mod:`docchunk.roles` marks
            it: ``"navigation"``, ``"contents"``, ``"links"``, ``"furniture"`` or
            ``"concepts"``; None for content. Set after chunking, never by a chunker.
    """

    captions: list[str] | None = Field(default=None, alias="captions", min_length=1)
    token_count: int | None = Field(default=None, ge=0)
    page_numbers: list[int] | None = None
    oversized: bool | None = None
    context_prefix: str | None = None
    context_suffix: str | None = None
    expanded: bool | None = None
    table_rows: tuple[int, int] | None = None
    table_cols: list[tuple[int, int, int]] | None = None
    spans: list[ItemSpan] | None = None
    page_boxes: list[PageBox] | None = None
    headings_dropped: list[str] | None = None
    table_context_dropped: list[str] | None = None
    role: str | None = None

    excluded_embed: ClassVar[list[str]] = [*_DLDocMeta.excluded_embed, *_OWN_FIELDS]
    excluded_llm: ClassVar[list[str]] = [*_DLDocMeta.excluded_llm, *_OWN_FIELDS]


class _Captions:
    """``DocMeta.captions`` read from the instance, without docling-core's deprecation warning.

    docling-core marks its ``captions`` field deprecated, and pydantic then puts a
    data descriptor on its class that warns at every read; a subclass inherits it
    even when it declares the field again. docchunk's default mode fills the field,
    so its ``DocMeta`` shadows that descriptor with this one. Writes go through
    pydantic's ``__setattr__`` as for any field.
    """

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            raise AttributeError("captions")  # a field, as pydantic's descriptor answers on the class
        return obj.__dict__["captions"]

    def __set__(self, obj: Any, value: Any) -> None:  # pragma: no cover - pydantic's __setattr__ comes first
        raise AttributeError("captions")


type.__setattr__(DocMeta, "captions", _Captions())


class ChunkBudget:
    """How a document chunker sized its chunks: the tokenizer, the limit and ``delim``.

    Each :class:`DocChunk` a docchunk chunker makes remembers its budget (as
    :attr:`DocChunk.budget`, not serialized), so that an :class:`docchunk.OverlapRefinery`
    recounts ``meta.token_count`` in the chunker's tokens and keeps the chunker's
    ``max_tokens``. Copies of a chunk share the budget (it is immutable).

    Attributes:
        tokenizer: The chunker's :class:`docchunk.Tokenizer` (counts ``meta.token_count``).
        max_tokens: The chunker's limit in tokens of ``tokenizer``; None when it has
            none (``HierarchicalChunker``).
        delim: The chunker's ``delim``, the separator ``contextualize`` uses.
    """

    __slots__ = ("delim", "max_tokens", "tokenizer")

    def __init__(self, tokenizer: Tokenizer, max_tokens: int | None, delim: str = "\n"):
        self.tokenizer = tokenizer
        self.max_tokens = max_tokens
        self.delim = delim

    def __copy__(self) -> ChunkBudget:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> ChunkBudget:
        return self  # shared, never copied: it holds the chunker's tokenizer


class DocChunk(_DLDocChunk):
    """A chunk of a ``DoclingDocument``: ``text`` and :class:`DocMeta`; a docling-core ``DocChunk``.

    Besides docling-core's fields it remembers, without serializing them, the
    :class:`ChunkBudget` of the chunker that made it and, once an
    :class:`docchunk.OverlapRefinery` merged context into ``text``, the text before
    any context (so that later passes take context from the original text).

    Attributes:
        embedding: The vector an :class:`docchunk.EmbeddingsRefinery` wrote: the
            embedding of ``contextualize(chunk)``, ``d`` floats (float32 values); None
            until then. A field of the chunk, not of ``meta``, so ``meta`` stays the
            JSON that ``docchunk chunk`` writes and docling-core reads.
    """

    meta: DocMeta
    embedding: list[float] | None = Field(default=None, repr=False)

    _budget: ChunkBudget | None = PrivateAttr(default=None)
    _body: str | None = PrivateAttr(default=None)
    _merged: tuple[str | None, str | None] | None = PrivateAttr(default=None)

    @property
    def budget(self) -> ChunkBudget | None:
        """The :class:`ChunkBudget` of the chunker that made this chunk.

        None when unknown: a chunk from docling-core, or one loaded from JSON.
        """
        return self._budget


def as_docchunk(chunk: Any) -> DocChunk:
    """``chunk`` as docchunk's :class:`DocChunk`: itself when it is one, else a new one with its text and meta.

    A docling-core ``DocChunk`` (from its own chunkers, or validated with its class) has
    docling-core's ``DocMeta``, which holds none of docchunk's fields (``context_prefix``,
    ``token_count`` ...): its fields are copied into a :class:`DocMeta` (docchunk's
    additions None), its items as they are. The new chunk has no :attr:`DocChunk.budget`.

    Raises:
        pydantic.ValidationError: ``chunk.meta`` does not hold docling-core's ``DocMeta`` fields.
    """
    if isinstance(chunk, DocChunk):
        return chunk
    meta = DocMeta.model_validate({k: v for k, v in vars(chunk.meta).items() if k in DocMeta.model_fields})
    return DocChunk(text=chunk.text, meta=meta)


def contextualize(chunk: BaseChunk, delim: str = "\n") -> str:
    r"""Serialize a chunk with its headings and captions for an embedding model.

    Gives the same string as docling-core's ``BaseChunker.contextualize``: the
    headings, then the captions, then the text, joined by ``delim``. Metadata that
    is excluded from embedding (doc_items, origin, token_count ...) is left out.

    Args:
        chunk: A :class:`DocChunk` or any docling-core ``BaseChunk``.
        delim: The separator, ``"\n"`` by default as in docling-core.

    Returns:
        The embedding string.
    """
    meta = chunk.meta
    if type(meta) is DocMeta:
        # refinery context sits on its own line(s) around the text, as merge=True puts it
        text = delim.join(part for part in (meta.context_prefix, chunk.text, meta.context_suffix) if part)
        # read captions without triggering the deprecation warning of the field
        return join_context(meta.headings, meta.__dict__.get("captions"), text, delim)
    if type(meta) is _DLDocMeta:
        return join_context(meta.headings, meta.__dict__.get("captions"), chunk.text, delim)
    return str(_ContextOnly(delim=delim).contextualize(chunk))


class _ContextOnly(BaseChunker):
    """docling-core's generic ``contextualize`` for metadata classes other than ours."""

    def chunk(self, dl_doc: Any, **kwargs: Any) -> Any:  # pragma: no cover - never called
        raise NotImplementedError


def join_context(headings: Sequence[str] | None, captions: Sequence[str] | None, text: str, delim: str) -> str:
    """The contextualized string of a chunk from its parts (see :func:`contextualize`)."""
    if not headings and not captions:
        return text
    return delim.join([*(headings or ()), *(captions or ()), text])


def page_numbers_of(doc_items: Sequence[NodeItem]) -> list[int] | None:
    """Sorted distinct ``page_no`` of the items' provenance, or None when there is none."""
    pages = {p.page_no for it in doc_items for p in (getattr(it, "prov", None) or ())}
    return sorted(pages) if pages else None
