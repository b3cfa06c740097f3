"""One chunk per document element, with its headings: docling-core's hierarchical chunking."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, ClassVar, cast

from docling_core.types.doc import DoclingDocument
from pydantic import SkipValidation

from docchunk.chunkers.doc.base import DocumentChunker, check_document
from docchunk.chunkers.doc.code_items import chunk_code_piece
from docchunk.chunkers.doc.piece import CodeStrategy, Piece
from docchunk.serialization.chunk import DocChunk, join_context
from docchunk.serialization.tables import TableFormat

if TYPE_CHECKING:
    from docling_core.transforms.chunker.code_chunking.code_chunk import CodeChunk

__all__ = ["HierarchicalChunker"]


class HierarchicalChunker(DocumentChunker):
    r"""Chunks a ``DoclingDocument`` by its structure: one chunk per element.

    Each paragraph, table, picture, code block or formula becomes one chunk; the
    items of a list (or an inline group) become one chunk; each chunk carries the
    headings in scope (title, then section headers by level). Chunk texts,
    headings, doc_items and ``contextualize()`` equal those of docling-core's
    ``HierarchicalChunker`` with the same serializer provider.

    Differences from docling-core (see ``docs/compat.md``): a document whose only
    text is its headings gives one chunk holding them (docling-core gives none);
    every chunk's meta also has ``token_count`` and ``page_numbers``. The default
    mode writes an inline run (one sentence of bold, italic, linked fragments) as one
    line of plain text, also inside a list (a link item as its text), as
    :class:`~docchunk.HybridChunker` does; the URLs stay on the items (``hyperlink``).

    Args:
        tokenizer: Counts ``meta.token_count`` (tokens of ``contextualize(chunk)``);
            any spec :func:`docchunk.get_tokenizer` accepts; default all-MiniLM-L6-v2.
        merge_list_items: Accepted for docling-core compatibility; list items are
            always merged, as in docling-core (where the flag is deprecated).
        always_emit_headings: Emit a heading-only chunk (empty text) for sections
            without content.
        delim: Separator used by ``contextualize``; ``"\n"``.
        serializer_provider: docling-core serializer provider.
        table_format: How the default mode writes a table's rows: ``"records"``
            (default; ``label: header = value; header = value``, the row label once,
            section rows as label prefixes), ``"triplets"`` (``label, header = value.``
            per cell, docling-core's triplet form with every cell kept) or
            ``"markdown"`` (Markdown table lines under the header, repeated in every
            piece). See ``docs/compat.md``. Any other value raises ``ConfigError``, and
            so does a value other than ``"records"`` with ``docling_compat=True``.
        code_chunking_strategy: None (default: a code item is one chunk like any
            element), or a code chunking strategy (:class:`docchunk.CodeChunkingStrategy`,
            or docling-core's ``StandardCodeChunkingStrategy``) that splits each code
            item into ``CodeChunk`` objects, yielded in its place. With
            ``docling_compat=True`` they are the strategy's chunks as docling-core
            yields them (no headings); in the default mode docchunk's strategy's
            chunks also get the headings in scope and ``token_count`` (tokens of
            ``contextualize(chunk)``), and a docling-core strategy's are left as they are.

    Example:
        >>> chunks = list(HierarchicalChunker().chunk(doc))  # doctest: +SKIP
    """

    merge_list_items: bool = True
    # checked by DocumentChunker._check_code_strategy (not by pydantic)
    code_chunking_strategy: SkipValidation[CodeStrategy | None] = None
    table_format: TableFormat = "records"  # checked by DocumentChunker._check_table_format

    _POST_INIT_SETTINGS: ClassVar[frozenset[str]] = frozenset({"tokenizer", "docling_compat", "table_format"})

    def chunk(self, dl_doc: DoclingDocument, **kwargs: Any) -> Iterator[DocChunk | CodeChunk]:
        """Yield the chunks of ``dl_doc`` in document order.

        Yields:
            :class:`DocChunk`: non-empty text, except heading-only chunks when
            ``always_emit_headings`` is set; with a ``code_chunking_strategy``, the
            strategy's ``CodeChunk`` objects for code items.
        """
        check_document(dl_doc)
        mode = self.mode
        serializer = mode.serializer(self.serializer_provider, dl_doc, self.table_format, self.include_furniture)
        pieces = mode.walk(dl_doc, serializer, self.always_emit_headings, self.code_chunking_strategy)
        yield from mode.results(self._chunks(pieces, dl_doc), dl_doc, self, serializer)

    def _chunks(self, pieces: Iterable[Piece], dl_doc: DoclingDocument) -> Iterator[DocChunk | CodeChunk]:
        strategy = self.code_chunking_strategy
        for piece in pieces:
            if piece.code_chunks is not None:
                # a code piece is made only with a strategy
                code = piece.code_chunks or chunk_code_piece(
                    piece, cast(CodeStrategy, strategy), dl_doc, self._tok, self.delim, None
                )
                yield from code
                continue
            if not piece.heading_only and not piece.text.strip():  # whitespace only: no content, no chunk
                continue
            count = self._tok.count_tokens(join_context(piece.headings, piece.captions, piece.text, self.delim))
            yield self._to_chunk(piece, count, doc=dl_doc)
