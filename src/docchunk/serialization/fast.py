r"""A fast path for the common items of :class:`~docchunk.serialization.ChunkingSerializer`.

docling-core's Markdown serializer copies and dumps all of its parameters, builds
several pydantic models and walks the whole subtree for every item it serializes;
for a plain paragraph, heading or list this is most of the cost of chunking a
document. This module writes the text of those items directly, equal to what
docling-core's ``MarkdownDocSerializer`` (with the chunking settings:
no escaping, no image placeholders) gives, character for character, with the
same spans and the same ``visited`` references:

- a text item (paragraph, text, checkbox ...): its text, single line breaks as
  Markdown hard breaks (``"  \n"``);
- a title or section header: ``#`` marks (``level + 1``, at most 6), line breaks as spaces;
- a list item: docling-core's marker rules (``-``, ``N.`` in an enumerated
  list without markers, the original marker when it is valid Markdown or has a
  letter or digit), its text with hard breaks;
- a list group whose descendants are only list items and list groups: the
  items one per line, nested lists indented by four spaces per level;
- a generic group (a rich table cell's content, a sheet, a section): its
  descendants serialized one by one (through this path where it applies),
  joined by blank lines, as docling-core's fallback serializer does;
- a table, when its table serializer declares ``reads_only_own_params`` (the
  default mode's row serializer): called directly, without the copy of all
  parameters docling-core passes along with every call;
- a code item: a fenced block (three backticks, or more than any run inside),
  a code span when inline or linked; a formula: ``$$...$$``, ``$...$`` inline,
  docling-core's placeholder when only its original is known;
- an inline group of text, code and formula items, and an item written as one
  (empty text, the group its only child): its texts joined by spaces;
- a picture without annotations or meta data: without captions no text, or in the
  default mode the text of its children; with captions, in the default mode, its
  captions and then its children (:func:`_picture_result`).

Formatting and hyperlinks are written by docling-core's own ``post_process``.
Everything else returns ``None`` and goes to docling-core's serializer: items
with meta data, excluded items, items outside the serializer's content layers,
captions and footnotes, code with captions, other tables and pictures, lists holding
anything other than list items and lists, and serializers with other parameters
or component serializers (each path checks the component it stands in for). The
differential tests in ``tests/serialization/test_fast_path.py`` compare the two
paths item by item over the corpus and over generated documents.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, cast

from docling_core.transforms.serializer.base import SerializationResult, Span
from docling_core.transforms.serializer.common import create_ser_result
from docling_core.transforms.serializer.markdown import (
    MarkdownFallbackSerializer,
    MarkdownInlineSerializer,
    MarkdownPictureSerializer,
)
from docling_core.types.doc.document import (
    CodeItem,
    Formatting,
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
from docling_core.types.doc.labels import DocItemLabel

if TYPE_CHECKING:
    from docling_core.transforms.serializer.base import BaseDocSerializer
    from docling_core.types.doc import DoclingDocument

    from docchunk.serialization.chunking import ChunkingSerializer

__all__ = ["children_results", "fast_serialize"]

_PLAIN_FORMATTING = Formatting()
_HEADINGS = (TitleItem, SectionHeaderItem)
_VALID_MARKER = re.compile(r"\d+\.")
_BACKTICKS = re.compile("`+")
_CHECKBOXES = (DocItemLabel.CHECKBOX_SELECTED, DocItemLabel.CHECKBOX_UNSELECTED)
_TEXTS = (TextItem, ListItem, CodeItem, FormulaItem, *_HEADINGS)
_INLINE_TEXTS = (TextItem, CodeItem, FormulaItem)


class _Fallback(Exception):
    """The item needs docling-core's serializer."""


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
        text, spanned = _item_text(ser, item, None, (visited, added))
    except _Fallback:
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


def _decorated(item: Any) -> bool:
    """Whether the item has formatting or a hyperlink (written around its text by ``post_process``)."""
    formatting = item.formatting
    return bool(item.hyperlink) or (formatting is not None and formatting != _PLAIN_FORMATTING)


def _post_process(ser: Any, item: Any, text: str) -> str:
    """docling-core's formatting and hyperlink of ``text`` (``**bold**``, ``[text](url)`` ...), by its own method.

    A paragraph of blank text is written as nothing by a serializer that declares
    ``writes_no_bare_markup`` (the default mode's, whose ``serialize`` writes nothing for
    it either, :func:`~docchunk.serialization.items.markup_only`: docling-core writes the
    marks alone, ``**``).
    """
    if not _decorated(item):
        return text
    if type(item) is TextItem and not text.strip() and getattr(ser, "writes_no_bare_markup", False):
        return ""
    return ser.post_process(text=text, escape_html=True, escape_underscores=True, formatting=item.formatting,
                            hyperlink=item.hyperlink)  # fmt: skip


def _item_text(
    ser: Any, item: Any, pos: int | None, seen: tuple[set[str], set[str]], inline_scope: bool = False
) -> tuple[str, bool]:
    """docling-core's Markdown text of a text, heading, list, code or formula item, and whether its spans hold it.

    ``pos``: its index in its list; ``inline_scope``: whether it is written inside an
    inline group (code and formulas are then written inline). An item whose text is
    one inline group (empty text, that group its only child) is written as the group
    (:func:`_inline_text`), without line breaks or formatting of its own, as docling-core
    does; the group's references are added to ``seen[1]`` (``seen[0]``: the caller's
    visited references).
    """
    if type(item) is CodeItem or type(item) is FormulaItem:
        return _code_or_formula_text(ser, item, inline_scope), True
    inline = _inline_child(ser, item, seen)
    text = item.text if inline is None else _inline_text(ser, inline, seen)[0]
    if item.label == DocItemLabel.CHECKBOX_SELECTED:
        text = f"- [x] {text}"
    elif item.label == DocItemLabel.CHECKBOX_UNSELECTED:
        text = f"- [ ] {text}"
    if isinstance(item, _HEADINGS):
        if inline is None:
            text = _post_process(ser, item, text.replace("\n", " "))
        hashes = 1 if isinstance(item, TitleItem) else min(item.level + 1, 6)
        return f"{hashes * '#'} {text}", True
    if isinstance(item, ListItem):
        if inline is None:
            text = _post_process(ser, item, _md_line_breaks(text))
        return _list_item_text(ser, item, text, pos), True
    # docling-core's spans hold a paragraph when its text before formatting is not empty
    spanned = bool(text)
    text = _md_line_breaks(text)
    return (text if inline is not None else _post_process(ser, item, text)), spanned


def _code_or_formula_text(ser: Any, item: Any, inline_scope: bool) -> str:
    """docling-core's Markdown of a code item (a code span inline or when linked, else a fenced block) or formula.

    Falls back for a code item with captions and for an item written as an inline
    group or a formula with nothing to write (both rare), which docling-core handles
    on paths of their own.
    """
    text = item.text
    if text == "" and item.children:
        raise _Fallback
    if type(item) is CodeItem:
        if item.captions:
            raise _Fallback
        written = _code_span(text) if inline_scope or item.hyperlink else _code_block(text)
    elif text:
        written = f"${text}$" if inline_scope else f"$${text}$$"
    elif item.orig:
        # the default mode's serializer writes the original text (docling-core: a placeholder)
        written = item.orig.strip() if getattr(ser, "writes_formula_orig", False) else "<!-- formula-not-decoded -->"
    else:
        raise _Fallback
    return _post_process(ser, item, written)


def _longest_backticks(text: str) -> int:
    """Length of the longest run of backticks in ``text`` (0 without any)."""
    return max(map(len, _BACKTICKS.findall(text)), default=0) if "`" in text else 0


def _code_span(text: str) -> str:
    """A Markdown code span around ``text``, as docling-core writes it: one backtick more than any run inside."""
    ticks = "`" * (_longest_backticks(text) + 1)
    pad = " " if text[:1] == "`" or text[-1:] == "`" else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def _code_block(text: str) -> str:
    """A fenced Markdown code block, as docling-core writes it: at least three backticks, more than any run inside."""
    fence = "`" * max(3, _longest_backticks(text) + 1)
    return f"{fence}\n{text}\n{fence}"


def _inline_child(ser: Any, item: Any, seen: tuple[set[str], set[str]]) -> Any:
    """The inline group an item with empty text is written as, or None; other single children fall back."""
    if item.text != "" or len(item.children) != 1:
        return None
    child = item.children[0].resolve(ser.doc)
    if type(child) is not InlineGroup:
        raise _Fallback
    _check_node(ser, child, seen)
    return child


def _inline_text(ser: Any, group: Any, seen: tuple[set[str], set[str]]) -> tuple[str, list[Any]]:
    """An inline group as docling-core's ``MarkdownInlineSerializer`` writes it: its texts joined by spaces.

    Only groups of text items (plain, formatted or linked, or themselves written as
    inline groups) take this path. Returns the text and the items its spans hold;
    adds the group's references to ``seen[1]``.
    """
    if getattr(group, "meta", None) or ser.requires_page_break():
        raise _Fallback
    if type(ser.inline_serializer) is not MarkdownInlineSerializer:
        raise _Fallback
    params = ser.params
    seen[1].add(group.self_ref)
    excluded = ser.get_excluded_refs()
    captions, footnotes = ser._captions_of_some_item, ser._footnotes_of_some_item
    texts: list[str] = []
    spans: list[Any] = []
    for node, _level in ser.doc.iterate_items(
        root=group, with_groups=True, traverse_pictures=params.traverse_pictures, included_content_layers=params.layers
    ):
        ref = node.self_ref
        if ref in seen[0] or ref in seen[1] or ser._skip_in_walk(node=node, root=group):
            continue
        if (type(node) not in _INLINE_TEXTS or getattr(node, "meta", None) or ref in excluded
                or ref in captions or ref in footnotes):  # fmt: skip
            raise _Fallback
        seen[1].add(ref)
        text, spanned = _item_text(ser, node, None, seen, inline_scope=True)
        if text:
            texts.append(text)
            if spanned:
                spans.append(node)
    return " ".join(texts), spans


def _inline_result(ser: Any, group: Any, visited: set[str]) -> SerializationResult | None:
    """An inline group of text items (see :func:`_inline_text`), or None for docling-core's path."""
    added: set[str] = set()
    try:
        text, items = _inline_text(ser, group, (visited, added))
    except _Fallback:
        return None
    visited |= added
    return _result(text, items)


def _md_line_breaks(text: str) -> str:
    """docling-core's ``MarkdownTextSerializer._md_line_breaks``: single newlines as hard breaks."""
    if "\n" not in text:
        return text
    return "\n\n".join(para.replace("\n", "  \n") for para in text.split("\n\n"))


def _list_item_text(ser: Any, item: ListItem, text: str, pos: int | None) -> str:
    """docling-core's list item line (default marker settings: ``auto``, valid Markdown markers)."""
    marker = item.marker
    pieces: list[str] = []
    already_valid = marker in ("-", "*", "+") or _VALID_MARKER.fullmatch(marker) is not None
    if not already_valid:
        if item.parent is None:
            raise _Fallback  # docling-core logs a warning
        group = item.parent.resolve(ser.doc)
        if not isinstance(group, ListGroup):
            raise _Fallback  # docling-core logs a warning
        md_marker = "-"
        if not marker and group.first_item_is_enumerated(ser.doc):
            if pos is None:
                pos = next((i for i, c in enumerate(group.children) if c.resolve(ser.doc) is item), -1)
            md_marker = f"{pos + 1}."
        pieces.append(md_marker)
    if marker and (already_valid or any(char.isalnum() for char in marker)):
        pieces.append(marker)
    pieces.append(text)
    return " ".join(pieces)


def _group_result(ser: Any, group: ListGroup, visited: set[str]) -> SerializationResult | None:
    """A list group of list items and lists only, as docling-core's ``MarkdownListSerializer`` writes it."""
    added: set[str] = set()
    try:
        text, items = _list_text(ser, group, 0, (visited, added))
    except _Fallback:
        return None
    visited |= added
    return _result(text, items)


def _check_node(ser: Any, node: Any, seen: tuple[set[str], set[str]]) -> None:
    """Raise :class:`_Fallback` unless docling-core's walk would serialize ``node`` plainly.

    ``seen``: the caller's visited references and those this list added.
    """
    ref = node.self_ref
    if (
        ref in seen[0]
        or ref in seen[1]
        or getattr(node, "meta", None)
        or node.content_layer not in ser.params.layers
        or ref in ser._satellite_descendants
    ):
        raise _Fallback


def _list_text(ser: Any, group: ListGroup, level: int, seen: tuple[set[str], set[str]]) -> tuple[str, list[Any]]:
    """Text and list items of ``group`` at nesting ``level``; adds their references to ``seen[1]``."""
    doc = ser.doc
    if getattr(group, "meta", None) or group.content_layer not in ser.params.layers:
        raise _Fallback
    seen[1].add(group.self_ref)
    parts: list[tuple[str, list[Any]]] = []
    excluded = ser.get_excluded_refs()
    captions = ser._captions_of_some_item
    footnotes = ser._footnotes_of_some_item
    for pos, child_ref in enumerate(group.children):
        child = child_ref.resolve(doc)
        _check_node(ser, child, seen)
        if type(child) is ListGroup:
            sub_text, sub_items = _list_text(ser, child, level + 1, seen)
            if sub_text:
                parts.append((sub_text, sub_items))
            continue
        if type(child) is not ListItem:
            raise _Fallback
        ref = child.self_ref
        if ref in excluded or ref in captions or ref in footnotes or child.parent is None:
            raise _Fallback
        if child.parent.cref != group.self_ref:
            raise _Fallback  # docling-core numbers an item within its parent
        seen[1].add(ref)
        parts.append((_item_text(ser, child, pos, seen)[0], [child]))
        for sub_ref in child.children:
            sub = sub_ref.resolve(doc)
            if type(sub) is InlineGroup and sub.self_ref in seen[1]:
                continue  # the item's text (see _inline_child)
            _check_node(ser, sub, seen)
            if type(sub) is not ListGroup:
                raise _Fallback
            sub_text, sub_items = _list_text(ser, sub, level + 1, seen)
            if sub_text:
                parts.append((sub_text, sub_items))
    indent = " " * (level * ser.params.indent)
    text = "\n".join(t if t and t[0] == " " else f"{indent}{t}" for t, _ in parts)
    return text, [it for _, its in parts for it in its]


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
