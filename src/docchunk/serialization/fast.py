r"""A fast path for the common items of :class:`~docchunk.serialization.ChunkingSerializer`.

docling-core's Markdown serializer copies and dumps all of its parameters, builds
several pydantic models and walks the whole subtree for every item it serializes;
for a plain paragraph, heading or list this is most of the cost of chunking a
document. This module picks the items whose text can be written directly, equal to what
docling-core's ``MarkdownDocSerializer`` (with the chunking settings:
no escaping, no image placeholders) gives, character for character, with the
same spans and the same ``visited`` references, and builds their serialization results:

- text items, titles and section headers, list items, code and formulas, list groups
  whose descendants are only list items and list groups, inline groups: their text is
  written by :mod:`docchunk.serialization.fast_text` (which says how each is written);
- a generic group (a rich table cell's content, a sheet, a section): its
  descendants serialized one by one (through this path where it applies),
  joined by blank lines, as docling-core's fallback serializer does;
- a table, when its table serializer declares ``reads_only_own_params`` (the
  default mode's row serializer): called directly, without the copy of all
  parameters docling-core passes along with every call;
- a picture without annotations or meta data: without captions no text, or in the
  default mode the text of its children; with captions, in the default mode, its
  captions and then its children (:func:`_picture_result`).

Everything else returns ``None`` and goes to docling-core's serializer: items
with meta data, excluded items, items outside the serializer's content layers,
captions and footnotes, code with captions, other tables and pictures, lists holding
anything other than list items and lists, and serializers with other parameters
or component serializers (each path checks the component it stands in for). The
differential tests in ``tests/serialization/test_fast_path.py`` compare the two
paths item by item over the corpus and over generated documents.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from docling_core.transforms.serializer.base import SerializationResult, Span
from docling_core.transforms.serializer.common import create_ser_result
from docling_core.transforms.serializer.markdown import (
    MarkdownFallbackSerializer,
    MarkdownPictureSerializer,
)
from docling_core.types.doc.document import (
    CodeItem,
    FormulaItem,
    GroupItem,
    InlineGroup,
    ListGroup,
    ListItem,
    NodeItem,
    PictureItem,
    SectionHeaderItem,
    TableItem,
    TextItem,
    TitleItem,
)

from docchunk.serialization.fast_text import Fallback, inline_text, item_text, list_text

if TYPE_CHECKING:
    from docling_core.transforms.serializer.base import BaseDocSerializer
    from docling_core.types.doc import DoclingDocument

    from docchunk.serialization.chunking import ChunkingSerializer

__all__ = ["children_results", "fast_serialize"]

_TEXTS = (TextItem, ListItem, CodeItem, FormulaItem, TitleItem, SectionHeaderItem)


def fast_serialize(ser: ChunkingSerializer, item: NodeItem, visited: set[str]) -> SerializationResult | None:
    """``ser.serialize(item=item, visited=visited)`` for a common item, or None for docling-core's path.

    Args:
        ser: A :class:`~docchunk.serialization.ChunkingSerializer` whose settings
            and component serializers are docling-core's defaults for chunking
            (the caller checks this).
        item: The item to serialize.
        visited: References already serialized; updated as docling-core does.

    Returns:
        The serialization result (text and spans equal to docling-core's), or
        None when the item is not one this path handles.
    """
    kind = type(item)
    if kind is ListGroup:
        return _group_result(ser, cast(ListGroup, item), visited)
    if kind is InlineGroup:
        return _inline_result(ser, item, visited)
    if kind is GroupItem:
        return _plain_group_result(ser, item, visited)
    if kind is TableItem:
        return _table_result(ser, item, visited)
    if kind is PictureItem:
        return _picture_result(ser, item, visited)
    if kind not in _TEXTS:
        return None
    if getattr(item, "meta", None) or item.content_layer not in ser.params.layers:
        return None
    ref = item.self_ref
    if ref in ser._captions_of_some_item or ref in ser._footnotes_of_some_item or ref in ser.get_excluded_refs():
        return None
    added: set[str] = set()
    try:
        text, spanned = item_text(ser, item, None, (visited, added))
    except Fallback:
        return None
    visited.add(ref)
    visited |= added
    return _result(text, [item] if text and spanned else [])


def _result(text: str, items: list[Any]) -> SerializationResult:
    """``SerializationResult(text=text, spans=[Span(item=it) for it in items])``.

    Validated construction, not ``model_construct``: for these two small models
    pydantic's compiled validator (which keeps the document's own ``DocItem`` objects
    as they are) takes about half the time of ``model_construct``'s Python loop.
    """
    return SerializationResult(text=text, spans=[Span(item=it) for it in items])


def _inline_result(ser: Any, group: Any, visited: set[str]) -> SerializationResult | None:
    """An inline group of text items, or None for docling-core's path.

    Its text is written by :func:`~docchunk.serialization.fast_text.inline_text`.
    """
    added: set[str] = set()
    try:
        text, items = inline_text(ser, group, (visited, added))
    except Fallback:
        return None
    visited |= added
    return _result(text, items)


def _group_result(ser: Any, group: ListGroup, visited: set[str]) -> SerializationResult | None:
    """A list group of list items and lists only, as docling-core's ``MarkdownListSerializer`` writes it."""
    added: set[str] = set()
    try:
        text, items = list_text(ser, group, 0, (visited, added))
    except Fallback:
        return None
    visited |= added
    return _result(text, items)


def _table_result(ser: Any, item: Any, visited: set[str]) -> SerializationResult | None:
    """A table through its table serializer, without docling-core's per-call parameter dump.

    Only for table serializers that declare ``reads_only_own_params = True``: their
    output depends on the document serializer's own settings, which the dump repeats.
    """
    if not getattr(ser.table_serializer, "reads_only_own_params", False) or getattr(item, "meta", None):
        return None
    visited.add(item.self_ref)
    part = ser.table_serializer.serialize(item=item, doc_serializer=ser, doc=ser.doc, visited=visited)
    return create_ser_result(text=part.text, span_source=[part])


def _picture_result(ser: Any, item: Any, visited: set[str]) -> SerializationResult | None:
    """A picture without annotations or meta data.

    With docling-core's Markdown picture serializer, and no captions: no text (the
    chunking image placeholder is empty; the walk writes the picture's children).
    With a picture serializer that declares ``writes_children_only = True`` on its own
    class (the default mode's :class:`~docchunk.serialization.items.PictureTextSerializer`):
    the picture's captions (docling-core's ``serialize_captions``, placed before the
    picture as the default ``caption_placement`` does), then, unless the picture is
    excluded, the text of its children, each serialized by ``ser`` (through this path
    where it applies) and joined by blank lines, spanned by the picture, as that
    serializer writes them, without docling-core's per-call copy of all parameters.
    """
    picture_serializer = type(ser.picture_serializer)
    children_only = picture_serializer.__dict__.get("writes_children_only", False)
    if picture_serializer is not MarkdownPictureSerializer and not children_only:
        return None
    if item.__dict__.get("annotations") or getattr(item, "meta", None) or (item.captions and not children_only):
        return None
    visited.add(item.self_ref)
    if not children_only:
        return create_ser_result()
    parts: list[SerializationResult] = []
    if item.captions:
        captions = ser.serialize_captions(item=item, visited=visited)
        if captions.text:
            parts.append(captions)
    if item.self_ref not in ser.get_excluded_refs():
        children = [res.text for res in children_results(item, ser, ser.doc, visited)]
        if children:
            parts.append(_result("\n\n".join(children), [item]))
    if len(parts) == 1:
        return parts[0]
    # captions and children: their texts and spans joined as docling-core's picture serializer joins them
    return create_ser_result(text="\n\n".join(p.text for p in parts), span_source=parts)


def children_results(
    item: NodeItem, ser: BaseDocSerializer, doc: DoclingDocument, visited: set[str], **kwargs: Any
) -> list[SerializationResult]:
    """The children of ``item`` not yet in ``visited``, each serialized by ``ser``, that have text, in order.

    ``kwargs`` go to each ``ser.serialize`` call; without any, a child takes this fast
    path where it applies. Shared by the default mode's picture serializer and its fast path.
    """
    parts: list[SerializationResult] = []
    for ref in item.children:
        child = ref.resolve(doc)
        if not isinstance(child, NodeItem) or child.self_ref in visited:
            continue
        res = ser.serialize(item=child, visited=visited, **kwargs)
        if res.text.strip():
            parts.append(res)
    return parts


def _plain_group_result(ser: Any, group: Any, visited: set[str]) -> SerializationResult | None:
    """A generic group (not a list or inline group) as docling-core's Markdown fallback serializer writes it.

    Its descendants in document order, each serialized once (those already visited
    skipped), the non-empty texts joined by a blank line; the body is left to docling-core.
    """
    if group is ser.doc.body or getattr(group, "meta", None) or ser.requires_page_break():
        return None
    fallback = ser.fallback_serializer
    if type(fallback) is not MarkdownFallbackSerializer and not getattr(fallback, "writes_groups_as_markdown", False):
        return None
    visited.add(group.self_ref)
    params = ser.params
    parts = []
    for node, _level in ser.doc.iterate_items(
        root=group, with_groups=True, traverse_pictures=params.traverse_pictures, included_content_layers=params.layers
    ):
        if node.self_ref in visited or ser._skip_in_walk(node=node, root=group):
            continue
        visited.add(node.self_ref)
        part = ser.serialize(item=node, visited=visited)
        if part.text:
            parts.append(part)
    return create_ser_result(text="\n\n".join(p.text for p in parts), span_source=parts)
