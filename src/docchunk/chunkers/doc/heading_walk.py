"""The structural pass of the default (structure-faithful) mode: no heading or caption is lost.

Like :func:`docchunk.chunkers.doc.compat.walk.walk` (docling-core's ``HierarchicalChunker``
walk: document order, headings by level, lists and inline groups as one element),
with these differences, each of which keeps text that docling-core drops:

- Headings that never get content (the end of the document, or a heading directly
  followed by a heading of the same or a higher level) become a chunk whose text
  is the headings, with the path of the headings above them: a heading is never
  the parent of a heading of its own or a higher level (``2 The Customer pays ...``
  directly followed by ``3 Termination`` is its sibling, not its parent).
- A heading written inside another element (a title in a list item, which the list
  serializer writes with the item) is text of that element, written there once; it
  does not open a section (docling-core also puts it in the heading path of what follows).
- A heading that reads as content (:func:`is_content_heading`: a numbered clause,
  a sentence, or a long heading) is also text: before the first content of its
  section, a piece of the same headings whose text is the heading (merged with
  that content by the chunker when it fits). In the final chunk that holds its text
  it leaves the heading path (:func:`heading_once`), so it is written once.
- A caption or footnote that its table or picture does not serialize (docling-core
  serializes no footnotes), or that belongs to no walked element, becomes a chunk.
- Content inside a spreadsheet sheet has the sheet's name first in its heading path.
- A picture's chart data loses its Markdown separator rows, a list its empty items'
  markers (lines made only of ``|``, ``-``, ``:`` and spaces, which hold no text).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from docling_core.transforms.serializer.base import BaseDocSerializer
from docling_core.transforms.serializer.common import DocSerializer
from docling_core.types.doc import DocItemLabel, GroupLabel
from docling_core.types.doc.document import (
    CodeItem,
    DocItem,
    DoclingDocument,
    GroupItem,
    InlineGroup,
    ListGroup,
    ListItem,
    NodeItem,
    PictureItem,
    PictureTabularChartData,
    SectionHeaderItem,
    TableItem,
    TextItem,
    TitleItem,
)

from docchunk.chunkers.doc.content_headings import is_content_heading
from docchunk.chunkers.doc.layout_cells import LayoutCell, in_reading_order
from docchunk.chunkers.doc.piece import Piece
from docchunk.chunkers.doc.satellites import held_satellites, satellite_holders, unserialized_satellites
from docchunk.markup.line_breaks import BREAK
from docchunk.serialization.inline import inline_group_of, inline_runs, plain_inline_text, plain_run_text
from docchunk.serialization.tables import table_rows
from docchunk.serialization.walk import iterate_items

__all__ = ["structured_walk", "without_debris"]

_SATELLITES = (DocItemLabel.CAPTION, DocItemLabel.FOOTNOTE)
_DEBRIS = re.compile(r"[|\-: \t]*[|\-:][|\-: \t]*")
# a list line that is its "- " marker and nothing else: docling-core writes a space after the
# marker, so a line "-" without one is an item's own text (after a line break in it)
_MARKER_ONLY = re.compile(r"[ \t]*-[ \t]+")
_LINE_BREAK = re.compile(f"({BREAK})")
"""A line break of ``str.splitlines`` (:data:`~docchunk.markup.line_breaks.BREAK`), captured for ``split``."""


_Heading = TitleItem | SectionHeaderItem


@dataclass
class _Entry:
    """A heading in scope: the item, the unused headings it carries before it, and use."""

    item: _Heading
    carried: list[_Heading] = field(default_factory=list)
    used: bool = False
    texted: bool = False  # a content heading whose text has gone into a piece

    def items(self) -> list[_Heading]:
        return [*self.carried, self.item]


class _Scope:
    """Headings in scope by level, plus the sheet names around the current item."""

    def __init__(self) -> None:
        self.by_level: dict[int, _Entry] = {}
        self.sheets: list[tuple[int, str]] = []  # (depth of the sheet group, name)

    def enter(self, item: NodeItem | LayoutCell, depth: int) -> None:
        while self.sheets and depth <= self.sheets[-1][0]:
            self.sheets.pop()
        if isinstance(item, GroupItem) and item.label == GroupLabel.SHEET and item.name:
            self.sheets.append((depth, item.name))

    def entries(self) -> list[_Entry]:
        return [self.by_level[k] for k in sorted(self.by_level)]

    def path(self, entries: list[_Entry] | None = None) -> list[str] | None:
        texts = [name for _, name in self.sheets]
        texts += [it.text for e in (self.entries() if entries is None else entries) for it in e.items()]
        return texts or None

    def path_items(self, entries: list[_Entry] | None = None) -> list[DocItem]:
        return [it for e in (self.entries() if entries is None else entries) for it in e.items()]

    def use(self) -> None:
        for entry in self.by_level.values():
            entry.used = True


def structured_walk(
    doc: DoclingDocument, serializer: BaseDocSerializer, always_emit_headings: bool = False, code: bool = False
) -> Iterator[Piece]:
    """Yield the default mode's hierarchical pieces of ``doc`` in document order.

    Args:
        doc: The document.
        serializer: Turns an element into text (docling-core's chunking serializer by default).
        always_emit_headings: Headings without content give heading-only pieces
            (empty text, the headings in ``headings``), as in docling-core, instead
            of pieces whose text is the headings.
        code: Yield each code item (with text) as a piece of its own with
            ``code_chunks=[]``, for the chunker's code chunking strategy.

    Yields:
        :class:`Piece` objects. Every heading, caption and footnote of the walked
        body reaches the text or the headings of a piece; only heading-only pieces
        have empty text.
    """
    scope = _Scope()
    covered: set[str] = set()
    satellites: list[TextItem] = []  # captions and footnotes met in the walk, in order
    visited: set[str] = set()
    runs: dict[str, list[DocItem]] = {}  # first fragment -> its run, of inline groups that hold a block
    holders: set[str] | None = None  # read when first needed (satellite_holders)
    doc_ser = serializer if isinstance(serializer, DocSerializer) else None
    excluded = serializer.get_excluded_refs()
    traverse = doc_ser.params.traverse_pictures if doc_ser is not None else False
    layers = doc_ser.params.layers if doc_ser is not None else None

    def under(root: NodeItem | None = None) -> Iterable[tuple[NodeItem, int]]:
        return iterate_items(doc, root, with_groups=True, traverse_pictures=traverse, included_content_layers=layers)

    for item, depth in in_reading_order(doc, under(), serializer, under):
        scope.enter(item, depth)
        if isinstance(item, LayoutCell):  # a layout table's plain cell: a paragraph naming its table
            yield from _content_headings(scope, doc)
            scope.use()
            yield Piece(text=item.text, items=[item.table], headings=scope.path(), origin=doc.origin,
                        heading_items=scope.path_items(), layout_cell=True)  # fmt: skip
            continue
        if item.self_ref in excluded or (doc_ser is not None and doc_ser._skip_in_walk(node=item, root=None)):
            continue
        if item.self_ref not in visited and _split_inline(item, doc, visited, runs, excluded):
            continue  # an inline group holding a block: its runs and blocks come as the walk meets them
        run = runs.pop(item.self_ref, None)
        if run is not None:  # the first fragment of a run of an inline group that holds a block
            text = plain_run_text(run, doc)
            if text:
                yield from _content_headings(scope, doc)
                scope.use()
                covered.update(it.self_ref for it in run)
                yield Piece(text=text, items=run, headings=scope.path(), origin=doc.origin,
                            heading_items=scope.path_items())  # fmt: skip
            continue
        if isinstance(item, (TitleItem, SectionHeaderItem)):
            if item.self_ref not in visited:  # (one written inside a list item is text of its list)
                yield from _open_heading(scope, item, always_emit_headings, doc)
            continue
        if isinstance(item, TextItem) and item.label in _SATELLITES:
            satellites.append(item)
        if not isinstance(item, (ListGroup, InlineGroup, DocItem)) or item.self_ref in visited:
            continue
        if code and isinstance(item, CodeItem):
            visited.add(item.self_ref)
            if item.text.strip():
                yield from _content_headings(scope, doc)
                scope.use()
                covered.add(item.self_ref)
                yield Piece(text=item.text, items=[item], headings=scope.path(), origin=doc.origin,
                            heading_items=scope.path_items(), code_chunks=[])  # fmt: skip
            left = unserialized_satellites(item, doc, covered)
            yield from _text_piece(left, scope.path(), doc, heading_items=scope.path_items())
            continue
        res = serializer.serialize(item=item, visited=visited)
        items = [span.item for span in res.spans]
        text = without_debris(item, res.text, items)
        group = inline_group_of(item, doc)
        if group is not None and text.strip():
            text = plain_inline_text(group, doc) or text  # one sentence, one line (no Markdown, no URL)
        if isinstance(item, TableItem) and not text.strip() and table_rows(item, doc, serializer).text:
            items = [item]  # docling-core's triplets gave no text (e.g. a header-only column); its rows do
        elif not text.strip() or not items:
            continue
        yield from _content_headings(scope, doc)
        scope.use()
        covered.update(it.self_ref for it in items)
        if holders is None:
            holders = satellite_holders(doc)
        covered.update(held_satellites(item, text, doc, holders))
        entries = scope.entries()  # (the scope holds while the piece is read: its path, read once)
        headings, path_items = scope.path(entries), scope.path_items(entries)
        yield Piece(text=text, items=items, headings=headings, origin=doc.origin, heading_items=path_items)
        left = unserialized_satellites(item, doc, covered)
        yield from _text_piece(left, headings, doc, heading_items=path_items)
    yield from _close_all(scope, always_emit_headings, doc)
    left = [s for s in satellites if s.self_ref not in covered and s.text.strip()]
    yield from _text_piece(left, None, doc)


def _split_inline(
    item: NodeItem, doc: DoclingDocument, visited: set[str], runs: dict[str, list[DocItem]], excluded: set[str]
) -> bool:
    """Whether ``item`` is an inline group (or a paragraph read through one) that holds a block.

    Then its runs of fragments (:func:`inline_runs`) go into ``runs`` by their first
    fragment, written each as one line when the walk meets it, and ``item`` and its
    inline groups are visited: the walk goes on into them, so that a nested list,
    table, section or code block is walked as any other block, between the runs
    before and after it (``Before words.``, the list, ``After words.``: three pieces
    in document order, which the hybrid chunker merges when they fit). Written as one
    sentence, the block's text was lost (hostile finding s9-1).
    """
    group = inline_group_of(item, doc)
    if group is None:
        return False
    found = inline_runs(group, doc)
    if found is None:
        return False
    for run in found:
        kept: list[DocItem] = [it for it in run if it.self_ref not in excluded]
        if kept:
            runs[kept[0].self_ref] = kept
    visited.add(item.self_ref)
    visited.update(node.self_ref for node, _ in doc.iterate_items(root=group, with_groups=True)
                   if isinstance(node, InlineGroup))  # fmt: skip
    return True


def without_debris(item: NodeItem, text: str, items: Sequence[NodeItem] | None = None) -> str:
    r"""``text`` of ``item`` without the lines that hold no text (default mode).

    Those are the separator rows of a chart's data table (``|---|---|``) in a
    picture that has chart data (in one without, a caption's line ``|`` is text), and
    the markers of empty list items (``- ``), or of items whose text starts with a
    line break of ``str.splitlines`` (``"- \f..."``). In a list only
    the bare marker goes, and only as many as ``items`` (the list items serialized
    into ``text``; ``[item]`` when None) have empty first lines: an item whose own
    text is marks (``- :``), or has a line ``-`` or ``- `` after a break, is text. A
    line here ends at any such break; a removed line goes with the break before it
    (after it, for the first line), the other breaks are kept as they are. Where an
    item's own line ``- `` comes before a bare marker, that line goes instead of the
    marker: the text kept is the same.
    """
    if not isinstance(item, (PictureItem, ListGroup, ListItem)) or (isinstance(item, PictureItem) and not _chart(item)):
        return text  # (a picture without chart data writes its captions and children: every line is text)
    bare: int | None = None  # how many bare markers may go (None: any number of debris lines)
    debris = _DEBRIS
    if not isinstance(item, PictureItem):
        debris = _MARKER_ONLY
        bare = sum(
            1
            for it in (items if items is not None else [item])
            if isinstance(it, ListItem) and not _LINE_BREAK.split(it.text, 1)[0].strip(" \t")
        )
        if not bare:
            return text
    parts = _LINE_BREAK.split(text)  # line, break, line, ..., line
    if not any(debris.fullmatch(line) for line in parts[::2]):
        return text
    out: list[str] = []
    for k in range(0, len(parts), 2):
        if debris.fullmatch(parts[k]) and (bare is None or bare > 0):
            bare = None if bare is None else bare - 1
            continue
        out += [parts[k - 1], parts[k]] if out else [parts[k]]
    return "".join(out)


def _chart(picture: PictureItem) -> bool:
    """Whether ``picture`` has chart data, which its serializer writes as a Markdown table."""
    meta = picture.meta
    return getattr(meta, "tabular_chart", None) is not None or any(
        isinstance(a, PictureTabularChartData) for a in picture.__dict__.get("annotations") or ()
    )  # (the deprecated field read without its warning)


def _open_heading(scope: _Scope, item: _Heading, always_emit: bool, doc: DoclingDocument) -> Iterator[Piece]:
    """Put a heading in scope; yield a piece for the headings it ends that had no content."""
    level = item.level if isinstance(item, SectionHeaderItem) else 0
    keys = sorted(scope.by_level)
    removed = [k for k in keys if k >= level]
    unused = [k for k in removed if not scope.by_level[k].used]
    if unused and always_emit:
        yield _heading_only(scope)
    elif unused:
        # headings without content, then a heading of the same or a higher level: their siblings,
        # not their children; a chunk of their own, under the headings they are inside
        kept = [scope.by_level[k] for k in keys if k not in unused]
        texts = [it for k in unused for it in scope.by_level[k].items()]
        yield from _text_piece(texts, scope.path(kept), doc, from_headings=True, heading_items=scope.path_items(kept))
        for entry in kept:  # now the path of a piece: not written again as text (issue 45, a heading twice)
            entry.used = True
    for k in removed:
        del scope.by_level[k]
    scope.by_level[level] = _Entry(item)


def _content_headings(scope: _Scope, doc: DoclingDocument) -> Iterator[Piece]:
    """Before the first content under them: a piece of the content headings in scope, each once."""
    new: list[_Heading] = []
    for entry in scope.entries():
        if not entry.texted:
            entry.texted = True
            new += [it for it in entry.items() if is_content_heading(it.text)]
    if new:
        yield Piece(text="\n".join(it.text for it in new), items=list(new), headings=scope.path(), origin=doc.origin,
                    heading_items=scope.path_items(), from_headings=True)  # fmt: skip


def _close_all(scope: _Scope, always_emit: bool, doc: DoclingDocument) -> Iterator[Piece]:
    """At the end of the document: the trailing headings without content."""
    entries = scope.entries()
    unused = [e for e in entries if not e.used]
    if not unused:
        return
    if always_emit:
        yield _heading_only(scope)
        return
    kept = [e for e in entries if e.used]
    texts = [it for e in unused for it in e.items()]
    yield from _text_piece(texts, scope.path(kept), doc, from_headings=True, heading_items=scope.path_items(kept))


def _heading_only(scope: _Scope) -> Piece:
    scope.use()
    return Piece(text="", items=scope.path_items(), headings=scope.path(), heading_only=True)


def _text_piece(
    items: Sequence[TextItem],
    headings: list[str] | None,
    doc: DoclingDocument,
    from_headings: bool = False,
    heading_items: Sequence[DocItem] = (),
) -> Iterator[Piece]:
    """A piece whose text is the items' own texts, one per line (none when they have no text).

    ``heading_items`` are the heading items behind ``headings`` (after its sheet names).
    """
    kept = [it for it in items if it.text.strip()]
    if not kept:
        return
    yield Piece(
        text="\n".join(it.text for it in kept),
        items=list(kept),
        headings=headings,
        origin=doc.origin,
        from_headings=from_headings or len(kept) > 1,
        heading_items=list(heading_items) or None,
    )
