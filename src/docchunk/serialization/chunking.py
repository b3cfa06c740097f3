"""Document items to chunk text: docling-core's chunking serialization, without its chunker package.

:class:`ChunkingSerializer` is docling-core's Markdown document serializer set up as
docling-core 2.104's ``ChunkingDocSerializer`` (``docling_core.transforms.chunker.
hierarchical_chunker``): Markdown text, lists and code, pictures as their captions,
tables as ``row, column = value`` triplets (:class:`TripletTableSerializer`). Its
text equals ``ChunkingDocSerializer``'s for every item (tested differentially on
the corpus). It differs in cost only: the set of excluded items is computed once
per document instead of being re-derived (a parameter copy and a JSON dump) at
every item.

:class:`ChunkingSerializerProvider` is the default ``serializer_provider`` of
docchunk's document chunkers; ``mode`` selects the serializer from
:data:`SERIALIZER_MODES`, to which other serialization modes are added.
"""

from __future__ import annotations

import sys
from typing import Any

from docling_core.transforms.serializer.base import (
    BaseDocSerializer,
    BaseSerializerProvider,
    BaseTableSerializer,
    SerializationResult,
)
from docling_core.transforms.serializer.common import create_ser_result
from docling_core.transforms.serializer.markdown import MarkdownDocSerializer, MarkdownParams
from docling_core.types.doc.base import ImageRefMode
from docling_core.types.doc.document import DoclingDocument, TableItem
from pydantic import ConfigDict

from docchunk.errors import ConfigError

__all__ = [
    "SERIALIZER_MODES",
    "ChunkingSerializer",
    "ChunkingSerializerProvider",
    "TripletTableSerializer",
    "is_chunking_serializer",
]


class TripletTableSerializer(BaseTableSerializer):
    """Tables as ``row header, column header = cell`` triplets joined by ``". "``.

    Follows docling-core 2.104's ``TripletTableSerializer`` exactly: the caption
    first (its own paragraph); a one-column table as ``first cell = cell``
    pairs; a header-only table as its header cells; a table whose triplets are all
    empty as its non-empty cells joined by ``". "``.
    """

    def serialize(
        self, *, item: TableItem, doc_serializer: BaseDocSerializer, doc: DoclingDocument, **kwargs: Any
    ) -> SerializationResult:
        """The caption and triplet text of ``item``; its spans are the table and its caption."""
        parts: list[SerializationResult] = []
        shared_visited = kwargs.get("visited")
        caption = doc_serializer.serialize_captions(item=item, **kwargs)
        if caption.text:
            parts.append(caption)
        if item.self_ref not in doc_serializer.get_excluded_refs(**kwargs):
            local_kwargs = {**kwargs, "visited": set(shared_visited)} if shared_visited is not None else kwargs
            frame = item._export_to_dataframe_with_options(doc, doc_serializer=doc_serializer, **local_kwargs)
            table_text = _triplets(frame)
            if table_text:
                if shared_visited is not None:
                    shared_visited.update(local_kwargs["visited"])
                parts.append(create_ser_result(text=table_text, span_source=item))
        return create_ser_result(text="\n\n".join(r.text for r in parts), span_source=parts)


def _triplets(frame: Any) -> str:
    """docling-core's triplet text of a table's data frame (header row as ``frame.columns``)."""
    n_rows, n_cols = frame.shape
    if n_rows == 0:
        return ". ".join(text for col in frame.columns if (text := str(col).strip()))
    if n_cols == 0:
        return ""
    if n_cols == 1:
        values = frame.iloc[:, 0].to_list()
        head = str(values[0]).strip()
        text = ". ".join(f"{head} = {str(v).strip()}" for v in values[1:]) if len(values) > 1 else head
    else:
        rows = [list(frame.columns), *frame.itertuples(index=False, name=None)]
        row_heads = [str(row[0]).strip() for row in rows]
        col_heads = [str(col).strip() for col in rows[0]]
        text = ". ".join(
            f"{row_heads[i]}, {col_heads[j]} = {str(rows[i][j]).strip()}"
            for i in range(1, len(rows))
            for j in range(1, n_cols)
        )
    if not text:  # e.g. a one-cell layout table with blank headers: its cells, so that no text is lost
        text = ". ".join(t for row in frame.itertuples(index=False, name=None) for v in row if (t := str(v).strip()))
    return text


_CHUNKING_PARAMS = MarkdownParams(
    image_mode=ImageRefMode.PLACEHOLDER,
    image_placeholder="",
    escape_underscores=False,
    escape_html=False,
)


class ChunkingSerializer(MarkdownDocSerializer):
    """docling-core's ``ChunkingDocSerializer``: Markdown items, triplet tables, no image placeholders.

    A docling-core ``DocSerializer`` (pass it wherever docling-core takes one). The
    text of each item equals docling-core 2.104's ``ChunkingDocSerializer``.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    table_serializer: BaseTableSerializer = TripletTableSerializer()
    params: MarkdownParams = _CHUNKING_PARAMS


SERIALIZER_MODES: dict[str, type[BaseDocSerializer]] = {"docling": ChunkingSerializer}
"""Serializer class of each ``ChunkingSerializerProvider`` mode.

``"docling"``: docling-core 2.104's ``ChunkingDocSerializer`` text.
"""


class ChunkingSerializerProvider(BaseSerializerProvider):
    """The default serializer provider of docchunk's document chunkers.

    Args:
        mode: Which serialization (a key of :data:`SERIALIZER_MODES`); ``"docling"``
            gives docling-core 2.104's ``ChunkingDocSerializer`` text.

    Raises:
        ConfigError: ``mode`` is unknown.
    """

    def __init__(self, mode: str = "docling") -> None:
        if mode not in SERIALIZER_MODES:
            raise ConfigError(f"unknown serialization mode {mode!r}; use one of {sorted(SERIALIZER_MODES)}")
        self.mode = mode

    def get_serializer(self, doc: DoclingDocument) -> BaseDocSerializer:
        """A serializer of ``doc`` for this provider's mode."""
        return SERIALIZER_MODES[self.mode](doc=doc)

    def __repr__(self) -> str:
        return f"ChunkingSerializerProvider(mode={self.mode!r})"


def is_chunking_serializer(serializer: Any) -> bool:
    """Whether ``serializer`` is docchunk's or docling-core's chunking serializer (or a subclass).

    docling-core's ``HybridChunker`` splits oversized tables line by line (repeating
    the header) only for its ``ChunkingDocSerializer``; docchunk does the same for
    either class. docling-core's class is checked only if its module is loaded.
    """
    if isinstance(serializer, ChunkingSerializer):
        return True
    module = sys.modules.get("docling_core.transforms.chunker.hierarchical_chunker")
    return module is not None and isinstance(serializer, module.ChunkingDocSerializer)
