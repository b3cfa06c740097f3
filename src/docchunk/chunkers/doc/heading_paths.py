"""The default mode's heading-path pass: paths that take more than half of ``max_tokens`` are shortened.

:func:`fit_headings` is the hybrid chunker's first pass after the walk in the default
mode (:mod:`docchunk.chunkers.doc.structure`): a piece keeps the innermost headings
that fit half the budget, and the outer ones are emitted once, as a piece of text.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from docling_core.types.doc import DocItem, TextItem

from docchunk.chunkers.doc.piece import Piece

if TYPE_CHECKING:
    from docchunk.chunkers.doc.hybrid_run import HybridRun

__all__ = ["fit_headings", "heading_text"]


def fit_headings(run: HybridRun, pieces: Iterable[Piece]) -> list[Piece]:
    """Shorten heading paths that take more than half of ``max_tokens``.

    Such a piece keeps, as its headings, the innermost headings whose
    contextualized size is at most half the budget (maybe none; the others are in
    its ``headings_dropped``); the headings of
    the path not emitted yet are emitted once, before the first such piece, as a
    piece of its own whose text is those headings, one per line (split later like
    any text when it is too long). A heading is one heading item: two sections
    whose headings read the same each have theirs emitted (a sheet name, which has
    no item, is emitted once).
    """
    limit = run.max // 2
    emitted: set[tuple[str, str | None]] = set()  # the headings emitted as text (see _heading_keys)
    out: list[Piece] = []
    pieces = list(pieces)
    # the texts the heading paths' costs are read from, each counted once, in one batch
    run.count_many(list({t: None for p in pieces if p.headings for t in run.heading_texts(p.headings)}))
    for piece in pieces:
        if (kept := _without_emitted(piece, emitted)) is None:
            continue
        piece = kept
        headings = piece.headings
        if not headings or run.headings_cost(headings) <= limit:
            out.append(piece)
            continue
        keys = _heading_keys(piece)
        new = next((i for i, key in enumerate(keys) if key not in emitted), len(keys))
        if new < len(headings):  # the headings not yet emitted as text, once
            emitted.update(keys)
            emitted.update((text, None) for text, _ in keys)
            items = _items_of(piece, new)
            out.append(Piece(text="\n".join(h for h in headings[new:] if h) or headings[-1], items=list(items),
                             headings=run.fitting_headings(headings[:new], limit), origin=piece.origin,
                             from_headings=True))  # fmt: skip
        if (kept := _without_emitted(piece, emitted)) is not None:  # a content heading's piece: its path went out
            fitting = run.fitting_headings(headings, limit) or []
            dropped = list(headings[: len(headings) - len(fitting)]) or None
            out.append(replace(kept, headings=fitting or None, headings_dropped=dropped))
    return out


def _without_emitted(piece: Piece, emitted: set[tuple[str, str | None]]) -> Piece | None:
    """A piece of headings as text (``from_headings``) without the heading items already emitted as text.

    None when none is left. Any other piece is returned as it is. A heading item
    is emitted once: a piece of the headings that never got content
    (:mod:`~docchunk.chunkers.doc.heading_walk`) or of content headings does not
    write again one that :func:`fit_headings` emitted for a path too long.
    """
    if not piece.from_headings or not emitted:
        return piece
    left = [it for it in piece.items if (getattr(it, "text", None), it.self_ref) not in emitted]
    if not left:
        return None
    if len(left) < len(piece.items):
        return replace(piece, text="\n".join(heading_text(it) for it in left), items=left, text_tokens=None)
    return piece


def _heading_keys(piece: Piece) -> tuple[tuple[str, str | None], ...]:
    """Each heading of ``piece`` with the reference of its heading item, or None where it is not known.

    Two sections whose headings read the same are still two paths: the second one's
    headings must be emitted too. A sheet name has no item, and some pieces do not
    carry their heading items: those headings are known by their text alone
    (:func:`fit_headings` records every emitted heading under its text as well).
    """
    headings = piece.headings or []
    items = piece.heading_items or (piece.items if piece.heading_only else [])  # a heading-only piece: its path
    sheets = len(headings) - len(items)  # sheet names come first and have no item
    return tuple(
        (text, items[i - sheets].self_ref if 0 <= i - sheets < len(items) else None)
        for i, text in enumerate(headings)
    )


def _items_of(piece: Piece, start: int) -> list[Any]:
    """The heading items of ``piece.headings[start:]`` that have text (sheet names, which have none, come first).

    These are the items of the piece :func:`fit_headings` emits for those headings,
    whose text is their texts, one per line: :func:`split_at_pages` then cuts it
    where their pages change. Only when the headings are sheet names alone (no
    heading item) is it the piece's first item.
    """
    items = piece.heading_items or (piece.items if piece.heading_only else [])
    sheets = len(piece.headings or []) - len(items)
    own = items[max(0, start - sheets) :]
    return [it for it in own if heading_text(it)] or own or piece.items[:1]


def heading_text(item: DocItem) -> str:
    """The text of an item of a ``from_headings`` piece: a heading (or title) item, a text item."""
    return cast(TextItem, item).text
