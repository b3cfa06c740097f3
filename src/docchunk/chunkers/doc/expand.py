"""Small-to-big retrieval: expand a chunk to its whole top-level items or its whole pages.

Follows docling-core's ``TreeChunkExpander`` and ``PageChunkExpander``
(``BaseChunkExpander.expand(chunk, dl_doc, serializer)``): match small chunks, hand
the reader the complete table, list or section element, or the complete pages.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Literal

from docling_core.transforms.serializer.base import BaseDocSerializer
from docling_core.types.doc import DoclingDocument
from docling_core.types.doc.document import DocItem, InlineGroup, ListGroup, NodeItem
from pydantic import ConfigDict, PrivateAttr, ValidationError

from docchunk._versions import DOCLING_CORE_VERSION
from docchunk.chunkers.doc.base import assign_validated
from docchunk.chunkers.doc.chunk_items import items_in
from docchunk.chunkers.doc.mode import Mode, mode_for
from docchunk.chunkers.doc.page import page_parts
from docchunk.chunkers.doc.provenance import captions_of
from docchunk.errors import ConfigError, DocumentError
from docchunk.serialization._docling import BaseChunk, BaseChunker, BaseChunkExpander
from docchunk.serialization.chunk import DocChunk, contextualize, page_numbers_of
from docchunk.serialization.tables import TableFormat, check_table_format
from docchunk.tokenizers import Tokenizer, TokenizerSpec, get_tokenizer
from docchunk.types.config import check_size, config_error

__all__ = ["ChunkExpander", "ExpandingChunker", "PageChunkExpander", "TreeChunkExpander", "get_expander"]


class ChunkExpander(BaseChunkExpander):
    """Base of docchunk's chunk expanders; a docling-core ``BaseChunkExpander``.

    Attributes:
        tokenizer: Any spec :func:`docchunk.get_tokenizer` accepts; counts the expanded
            chunk's ``meta.token_count`` (tokens of ``contextualize(chunk)``). Default:
            all-MiniLM-L6-v2. Use the tokenizer of the chunker that made the chunks.
        max_tokens: Optional cap, in tokens of ``tokenizer``, on the expanded chunk's
            contextualized text; an expansion above it is not made: the chunk comes
            back unexpanded with ``meta.expanded = False``. None: no cap.
        docling_compat: Reproduce docling-core's output exactly (no cap, no flag).
        table_format: How the expansion writes tables in the default mode:
            ``"records"`` (default), ``"triplets"`` or ``"markdown"``; give the
            ``table_format`` of the chunker that made the chunks, so that the expanded
            chunk writes its tables exactly as the chunk did. Another value raises
            ``ConfigError``, and so does a value other than ``"records"`` with
            ``docling_compat=True``.
        include_furniture: Default mode: also write page headers and footers (as the
            chunker's ``include_furniture``; left out by default).
        delim: Separator of headings, captions and text in ``contextualize``.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid", validate_assignment=True)

    tokenizer: TokenizerSpec = None
    max_tokens: int | None = None
    docling_compat: bool = False
    table_format: TableFormat = "records"
    include_furniture: bool = False
    delim: str = "\n"

    _tok: Tokenizer = PrivateAttr()

    def __init__(self, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise config_error(type(self).__name__, exc) from None

    def __setattr__(self, name: str, value: Any) -> None:
        # validated like the constructor's arguments; model_post_init checks them again
        assign_validated(self, name, value, True, super().__setattr__)

    def model_post_init(self, __context: Any) -> None:
        """Check ``max_tokens`` and resolve the tokenizer."""
        if self.max_tokens is not None:
            check_size("max_tokens", self.max_tokens, 1)
        check_table_format(self.table_format)
        if "table_format" in self.mode.refuses and self.table_format != "records":
            raise ConfigError(
                f"{type(self).__name__}: table_format={self.table_format!r} needs docling_compat=False: with "
                f"docling_compat=True tables are written as docling-core {DOCLING_CORE_VERSION} writes them; leave "
                "table_format "
                "out, or use docling_compat=False"
            )
        self._tok = get_tokenizer(self.tokenizer)

    @property
    def token_counter(self) -> Tokenizer:
        """The resolved :class:`docchunk.Tokenizer` that counts the expanded chunks' ``meta.token_count``."""
        return self._tok

    @property
    def mode(self) -> Mode:
        """The expander's :class:`~docchunk.chunkers.doc.mode.Mode`: compat with ``docling_compat``, else structured."""
        return mode_for(self.docling_compat)

    def _serializer(self, dl_doc: DoclingDocument) -> BaseDocSerializer:
        """The mode's serializer of ``dl_doc``, the one docchunk's document chunkers of that mode use."""
        return self.mode.serializer(None, dl_doc, self.table_format, self.include_furniture)

    def expand(
        self, chunk: BaseChunk, dl_doc: DoclingDocument, serializer: BaseDocSerializer | None = None
    ) -> BaseChunk:
        """The chunk expanded (see the subclass), or ``chunk`` itself when there is nothing to expand to.

        Args:
            chunk: A docling-core or docchunk ``DocChunk`` of ``dl_doc``.
            dl_doc: The document the chunk came from.
            serializer: A docling-core document serializer; default: the one
                docchunk's document chunkers of the same mode use for ``dl_doc``
                (:func:`docchunk.serialization.selection.serializer_for`), so that the
                expansion writes tables and items as the chunk did.

        Returns:
            A new :class:`docchunk.DocChunk` with the expanded text, the chunk's
            headings and captions, the expanded ``doc_items``, ``token_count`` and
            ``page_numbers``; ``meta.expanded`` says whether it was expanded.
            Chunks that are not document chunks come back unchanged, and so does a
            chunk whose expansion would not hold one of its items that has text.

        Raises:
            DocumentError: ``dl_doc`` is not a ``DoclingDocument``, or it does not
                hold the chunk's doc items (an item missing, or another item at its
                ``self_ref``): the chunk was made from another document.
        """
        if not isinstance(dl_doc, DoclingDocument):
            raise DocumentError(
                f"expand() takes the chunk's DoclingDocument as dl_doc, got {type(dl_doc).__name__}; "
                "pass the document the chunk came from"
            )
        if serializer is None:
            serializer = self._serializer(dl_doc)
        return self._expand(chunk, dl_doc, serializer, {})

    def _expand(
        self, chunk: BaseChunk, dl_doc: DoclingDocument, serializer: BaseDocSerializer, memo: dict[str, Any]
    ) -> BaseChunk:
        """:meth:`expand` with a serializer; ``memo`` is kept across the chunks of one document."""
        meta = getattr(chunk, "meta", None)
        chunk_items: list[DocItem] = list(getattr(meta, "doc_items", None) or [])
        own = items_in(chunk_items, dl_doc, f"{type(self).__name__}.expand") if chunk_items else []
        if self.mode.expansion == "docling":
            return self._docling(chunk, dl_doc, serializer)
        if not own:
            return chunk
        found = self._expansion(own, dl_doc, serializer, memo)
        if found is None:
            return chunk
        text, items = found
        # the captions of its tables and pictures too: on another page than their item, the page
        # expansion of the item left them out (issue 45)
        if not _holds_own_items([*own, *captions_of(own, dl_doc)], items):
            return chunk  # an expansion never loses what the chunk held
        expanded = self._build(chunk, text, items)
        if self.max_tokens is not None and (expanded.meta.token_count or 0) > self.max_tokens:
            unexpanded = self._build(chunk, chunk.text, chunk_items, expanded=False)
            unexpanded.meta.oversized = getattr(meta, "oversized", None)  # the chunk as it was
            return unexpanded
        return expanded

    def expand_all(
        self, chunks: Iterable[BaseChunk], dl_doc: DoclingDocument, serializer: BaseDocSerializer | None = None
    ) -> Iterator[BaseChunk]:
        """``expand`` each chunk of ``dl_doc``, with one serializer for all of them.

        What the expansion reads of the whole document is serialized once for all the
        chunks (:class:`PageChunkExpander`: each page once), not once a chunk; the
        output equals ``[expand(c, dl_doc, serializer) for c in chunks]``.
        """
        if not isinstance(dl_doc, DoclingDocument):
            for chunk in chunks:
                yield self.expand(chunk, dl_doc, serializer)  # raises the DocumentError
            return
        if serializer is None:
            serializer = self._serializer(dl_doc)
        memo: dict[str, Any] = {}
        for chunk in chunks:
            yield self._expand(chunk, dl_doc, serializer, memo)

    def _build(self, chunk: Any, text: str, items: list[DocItem], expanded: bool = True) -> DocChunk:
        data = chunk.meta.model_dump(exclude={"doc_items", "token_count", "page_numbers", "oversized", "expanded"})
        data.pop("schema_name", None)
        data.pop("version", None)
        new = DocChunk(text=text, meta={**data, "doc_items": items})
        new.meta.token_count = self._tok.count_tokens(contextualize(new, self.delim))
        new.meta.page_numbers = page_numbers_of(items)
        new.meta.expanded = expanded
        return new

    def _expansion(
        self, own: list[NodeItem], dl_doc: DoclingDocument, serializer: BaseDocSerializer, memo: dict[str, Any]
    ) -> tuple[str, list[DocItem]] | None:
        raise NotImplementedError

    def _docling(self, chunk: Any, dl_doc: DoclingDocument, serializer: BaseDocSerializer) -> Any:
        raise NotImplementedError


class TreeChunkExpander(ChunkExpander):
    """Expands a chunk to the complete top-level items (section group, table, list) that contain it.

    Each of the chunk's doc items is followed up the document tree to its top-level
    ancestor (a child of the body or of the furniture); the expanded text is the
    serializer's text of those ancestors in reading order, each followed by a line
    break, as in docling-core. Headings and captions of the chunk are kept.

    Differences from docling-core (``docs/compat.md``): a top-level heading expands
    to its whole section (docling-core gives the heading line alone, losing the
    chunk's own text, when a converter nests a section's items under its heading);
    an item in the furniture expands to its own top-level ancestor instead of
    failing; a ``max_tokens`` cap; ``token_count``, ``page_numbers`` and
    ``expanded`` in the meta. A top-level title can hold the whole document: set
    ``max_tokens`` to keep expansions readable.

    Example:
        >>> expander = TreeChunkExpander(max_tokens=512)  # doctest: +SKIP
        >>> big = [expander.expand(c, doc) for c in HybridChunker(max_tokens=64).chunk(doc)]  # doctest: +SKIP
    """

    def _expansion(
        self, own: list[NodeItem], dl_doc: DoclingDocument, serializer: BaseDocSerializer, memo: dict[str, Any]
    ) -> tuple[str, list[DocItem]] | None:
        tops = _top_items(own, dl_doc)
        content = ""
        items: list[DocItem] = []
        for top in tops:
            if isinstance(top, (ListGroup, InlineGroup, DocItem)):
                # the whole subtree: docling-core serializes a heading without the section under it
                parts = [res for res in serializer.get_parts(item=top) if res.text]
                content += "\n\n".join(res.text for res in parts) + "\n"
                items.extend(span.item for res in parts for span in res.spans)
        if not content.strip():
            return None
        unique = list({it.self_ref: it for it in items}.values())
        return content, unique

    def _docling(self, chunk: Any, dl_doc: DoclingDocument, serializer: BaseDocSerializer) -> Any:
        from docling_core.transforms.chunker.chunk_expander import TreeChunkExpander as _DL

        return _DL().expand(chunk, dl_doc, serializer)


class PageChunkExpander(ChunkExpander):
    """Expands a chunk to the whole pages its doc items are on.

    The expanded text is the serializer's text of every element of those pages, in
    reading order, as :class:`docchunk.PageChunker` sees a page: an element belongs
    to the page of its first provenance, and an element without provenance to the
    page of the element before it, and an element whose page ``dl_doc.pages`` does
    not declare to that page (docling-core leaves both out). A document
    without pages (``dl_doc.pages`` empty: a DOCX, HTML or Markdown conversion, whose
    items carry no ``prov``), or a chunk without page provenance, is returned
    unchanged: the chunk itself, ``meta.expanded`` left None (neither expanded nor
    refused by the cap), without a warning (with ``docling_compat``, docling-core warns
    once a chunk); ``docchunk chunk --expand page`` warns once a document. Use
    :class:`TreeChunkExpander` for such documents.
    :meth:`expand_all` (which :class:`ExpandingChunker` and ``--expand page`` use)
    serializes each page of the document once for all its chunks; ``expand`` alone
    serializes the document's pages for the one chunk.

    Example:
        >>> PageChunkExpander().expand(chunk, doc).meta.page_numbers  # doctest: +SKIP
        [3]
    """

    def _expansion(
        self, own: list[NodeItem], dl_doc: DoclingDocument, serializer: BaseDocSerializer, memo: dict[str, Any]
    ) -> tuple[str, list[DocItem]] | None:
        wanted = {p.page_no for it in own for p in (getattr(it, "prov", None) or ())}
        if not wanted:
            return None
        if "pages" not in memo:  # every page serialized once a document, whatever the number of chunks
            memo["pages"] = page_parts(dl_doc, serializer)
        parts = [part for page_no, ps in memo["pages"].items() if page_no in wanted for part in ps]
        parts.sort(key=lambda part: part.order)
        if not parts:
            return None
        items: list[DocItem] = []
        seen: set[str] = set()
        for part in parts:
            for it in part.items:
                if it.self_ref not in seen:
                    seen.add(it.self_ref)
                    items.append(it)
        return "\n\n".join(p.text for p in parts), items

    def _docling(self, chunk: Any, dl_doc: DoclingDocument, serializer: BaseDocSerializer) -> Any:
        from docling_core.transforms.chunker.chunk_expander import PageChunkExpander as _DL

        return _DL().expand(chunk, dl_doc, serializer)


def _holds_own_items(own: list[Any], expanded: list[DocItem]) -> bool:
    """Whether the expansion's items hold every item of the chunk that has text.

    The serializer may write an item of the chunk nowhere in the expansion: an item
    without provenance is on no page, a group at the top of the tree that the tree
    expansion does not serialize (a form's field region). The chunk then stays as it is.
    """
    refs = {it.self_ref for it in expanded}
    return all(it.self_ref in refs for it in own if (getattr(it, "text", "") or "").strip())


def _top_items(doc_items: list[Any], doc: DoclingDocument) -> list[NodeItem]:
    """The top-level ancestors (children of the body, or of the furniture) of ``doc_items``.

    In reading order: body children first, in the body's order, then any others as met.
    """
    roots = {doc.body.self_ref, "#/furniture"}
    tops: dict[str, NodeItem] = {}
    for item in doc_items:
        node = item
        while node.parent is not None and node.parent.cref not in roots:
            node = node.parent.resolve(doc)
        tops[node.self_ref] = node
    body = [ref.cref for ref in doc.body.children if ref.cref in tops]
    rest = [ref for ref in tops if ref not in set(body)]
    return [tops[ref] for ref in (*body, *rest)]


ExpandMode = Literal["tree", "page"]


def get_expander(mode: ExpandMode, **kwargs: Any) -> ChunkExpander:
    """The expander for ``mode`` ("tree" or "page"), configured with ``kwargs``.

    Raises:
        ConfigError: ``mode`` is neither.
    """
    if mode == "tree":
        return TreeChunkExpander(**kwargs)
    if mode == "page":
        return PageChunkExpander(**kwargs)
    raise ConfigError(f"expand mode must be 'tree' or 'page', got {mode!r}")


class ExpandingChunker(BaseChunker):
    """A document chunker whose chunks come out expanded: ``chunker``, then ``expander``.

    A docling-core ``BaseChunker``, so it goes wherever one does (the CLI's
    ``--expand``, langchain-docling's ``DoclingLoader(chunker=...)``, llama-index's
    ``DoclingNodeParser(chunker=...)``, docchunk's integrations).
    ``contextualize`` is the inner chunker's.

    Example:
        >>> chunker = ExpandingChunker(chunker=HybridChunker(max_tokens=64),  # doctest: +SKIP
        ...                            expander=TreeChunkExpander(max_tokens=512))
    """

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid", validate_assignment=True)

    chunker: BaseChunker
    expander: ChunkExpander

    def __setattr__(self, name: str, value: Any) -> None:
        assign_validated(self, name, value, False, super().__setattr__)

    def chunk(self, dl_doc: DoclingDocument, **kwargs: Any) -> Iterator[BaseChunk]:
        """Yield the inner chunker's chunks of ``dl_doc``, each expanded (``kwargs`` go to the inner chunker)."""
        yield from self.expander.expand_all(self.chunker.chunk(dl_doc, **kwargs), dl_doc)

    def contextualize(self, chunk: BaseChunk) -> str:
        """The inner chunker's embedding string of ``chunk``."""
        return self.chunker.contextualize(chunk)
