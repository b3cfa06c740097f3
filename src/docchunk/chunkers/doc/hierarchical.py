"""One chunk per document element, with its headings: docling-core's hierarchical chunking."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from docling_core.types.doc import DoclingDocument

from docchunk.chunkers.doc.base import DocumentChunker, check_document
from docchunk.chunkers.doc.heading_walk import structured_walk
from docchunk.chunkers.doc.table_split import default_serializer, whole_table
from docchunk.chunkers.doc.types import DocChunk, join_context
from docchunk.chunkers.doc.walk import walk

__all__ = ["HierarchicalChunker"]


class HierarchicalChunker(DocumentChunker):
    r"""Chunks a ``DoclingDocument`` by its structure: one chunk per element.

    Each paragraph, table, picture, code block or formula becomes one chunk; the
    items of a list (or an inline group) become one chunk; each chunk carries the
    headings in scope (title, then section headers by level). Chunk texts,
    headings, doc_items and ``contextualize()`` equal those of docling-core
    2.104's ``HierarchicalChunker`` with the same serializer provider.

    Differences from docling-core (see ``docs/compat.md``): a document whose only
    text is its headings gives one chunk holding them (docling-core gives none);
    every chunk's meta also has ``token_count`` and ``page_numbers``.

    Args:
        tokenizer: Counts ``meta.token_count`` (tokens of ``contextualize(chunk)``);
            any spec :func:`docchunk.get_tokenizer` accepts; default all-MiniLM-L6-v2.
        merge_list_items: Accepted for docling-core compatibility; list items are
            always merged, as in docling-core (where the flag is deprecated).
        always_emit_headings: Emit a heading-only chunk (empty text) for sections
            without content.
        delim: Separator used by ``contextualize``; ``"\n"``.
        serializer_provider: docling-core serializer provider.

    Example:
        >>> chunks = list(HierarchicalChunker().chunk(doc))  # doctest: +SKIP
    """

    merge_list_items: bool = True

    def chunk(self, dl_doc: DoclingDocument, **kwargs: Any) -> Iterator[DocChunk]:
        """Yield the chunks of ``dl_doc`` in document order.

        Yields:
            :class:`DocChunk`: non-empty text, except heading-only chunks when
            ``always_emit_headings`` is set.
        """
        check_document(dl_doc)
        if self.docling_compat:
            serializer = self.serializer_provider.get_serializer(doc=dl_doc)
            pieces = walk(dl_doc, serializer, self.always_emit_headings)
        else:
            serializer = default_serializer(self.serializer_provider, dl_doc)
            walked = structured_walk(dl_doc, serializer, self.always_emit_headings)
            pieces = (whole_table(piece, serializer) for piece in walked)  # tables as rows, caption in meta
        for piece in pieces:
            count = self._tok.count_tokens(join_context(piece.headings, piece.captions, piece.text, self.delim))
            yield self._to_chunk(piece, count)
