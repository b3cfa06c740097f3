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
from typing import Any

from docling_core.transforms.serializer.base import BaseDocSerializer
from docling_core.types.doc import DoclingDocument

from docchunk.serialization.chunking import ChunkingSerializerProvider
from docchunk.serialization.faithful import faithful_serializer
from docchunk.serialization.table_rows import TableFormat

__all__ = ["is_default_provider", "serializer_for"]


def serializer_for(
    provider: Any, doc: DoclingDocument, *, docling_compat: bool = False, table_format: TableFormat = "records"
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

    Returns:
        A new serializer for ``doc`` (one per ``chunk()`` call: it may cache per document).
    """
    if provider is None:
        provider = ChunkingSerializerProvider()
    if docling_compat or not is_default_provider(provider):
        return provider.get_serializer(doc=doc)
    return faithful_serializer(doc, table_format)


def is_default_provider(provider: Any) -> bool:
    """Docchunk's default provider, or docling-core's ``ChunkingSerializerProvider`` (when it is loaded)."""
    if type(provider) is ChunkingSerializerProvider:
        return provider.mode == "docling"
    module = sys.modules.get("docling_core.transforms.chunker.hierarchical_chunker")
    return module is not None and type(provider) is module.ChunkingSerializerProvider
