"""One chunk per page: docling-core's ``PageChunker``, with docchunk's invariants and an optional budget."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from docling_core.transforms.serializer.common import create_ser_result
from docling_core.types.doc import ContentLayer, DoclingDocument, TextItem

from docchunk.chunkers.doc.base import DocumentChunker, check_document
from docchunk.serialization.chunk import DocChunk, DocMeta, page_numbers_of
from docchunk.serialization.tables import TableFormat
from docchunk.types.config import check_size

if TYPE_CHECKING:
    from docling_core.transforms.serializer.base import BaseDocSerializer, SerializationResult
    from docling_core.types.doc import DocItem, NodeItem

__all__ = ["PageChunker", "page_numbers", "page_parts"]

_PART_SEP = "\n\n"  # docling-core's Markdown serializer joins a page's parts with a blank line


@dataclass
class _Part:
    """One top-level serialized element of a page: its text and doc items."""

    text: str
    items: list[DocItem]
    order: int


class PageChunker(DocumentChunker):
    """Chunks a ``DoclingDocument`` by page: one chunk per page, in page order.

    A page's text is the serializer's text of the elements whose first provenance
    is on that page, joined by a blank line. The pages are those of ``doc.pages``
    and those of the elements' first provenance (a page missing from ``doc.pages``
    is a page all the same), so every chunk's ``page_numbers`` holds one page
    whatever ``max_tokens``. A document with neither pages nor provenance gives one
    chunk with its whole text (split like a page with ``max_tokens``). Chunks
    carry no headings or captions (a page is its own context), and their meta adds
    ``token_count`` (tokens of the tokenizer) and ``page_numbers``.

    With ``docling_compat=True`` the output equals docling-core's
    ``PageChunker`` (texts, doc_items). The default differs only where docling-core
    breaks an invariant (``docs/compat.md``):

    - an element without provenance is lost by docling-core; here it goes to the
      page of the element before it (of the element after it when there is none, the
      first page when no element has a page), in document order among that page's
      elements, and its chunks have that page in ``page_numbers``;
    - an element whose page is not in ``doc.pages`` is lost by docling-core; here it
      is on its page, which gets a chunk in page order;
    - a page whose text is only whitespace gives no chunk;
    - with ``max_tokens``, a page whose text has more tokens is split at element
      boundaries, and an element larger than the budget by docchunk's
      ``RecursiveChunker`` (Markdown separators); a piece that still cannot fit (one
      indivisible unit) is flagged ``meta.oversized``. docling-core has no budget.

    Args:
        tokenizer: Any spec :func:`docchunk.get_tokenizer` accepts; counts
            ``meta.token_count`` and the budget. Default: all-MiniLM-L6-v2.
        max_tokens: Optional budget per chunk, in tokens of ``tokenizer``; None
            (default) keeps every page whole. Ignored with ``docling_compat``.
        table_format: How the default mode writes a table's rows: ``"records"``
            (default; ``label: header = value; header = value``, the row label once,
            section rows as label prefixes), ``"triplets"`` (``label, header = value.``
            per cell, docling-core's triplet form with every cell kept) or
            ``"markdown"`` (Markdown table lines under the header, repeated in every
            piece). See ``docs/compat.md``. Any other value raises ``ConfigError``, and
            so does a value other than ``"records"`` with ``docling_compat=True``.
        docling_compat: Reproduce docling-core's output exactly.
        serializer_provider: docling-core serializer provider.

    Raises:
        ConfigError: ``max_tokens`` is not None or a positive int.
        DocumentError: ``chunk()`` got something other than a ``DoclingDocument``.

    Example:
        >>> chunks = list(PageChunker().chunk(doc))  # doctest: +SKIP
        >>> [c.meta.page_numbers for c in chunks]  # doctest: +SKIP
        [[1], [2], [3]]
    """

    max_tokens: int | None = None
    docling_compat: bool = False
    table_format: TableFormat = "records"  # checked by DocumentChunker._check_table_format

    _POST_INIT_SETTINGS: ClassVar[frozenset[str]] = frozenset(
        {"tokenizer", "max_tokens", "docling_compat", "table_format"}
    )

    def model_post_init(self, __context: Any) -> None:
        """Check ``max_tokens``."""
        super().model_post_init(__context)
        if self.max_tokens is not None:
            check_size("max_tokens", self.max_tokens, 1)

    def chunk(self, dl_doc: DoclingDocument, **kwargs: Any) -> Iterator[DocChunk]:
        """Yield the page chunks of ``dl_doc`` in page order (see the class invariants)."""
        check_document(dl_doc)
        mode = self.mode
        ser = mode.serializer(self.serializer_provider, dl_doc, self.table_format, self.include_furniture)
        yield from mode.results(self._chunks(dl_doc, ser), dl_doc, self, ser)

    def _chunks(self, dl_doc: DoclingDocument, ser: BaseDocSerializer) -> Iterator[DocChunk]:
        if self.mode.pages == "serialized":  # docling-core's PageChunker: the declared pages only
            if not dl_doc.pages:
                yield from self._pageless(dl_doc, ser)
                return
            for page_no in sorted(dl_doc.pages):
                res = ser.serialize(pages={page_no})
                if res.text:
                    yield self._page_chunk(res.text, res.get_unique_doc_items(), dl_doc)
            return
        pages = page_parts(dl_doc, ser)  # empty only when the document has neither pages nor provenance
        if not pages:
            yield from self._pageless(dl_doc, ser)
            return
        for page_no, parts in pages.items():
            text = _PART_SEP.join(p.text for p in parts)
            if not text.strip():
                continue
            items = _unique([it for p in parts for it in p.items])
            chunk = self._page_chunk(text, items, dl_doc, page=page_no)
            if self.max_tokens is None or (chunk.meta.token_count or 0) <= self.max_tokens:
                yield chunk
            else:
                yield from self._split_page(parts, dl_doc, page_no)

    def _pageless(self, doc: DoclingDocument, ser: BaseDocSerializer) -> Iterator[DocChunk]:
        """A document without pages: one chunk of its whole text, split like a page over ``max_tokens``."""
        res = ser.serialize()
        serialized = self.mode.pages == "serialized"  # docling-core's: the text as written, never split
        if not (res.text if serialized else res.text.strip() and res.spans):  # markup of empty items only: no chunk
            return
        chunk = self._page_chunk(res.text, res.get_unique_doc_items(), doc)
        if serialized or self.max_tokens is None or (chunk.meta.token_count or 0) <= self.max_tokens:
            yield chunk
            return
        order = _document_order(doc)
        yield from self._split_page([_part(part, order) for part in ser.get_parts() if _written(part)], doc)

    def _page_chunk(
        self, text: str, items: list[DocItem], doc: DoclingDocument, oversized: bool = False, page: int | None = None
    ) -> DocChunk:
        """A chunk of ``text`` from ``items``; ``page_numbers``: the items' pages, else ``[page]`` (None: none).

        A piece of a page whose items have no provenance of their own (an element placed on
        the page by :func:`page_parts`) is on ``page`` all the same.
        """
        count = self._tok.count_tokens(text)
        meta = DocMeta(
            doc_items=items,
            headings=None,
            captions=None,
            origin=doc.origin,
            token_count=count,
            page_numbers=page_numbers_of(items) or ([page] if page is not None else None),
            oversized=True if oversized else None,
        )
        return DocChunk(text=text, meta=meta)

    def _split_page(self, parts: list[_Part], doc: DoclingDocument, page: int | None = None) -> Iterator[DocChunk]:
        """Pack whole parts of ``page`` (None: a document without pages) up to ``max_tokens``; split a larger part."""
        limit = self.max_tokens
        assert limit is not None
        counts = self._tok.count_tokens_batch([p.text for p in parts])
        run: list[_Part] = []
        for part, count in zip(parts, counts, strict=True):
            if count > limit:
                if run:
                    yield self._run_chunk(run, doc, page)
                    run = []
                yield from self._split_part(part, doc, page)
                continue
            if run and self._tok.count_tokens(_PART_SEP.join([*(p.text for p in run), part.text])) > limit:
                yield self._run_chunk(run, doc, page)
                run = []
            run.append(part)
        if run:
            yield self._run_chunk(run, doc, page)

    def _run_chunk(self, run: list[_Part], doc: DoclingDocument, page: int | None) -> DocChunk:
        text = _PART_SEP.join(p.text for p in run)
        return self._page_chunk(text, _unique([it for p in run for it in p.items]), doc, page=page)

    def _split_part(self, part: _Part, doc: DoclingDocument, page: int | None) -> Iterator[DocChunk]:
        from docchunk.chunkers.text import RecursiveChunker

        assert self.max_tokens is not None
        splitter = RecursiveChunker(chunk_size=self.max_tokens, tokenizer=self._tok, language="markdown")
        for piece in splitter.chunk(part.text):
            if piece.text.strip():
                oversized = piece.token_count > self.max_tokens
                yield self._page_chunk(piece.text, part.items, doc, oversized=oversized, page=page)


def page_parts(doc: DoclingDocument, serializer: BaseDocSerializer) -> dict[int, list[_Part]]:
    """The serialized top-level elements of each page of ``doc``, in document order.

    An element belongs to the page of its first provenance, declared in ``doc.pages``
    or not. An element that no page serializes (no provenance) is placed on the page
    of the element before it in document order; an element with none before it (a
    title without provenance opening the document) on the page of the element after
    it, so that it is written with what it opens; on the first page when no element
    has a page. Either way it takes its place in document order among that page's parts.

    Returns:
        Page number -> parts, for every page of :func:`page_numbers` in ascending
        order (pages without parts map to an empty list). Parts have non-empty text.
        Empty when ``doc`` has neither pages nor provenance.
    """
    order = _document_order(doc)
    pages: dict[int, list[_Part]] = {}
    seen: set[str] = set()
    numbers = page_numbers(doc)
    if not numbers:
        return pages
    for page_no in numbers:
        parts = [_part(res, order) for res in serializer.get_parts(pages={page_no}) if _written(res)]
        pages[page_no] = parts
        seen.update(it.self_ref for p in parts for it in p.items)
    placed = sorted(((p.order, page_no) for page_no, parts in pages.items() for p in parts))
    first_page = min(pages)
    paged = set(numbers)
    for res in serializer.get_parts():
        if not _written(res):
            continue
        part = _part(res, order)
        refs = {it.self_ref for it in part.items}
        if refs & seen:
            missing = [it for it in [*_unpaged(doc, part.items, paged), *part.items] if it.self_ref not in seen]
            if missing:
                _place_within(pages, part, missing, seen, serializer, order)
            continue
        before = [page_no for pos, page_no in placed if pos < part.order]
        after = [page_no for pos, page_no in placed if pos > part.order]
        _insert_in_order(pages[before[-1] if before else after[0] if after else first_page], part)
    return pages


def _insert_in_order(parts: list[_Part], part: _Part) -> None:
    """Insert ``part`` into a page's ``parts`` before the first part that comes after it in document order."""
    at = next((i for i, p in enumerate(parts) if p.order > part.order), len(parts))
    parts.insert(at, part)


def _written(res: SerializationResult) -> bool:
    """Whether ``res`` writes an item's text: some text that is not only whitespace, from some item.

    An item with empty text may still be written as markup alone (``[](url)`` for an
    empty text with a hyperlink); such a part has no item and is no part of a page.
    Nor is a part of whitespace only (a note of one space): alone after a split it was a
    blank chunk, else a page opening with it (issue 45).
    """
    return bool(res.text.strip()) and bool(res.spans)


def page_numbers(doc: DoclingDocument) -> list[int]:
    """The pages of ``doc``, ascending: those of ``doc.pages`` and the first-provenance page of every item.

    An item's provenance may name a page that ``doc.pages`` does not declare (a
    document edited or assembled by hand, a page 0); the item is on that page all the
    same. Empty when ``doc`` has neither pages nor provenance (a DOCX, HTML or Markdown
    conversion).
    """
    numbers = set(doc.pages)
    layers = set(ContentLayer)
    for item, _ in doc.iterate_items(with_groups=False, traverse_pictures=True, included_content_layers=layers):
        prov = getattr(item, "prov", None)
        if prov:
            numbers.add(prov[0].page_no)
    return sorted(numbers)


def _unpaged(doc: DoclingDocument, items: list[DocItem], pages: set[int]) -> list[NodeItem]:
    """The descendants of ``items`` (pictures traversed) with text and no provenance on one of ``pages``."""
    out = []
    for top in items:
        for item, _ in doc.iterate_items(root=top, with_groups=False, traverse_pictures=True):
            if item is top or not getattr(item, "text", None):
                continue
            if not any(p.page_no in pages for p in getattr(item, "prov", [])):
                out.append(item)
    return out


def _place_within(
    pages: dict[int, list[_Part]],
    whole: _Part,
    missing: list[NodeItem],
    seen: set[str],
    serializer: BaseDocSerializer,
    order: dict[str, int],
) -> None:
    """Place the ``missing`` items of ``whole``, an element that is on a page already, without them.

    The page filter leaves out the items of an element that have no page of their own
    (a picture's child text, a list item without provenance). When the element is one
    part of one page, ``whole`` (the element with every item) replaces that part; when
    it is spread over pages, each missing item is serialized alone and goes after the
    part before it in document order.
    """
    refs = {it.self_ref for it in whole.items}
    holders = [(page_no, i) for page_no, parts in pages.items() for i, p in enumerate(parts)
               if refs & {it.self_ref for it in p.items}]  # fmt: skip
    seen.update(refs)
    if len(holders) == 1:
        page_no, i = holders[0]
        pages[page_no][i] = _Part(text=whole.text, items=whole.items, order=pages[page_no][i].order)
        # a missing item that ``whole`` does not write (a heading's child: a part of its own) is
        # placed by that part, after it (issue 45: it was marked seen here, and lost)
        return
    missing = list({it.self_ref: it for it in missing}.values())  # a subtree's item may be an element too
    seen.update(it.self_ref for it in missing)
    for item in missing:  # the subtrees of distinct elements, then those elements
        res = serializer.serialize(item=item)
        if not _written(res) and isinstance(item, TextItem) and item.text.strip():
            # a caption is written by its table, picture or code item, and alone writes nothing: when
            # its own page is not its parent's, the page filter left it out of both (issue 45)
            res = create_ser_result(text=serializer.post_process(text=item.text), span_source=item)
        if not _written(res):
            continue
        part = _part(res, order)
        before = [h for h in holders if pages[h[0]][h[1]].order <= part.order] or holders[:1]
        page_no, i = max(before, key=lambda h: pages[h[0]][h[1]].order)
        pages[page_no].insert(i + 1, part)
        holders = [(pg, j + 1 if pg == page_no and j > i else j) for pg, j in holders] + [(page_no, i + 1)]


def _document_order(doc: DoclingDocument) -> dict[str, int]:
    """Each item's position in document order, by ``self_ref``."""
    return {item.self_ref: i for i, (item, _) in enumerate(doc.iterate_items(with_groups=True, traverse_pictures=True))}


def _part(res: SerializationResult, order: dict[str, int]) -> _Part:
    items = _unique([span.item for span in res.spans])
    position = min((order.get(it.self_ref, len(order)) for it in items), default=len(order))
    return _Part(text=res.text, items=items, order=position)


def _unique(items: list[DocItem]) -> list[DocItem]:
    seen: set[str] = set()
    out = []
    for it in items:
        if it.self_ref not in seen:
            seen.add(it.self_ref)
            out.append(it)
    return out
