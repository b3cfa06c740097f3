"""A rich cell's text, read through the document serializer, and the cache of one ``chunk()`` call.

A rich cell (docling-core's ``RichTableCell``) holds document content (a group of
paragraphs, lists, links, a nested table); its text is that content written by the
document serializer, then cleaned for the plain-text forms (links as their text, no
Markdown marks, checkbox states). :func:`read_rich_cell` reads one. Reading is the
costly part of a table model (a serializer call and a walk of the content per cell),
and one ``chunk()`` call asks for each table several times (its layout walk, its rows
in the walk and again for the row splitting): :class:`CellReads` reads each rich cell
once per call.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from docling_core.types.doc import GroupItem, SectionHeaderItem, TitleItem

from docchunk.serialization.inline import only_inline_group, plain_inline_text

if TYPE_CHECKING:
    from docling_core.transforms.serializer.base import BaseDocSerializer
    from docling_core.types.doc import DoclingDocument

__all__ = [
    "CellRead",
    "CellReads",
    "all_new",
    "holds_nested_list",
    "holds_table",
    "read_rich_cell",
    "with_checkboxes",
    "without_marks",
    "without_urls",
]


@dataclass(frozen=True)
class CellRead:
    """One rich cell as read by :func:`read_rich_cell`.

    Attributes:
        raw: The cell's text as the document serializer writes it, cleaned for the
            plain-text forms unless links are kept (line breaks kept).
        nested: Whether the content holds a nested list (:func:`holds_nested_list`).
        holds_table: Whether the content holds a table (:func:`holds_table`); False
            when not asked for.
        touched: The refs the read added to the serializer's ``visited`` set, read
            from a fresh set (:class:`CellReads`); empty for a read with the caller's set.
        headings: The texts of the headings (title, section header items) of the content,
            each on one line: the lines the serializer writes after Markdown heading marks
            (:func:`~.model.cell_paragraphs` takes the marks off those lines only).
    """

    raw: str
    nested: bool
    holds_table: bool = False
    touched: frozenset[str] = frozenset()
    headings: frozenset[str] = frozenset()


def read_rich_cell(
    cell: Any,
    doc: DoclingDocument,
    serializer: BaseDocSerializer | None,
    visited: set[str],
    keep_links: bool,
    with_table: bool,
) -> CellRead:
    """Read a rich cell's content through ``serializer`` (refs it walks are added to ``visited``).

    Args:
        cell: A docling-core ``RichTableCell`` of a table of ``doc``.
        doc: The document.
        serializer: The document serializer (docling-core builds a Markdown one when None).
        visited: Refs already walked; the read adds those it walks.
        keep_links: Whether a link keeps its URL (Markdown); else it is its text alone
            (:func:`without_urls`) and Markdown marks go (:func:`without_marks`).
        with_table: Whether to find out if the content holds a table (:func:`holds_table`).

    Returns:
        The :class:`CellRead` (``touched`` empty).
    """
    raw = cell._get_text(doc=doc, doc_serializer=serializer, visited=visited)
    root = cell.ref.resolve(doc)
    walk = _walk(root, doc)  # the cell's content, walked once for every rule below
    items = [item for item in walk if not isinstance(item, GroupItem)]
    nested = holds_nested_list(root, doc, walk)
    inner = with_table and holds_table(root, doc)
    if not keep_links:
        run = only_inline_group(root, doc)  # one sentence of fragments: written as in a paragraph
        plain = plain_inline_text(run, doc) if run is not None else ""
        raw = plain or without_marks(without_urls(raw, root, doc, serializer, items), root, doc, items)
    headings = frozenset(" ".join(it.text.split()) for it in items if isinstance(it, (TitleItem, SectionHeaderItem)))
    return CellRead(with_checkboxes(raw, root, doc, items), nested, inner, headings=headings)


class CellReads:
    """The rich cells of one document read once each, for one ``chunk()`` call.

    A cell is read with a fresh ``visited`` set, and the refs the read added are kept
    (:attr:`CellRead.touched`). A caller passing its own ``visited`` set (the walk's)
    gets the kept read when none of those refs is in its set, and its set gets them,
    as the read would have added them: the serializer skips a ref only once it is in
    ``visited`` and adds each ref it walks, so a read whose refs are all new walks the
    same items as from an empty set. Otherwise (a ref walked before: the read's text
    would differ) the caller reads the cell itself. Kept reads live as long as this
    object, which the default mode's table serializer holds for one document and one
    document serializer (a ``chunk()`` call): no cache outlives a document.

    Args:
        doc: The document whose cells are read.
        serializer: The document serializer that writes a rich cell's content.
    """

    def __init__(self, doc: DoclingDocument, serializer: BaseDocSerializer | None) -> None:
        self.doc = doc
        self.serializer = serializer
        self._reads: dict[tuple[int, bool], CellRead] = {}

    def kept(self, cell: Any, keep_links: bool) -> CellRead:
        """``cell`` read once, with a fresh ``visited`` set (its refs in :attr:`CellRead.touched`)."""
        key = (id(cell), keep_links)  # the cell lives in ``self.doc``, which this object keeps alive
        got = self._reads.get(key)
        if got is None:
            fresh: set[str] = set()
            got = read_rich_cell(cell, self.doc, self.serializer, fresh, keep_links, with_table=True)
            got = self._reads[key] = replace(got, touched=frozenset(fresh))
        return got

    def read(self, cell: Any, visited: set[str] | None, keep_links: bool) -> CellRead | None:
        """``cell`` read once (see the class); None when ``visited`` holds a ref the read walks."""
        got = self.kept(cell, keep_links)
        if visited is not None:
            if not visited.isdisjoint(got.touched):
                return None
            visited.update(got.touched)
        return got


def holds_nested_list(root: Any, doc: Any, walk: list[Any] | None = None) -> bool:
    """Whether the content under ``root`` (a rich cell's) holds a list nested in a list item or a list.

    docling's HTML converter puts a ``<ul>`` inside an ``<li>`` as a list group under
    the list item; other converters put the inner group directly under the outer one.
    """
    for item in walk if walk is not None else _walk(root, doc):
        if type(item).__name__ == "ListGroup" and item.parent is not None and item.parent.cref != root.self_ref:
            if type(item.parent.resolve(doc)).__name__ in ("ListItem", "ListGroup"):
                return True
    return False


def _walk(root: Any, doc: Any, groups: bool = True) -> list[Any]:
    """The items (and groups) under ``root`` (a rich cell's content), pictures' content included, in document order."""
    return [item for item, _ in doc.iterate_items(root=root, with_groups=groups, traverse_pictures=True)]


def holds_table(root: Any, doc: Any) -> bool:
    """Whether the content under ``root`` (a rich cell's) holds a table: a table nested in a cell.

    Its records, written on one line, ran together (``Contents = Brush (Item): Qty = 2
    Paint (Item): Qty = 3``, the round-2 tester's ``docx_nested_table``, 1.35x compat's
    tokens, issue 46): :func:`~.model.read_table` writes them one a line, indented under the cell.
    """
    return any(type(item).__name__ == "TableItem" for item, _ in doc.iterate_items(root=root, with_groups=True))


_MARKS = (("bold", "**"), ("italic", "*"), ("strikethrough", "~~"))


def without_marks(text: str, root: Any, doc: Any, items: list[Any] | None = None) -> str:
    """A rich cell's ``text`` without the Markdown marks of its bold, italic, struck-through and inline code items.

    The document serializer writes a bold item of a rich cell as ``**text**``; records
    and triplets are plain text, so the marks go (a tester's HTML title cell
    ``<b>Schedule A: Fees payable</b>`` read ``**Schedule A: Fees payable**`` in every
    record, issue 46 finding 2). So do the backticks of an inline code item, as in the
    default mode's inline runs (:func:`~docchunk.serialization.inline.plain_inline_text`):
    one MiniLM token each, they put 12 rows of Node.js' ``api/dns.md`` (``'A'`` and
    ``dnsPromises.resolve4()`` in backticks: ten a row) over 64 tokens under a three-level path.
    Each formatted item's marked text is found once, in document order, and replaced by
    its text; literal asterisks and backticks of other text stay.
    """
    pos = 0
    for item in items if items is not None else _walk(root, doc, groups=False):
        formatting, own = getattr(item, "formatting", None), getattr(item, "text", "")
        if not own:
            continue
        marked = f"`{own}`" if getattr(item, "label", None) == "code" and "\n" not in own else own
        for name, mark in _MARKS:
            if formatting is not None and getattr(formatting, name, False):
                marked = f"{mark}{marked}{mark}"
        if marked == own:
            continue
        at = text.find(marked, pos)  # the serializer's own output, rewritten; no offsets are recovered
        if at < 0:
            continue
        text = text[:at] + own + text[at + len(marked) :]
        pos = at + len(own)
    return text


_BOXES = {"checkbox_selected": "[x]", "checkbox_unselected": "[ ]"}
"""A checkbox's state as the default mode writes a checkbox of the body (``- [x] text``), without the list marker."""


def with_checkboxes(text: str, root: Any, doc: Any, items: list[Any] | None = None) -> str:
    """A rich cell's ``text`` with the state of each checkbox without text it holds: ``[x] yes``, ``[ ] no``.

    docling's HTML backend makes ``<input type="checkbox" checked> yes`` a checkbox item
    with no text, then a text item; the serializer writes nothing for the checkbox, so
    the record read ``OK = yes`` and which box was ticked was lost (round-3 documents
    tester, finding 11). The state goes before the text of the next item that has text
    (found in the serializer's output, in document order), or at the end of the cell
    when none follows.
    """
    pos, marks = 0, []
    for item in items if items is not None else _walk(root, doc, groups=False):
        label, own = str(getattr(item, "label", "")), getattr(item, "text", "") or ""
        if label in _BOXES and not own.strip():
            marks.append(_BOXES[label])
            continue
        if not marks or not own.strip():
            continue
        at = text.find(own.strip(), pos)  # the serializer's own output, rewritten; no offsets are recovered
        if at < 0:
            continue
        state = " ".join(marks) + " "
        text, pos, marks = text[:at] + state + text[at:], at + len(state) + len(own.strip()), []
    return f"{text} {' '.join(marks)}".strip() if marks else text


def without_urls(text: str, root: Any, doc: Any, serializer: Any, items: list[Any] | None = None) -> str:
    """A rich cell's ``text`` with each link of its content written as its text alone (records and triplets).

    A link item under ``root`` (the cell's content) is written by ``serializer`` as
    ``[text](url)``; the URL, often longer than the row it sits in, stays on the item
    (``hyperlink``) and out of the plain-text forms, as in the default mode's inline
    runs. Each link's written form is found once, in document order, by its end
    ``](url)`` and the ``[`` before it, and replaced by what stands between them: the
    item's text with its own marks (``**bold**``; an inline code item's backticks,
    which the code serializer adds inside the link, ``[`normalize()`](url)``: issue
    46 found these URLs cutting 26 rows of Node.js' Markdown tables at MiniLM 64).
    ``serializer`` is unused (kept for the callers).
    """
    pos = 0
    for item in items if items is not None else _walk(root, doc, groups=False):
        link = getattr(item, "hyperlink", None)
        if link is None or not getattr(item, "text", ""):
            continue
        tail = f"]({link})"
        end = text.find(tail, pos)  # the serializer's own output, rewritten; no offsets are recovered
        at = text.rfind("[", pos, end) if end >= 0 else -1
        if at < 0 or item.text not in text[at + 1 : end]:
            continue
        text = text[:at] + text[at + 1 : end] + text[end + len(tail) :]
        pos = end - 1
    return text


def all_new(reads: list[CellRead], visited: set[str]) -> bool:
    """Whether ``reads``, given in turn to a caller with ``visited``, would each be given (:meth:`CellReads.read`).

    True when no read's :attr:`~CellRead.touched` ref is in ``visited`` and no two reads
    share one (the first would add it to ``visited``, and the second not be given).
    """
    seen = set(visited)
    for read in reads:
        if not seen.isdisjoint(read.touched):
            return False
        seen.update(read.touched)
    return True
