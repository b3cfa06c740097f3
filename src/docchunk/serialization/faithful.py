"""The default mode's serializer: docling-core's chunking serializer with docchunk's component serializers.

Each kind of content has its own component serializer (docling-core's serializer
architecture: table, picture, key-value, form, text, list serializers); this module
only puts them together. Tables: :class:`docchunk.serialization.tables.RowTableSerializer`.
"""

from __future__ import annotations

from docling_core.types.doc import DoclingDocument

from docchunk.serialization.chunking import ChunkingSerializer
from docchunk.serialization.table_rows import TableFormat
from docchunk.serialization.tables import RowTableSerializer

__all__ = ["faithful_serializer"]


def faithful_serializer(doc: DoclingDocument, table_format: TableFormat = "records") -> ChunkingSerializer:
    """A new default-mode serializer of ``doc`` (its table serializer caches rows for this document).

    Args:
        doc: The document.
        table_format: How tables are written: ``"records"`` (default), ``"triplets"``
            or ``"markdown"`` (see :func:`docchunk.serialization.table_rows.table_rows`).

    Raises:
        ConfigError: ``table_format`` is none of the three.
    """
    return ChunkingSerializer.for_document(
        doc,
        table_serializer=RowTableSerializer(table_format),
    )
