"""Document items to chunk text: docling-core's chunking serialization, without its chunker package.

:class:`ChunkingSerializer` is docling-core's Markdown document serializer set up as
docling-core's ``ChunkingDocSerializer`` (``docling_core.transforms.chunker.
hierarchical_chunker``): Markdown text, lists and code, pictures as their captions,
tables as ``row, column = value`` triplets (:class:`TripletTableSerializer`, written in
:mod:`docchunk.serialization.docling_triplets` and re-exported here, with
:func:`table_cells`). Its text equals ``ChunkingDocSerializer``'s for every item
(tested differentially on the corpus). It differs in cost only: the set of excluded
items is computed once per document instead of being re-derived (a parameter copy
and a JSON dump) at every item, and common items are written directly
(:mod:`docchunk.serialization.fast`).

:class:`ChunkingSerializerProvider` is the default ``serializer_provider`` of
docchunk's document chunkers; ``mode`` selects the serializer from
:data:`SERIALIZER_MODES`, to which other serialization modes are added.
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Callable
from functools import cached_property
from typing import Any, ClassVar, cast

from docling_core.transforms.serializer.base import (
    BaseDocSerializer,
    BaseSerializerProvider,
    BaseTableSerializer,
    SerializationResult,
)
from docling_core.transforms.serializer.common import DocSerializer
from docling_core.transforms.serializer.markdown import (
    MarkdownDocSerializer,
    MarkdownListSerializer,
    MarkdownParams,
    MarkdownTextSerializer,
)
from docling_core.types.doc.base import ImageRefMode
from docling_core.types.doc.document import (
    ContentLayer,
    DocItem,
    DoclingDocument,
    FloatingItem,
    NodeItem,
    RichTableCell,
)
from pydantic import BaseModel, ConfigDict, PrivateAttr
from pydantic_core import PydanticUndefined

from docchunk.errors import ConfigError
from docchunk.serialization.docling_triplets import TripletTableSerializer, table_cells
from docchunk.serialization.fast import fast_serialize

__all__ = [
    "SERIALIZER_MODES",
    "ChunkingSerializer",
    "ChunkingSerializerProvider",
    "TripletTableSerializer",
    "is_chunking_serializer",
    "table_cells",
]


_CHUNKING_PARAMS = MarkdownParams(
    image_mode=ImageRefMode.PLACEHOLDER,
    image_placeholder="",
    escape_underscores=False,
    escape_html=False,
)


_CHUNKING_DUMP = _CHUNKING_PARAMS.model_dump()
# the parameters that are mutable containers, copied (same type) for each serializer
_CHUNKING_CONTAINERS = tuple(name for name, value in _CHUNKING_PARAMS if isinstance(value, set | dict | list))
_STATELESS: dict[type, dict[str, Any]] = {}


def _stateless_defaults(cls: type[BaseModel]) -> dict[str, Any]:
    """The default component serializers of ``cls`` that hold no state and can take none.

    pydantic models without fields, private data or extra attributes (setting an
    attribute on them raises); plain objects are left to pydantic's own copy.
    """
    found = _STATELESS.get(cls)
    if found is None:
        found = _STATELESS[cls] = {
            name: field.default
            for name, field in cls.model_fields.items()
            if name.endswith("_serializer")
            and field.default_factory is None
            and field.default is not PydanticUndefined
            and isinstance(field.default, BaseModel)  # a plain object takes any attribute: copied as pydantic does
            and field.default.model_config.get("extra") != "allow"
            and not vars(field.default)
            and not field.default.__pydantic_private__
        }
    return found


class ChunkingSerializer(MarkdownDocSerializer):
    """docling-core's ``ChunkingDocSerializer``: Markdown items, triplet tables, no image placeholders.

    A docling-core ``DocSerializer`` (pass it wherever docling-core takes one). The
    text of each item equals docling-core's ``ChunkingDocSerializer``.

    Plain paragraphs, headings, list items and lists of list items are written
    directly (:mod:`docchunk.serialization.fast`), with the same text, spans and
    visited references as docling-core's Markdown serializer, when the serializer
    has the default settings and component serializers; ``fast_path=False`` sends
    every item through docling-core's serializer (for comparison).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    table_serializer: BaseTableSerializer = TripletTableSerializer()
    params: MarkdownParams = _CHUNKING_PARAMS
    fast_path: bool = True

    item_parts_as_docling: ClassVar[tuple[Any, ...]] = (DocSerializer.get_parts,)
    """``get_parts`` functions that give docling-core's parts of every item but the body: the fast path
    writes an item's children itself, so it stays on only when the class's ``get_parts`` is one of them."""

    _excluded: dict[tuple, set[str]] = PrivateAttr(default_factory=dict)
    _own_excluded: tuple[Any, tuple, set[str]] | None = PrivateAttr(default=None)
    _fast_ok: tuple[Any, Any, Any, bool] | None = PrivateAttr(default=None)

    @classmethod
    def for_document(cls, doc: DoclingDocument, **fields: Any) -> ChunkingSerializer:
        """A serializer of ``doc`` with the default settings, without re-validating ``doc``.

        ``ChunkingSerializer(doc=doc)`` validates the document again (docling-core's
        document validators walk all of it); this takes ``doc`` as it is. pydantic
        deep-copies every default component serializer and the parameters for each
        new serializer (a tenth of the time of chunking a small document); here the
        component serializers that hold no state are shared, and the parameters are a
        copy with sets of their own.

        Args:
            doc: The document to serialize.
            **fields: Other fields (e.g. ``table_serializer``), used as given.
        """
        shared = _stateless_defaults(cls)
        params = _CHUNKING_PARAMS.model_copy(
            update={name: copy.copy(getattr(_CHUNKING_PARAMS, name)) for name in _CHUNKING_CONTAINERS}
        )
        return cls.model_construct(doc=doc, **{"params": params, **shared, **fields})

    def serialize(
        self,
        *,
        item: NodeItem | None = None,
        list_level: int = 0,
        is_inline_scope: bool = False,
        visited: set[str] | None = None,
        **kwargs: Any,
    ) -> SerializationResult:
        """docling-core's ``serialize``; plain text, headings and lists directly (same result)."""
        if item is not None and not kwargs and not list_level and not is_inline_scope and self._fast():
            res = fast_serialize(self, item, visited if visited is not None else set())
            if res is not None:
                return res
        return super().serialize(
            item=item, list_level=list_level, is_inline_scope=is_inline_scope, visited=visited, **kwargs
        )

    def _fast(self) -> bool:
        """Whether the fast path gives docling-core's text: default settings and component serializers."""
        if not self.fast_path:
            return False
        params, text_serializer, list_serializer = self.params, self.text_serializer, self.list_serializer
        # (called for every item: the private attribute read without pydantic's __getattr__)
        cached = cast(dict[str, Any], self.__pydantic_private__)["_fast_ok"]
        if cached is not None and cached[0] is params and cached[1] is text_serializer and cached[2] is list_serializer:
            return cached[3]
        key = (params, text_serializer, list_serializer)
        cls = type(self)
        ok = (
            type(self.text_serializer) is MarkdownTextSerializer
            and type(self.list_serializer) is MarkdownListSerializer
            and cls.post_process is MarkdownDocSerializer.post_process
            and cls.get_parts in cls.item_parts_as_docling
            and cls._skip_in_walk is DocSerializer._skip_in_walk
            and self.params.model_dump() == _CHUNKING_DUMP
        )
        self._fast_ok = (*key, ok)
        return ok

    @cached_property
    def _nodes(self) -> list[Any]:
        """Every node under the body, in document order, pictures' children and all layers included.

        What docling-core's ``iterate_items(with_groups=True, traverse_pictures=True,
        included_content_layers=<all>)`` yields (with ``included_content_layers`` a
        filter on what is yielded, not on what is descended into), made once per
        serializer: the caption, footnote and exclusion sets below are read from it
        instead of walking the document once each.
        """
        doc = self.doc
        out: list[Any] = []
        stack: list[Any] = [doc.body]
        while stack:
            node = stack.pop()
            out.append(node)
            children = [ref.resolve(doc) for ref in node.children]
            stack.extend(child for child in reversed(children) if isinstance(child, NodeItem))
        return out

    @cached_property
    def _captions_of_some_item(self) -> set[str]:
        """References of the captions of floating items (docling-core's set, from one walk)."""
        return {ref.cref for node in self._nodes if isinstance(node, FloatingItem) for ref in node.captions}

    @cached_property
    def _footnotes_of_some_item(self) -> set[str]:
        """References of the footnotes of floating items (docling-core's set, from one walk)."""
        return {ref.cref for node in self._nodes if isinstance(node, FloatingItem) for ref in node.footnotes}

    def _excluded_from_nodes(self, params: Any) -> set[str]:
        """docling-core's ``DocSerializer.get_excluded_refs`` for ``params``, from :attr:`_nodes`."""
        layers, labels, pages = params.layers, params.labels, params.pages
        start, stop = params.start_idx, params.stop_idx
        refs: set[str] = set()
        for ix, node in enumerate(n for n in self._nodes if n.content_layer in layers):
            if (ix < start or ix >= stop) or (
                isinstance(node, DocItem)
                and (
                    node.label not in labels  # (every node here is in ``layers``)
                    or (pages is not None and ((not node.prov) or node.prov[0].page_no not in pages))
                )
            ):
                refs.add(node.self_ref)
        for table in self.doc.tables:  # rich cells own subtrees: excluded with their table
            if table.self_ref in refs or table.content_layer not in layers:
                refs.add(table.self_ref)
                for cell in table.data.table_cells:
                    if isinstance(cell, RichTableCell):
                        refs.update(
                            node.self_ref
                            for node, _ in self.doc.iterate_items(
                                root=cell.ref.resolve(self.doc),
                                with_groups=True,
                                traverse_pictures=True,
                                included_content_layers=set(ContentLayer),
                            )
                        )
        return refs

    def get_excluded_refs(self, **kwargs: Any) -> set[str]:
        """References of the items these settings leave out (docling-core's rule).

        Depends only on the ``labels``, ``layers``, ``pages``, ``start_idx`` and
        ``stop_idx`` settings, so it is computed once per document and combination
        of them; docling-core re-derives its cache key, a copy of all parameters
        dumped to JSON, at every call (several per item).
        """
        params = self.params
        # (called several times per item: the private attribute read without pydantic's __getattr__)
        own = cast(dict[str, Any], self.__pydantic_private__)["_own_excluded"]
        if own is not None and own[0] is params:
            values = own[1]  # in the order of _EXCLUSION_PARAMS
            if not kwargs:  # the common call: the serializer's own settings, unchanged
                if (
                    params.labels == values[0]
                    and params.layers == values[1]
                    and params.pages == values[2]
                    and params.start_idx == values[3]
                    and params.stop_idx == values[4]
                ):
                    return own[2]
            elif all(
                (kwargs[name] if name in kwargs else getattr(params, name)) == value
                for name, value in zip(_EXCLUSION_PARAMS, values, strict=True)
            ):
                return own[2]  # the serializer's own settings: nested calls pass a copy of all of them
        try:
            values = tuple(_frozen(getattr(params, name)) for name in _EXCLUSION_PARAMS)
            key = tuple(_frozen(kwargs.get(name, getattr(params, name))) for name in _EXCLUSION_PARAMS)
            refs = self._excluded.get(key)
        except TypeError:  # an unhashable setting: docling-core's own cache handles it
            return super().get_excluded_refs(**kwargs)
        if refs is None:
            merged = params.merge_with_patch(patch=kwargs) if kwargs else params
            refs = self._excluded[key] = self._excluded_from_nodes(merged)
        if key == values:
            self._own_excluded = (params, values, refs)
        return refs


_EXCLUSION_PARAMS = ("labels", "layers", "pages", "start_idx", "stop_idx")


def _frozen(value: Any) -> Any:
    return frozenset(value) if isinstance(value, (set, frozenset, list)) else value


SERIALIZER_MODES: dict[str, Callable[..., BaseDocSerializer]] = {"docling": ChunkingSerializer}
"""Serializer class of each ``ChunkingSerializerProvider`` mode.

``"docling"``: docling-core's ``ChunkingDocSerializer`` text.
"""


class ChunkingSerializerProvider(BaseSerializerProvider):
    """The default serializer provider of docchunk's document chunkers.

    Args:
        mode: Which serialization (a key of :data:`SERIALIZER_MODES`); ``"docling"``
            gives docling-core's ``ChunkingDocSerializer`` text.

    Raises:
        ConfigError: ``mode`` is unknown.
    """

    def __init__(self, mode: str = "docling") -> None:
        if mode not in SERIALIZER_MODES:
            raise ConfigError(f"unknown serialization mode {mode!r}; use one of {sorted(SERIALIZER_MODES)}")
        self.mode = mode

    def get_serializer(self, doc: DoclingDocument) -> BaseDocSerializer:
        """A serializer of ``doc`` for this provider's mode."""
        cls = SERIALIZER_MODES[self.mode]
        for_document = getattr(cls, "for_document", None)
        return for_document(doc) if for_document is not None else cls(doc=doc)

    def __repr__(self) -> str:
        return f"ChunkingSerializerProvider(mode={self.mode!r})"


def is_chunking_serializer(serializer: object) -> bool:
    """Whether ``serializer`` is docchunk's or docling-core's chunking serializer (or a subclass).

    docling-core's ``HybridChunker`` splits oversized tables line by line (repeating
    the header) only for its ``ChunkingDocSerializer``; docchunk does the same for
    either class. docling-core's class is checked only if its module is loaded.
    """
    if isinstance(serializer, ChunkingSerializer):
        return True
    module = sys.modules.get("docling_core.transforms.chunker.hierarchical_chunker")
    return module is not None and isinstance(serializer, module.ChunkingDocSerializer)
