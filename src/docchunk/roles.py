"""Boilerplate marked, not lost: rules over a document's structure that give chunks a ``meta.role``.

Applied after chunking, to the chunks of one document (never inside a chunker, and
never dropping text): a chunk that a rule matches keeps its text, items and offsets
and gets ``meta.role``; the others keep ``role`` None (content). ``docchunk chunk``
writes the mark, ``docchunk index`` stores it and leaves marked chunks out of the
ranking unless asked (``docchunk search --all-roles``).

The roles and their rules, tried in this order (the first that matches wins):

- ``"furniture"``: every item of the chunk is a page header or footer, or the chunk
  holds no table or picture, is short (at most :data:`FURNITURE_WORDS` words) and its
  text, case and spacing aside, is the text of at least :data:`FURNITURE_REPEATS`
  chunks of the document (a running header, a repeated notice). Digits count: rows
  of a table and "Example 1", "Example 2" differ.
- ``"concepts"``: at least :data:`MIN_ENTRIES` entries (lines, ``|``/``;`` separated
  cells) and at least :data:`CONCEPT_SHARE` of them bare concept names without a
  value (``ProceedsFromIssuanceOfCommonStock``, ``us-gaap:Assets``, optionally with a
  calculation ``weight``): an XBRL filing's presentation and calculation lists.
- ``"contents"``: a list of at least :data:`MIN_ENTRIES` items (at least
  :data:`LIST_SHARE` of the chunk's items, and no more than :data:`LINK_WORDS` words in
  its other items, headings aside: a paragraph merged in makes it content) of which at least :data:`LIST_SHARE` link to
  an anchor of the page (``#History``) or name, numbering aside, a heading of the
  document that the chunk does not hold; or as many lines ending in dot leaders and a
  page number.
- ``"navigation"`` / ``"links"``: such a list whose items are short (at most
  :data:`LINK_WORDS` words) and at least :data:`LIST_SHARE` of them hyperlinks (a list
  of languages, "See also", a menu), standing outside the document's prose: before
  its first or after its last chunk holding a paragraph of at least
  :data:`PROSE_WORDS` words. ``"navigation"`` when it stands before the document's
  first heading, else ``"links"``. A list of links between two paragraphs (the
  article's "Principal keepers", each name a link) is content.

Each threshold is a module constant; the rules read only the chunks' items
(``meta.doc_items``: labels, hyperlinks), their text and the document's headings.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from docling_core.types.doc import DoclingDocument

__all__ = ["ROLES", "chunk_roles", "mark_roles"]

ROLES = ("content", "navigation", "contents", "links", "furniture", "concepts")
"""Every role; ``"content"`` is the absence of a mark (``meta.role`` None)."""

MIN_ENTRIES = 3
LIST_SHARE = 0.8
LINK_WORDS = 4
CONCEPT_SHARE = 0.6
FURNITURE_WORDS = 40
FURNITURE_REPEATS = 3
PROSE_WORDS = 12

_CONCEPT = re.compile(r"^(?:[a-z][\w-]*:)?[A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*)+(?::\s*weight:\s*-?[\d.]+)?$")
_ENTRY_SPLIT = re.compile(r"\s*(?:\||;|\n)\s*")
_BULLET = re.compile(r"^(?:[-*+•]|\d+[.)])\s+")
_NUMBERING = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[IVXLC]+\.|[A-Z]\.)\s+")
_DOT_LEADER = re.compile(r"(?:\.\s?){4,}\s*\d{1,4}$|…+\s*\d{1,4}$")
_FURNITURE_LABELS = {"page_header", "page_footer"}
_BLOCK_LABELS = {"table", "picture", "chart", "document_index", "key_value_region", "form"}
_HEADING_LABELS = {"section_header", "title"}
_PROSE_LABELS = {"text", "paragraph"}


def _label(item: Any) -> str:
    label = getattr(item, "label", "")
    return str(getattr(label, "value", label))


def _entries(text: str) -> list[str]:
    return [e for e in (_BULLET.sub("", part.strip()) for part in _ENTRY_SPLIT.split(text)) if e]


def _norm(text: str) -> str:
    return " ".join(text.casefold().split())


def _heading_key(text: str) -> str:
    return " ".join(_NUMBERING.sub("", text.strip()).casefold().split())


def _words(item: Any) -> int:
    """The number of whitespace-separated words of an item's text (0 for an item without text)."""
    return len(str(getattr(item, "text", "") or "").split())


def _list_items(chunk: Any) -> list[Any] | None:
    """The chunk's list items, or None unless they are a list chunk.

    A list chunk: at least ``MIN_ENTRIES`` list items, at least ``LIST_SHARE`` of its
    items, and its other items (headings aside) hold at most ``LINK_WORDS`` words
    together: a paragraph merged into the list (a footer's address under its links)
    makes the chunk content.
    """
    items = list(chunk.meta.doc_items)
    listed = [it for it in items if _label(it) == "list_item"]
    if len(listed) < MIN_ENTRIES or len(listed) < LIST_SHARE * len(items):
        return None
    other = sum(_words(it) for it in items if _label(it) != "list_item" and _label(it) not in _HEADING_LABELS)
    return listed if other <= LINK_WORDS else None


def _is_contents(chunk: Any, headings: set[str]) -> bool:
    listed = _list_items(chunk)
    if listed is not None:
        own = {_heading_key(getattr(it, "text", "")) for it in chunk.meta.doc_items if _label(it) in _HEADING_LABELS}
        named = sum(
            str(getattr(it, "hyperlink", "") or "").startswith("#")
            or (_heading_key(getattr(it, "text", "")) in headings - own)
            for it in listed
        )  # fmt: skip
        return named >= LIST_SHARE * len(listed)
    lines = [line.strip() for line in chunk.text.splitlines() if line.strip()]
    leaders = sum(bool(_DOT_LEADER.search(line)) for line in lines)
    return leaders >= MIN_ENTRIES and leaders >= LIST_SHARE * len(lines)


def _is_links(chunk: Any) -> bool:
    listed = _list_items(chunk)
    if listed is None:
        return False
    short = sum(bool(getattr(it, "hyperlink", None)) and _words(it) <= LINK_WORDS for it in listed)
    return short >= LIST_SHARE * len(listed)


def _has_prose(chunk: Any) -> bool:
    """Whether the chunk holds a paragraph of at least ``PROSE_WORDS`` words."""
    return any(_label(it) in _PROSE_LABELS and _words(it) >= PROSE_WORDS for it in chunk.meta.doc_items)


def _is_concepts(chunk: Any) -> bool:
    entries = _entries(chunk.text)
    names = sum(bool(_CONCEPT.match(e)) for e in entries)
    return len(entries) >= MIN_ENTRIES and names >= CONCEPT_SHARE * len(entries)


def chunk_roles(chunks: Sequence[Any], doc: DoclingDocument) -> list[str]:
    """The role of each chunk of ``doc`` (one of :data:`ROLES`), in order.

    Args:
        chunks: All the chunks of ``doc``, in order, with ``text`` and
            ``meta.doc_items`` (docchunk's or docling-core's document chunks).
        doc: The document they come from.

    Returns:
        One role per chunk; ``"content"`` where no rule matches (see the module docstring).
    """
    headings = {_heading_key(getattr(t, "text", "")) for t in doc.texts if _label(t) in _HEADING_LABELS}
    headings.discard("")
    counts = Counter(_norm(c.text) for c in chunks)
    first_heading = next((i for i, c in enumerate(chunks) if c.meta.headings), len(chunks))
    prose = [i for i, c in enumerate(chunks) if _has_prose(c)]
    roles = []
    for i, chunk in enumerate(chunks):
        labels = {_label(it) for it in chunk.meta.doc_items}
        short = len(chunk.text.split()) <= FURNITURE_WORDS and not labels & _BLOCK_LABELS
        if (labels and labels <= _FURNITURE_LABELS) or (short and counts[_norm(chunk.text)] >= FURNITURE_REPEATS):
            roles.append("furniture")
        elif _is_concepts(chunk):
            roles.append("concepts")
        elif _is_contents(chunk, headings):
            roles.append("contents")
        elif _is_links(chunk) and (not prose or i < prose[0] or i > prose[-1]):
            roles.append("navigation" if i < first_heading else "links")
        else:
            roles.append("content")
    return roles


def mark_roles(chunks: Sequence[Any], doc: DoclingDocument) -> list[str]:
    """Set ``meta.role`` of the chunks that :func:`chunk_roles` marks; returns the roles.

    Chunks whose ``meta`` has no ``role`` field (docling-core's own ``DocMeta``) and
    content chunks are left as they are; text, items and offsets are never changed.

    Example:
        >>> import docchunk
        >>> from docchunk.roles import mark_roles
        >>> doc = docchunk.load_document("page.html")  # doctest: +SKIP
        >>> chunks = list(docchunk.HybridChunker().chunk(doc))  # doctest: +SKIP
        >>> mark_roles(chunks, doc)  # doctest: +SKIP
        ['content', 'contents', 'content', 'links']
    """
    roles = chunk_roles(chunks, doc)
    for chunk, role in zip(chunks, roles, strict=True):
        if role != "content" and "role" in type(chunk.meta).model_fields:
            chunk.meta.role = role
    return roles
