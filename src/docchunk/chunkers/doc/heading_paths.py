"""The default mode's heading-path pass: paths that take more than half of ``max_tokens`` are shortened.

:func:`fit_headings` is the hybrid chunker's first pass after the walk in the default
mode (:mod:`docchunk.chunkers.doc.structure`): a piece keeps the innermost headings
that fit half the budget, and the outer ones are emitted once, as a piece of text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, cast

from docling_core.types.doc import DocItem, ListItem, TableItem, TextItem

from docchunk.chunkers.doc.piece import Piece, heading_items_of, replace

if TYPE_CHECKING:
    from docchunk.chunkers.doc.hybrid_run import HybridRun

__all__ = ["fit_headings", "heading_text", "longest_fitting_path"]


def fit_headings(run: HybridRun, pieces: Iterable[Piece]) -> list[Piece]:
    """Shorten heading paths that take more than half of ``max_tokens``.

    Such a piece keeps, as its headings, the innermost headings whose
    contextualized size is at most half the budget (maybe none; the others are in
    its ``headings_dropped``); the headings of
    the path not emitted yet are emitted once, before the first such piece, as a
    piece of its own whose text is those headings, one per line (split later like
    any text when it is too long; its own path shortened alike, named in its
    ``headings_dropped``). A heading an earlier piece wrote as its path is not emitted
    again (it would come after that piece's content), unless the piece keeps no path
    at all (:func:`_in_path`). A heading is one heading item: two sections
    whose headings read the same each have theirs emitted (a sheet name, which has
    no item, is emitted once).
    """
    limit = run.path_limit
    emitted: set[tuple[str, str | None]] = set()  # the headings emitted as text (see _heading_keys)
    in_path: set[tuple[str, str | None]] = set()  # the headings written as an earlier piece's path (_in_path)
    out: list[Piece] = []
    pieces = list(pieces)
    # the texts the heading paths' costs are read from, each counted once, in one batch
    run.count_many(list({t: None for p in pieces if p.headings for t in run.heading_texts(p.headings)}))
    for i, piece in enumerate(pieces):
        if (kept := _without_emitted(piece, emitted)) is None:
            continue
        piece = kept
        headings = piece.headings
        if not headings or run.headings_cost(headings) <= limit:
            _written(emitted, piece)
            if headings:
                _in_path(in_path, piece, _heading_keys(piece))
            out.append(piece)
            continue
        keys = _heading_keys(piece)
        fitting = _kept_path(run, _path_giver(pieces, i), limit)
        stop = len(headings) - len(fitting)
        # the headings a text piece keeps in its path are not written as text; a table's or a
        # list's later passes may shorten its path again, so all of theirs are written
        written = len(headings) if _path_may_shorten(piece) else stop
        # not again the ones an earlier piece's path wrote, unless this piece keeps no path at all
        todo = [k for k in range(written) if keys[k] not in emitted and not (fitting and keys[k] in in_path)]
        if todo:  # the headings not yet emitted as text, once
            emitted.update(keys[:written])
            emitted.update((text, None) for text, _ in keys[:written])
            outer = headings[: todo[0]]
            path = run.fitting_headings(outer, limit) or []
            out.append(Piece(text="\n".join(headings[k] for k in todo if headings[k]) or headings[todo[-1]],
                             items=heading_items_of(piece, todo), headings=path or None, origin=piece.origin,
                             from_headings=True, headings_dropped=outer[: len(outer) - len(path)] or None))  # fmt: skip
        if (kept := _without_emitted(piece, emitted)) is not None:  # a content heading's piece: its path went out
            _written(emitted, kept)
            _in_path(in_path, kept, keys[stop:])
            out.append(replace(kept, headings=fitting or None, headings_dropped=list(headings[:stop]) or None))
    return out


def _in_path(in_path: set[tuple[str, str | None]], piece: Piece, keys: Iterable[tuple[str, str | None]]) -> None:
    """Record the headings ``piece`` writes as its path (``keys``): a later path too long does not write them as text.

    They are in the embedded text of the section before the piece that drops them (named
    in its ``headings_dropped``), unless that piece keeps no path at all: then they are
    written before it, so that it is not left without any heading (a table under a heading
    too long for the budget). A table's or a list's path may be shortened by a later
    pass, so theirs are not recorded. (The round-3 tester's ``api_deep_headings``, MiniLM
    64, finding 9: ``Handbook``, the path of the first chunk, was written again as a chunk
    of its own after it, and ``Level 3 ...``, the path of level 3's and level 4's chunks,
    as a line after level 4's body, under a path whose ``headings_dropped`` was None.)
    """
    if not _path_may_shorten(piece) and piece.code_chunks is None:
        in_path.update(keys)


def _path_giver(pieces: list[Piece], i: int) -> Piece:
    """The piece whose kept path ``pieces[i]`` keeps: the content after a piece of content headings, else itself.

    A piece of content headings as text (:mod:`~docchunk.chunkers.doc.heading_walk`)
    keeps the path of the content under them, so that the headings that content keeps
    in its path are written there, not also in this piece's text; the two then merge,
    the path written once. (The tester's ``html_deep_headings`` at MiniLM 64: the
    paragraph kept one heading of six and the headings' piece two; the inner one was
    written twice, as the paragraph's path and as the headings' text. Issue 46.)
    """
    piece = pieces[i]
    after = pieces[i + 1] if i + 1 < len(pieces) else None
    if piece.from_headings and after is not None and not after.from_headings and after.headings == piece.headings:
        return after
    return piece


def _path_may_shorten(piece: Piece) -> bool:
    """Whether a later pass may drop entries of ``piece``'s path: a table's (``tables/rejoin.py``), a list's windows."""
    return any(isinstance(it, (TableItem, ListItem)) for it in piece.items)


def _written(emitted: set[tuple[str, str | None]], piece: Piece) -> None:
    """Record the heading items a piece of headings as text writes: a later path too long does not write them again.

    (``jats__elife-56337`` at MiniLM 64: the title, written as the first piece's text, was
    written again for a path that dropped it, and ``min_tokens`` merged the two.)
    """
    if piece.from_headings:
        emitted.update((heading_text(it), it.self_ref) for it in piece.items)


def _kept_path(run: HybridRun, piece: Piece, limit: int) -> list[str]:
    """The headings ``piece`` keeps: the innermost within ``limit`` tokens, or fewer when it then fits whole.

    A piece (not a table nor a list, whose later passes fit their own paths:
    :mod:`~docchunk.chunkers.doc.tables.rejoin`, :mod:`~docchunk.chunkers.doc.list_split`)
    that the innermost headings within ``limit`` put at most an eighth of ``max_tokens``
    over the budget would be split in two, each part repeating the path, for a few tokens;
    it keeps instead the longest innermost part of that path with which it fits, at least
    one heading (the outer ones are emitted as text with the rest). A deep HTML page (six
    headings of nine tokens over a 44-token paragraph, MiniLM 64) was 1.50 times compat's
    tokens (issue 46, tester's finding 17).
    """
    headings = piece.headings or []
    fitting = run.fitting_headings(headings, limit) or []
    if len(fitting) < 2 or _path_may_shorten(piece):
        return fitting
    total = run.ctx_count(replace(piece, headings=fitting))
    if total <= run.max or total > run.max + run.max // 8:
        return fitting
    found = longest_fitting_path(run, fitting, lambda path: replace(piece, headings=path), keep=1)
    return found.headings if found is not None and found.headings else fitting


def longest_fitting_path(
    run: HybridRun, headings: list[str], under: Callable[[list[str]], Piece], keep: int = 0
) -> Piece | None:
    """``under(path)`` for the longest proper suffix ``path`` of ``headings`` with which it fits ``run.max``.

    The outer headings are dropped one at a time, the innermost ``keep`` always kept
    (``path`` has at least ``keep`` entries; it may be empty with ``keep=0``). None when
    no such piece fits: its contextualized size (:meth:`HybridRun.ctx_count`, in tokens)
    exceeds ``max_tokens`` with every suffix. Used by :func:`_kept_path` (a text piece a
    few tokens over) and :func:`~docchunk.chunkers.doc.tables.paths.shorter_path` (a
    table row that fits only under a shorter path), each building its piece its own way.
    """
    for k in range(1, len(headings) - keep + 1):
        piece = under(headings[k:])
        if run.ctx_count(piece) <= run.max:
            return piece
    return None


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


def heading_text(item: DocItem) -> str:
    """The text of an item of a ``from_headings`` piece: a heading (or title) item, a text item."""
    return cast(TextItem, item).text
