r"""The Markdown text of the text items on the serializer's fast path (:mod:`docchunk.serialization.fast`).

Each function here writes what docling-core's ``MarkdownDocSerializer`` (with the
chunking settings: no escaping, no image placeholders) writes for one kind of item,
character for character, and returns plain strings (with the items the spans hold);
:mod:`~docchunk.serialization.fast` picks the items that take this path and builds
the serialization results:

- a text item (paragraph, text, checkbox ...): its text, single line breaks as
  Markdown hard breaks (``"  \n"``);
- a title or section header: ``#`` marks (``level + 1``, at most 6), line breaks as spaces;
- a list item: docling-core's marker rules (``-``, ``N.`` in an enumerated
  list without markers, the original marker when it is valid Markdown or has a
  letter or digit), its text with hard breaks;
- a list group whose descendants are only list items and list groups
  (:func:`list_text`): the items one per line, nested lists indented by four spaces per level;
- a code item: a fenced block (three backticks, or more than any run inside),
  a code span when inline or linked; a formula: ``$$...$$``, ``$...$`` inline,
  docling-core's placeholder when only its original is known;
- an inline group of text, code and formula items (:func:`inline_text`), and an
  item written as one (empty text, the group its only child): its texts joined by spaces.

Formatting and hyperlinks are written by docling-core's own ``post_process``. An item
this module cannot write as docling-core does raises :class:`Fallback`, and the caller
leaves it to docling-core. Not here: which items take the fast path, tables, pictures,
generic groups and the ``SerializationResult`` objects (:mod:`~docchunk.serialization.fast`).
"""

from __future__ import annotations

import re
from typing import Any

from docling_core.transforms.serializer.markdown import MarkdownInlineSerializer
from docling_core.types.doc.document import (
    CodeItem,
    Formatting,
    FormulaItem,
    InlineGroup,
    ListGroup,
    ListItem,
    SectionHeaderItem,
    TextItem,
    TitleItem,
)
from docling_core.types.doc.labels import DocItemLabel

__all__ = ["Fallback", "inline_text", "item_text", "list_text"]

_PLAIN_FORMATTING = Formatting()
_HEADINGS = (TitleItem, SectionHeaderItem)
_VALID_MARKER = re.compile(r"\d+\.")
_BACKTICKS = re.compile("`+")
_INLINE_TEXTS = (TextItem, CodeItem, FormulaItem)


class Fallback(Exception):
    """The item needs docling-core's serializer."""


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


def item_text(
    ser: Any, item: Any, pos: int | None, seen: tuple[set[str], set[str]], inline_scope: bool = False
) -> tuple[str, bool]:
    """docling-core's Markdown text of a text, heading, list, code or formula item, and whether its spans hold it.

    An item whose text is one inline group (empty text, that group its only child) is
    written as the group (:func:`inline_text`), without line breaks or formatting of its
    own, as docling-core does.

    Args:
        ser: The :class:`~docchunk.serialization.ChunkingSerializer` (docling-core's
            default component serializers for chunking; the caller checks this).
        item: A text, title, section header, list, code or formula item.
        pos: Its index among its list's children (for an enumerated list's ``N.``), or
            None to look it up.
        seen: The caller's visited references (read only) and the references this call
            adds (the inline group an item is written as, and that group's items).
        inline_scope: Whether it is written inside an inline group (code and formulas
            are then written inline).

    Returns:
        The text (equal to docling-core's, character for character) and whether
        docling-core's spans hold the item (a paragraph of empty text is not held).

    Raises:
        Fallback: docling-core writes this item on a path of its own.
    """
    if type(item) is CodeItem or type(item) is FormulaItem:
        return _code_or_formula_text(ser, item, inline_scope), True
    inline = _inline_child(ser, item, seen)
    text = item.text if inline is None else inline_text(ser, inline, seen)[0]
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
        raise Fallback
    if type(item) is CodeItem:
        if item.captions:
            raise Fallback
        written = _code_span(text) if inline_scope or item.hyperlink else _code_block(text)
    elif text:
        written = f"${text}$" if inline_scope else f"$${text}$$"
    elif item.orig:
        # the default mode's serializer writes the original text (docling-core: a placeholder)
        written = item.orig.strip() if getattr(ser, "writes_formula_orig", False) else "<!-- formula-not-decoded -->"
    else:
        raise Fallback
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
        raise Fallback
    _check_node(ser, child, seen)
    return child


def inline_text(ser: Any, group: Any, seen: tuple[set[str], set[str]]) -> tuple[str, list[Any]]:
    """An inline group as docling-core's ``MarkdownInlineSerializer`` writes it: its texts joined by spaces.

    Only groups of text items (plain, formatted or linked, or themselves written as
    inline groups) take this path.

    Args:
        ser: The :class:`~docchunk.serialization.ChunkingSerializer` (as for :func:`item_text`).
        group: The inline group.
        seen: The caller's visited references (read only) and the references this call
            adds (the group's and its items').

    Returns:
        The text, and the items its spans hold, in document order.

    Raises:
        Fallback: The group holds anything else, or its serializer is not docling-core's.
    """
    if getattr(group, "meta", None) or ser.requires_page_break():
        raise Fallback
    if type(ser.inline_serializer) is not MarkdownInlineSerializer:
        raise Fallback
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
            raise Fallback
        seen[1].add(ref)
        text, spanned = item_text(ser, node, None, seen, inline_scope=True)
        if text:
            texts.append(text)
            if spanned:
                spans.append(node)
    return " ".join(texts), spans


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
            raise Fallback  # docling-core logs a warning
        group = item.parent.resolve(ser.doc)
        if not isinstance(group, ListGroup):
            raise Fallback  # docling-core logs a warning
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


def _check_node(ser: Any, node: Any, seen: tuple[set[str], set[str]]) -> None:
    """Raise :class:`Fallback` unless docling-core's walk would serialize ``node`` plainly.

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
        raise Fallback


def list_text(ser: Any, group: ListGroup, level: int, seen: tuple[set[str], set[str]]) -> tuple[str, list[Any]]:
    """A list group as docling-core's ``MarkdownListSerializer`` writes it: one line per item, nested lists indented.

    Args:
        ser: The :class:`~docchunk.serialization.ChunkingSerializer` (as for :func:`item_text`).
        group: The list group, holding only list items and list groups (an item's
            children only list groups, or the inline group it is written as).
        level: Its nesting depth, 0 for the outer list; each level indents by
            ``ser.params.indent`` characters.
        seen: The caller's visited references (read only) and the references this call
            adds (the group's and those of everything written).

    Returns:
        The text, and the list items its spans hold, in document order.

    Raises:
        Fallback: The list holds anything else, or an item docling-core writes otherwise.
    """
    doc = ser.doc
    if getattr(group, "meta", None) or group.content_layer not in ser.params.layers:
        raise Fallback
    seen[1].add(group.self_ref)
    parts: list[tuple[str, list[Any]]] = []
    excluded = ser.get_excluded_refs()
    captions = ser._captions_of_some_item
    footnotes = ser._footnotes_of_some_item
    for pos, child_ref in enumerate(group.children):
        child = child_ref.resolve(doc)
        _check_node(ser, child, seen)
        if type(child) is ListGroup:
            sub_text, sub_items = list_text(ser, child, level + 1, seen)
            if sub_text:
                parts.append((sub_text, sub_items))
            continue
        if type(child) is not ListItem:
            raise Fallback
        ref = child.self_ref
        if ref in excluded or ref in captions or ref in footnotes or child.parent is None:
            raise Fallback
        if child.parent.cref != group.self_ref:
            raise Fallback  # docling-core numbers an item within its parent
        seen[1].add(ref)
        parts.append((item_text(ser, child, pos, seen)[0], [child]))
        for sub_ref in child.children:
            sub = sub_ref.resolve(doc)
            if type(sub) is InlineGroup and sub.self_ref in seen[1]:
                continue  # the item's text (see _inline_child)
            _check_node(ser, sub, seen)
            if type(sub) is not ListGroup:
                raise Fallback
            sub_text, sub_items = list_text(ser, sub, level + 1, seen)
            if sub_text:
                parts.append((sub_text, sub_items))
    indent = " " * (level * ser.params.indent)
    text = "\n".join(t if t and t[0] == " " else f"{indent}{t}" for t, _ in parts)
    return text, [it for _, its in parts for it in its]
