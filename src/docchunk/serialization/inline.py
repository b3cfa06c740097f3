"""Inline runs as one line of plain text (default mode).

An ``InlineGroup`` holds the fragments of one sentence: plain text, bold or italic
runs, links, sub- and superscripts. docling-core's serializers write each fragment
with Markdown syntax (``[**manual**](https://...)``), and the hybrid chunker of
docling-core puts one fragment per line. :func:`plain_inline_text` joins them
as the sentence reads: the fragments' own texts, one space between two fragments
unless punctuation or a sub/superscript follows (after a sub/superscript, none
inside a formula such as ``H2O``), no Markdown marks and no URL (a
link keeps its text; the URL stays in the item, ``doc_items[i].hyperlink``).

A block nested in an inline group (a list, a table, a picture, a section or other
group, a text item with children of its own) is no fragment of the sentence: a
browser closes a paragraph before a list or a table, and docling's serializers
write the block's own text between the fragments before and after it.
:func:`inline_runs` gives the runs of fragments between the blocks, so that the
default mode writes each run as one line and each block as the document's other
blocks (its own piece, in document order).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from docling_core.types.doc.document import (
    DoclingDocument,
    FormulaItem,
    GroupItem,
    InlineGroup,
    NodeItem,
    TextItem,
)

__all__ = [
    "inline_group_of",
    "inline_runs",
    "one_inline_run",
    "only_inline_group",
    "plain_inline_text",
    "plain_run_text",
]

_NO_SPACE_BEFORE = re.compile(r"^(?:[,;:!?)\]}%'’”]|\.(?![^\W\d_]))")
"""A fragment that joins the text before it: punctuation, or a full stop not opening a word (``.gz``, ``.NET`` do)."""
_NO_SPACE_AFTER = re.compile(r"[(\[{'‘“/-]$")
_SPACES = re.compile(r"[ \t]+")


def plain_inline_text(group: InlineGroup, doc: DoclingDocument) -> str:
    """The text of ``group`` as one line: its fragments' texts joined as a sentence.

    Args:
        group: An inline group (its children: text items, nested inline groups).
        doc: The document the group belongs to.

    Returns:
        The fragments' texts, stripped, joined by one space, except none before
        ``, . ; : ! ? ) ] %`` and the like (a ``.`` that opens a word, a file's
        extension ``.gz``, takes one), after ``( [ / -``, before a sub- or
        superscript fragment, and after one inside a formula (``H`` ``2`` ``O``
        gives ``H2O``, ``y`` ``3`` ``uses`` gives ``y3 uses``); line breaks inside a
        fragment become spaces. Empty when no fragment has text.
    """
    return _joined(_fragments(group, doc))


def plain_run_text(items: Sequence[NodeItem], doc: DoclingDocument) -> str:
    """A run of fragments (one of :func:`inline_runs`) as one line, joined as by :func:`plain_inline_text`."""
    return _joined([frag for item in items for frag in _fragments_of(item, doc)])


def _joined(fragments: list[tuple[str, bool]]) -> str:
    """``(text, is sub/superscript)`` fragments joined as one sentence (see :func:`plain_inline_text`)."""
    out = ""
    previous_script = False
    base = ""  # the text before the current run of sub/superscripts
    for text, script in fragments:
        part = _SPACES.sub(" ", " ".join(text.split())).strip()
        if not part:
            continue
        if script and not previous_script:
            base = out
        if out and _space_between(out, part, script, previous_script, base):
            out += " "
        out += part
        previous_script = script
    return out


def _space_between(out: str, part: str, script: bool, previous_script: bool, base: str) -> bool:
    """Whether one space goes between the text so far ``out`` and the next fragment ``part``.

    None before ``, . ; : ! ? )`` ..., after ``( [ / -``, before a sub/superscript (it
    belongs to the text before it: ``y`` ``3`` is ``y3``) and between two of them.
    After one, a space as the source has it between words (``y3 uses``), except inside
    a formula: a capital letter or ``(`` after the script of a capital or ``)``
    (``H2O``, ``(NH4)2SO4``). docling keeps no whitespace of the source around the
    fragments, so this is read from the fragments themselves.
    """
    if script or _NO_SPACE_BEFORE.match(part):
        return False
    if previous_script:  # a charge such as 2- ends in a dash that joins no word
        in_formula = base[-1:].isupper() or base.endswith(")")
        return not (in_formula and (part[0].isupper() or part[0] in "(["))
    return not _NO_SPACE_AFTER.search(out)


def _fragments(group: Any, doc: DoclingDocument) -> list[tuple[str, bool]]:
    """``(text, is sub/superscript)`` of each text fragment of ``group``, depth first."""
    out: list[tuple[str, bool]] = []
    for ref in group.children:
        child = ref.resolve(doc)
        if isinstance(child, InlineGroup):
            out.extend(_fragments(child, doc))
        else:
            out.extend(_fragments_of(child, doc))
    return out


def _fragments_of(child: Any, doc: DoclingDocument) -> list[tuple[str, bool]]:
    """``(text, is sub/superscript)`` of one item of an inline group (not itself an inline group)."""
    if isinstance(child, TextItem):
        formatting = getattr(child, "formatting", None)
        value = getattr(getattr(formatting, "script", None), "value", None)
        text = child.text
        if not text and isinstance(child, FormulaItem):
            text = child.orig or ""  # a formula not decoded: its original text, as the items' serializer writes it
        return [(text, value in ("sub", "super"))]
    text = getattr(child, "text", "")
    return [(text, False)] if isinstance(text, str) and text else []


def _is_block(item: NodeItem) -> bool:
    """Whether ``item``, in an inline group, is a block: not an inline group, nor a text item without children."""
    return not isinstance(item, InlineGroup) and not (isinstance(item, TextItem) and not item.children)


def inline_runs(group: InlineGroup, doc: DoclingDocument) -> list[list[TextItem]] | None:
    """The runs of fragments of ``group`` between the blocks nested in it, or None when it holds no block.

    ``group``'s items are read depth first through nested inline groups; a block
    (a list, table, picture, section or other group, a text item with children)
    ends a run and is no part of one: the caller walks it as it walks any block,
    so that the fragments before it, the block, and the fragments after it come in
    document order. Write each run with :func:`plain_run_text`.

    Returns:
        The runs, in document order, each a non-empty list of text items; None when
        every item of ``group`` is a fragment (write it with :func:`plain_inline_text`).
    """
    runs: list[list[TextItem]] = [[]]
    found = False
    stack = [ref.resolve(doc) for ref in reversed(group.children)]
    while stack:
        child = stack.pop()
        if isinstance(child, InlineGroup):
            stack.extend(ref.resolve(doc) for ref in reversed(child.children))
        elif isinstance(child, TextItem) and not child.children:
            runs[-1].append(child)
        else:  # a block (:func:`_is_block`)
            found = True
            if runs[-1]:
                runs.append([])
    return [run for run in runs if run] if found else None


def inline_group_of(item: NodeItem, doc: DoclingDocument) -> InlineGroup | None:
    """The inline group ``item`` is, or whose only child it is read through (a paragraph or list item), else None."""
    if isinstance(item, InlineGroup):
        return item
    if isinstance(item, TextItem) and item.text == "" and len(item.children) == 1:
        child = item.children[0].resolve(doc)
        if isinstance(child, InlineGroup):
            return child
    return None


def only_inline_group(root: NodeItem, doc: DoclingDocument) -> InlineGroup | None:
    """The inline group that is all of ``root``'s content (a rich table cell's), else None.

    ``root`` is one (:func:`inline_group_of`), or a group whose only child is one:
    docling's HTML converter puts a cell of text and inline code in such a group.
    """
    group = inline_group_of(root, doc)
    if group is None and isinstance(root, GroupItem) and len(root.children) == 1:
        child = root.children[0].resolve(doc)
        group = child if isinstance(child, InlineGroup) else None
    return group


def one_inline_run(doc: DoclingDocument, items: Sequence[NodeItem]) -> bool:
    """Whether ``items`` (two or more) are all fragments of one inline group (one sentence's runs).

    A block nested in the group (a list's items, a table: see :func:`inline_runs`) is no fragment.
    """
    if len(items) < 2:
        return False
    groups = set()
    for it in items:
        node: Any = it.parent.resolve(doc) if it.parent is not None else None
        if not isinstance(node, InlineGroup) or _is_block(it):
            return False
        while node.parent is not None and isinstance(node.parent.resolve(doc), InlineGroup):
            node = node.parent.resolve(doc)  # the outermost inline group
        groups.add(node.self_ref)
    return len(groups) == 1
