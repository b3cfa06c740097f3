"""A walked list piece read as lines: one per list item or block, with its depth and parent items.

The reading :func:`~docchunk.chunkers.doc.list_split.split_list_piece` cuts into windows:
docling-core's Markdown list serializer writes one line per item, a nested item indented
per level; a block inside an item (a paragraph, a table's rows, code) is lines of its
own under its item, and a block beside a list's items is written at the items' depth.
An item that is a link or an inline group is written as its plain text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from docling_core.types.doc.document import (
    DocItem,
    GroupItem,
    InlineGroup,
    ListGroup,
    ListItem,
    TextItem,
)

from docchunk.chunkers.doc.piece import Piece, replace
from docchunk.serialization.inline import inline_group_of, plain_inline_text

if TYPE_CHECKING:
    from docling_core.types.doc import DoclingDocument

    from docchunk.chunkers.doc.hybrid_run import HybridRun

__all__ = ["ListLine", "indent_lines", "indent_of", "list_lines", "parent_text"]

_LINK_LINE = re.compile(r"(\S+ )(\[.*\]\(.*\))")
"""A list line that is a marker and one Markdown link (a list item whose ``hyperlink`` is set)."""


@dataclass
class ListLine:
    """One list item of a list piece: its serialized line, its nesting depth and its parent items."""

    item: Any  # a ListItem, or a block inside one (see _block_line)
    depth: int
    text: str  # the serializer's line of the item, without indentation
    parents: list[ListItem]


def list_lines(run: HybridRun, piece: Piece) -> list[ListLine] | None:
    """The items of a walked list piece, in order, or None when ``piece`` is not one list written line by line."""
    doc = run.doc
    first = next((it for it in piece.items if isinstance(it, ListItem)), None)
    if first is None or piece.from_headings or piece.table_rows is not None:
        return None
    top: Any = None
    node: Any = first
    while isinstance(node, (ListGroup, ListItem)):
        if isinstance(node, ListGroup):
            top = node
        node = node.parent.resolve(doc) if node.parent is not None else None
    if top is None:
        return None
    lines: list[ListLine] = []
    if not _collect(run, top, 0, [], lines):
        return None
    refs = {it.self_ref for it in piece.items}
    own = [k for k, ln in enumerate(lines) if ln.item.self_ref in refs]
    if own and len(own) < len(lines):  # a part of the list (split_at_pages cut it where its pages change): its lines
        lines = lines[own[0] : own[-1] + 1]  # (a block among them, a picture written as its caption, included)
    indent = indent_of(run)
    written = "\n".join(indent_lines(ln.text, indent * ln.depth) for ln in lines if ln.text)
    if written != piece.text and _unindented(written) != _unindented(piece.text):
        return None  # the serializer wrote other lines than one per item (its indentation aside)
    return [_plain(run, ln) for ln in lines if ln.text]


def _unindented(text: str) -> list[str]:
    """The non-blank lines of ``text`` without their indentation.

    docling-core's list serializer writes a nested list at its parent's indentation
    when the parent item also holds another block (an empty picture, a paragraph):
    the same lines, flat. The lines are then written again with their nesting.
    """
    return [line.strip() for line in text.split("\n") if line.strip()]


def _collect(run: HybridRun, group: ListGroup, depth: int, parents: list[ListItem], out: list[ListLine]) -> bool:
    """Append the lines of ``group``'s items; False when a child is not a list item or a nested list."""
    doc = run.doc
    for ref in group.children:
        child = ref.resolve(doc)
        if isinstance(child, ListGroup):
            if not _collect(run, child, depth + 1, parents, out):
                return False
            continue
        if not isinstance(child, ListItem):
            # a block beside the items (docling's DOCX and Markdown converters put a picture,
            # a table or a code block of a nested item in its list): at the items' depth
            if not _block_line(run, child, depth, parents, out):
                return False
            continue
        inline = _inline_of(child, doc)
        text = run.item_text(child)
        if inline is not None and inline_group_of(child, doc) is None:
            # the item's inline run is one child among others (a nested list after it): the
            # serializer writes it after the item's marker, on the item's line
            serialized = run.serializer.serialize(item=inline, visited=set()).text
            if serialized and not text.endswith(serialized):
                marker = text or run.serializer.serialize(item=child, visited=set()).text  # "- " alone reads as debris
                text = marker.rstrip() + " " + serialized
        out.append(ListLine(child, depth, text, parents))
        for sub_ref in child.children:
            sub = sub_ref.resolve(doc)
            if isinstance(sub, ListGroup):
                if not _collect(run, sub, depth + 1, [*parents, child], out):
                    return False
            elif isinstance(sub, InlineGroup) and sub is inline:
                continue
            elif not _block_line(run, sub, depth + 1, [*parents, child], out):
                return False
    return True


def _block_line(run: HybridRun, block: Any, depth: int, parents: list[ListItem], out: list[ListLine]) -> bool:
    """Append the lines of a block inside a list item (a paragraph, a picture, a table, code); False if none can be.

    A block that writes no text (a picture without caption) has an empty line, left
    out of the text; one that writes text is a line of its own, indented under its
    item (a Markdown continuation); a block of several lines (a table's rows, a fenced
    code block) has each of its lines indented so (:func:`_indent_lines`). A group
    (other than a nested list) is not a block: the list is then split at element
    boundaries.
    """
    if isinstance(block, GroupItem) or not isinstance(block, DocItem):
        return False
    text = run.item_text(block).strip("\n")
    out.append(ListLine(block, depth, text if "\n" in text else text.strip(), parents))
    return True


def _inline_of(item: Any, doc: DoclingDocument) -> InlineGroup | None:
    """The inline run that is a list item's text: its only child (see :func:`inline_group_of`), or its first.

    An item without text of its own whose first child is an inline group and whose
    other children are nested lists or blocks (a table, a picture, code) reads as that
    run, then the nested items and blocks.
    """
    group = inline_group_of(item, doc)
    if group is not None or not isinstance(item, ListItem) or item.text or not item.children:
        return group
    first = item.children[0].resolve(doc)
    rest = [ref.resolve(doc) for ref in item.children[1:]]
    if isinstance(first, InlineGroup) and not any(isinstance(sub, InlineGroup) for sub in rest):
        return first
    return None


def _plain(run: HybridRun, line: ListLine) -> ListLine:
    """``line`` with an inline run written as one plain line (marker kept, no Markdown, no URL)."""
    group = _inline_of(line.item, run.doc)
    if group is None:
        # a line's item is any kind of block inside a list item: only a text item has a hyperlink
        hyperlink = line.item.hyperlink if isinstance(line.item, TextItem) else None
        link = _LINK_LINE.fullmatch(line.text) if hyperlink is not None else None
        if link is None or not link.group(2).endswith(f"]({hyperlink})"):
            return line
        return replace(line, text=link.group(1) + " ".join(line.item.text.split()))  # a link item: its text, no URL
    marked = line.text
    serialized = run.serializer.serialize(item=group, visited=set()).text
    if not serialized or not marked.endswith(serialized):
        return line
    return replace(line, text=marked[: len(marked) - len(serialized)] + plain_inline_text(group, run.doc))


def parent_text(item: ListItem, doc: DoclingDocument) -> str:
    """A parent item's text as context: its own text, or its inline run as one line."""
    group = _inline_of(item, doc)
    return plain_inline_text(group, doc) if group is not None else " ".join(item.text.split())


def indent_of(run: HybridRun) -> int:
    """Spaces per nesting level: the serializer's ``indent`` (docling-core's Markdown default, 4)."""
    indent = getattr(getattr(run.serializer, "params", None), "indent", 4)
    return indent if isinstance(indent, int) else 4


def indent_lines(text: str, spaces: int) -> str:
    """``text`` with each of its non-blank lines indented by ``spaces`` (a block's lines under its list item)."""
    if "\n" not in text:
        return " " * spaces + text
    pad = " " * spaces
    return "\n".join(pad + line if line.strip() else line for line in text.split("\n"))
