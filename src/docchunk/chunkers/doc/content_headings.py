"""Headings that read as content (default mode): which they are, and writing each once.

A heading such as ``2 The Customer pays each invoice within 30 days`` is a clause, not a
title: the structural walk (:func:`docchunk.chunkers.doc.heading_walk.structured_walk`)
writes it as text of its section's first piece, and :func:`heading_once` takes it out of
the heading path of the final chunk that holds it, so that ``contextualize()`` writes it
once.
"""

from __future__ import annotations

import re

from docling_core.types.doc.document import SectionHeaderItem, TitleItem

from docchunk.chunkers.doc.piece import Piece, replace

__all__ = ["CONTENT_HEADING_WORDS", "LONG_HEADING_WORDS", "heading_once", "is_content_heading", "path_in_text"]

_CLAUSE_NUMBER = re.compile(r"^\s*(?:§\s*)?(?:\d+(?:\.\d+)*\.?|\(?[a-z]\)|[ivxlc]+\.)\s+", re.I)
_SENTENCE_END = re.compile(r"[.!?;]\s*$")
CONTENT_HEADING_WORDS = 5
"""Words (after the clause number) from which a numbered heading, or a heading that ends as a sentence, is content."""
LONG_HEADING_WORDS = 12
"""Words from which any heading is content."""


def is_content_heading(text: str) -> bool:
    """Whether a heading reads as content, not as a title (default mode): its text then reaches chunk text.

    The rule: at least :data:`LONG_HEADING_WORDS` (12) words; or at least
    :data:`CONTENT_HEADING_WORDS` (5) words after a clause number that starts the
    heading (``2``, ``4.1``, ``(a)``, ``iv.``, ``§ 3``) or before a sentence end (``.``, ``!``,
    ``?``, ``;``). ``2 The Customer pays each invoice within 30 days`` is content;
    ``3 Termination`` and ``1.2 Scope of this agreement`` are titles.
    """
    words = text.split()
    if len(words) >= LONG_HEADING_WORDS:
        return True
    numbered = _CLAUSE_NUMBER.match(text)
    rest = text[numbered.end() :].split() if numbered else words
    return (numbered is not None or _SENTENCE_END.search(text) is not None) and len(rest) >= CONTENT_HEADING_WORDS


def heading_once(piece: Piece) -> Piece:
    """``piece`` without the headings of its path whose items are in its text (each written once).

    A content heading (:func:`is_content_heading`) is text of the first piece of its
    section and stays in that piece's heading path while the hybrid chunker splits and
    merges (pieces merge only under the same path); in the final chunk it would then be
    in ``contextualize()`` twice, as a heading and as text. Run on the final pieces:
    the heading leaves the path of the piece whose text holds it, and stays in the path
    of the rest of its section. Postcondition: no heading item of ``piece.items`` is in
    the returned piece's ``headings``/``heading_items``.
    """
    written = path_in_text(piece)
    if not written:
        return piece
    headings = [h for k, h in enumerate(piece.headings or ()) if k not in written]
    path_items = piece.heading_items or []
    offset = len(piece.headings or ()) - len(path_items)  # (sheet names come first, without items)
    items = [it for k, it in enumerate(path_items) if offset + k not in written]
    return replace(piece, headings=headings or None, heading_items=items or None)


def path_in_text(piece: Piece) -> set[int]:
    """The positions in ``piece.headings`` of the headings whose items ``piece`` holds: written in its text.

    A heading item of the path among the piece's items is its position; one of a path
    without its items (a merged path) is the last heading of its text not yet taken.
    Empty for a heading-only piece, whose items are its path.
    """
    headings = piece.headings or []
    if piece.heading_only or not headings:
        return set()
    held = [item for item in piece.items if isinstance(item, (TitleItem, SectionHeaderItem))]
    if not held:  # (most pieces: read for every piece, merged runs included)
        return set()
    path_items = piece.heading_items or []
    offset = len(headings) - len(path_items)
    refs = [h.self_ref for h in path_items]
    out: set[int] = set()
    for item in held:
        if item.self_ref in refs:
            out.add(offset + refs.index(item.self_ref))
            continue
        free = [k for k, h in enumerate(headings) if h == item.text and k not in out]
        if free:
            out.add(free[-1])
    return out
