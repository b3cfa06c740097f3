r"""Which characters of which items a document chunk holds (``meta.spans``).

Where on its pages they are (``meta.page_boxes``) is :mod:`docchunk.chunkers.doc.page_boxes`.

A piece carries *anchors*: ``(pos, ref, start, length)`` tuples saying that
``piece.text[pos:pos + length] == item.text[start:start + length]`` for the text item
``ref`` (identity segments, so slicing and joining pieces move them by arithmetic).
Anchors are made where a text item's text is written into a piece: :func:`align`
places each item's own text inside the text its serializer wrote for it, in document
order; after that, the chunker's splits (:func:`slice_anchors`) and joins
(:func:`join_anchors`) compute them from the offsets they cut and join at. A piece's
anchors remember the text they belong to: a piece whose text was rewritten by a pass
that does not keep anchors (a table's rows, the compat table splitter) is aligned
again from its items (:func:`anchors_of`).

The serializer's escaping and the chunker's rewriting the spans allow for
(docling-core's Markdown text serializer as the chunking serializers configure it:
no HTML or underscore escaping):

- a single newline of an item's text is written as a Markdown hard line break
  ``"  \n"``, so an anchor never crosses a newline (each line is its own anchor);
- an inline run (default mode) is written as one line, each run of whitespace as one
  space: its words are placed one by one;
- a list item is written after its marker (``"- "``, ``"1. "``), nested items after
  their indentation, formatted text inside its markers (``**bold**``, ``[text](url)``);
  prefixes and markers are not part of any span;
- where the chunker splits an item's text (at sentence ends, or semchunk's split
  points) it drops the whitespace at the cut, and where it merges the parts again it
  writes ``delim`` there: the whitespace a split drops belongs to the span before it,
  so the spans of an item tile its text.

Hence the invariant tested on the corpus: for each span,
``normalize(item.text[start:end])`` is in ``normalize(chunk.text)``, where
:func:`normalize` writes every run of whitespace as one space. A caption the chunk
holds in ``meta.captions`` (not in its text) and a heading held in ``meta.headings``
have no span. The spans of a document's chunks cover each chunked item's text exactly
once, except a heading path the chunker writes into the text (a path too long for
``meta.headings``): like ``meta.headings``, it may be written again for a later
section, with the same spans.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Protocol, TypedDict

from docchunk.chunkers.doc.piece import Anchor, Piece

if TYPE_CHECKING:
    from docling_core.types.doc import DoclingDocument, NodeItem

__all__ = [
    "Anchor",
    "RefItem",
    "SpanDict",
    "align",
    "anchors_of",
    "captions_of",
    "completed",
    "fill_gaps",
    "item_text",
    "join_anchors",
    "normalize",
    "slice_anchors",
    "spans_of",
]


class SpanDict(TypedDict):
    """A chunk span as :func:`spans_of` makes it: the keyword arguments of an :class:`~docchunk.ItemSpan`."""

    ref: str
    start: int
    end: int


class RefItem(Protocol):
    """What :func:`align` reads of an item: its ``self_ref`` (and its ``text``, when it has one).

    A docling-core ``NodeItem`` is one; so is a stand-in with these attributes.
    """

    @property
    def self_ref(self) -> str:
        """The item's JSON pointer in its document (``"#/texts/5"``), or any key the anchors name it by."""
        ...


def normalize(text: str) -> str:
    """``text`` with each run of whitespace written as one space, and stripped (see the module docstring)."""
    return " ".join(text.split())


def item_text(item: RefItem) -> str | None:
    """``item.text`` when it is a non-empty ``str``, else None (tables, pictures, groups have none).

    A pydantic item's fields are read from its ``__dict__``: ``getattr`` of a field a model
    lacks goes through pydantic's ``__getattr__`` and an ``AttributeError``, many times
    slower, and chunking asks this of every table and picture of every chunk.
    """
    fields = getattr(item, "__pydantic_fields__", None)
    text = item.__dict__.get("text") if fields is not None else getattr(item, "text", None)
    return text if isinstance(text, str) and text else None


def _lines(text: str) -> Iterable[tuple[int, str]]:
    """The non-empty lines of ``text`` with their start offsets, trailing spaces kept."""
    pos = 0
    for line in text.split("\n"):
        if line.strip():
            yield pos, line
        pos += len(line) + 1


def align(text: str, items: Sequence[RefItem], skip: Iterable[str] = ()) -> tuple[Anchor, ...]:
    """Anchors of ``items``' own texts inside ``text``, the text a serializer wrote for them.

    Items are taken in order, each after the previous one's last anchor; each line
    of an item's text (see the module docstring: the serializer writes each line
    whole, after any marker) is placed at its first occurrence after that point.
    Items without text (tables, groups), headings held as strings elsewhere and
    items whose text is in ``skip`` (a caption held in ``captions``) get no anchors;
    a line the serializer did not write (debris removed) gets none either.

    Args:
        text: The text written for the items (a walked piece, one item's serialization).
        items: The piece's doc items, in document order.
        skip: Texts that are not in ``text`` (captions held apart).

    Returns:
        Anchors in increasing position.
    """
    skipped = set(skip)
    cursor = 0
    out: list[Anchor] = []
    for item in items:
        own = item_text(item)
        if own is None or own in skipped:
            continue
        ref = item.self_ref
        for start, line in _lines(own):
            pos = text.find(line, cursor)
            if pos < 0:
                stripped = line.rstrip()
                pos = text.find(stripped, cursor) if stripped != line else -1
                if pos < 0:
                    words = _by_words(text, cursor, ref, start, line)
                    if words:
                        out.extend(words)
                        cursor = words[-1][0] + words[-1][3]
                    continue
                line = stripped
            out.append((pos, ref, start, len(line)))
            cursor = pos + len(line)
    return tuple(out)


_WORD = re.compile(r"\S+")


def _by_words(text: str, cursor: int, ref: str, start: int, line: str) -> list[Anchor]:
    r"""Anchors of ``line``'s words where the serializer wrote them with other whitespace (one anchor a word).

    An inline run is written as one line with each run of whitespace as one space
    (``\xa0`` and line breaks included); its words are then found in order, separated by
    whitespace only. The words are read as they are compared, so that a place where
    the line is not costs the words up to the first that differs, not the whole line.
    """
    first = _WORD.search(line)
    if first is None:
        return []
    pos = text.find(first.group(), cursor)
    while pos >= 0:  # the first occurrence after ``cursor`` that the other words follow
        found = _words_from(text, pos, line, first)
        if found is not None:
            return [(place, ref, start + at, n) for place, at, n in found]
        pos = text.find(first.group(), pos + 1)
    return []


def _words_from(text: str, pos: int, line: str, first: re.Match[str]) -> list[tuple[int, int, int]] | None:
    """``(place in text, start in line, length)`` of each word of ``line`` written from ``pos`` on, or None.

    ``first`` is the line's first word, at ``pos`` in ``text``; each later word must
    follow the one before after one or more whitespace characters.
    """
    out = [(pos, first.start(), len(first.group()))]
    end = pos + len(first.group())
    for match in _WORD.finditer(line, first.end()):
        word = match.group()
        nxt = end
        while nxt < len(text) and text[nxt].isspace():
            nxt += 1
        if nxt == end or not text.startswith(word, nxt):
            return None
        out.append((nxt, match.start(), len(word)))
        end = nxt + len(word)
    return out


def anchors_of(piece: Piece) -> tuple[Anchor, ...]:
    """The anchors of ``piece`` (aligned from its items when it has none for its current text)."""
    kept = piece.anchors
    if kept is not None and kept[0] == piece.text:
        return kept[1]
    found = align(piece.text, piece.items, piece.captions or ())
    piece.anchors = (piece.text, found)
    return found


def captions_of(items: Sequence[NodeItem], doc: DoclingDocument | None) -> list[NodeItem]:
    """The caption items of the tables and pictures among ``items`` that they do not list (none without ``doc``)."""
    if doc is None:
        return []
    listed = {it.self_ref for it in items}
    out = []
    for item in items:
        # a pydantic item without the field (a text item) has none: read without raising AttributeError
        fields = getattr(type(item), "__pydantic_fields__", None)
        if fields is not None and "captions" not in fields:
            continue
        for ref in getattr(item, "captions", None) or ():
            if ref.cref not in listed:
                listed.add(ref.cref)
                out.append(ref.resolve(doc))
    return out


def slice_anchors(anchors: Sequence[Anchor], start: int, end: int) -> tuple[Anchor, ...]:
    """The anchors of ``text[start:end]``, clipped to it and moved to its offsets."""
    out: list[Anchor] = []
    for pos, ref, s, n in anchors:
        lo, hi = max(pos, start), min(pos + n, end)
        if lo < hi:
            out.append((lo - start, ref, s + lo - pos, hi - lo))
    return tuple(out)


def join_anchors(parts: Sequence[tuple[str, Sequence[Anchor]]], delim: str) -> tuple[Anchor, ...]:
    """The anchors of ``delim.join(texts)`` for ``parts`` of ``(text, anchors)``."""
    out: list[Anchor] = []
    offset = 0
    for k, (text, anchors) in enumerate(parts):
        if k:
            offset += len(delim)
        out.extend((pos + offset, ref, s, n) for pos, ref, s, n in anchors)
        offset += len(text)
    return tuple(out)


def completed(
    piece: Piece, doc: DoclingDocument | None = None, caption_items: Sequence[NodeItem] | None = None
) -> tuple[Anchor, ...]:
    """:func:`anchors_of` ``piece``, plus anchors for the items that have none (aligned in the rest of the text).

    A piece that took an item from a neighbour with no text of its own (docling-core's
    empty caption piece, merged with the table that wrote the caption) holds that
    item's text at a place no anchor knows; it is aligned there, outside the
    ranges the other anchors hold. So are the captions of its tables and pictures
    (given ``doc``) that its items do not list: docling-core writes a caption into
    its table's text while listing the caption item in another chunk.

    Args:
        piece: The piece.
        doc: Its document (None: no caption items are looked up).
        caption_items: ``captions_of(piece.items, doc)`` when the caller already has it
            (it is then not looked up again).
    """
    anchors = anchors_of(piece)
    have = {a[1] for a in anchors}
    if caption_items is None:
        caption_items = captions_of(piece.items, doc)
    unanchored = [it for it in (*piece.items, *caption_items) if it.self_ref not in have]
    if not unanchored:  # (most pieces)
        return anchors
    # only an item whose whole text the piece holds: a piece cut from a longer text (a link's
    # URL) may hold a line's few characters elsewhere (the ":" of "https:"), not the item's text
    written = normalize(piece.text)
    missing = [it for it in unanchored if (own := item_text(it)) is not None and normalize(own) in written]
    if not missing:
        return anchors
    taken = [(pos, pos + n) for pos, _, _, n in anchors]
    extra = [a for a in align(piece.text, missing, piece.captions or ())
             if all(a[0] + a[3] <= lo or a[0] >= hi for lo, hi in taken)]  # fmt: skip
    return tuple(sorted((*anchors, *extra)))


def spans_of(anchors: Sequence[Anchor], texts: dict[str, str]) -> list[SpanDict]:
    r"""Chunk spans ``{"ref", "start", "end"}`` from anchors: consecutive ones of an item joined.

    Two anchors of one item join when the item's text between them is whitespace
    only (a line break the serializer wrote as ``"  \\n"``) and the chunk's text
    between them is empty exactly when the item's is: two adjacent parts of an item
    that the chunker wrote apart (semchunk's split at ``"/"`` merged again with
    ``"\\n"``) stay two spans, so that each span's text is in the chunk's.
    """
    out: list[SpanDict] = []
    last_end = 0  # where the last anchor ends in the chunk's text
    for pos, ref, s, n in sorted(anchors, key=lambda a: a[0]):
        if ref not in texts:
            continue
        last = out[-1] if out else None
        if (
            last is not None
            and last["ref"] == ref
            and last["end"] <= s
            and not texts[ref][last["end"] : s].strip()
            and (last["end"] == s) == (last_end == pos)
        ):
            last["end"] = s + n
            last_end = pos + n
            continue
        out.append({"ref": ref, "start": s, "end": s + n})
        last_end = pos + n
    for span in out:  # an item's own leading and trailing whitespace belong to its first and last span
        text = texts[span["ref"]]
        if not text[: span["start"]].strip():
            span["start"] = 0
        if not text[span["end"] :].strip():
            span["end"] = len(text)
    return out


def fill_gaps(chunk_spans: Sequence[list[SpanDict]], texts: dict[str, str]) -> None:
    """Give the whitespace between consecutive spans of an item to the span before it (in place).

    Also the item's leading whitespace to its first span and trailing whitespace to
    its last, so that the spans of an item's chunks tile ``item.text`` when the
    chunker dropped only whitespace at its splits.
    """
    by_ref: dict[str, list[SpanDict]] = {}
    for spans in chunk_spans:
        for span in spans:
            by_ref.setdefault(span["ref"], []).append(span)
    for ref, spans in by_ref.items():
        text = texts[ref]
        spans.sort(key=lambda sp: sp["start"])
        if not text[: spans[0]["start"]].strip():
            spans[0]["start"] = 0
        for a, b in pairwise(spans):
            if a["end"] < b["start"] and not text[a["end"] : b["start"]].strip():
                a["end"] = b["start"]
        if not text[spans[-1]["end"] :].strip():
            spans[-1]["end"] = len(text)
