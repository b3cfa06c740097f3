"""The intermediate chunk every document chunker builds: :class:`Piece`; the code strategy its code chunks come from.

The walks (:mod:`docchunk.chunkers.doc.compat.walk`, :mod:`docchunk.chunkers.doc.heading_walk`)
yield pieces; the hybrid chunker's passes split and merge them; ``DocumentChunker._to_chunk``
turns each final piece into a :class:`~docchunk.serialization.chunk.DocChunk`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from docling_core.transforms.chunker.code_chunking.code_chunk import CodeChunk
    from docling_core.types.doc import CodeItem, DocItem, DoclingDocument, DocumentOrigin

__all__ = ["Anchor", "CodeStrategy", "Piece", "heading_items_of", "listed_items", "pages_of", "replace"]

_T = TypeVar("_T")

Anchor = tuple[int, str, int, int]
"""Where an item's text is in a piece's text: ``(position in the piece's text, item ref, start in
item.text, length)`` (made and kept by :mod:`docchunk.chunkers.doc.provenance`)."""


class CodeStrategy(Protocol):
    """A code chunking strategy, as the walks and chunkers call it: docling-core's interface.

    docling-core's ``BaseCodeChunkingStrategy`` (``StandardCodeChunkingStrategy``) and
    :class:`docchunk.CodeChunkingStrategy` are ones; ``code_chunking_strategy`` takes
    any object with a callable ``chunk_code_item``.
    """

    def chunk_code_item(self, *, item: CodeItem, doc: DoclingDocument, **kwargs: Any) -> Iterable[CodeChunk]:
        """The chunks of the code item ``item`` of ``doc``.

        ``kwargs`` are the keywords docling-core's ``HierarchicalChunker`` passes
        (``doc_serializer``, ``visited``), which a strategy may ignore.
        """
        ...


@dataclass
class Piece:
    """An intermediate chunk: text, its doc items and the headings in scope.

    ``headings`` and ``captions`` are None (never empty) when absent, as in docling-core.
    """

    text: str
    items: list[DocItem]
    headings: list[str] | None
    origin: DocumentOrigin | None = None
    captions: list[str] | None = None
    heading_only: bool = field(default=False)
    text_tokens: int | None = None
    # docling-core re-validates a chunk whose headings it dropped, which turns its
    # doc items into plain DocItems; tables are then split as plain text
    plain_only: bool = False
    # the fallback piece of a headings-only document: its text is the headings' text
    from_headings: bool = False
    # default mode: the half-open row range of the one table this piece holds rows of
    table_rows: tuple[int, int] | None = None
    # default mode: for a piece that holds part of a row split between pieces, the columns of
    # every row it holds, ``(row, start, end)`` half-open (see ``DocMeta.table_cols``); else None
    table_cols: tuple[tuple[int, int, int], ...] | None = None
    # default mode: the heading items behind ``headings`` (for the heading-path text piece)
    heading_items: list[DocItem] | None = None
    # default mode: the outer headings of the path left out of ``headings`` because they did not
    # fit with the text (``DocMeta.headings_dropped``); None when the path is whole
    headings_dropped: list[str] | None = None
    # default mode: what a piece of a split table lacks of its table's context because it did not
    # fit the budget beside the rows: "caption", "headers", "notes" (``DocMeta.table_context_dropped``)
    table_context_dropped: tuple[str, ...] | None = None
    # a code item for the code chunking strategy: None, or the final chunks (compat mode),
    # or [] until the chunker chunks the code with its budget (default mode)
    code_chunks: list[CodeChunk] | None = None
    # default mode: how many entries at the end of ``headings`` are the parent items of a list window
    # (list_split): context of its nesting, never written into a text by a merge
    item_path: int = 0
    # default mode: the heading path in effect at the end of ``text`` when a merge wrote headings into
    # it (the last part's path); None when it is ``headings``
    end_headings: list[str] | None = None
    # default mode: the headings a merge wrote as the first lines of ``text`` (the path below
    # ``headings`` at its start); None when it starts with its own text
    lead_headings: list[str] | None = None
    # default mode: a plain-text cell of a layout table walked as content (chunkers/doc/layout_cells.py): its
    # text, its item the table; never written again as the table's rows
    layout_cell: bool = False
    # default mode: ``(title, table)`` for each one-cell title table whose text heads this piece's
    # ``table`` (in ``captions``, or in the text of the table's caption piece: tables/titles.py); the
    # titles are listed in ``meta.doc_items`` (:func:`listed_items`), not in ``items``
    table_titles: list[tuple[DocItem, DocItem]] | None = None
    # (text, anchors): where items' texts are in ``text`` (see chunkers/doc/provenance.py); stale
    # (and aligned again from the items) once ``text`` is not the text they were made for
    anchors: tuple[str, tuple[Anchor, ...]] | None = None


_PIECE_FIELDS = frozenset(f.name for f in dataclasses.fields(Piece))
# every field of Piece is an init field and it has no __post_init__: a copy of its __dict__ is what
# dataclasses.replace would build (checked at import, so a new field with init=False falls back)
_FAST = all(f.init for f in dataclasses.fields(Piece)) and not hasattr(Piece, "__post_init__")


def replace(obj: _T, /, **changes: Any) -> _T:
    """``dataclasses.replace(obj, **changes)``, about ten times faster for a :class:`Piece`.

    The passes replace pieces some thousand times a document; ``dataclasses.replace``
    reads every one of a piece's twenty fields with ``getattr`` and calls ``__init__``.
    For a :class:`Piece` (no ``__post_init__``, every field an init field) the new piece
    is a shallow copy of the old one's ``__dict__`` with ``changes`` applied: the same
    values, shared as ``dataclasses.replace`` shares them. Any other object, or a change
    naming something that is not a field, goes to ``dataclasses.replace`` (which raises
    ``TypeError`` for such a name).

    Args:
        obj: A dataclass instance.
        **changes: New values of some of its fields.

    Returns:
        A new instance of ``type(obj)``.
    """
    if type(obj) is not Piece or not _FAST or not _PIECE_FIELDS.issuperset(changes):
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    new = object.__new__(Piece)
    new.__dict__ = {**obj.__dict__, **changes}
    return new  # type: ignore[return-value]


def pages_of(piece: Piece) -> frozenset[int]:
    """The page numbers of a piece's items' provenance (empty without provenance)."""
    return frozenset(p.page_no for it in piece.items for p in (getattr(it, "prov", None) or ()))


def heading_items_of(piece: Piece, indices: Sequence[int]) -> list[DocItem]:
    """The heading items behind ``piece.headings[i]`` for each ``i`` of ``indices``: the items of a piece writing them.

    A piece that writes headings of a path as its text, one per line (the heading-path
    pass's emitted headings, :func:`~docchunk.chunkers.doc.heading_paths.fit_headings`;
    the headings a text split drops, :mod:`~docchunk.chunkers.doc.text_split`), lists
    these items. Sheet names come first in ``headings`` and have no item: the items
    (``piece.heading_items``, or a heading-only piece's own items) stand for the end of
    the path, ``headings[i]`` for ``items[i - (len(headings) - len(items))]`` (a path
    shortened after the walk keeps all of its items, so that difference may be
    negative).

    Args:
        piece: The piece whose path the headings are of.
        indices: Positions in ``piece.headings`` (0-based, each below ``len(piece.headings)``).

    Returns:
        The items of those headings, in the order of ``indices``, leaving out those without
        text when any has text; when none of them has an item (sheet names alone), the
        piece's first item, so that the written piece cites where it comes from (empty
        only for a piece without items).
    """
    items = piece.heading_items or (piece.items if piece.heading_only else [])
    sheets = len(piece.headings or []) - len(items)
    own = [items[i - sheets] for i in indices if i >= sheets]
    return [it for it in own if getattr(it, "text", None)] or own or piece.items[:1]


def listed_items(piece: Piece) -> list[DocItem]:
    """The items a piece's chunk lists (``meta.doc_items``): its items, and the title tables heading its tables.

    Each title of ``piece.table_titles`` goes directly before the table it heads (a block
    of titles in their order), once; a title whose table is not among the items (a
    table's caption written as a piece of its own, which holds the caption items) goes
    first. ``piece.items`` itself when the piece has no titles.
    """
    if not piece.table_titles:
        return piece.items
    titles = piece.table_titles
    out: list[DocItem] = [title for title, table in titles if all(table is not it for it in piece.items)]
    for item in piece.items:
        out += [title for title, table in titles if table is item]
        out.append(item)
    unique: list[DocItem] = []
    for item in out:
        if all(item is not seen for seen in unique):
            unique.append(item)
    return unique
