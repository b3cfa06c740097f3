"""The default mode's serializer: docling-core's chunking serializer with docchunk's component serializers.

Each kind of content has its own component serializer (docling-core's serializer
architecture: table, picture, key-value, form, text, list serializers); this module
only puts them together. Tables: :class:`docchunk.serialization.tables.RowTableSerializer`;
pictures, key-value and form items, formulas, unknown items and furniture:
:mod:`docchunk.serialization.items`.
"""

from __future__ import annotations

from typing import get_args

from docling_core.types.doc import DoclingDocument

from docchunk.serialization.charts import ChartRowsMetaSerializer
from docchunk.serialization.chunking import ChunkingSerializer
from docchunk.serialization.items import (
    FaithfulChunkingSerializer,
    FaithfulFallbackSerializer,
    KeyValueLinesSerializer,
    PictureTextSerializer,
)
from docchunk.serialization.tables import RowTableSerializer, TableFormat

__all__ = ["faithful_serializer"]

_PICTURES = PictureTextSerializer()
_KEY_VALUES = KeyValueLinesSerializer()
_FALLBACK = FaithfulFallbackSerializer()
_META = {name: ChartRowsMetaSerializer(table_format=name) for name in get_args(TableFormat)}

def faithful_serializer(
    doc: DoclingDocument, table_format: TableFormat = "records", *, include_furniture: bool = False
) -> ChunkingSerializer:
    """A new default-mode serializer of ``doc`` (its table serializer caches rows for this document).

    Args:
        doc: The document to serialize.
        table_format: How tables are written: ``"records"`` (default), ``"triplets"``
            or ``"markdown"`` (see :func:`docchunk.serialization.tables.table_rows`).
        include_furniture: Also write page headers and footers (the furniture layer,
            and body items labelled ``page_header``/``page_footer``); by default they
            are left out.

    Raises:
        ConfigError: ``table_format`` is none of the three.
    """
    return FaithfulChunkingSerializer.for_document(
        doc,
        table_serializer=RowTableSerializer(table_format),
        picture_serializer=_PICTURES,
        key_value_serializer=_KEY_VALUES,
        form_serializer=_KEY_VALUES,
        fallback_serializer=_FALLBACK,
        meta_serializer=_META[table_format],  # (RowTableSerializer above has refused any other format)
        include_furniture=include_furniture,
    )
