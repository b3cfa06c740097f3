"""The one place where a document chunker, expander or the CLI gets its serializer.

:func:`serializer_for` is the seam between the two modes' text: with
``docling_compat=True`` the provider's own serializer (docling-core's text, exactly);
otherwise, for docchunk's or docling-core's default provider, the default mode's
structure-faithful serializer (:func:`docchunk.serialization.faithful.faithful_serializer`).
A user's own provider is used as it is in both modes. Every chunker and expander of
one configuration calls it with the same arguments, so that an expanded chunk writes
its tables and items exactly as the chunk did.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from docling_core.transforms.serializer.base import BaseDocSerializer
from docling_core.types.doc import DoclingDocument

from docchunk.errors import ConfigError
from docchunk.serialization.chunking import ChunkingSerializerProvider
from docchunk.serialization.faithful import faithful_serializer
from docchunk.serialization.tables import TableFormat

if TYPE_CHECKING:
    from docling_core.transforms.serializer.base import BaseSerializerProvider

__all__ = ["check_no_page_breaks", "is_default_provider", "serializer_for"]


def serializer_for(
    provider: BaseSerializerProvider | None,
    doc: DoclingDocument,
    *,
    docling_compat: bool = False,
    table_format: TableFormat = "records",
    include_furniture: bool = False,
) -> BaseDocSerializer:
    """The serializer of ``doc`` for a chunker configured with ``provider`` and ``docling_compat``.

    Args:
        provider: A docling-core serializer provider (``BaseSerializerProvider``), or
            None for docchunk's default ``ChunkingSerializerProvider``.
        doc: The document to serialize.
        docling_compat: True: ``provider.get_serializer(doc=doc)``, docling-core's text.
        table_format: The default mode's table form: ``"records"`` (default),
            ``"triplets"`` or ``"markdown"``; ignored with ``docling_compat`` or a
            user's own provider, whose tables are written as they write them.
        include_furniture: Default mode with the default provider: also write page
            headers and footers (left out by default). Ignored otherwise.

    Returns:
        A new serializer for ``doc`` (one per ``chunk()`` call: it may cache per document).

    Raises:
        ConfigError: In the default mode, the provider's serializer sets
            ``page_break_placeholder``: docchunk's chunkers serialize item by item
            and have no place for page-break markers (docling-core's chunkers ignore
            it too, except for raw ``#_#_DOCLING_DOC_PAGE_BREAK_..._#_#`` markers
            inside groups; ``docling_compat=True`` keeps that behaviour).
    """
    if provider is None:
        provider = ChunkingSerializerProvider()
    if docling_compat:
        return provider.get_serializer(doc=doc)
    if not is_default_provider(provider):
        serializer = provider.get_serializer(doc=doc)
        check_no_page_breaks(serializer)
        return serializer
    return faithful_serializer(doc, table_format, include_furniture=include_furniture)


def check_no_page_breaks(serializer: BaseDocSerializer) -> None:
    """Raise :class:`ConfigError` if ``serializer``'s params set ``page_break_placeholder`` (default mode)."""
    placeholder = getattr(getattr(serializer, "params", None), "page_break_placeholder", None)
    if placeholder is not None:
        raise ConfigError(
            f"the serializer's page_break_placeholder={placeholder!r} is not supported by docchunk's chunkers: "
            "chunks are built item by item and page breaks are not written into them (a chunk's pages are in "
            "meta.page_numbers, and PageChunker gives one chunk per page); set page_break_placeholder=None in "
            "the provider's MarkdownParams, or use docling_compat=True for docling-core's behaviour"
        )


def is_default_provider(provider: object) -> bool:
    """Docchunk's default provider, or docling-core's ``ChunkingSerializerProvider`` (when it is loaded)."""
    if type(provider) is ChunkingSerializerProvider:
        return provider.mode == "docling"
    module = sys.modules.get("docling_core.transforms.chunker.hierarchical_chunker")
    return module is not None and type(provider) is module.ChunkingSerializerProvider
