"""A split table's pieces cut again at other row boundaries, for ``min_tokens`` (default mode).

Packing and :mod:`~docchunk.chunkers.doc.tables.balance` place a table's row boundaries
before the lead-ins and the merges; a piece of the table, or a sentence or trailing note
beside it, may then stay under ``min_tokens`` because every merge would exceed
``max_tokens`` (issue 45: "next to a table" was most of the chunks under 64 tokens on a
tester's documents). :func:`recut_table` moves the boundaries between a few consecutive
pieces of one table (a *window*): the rows are packed again, whole, into pieces of
``min_tokens`` to ``max_tokens`` each, as few as that allows.

What each piece carries stays: the text before the rows of the window's first piece (its
lead-in, a caption written there, a small piece joined to it) opens the first new piece;
the text after the rows of the last (a trailing note) ends the last; every later piece
opens with the table-wide notes when the window's later pieces did, and carries their
captions. Rows are never cut or reordered and no text is added or lost.
:func:`docchunk.chunkers.doc.min_tokens.merge_small` calls it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docling_core.types.doc import DocItem, TableItem

from docchunk.chunkers.doc.piece import Anchor, Piece, replace
from docchunk.chunkers.doc.provenance import anchors_of
from docchunk.chunkers.doc.tables.pieces import table_rows_of

if TYPE_CHECKING:
    from docchunk.chunkers.doc.hybrid_run import HybridRun

__all__ = ["recut_table", "whole_rows_of"]

_MAX_ROWS = 80
"""Text rows a window may hold: the search is quadratic in them (a window is two or three pieces)."""


def whole_rows_of(piece: Piece) -> TableItem | None:
    """The table ``piece`` holds whole rows of (``table_rows`` set, no row cut between entries), or None."""
    if piece.table_rows is None or piece.table_cols is not None:
        return None
    tables = [it for it in piece.items if isinstance(it, TableItem)]
    return tables[0] if len(tables) == 1 else None


def recut_table(run: HybridRun, window: list[Piece], low: int, later_captions: list[str] | None) -> list[Piece] | None:
    """``window``'s rows packed again into pieces of ``low`` to ``run.max`` tokens (contextualized), or None.

    Args:
        run: The ``chunk()`` call's state (``max``, ``ctx_count``, ``sizer``, ``serializer``).
        window: Consecutive pieces of whole rows of one table, under one heading path, their
            row ranges adjoining; the first may hold text before its rows, the last text after.
        low: The least size of a piece, in tokens (``min_tokens``).
        later_captions: The captions of the table's pieces after its first (the first may
            have its caption written in its text).

    Returns:
        As few pieces as give each ``low`` to ``run.max`` tokens (one fewer than ``window``
        at best, one more at worst), the smallest of them as large as possible; their
        ``table_rows`` cover the window's rows in order. None when no such cut exists, or
        the window is not as described (rows in Markdown, a delimiter other than a line
        break, an item's text inside the rows).
    """
    parsed = _parse(run, window)
    if parsed is None:
        return None
    head, tail, opening, rows = parsed
    sizes = _Sizes(run, head, tail, opening, [text for _, text in rows])
    first_row = rows[0][1]
    later = replace(window[-1], captions=later_captions)
    overhead = [_overhead(run, window[0], head + first_row), _overhead(run, later, opening + first_row)]
    w = len(window)
    for m in range(max(1, w - 1), w + 2):
        groups = _best_groups(sizes, m, low, run.max, overhead)
        if groups is None:
            continue
        pieces = _pieces(run, window, groups, rows, parsed, later_captions)
        if all(low <= run.ctx_count(p) <= run.max for p in pieces):
            return pieces
    return None


def _parse(run: HybridRun, window: list[Piece]) -> tuple[str, str, str, list[tuple[int, str]]] | None:
    """``(head, tail, opening, rows)``: text before and after the window's rows, later pieces' opening, text rows."""
    table = whole_rows_of(window[0])
    written = table_rows_of(run, window[0]) if table is not None else None
    if written is None or written.head or run.delim != "\n":
        return None
    lines = {row.index: row.text for row in written.rows if row.cells}
    opening = written.notes + "\n" if written.notes else ""
    if len(window) > 1 and not window[1].text.startswith(opening):
        opening = ""  # the later pieces lack the notes (too little room): so do the new ones
    head = tail = ""
    rows: list[tuple[int, str]] = []
    for k, piece in enumerate(window):
        if whole_rows_of(piece) is not table or piece.headings != window[0].headings:
            return None
        start, end = piece.table_rows  # type: ignore[misc]
        if k and window[k - 1].table_rows[1] != start:  # type: ignore[index]
            return None
        own = [(r, lines[r]) for r in range(start, end) if r in lines]
        body = "\n".join(text for _, text in own)
        at = _body_at(piece.text, body, opening if k else "")
        if not own or at is None or (k and at != len(opening if k else "")):
            return None
        if any(at < pos + n and pos < at + len(body) for pos, _, _, n in anchors_of(piece)):
            return None  # an item's text inside the rows: its anchors would not follow them
        if k == 0:
            head = piece.text[:at]
        after = piece.text[at + len(body) :]
        if after and k < len(window) - 1:
            return None
        tail = after
        rows += own
    return (head, tail, opening, rows) if len(rows) <= _MAX_ROWS else None


def _body_at(text: str, body: str, opening: str) -> int | None:
    """Where ``body`` (a piece's rows) is in ``text``: once, after ``opening`` or a line break, before one or the end.

    A check of the piece's make-up (its rows as the table's writer wrote them), not an offset
    of a chunk: anchors and spans come from the pieces.
    """
    at = text.find(body)
    if at < 0 or text.find(body, at + 1) >= 0:
        return None
    before, after = text[:at], text[at + len(body) :]
    if before not in ("", opening) and not before.endswith("\n"):
        return None
    return at if after == "" or after.startswith("\n") else None


def _overhead(run: HybridRun, piece: Piece, text: str) -> int:
    """Tokens the headings and captions of ``piece`` add to ``text``'s (a text it may hold: they join it)."""
    probe = replace(piece, text=text, text_tokens=None, anchors=None)
    return run.ctx_count(probe) - run.count(text)


class _Sizes:
    r"""Tokens of a group of consecutive rows joined by ``"\n"``, with the head, tail or opening, by arithmetic.

    Each join's cost (the line break and any token across it) is measured once on the
    two texts it joins (``Sizer.join_count``), so a group's size is a sum; the pieces
    chosen are counted exactly afterwards.
    """

    def __init__(self, run: HybridRun, head: str, tail: str, opening: str, texts: list[str]):
        self.sizer = run.sizer
        self.texts = texts
        self.counts = run.count_many(texts)
        self.head, self.tail = head.removesuffix("\n"), tail.removeprefix("\n")
        self.opening = opening.removesuffix("\n")
        self.cum = [0]
        for k, n in enumerate(self.counts):
            seam = self._seam(texts[k - 1], self.counts[k - 1], texts[k], n) if k else 0
            self.cum.append(self.cum[-1] + seam + n)
        self._edges: dict[tuple[str, int], int] = {}

    def _seam(self, a: str, na: int, b: str, nb: int) -> int:
        return self.sizer.join_count([a, b], [na, nb], "\n") - na - nb

    def _edge(self, extra: str, k: int, before: bool) -> int:
        """Tokens ``extra`` adds joined before (or after) row ``k``."""
        if not extra:
            return 0
        key = (extra, k if before else -k - 1)
        if key not in self._edges:
            n = self.sizer.count(extra)
            self._edges[key] = n + (self._seam(extra, n, self.texts[k], self.counts[k]) if before
                                    else self._seam(self.texts[k], self.counts[k], extra, n))  # fmt: skip
        return self._edges[key]

    def of(self, i: int, j: int, first: bool, last: bool) -> int:
        """Tokens of rows ``i`` to ``j - 1`` with the head (``first``) or the opening, and the tail (``last``)."""
        size = self.cum[j] - self.cum[i] - (self._seam_at(i) if i else 0)
        size += self._edge(self.head if first else self.opening, i, before=True)
        return size + (self._edge(self.tail, j - 1, before=False) if last else 0)

    def _seam_at(self, i: int) -> int:
        """The cost of the join before row ``i`` (held in ``cum[i + 1]``, not part of a group starting at ``i``)."""
        return self.cum[i + 1] - self.cum[i] - self.counts[i]


def _best_groups(sizes: _Sizes, m: int, low: int, high: int, overhead: list[int]) -> list[int] | None:
    """Cut points ``[0, c1, ..., n]`` of ``m`` groups each of ``low`` to ``high`` tokens, the smallest largest; or None.

    Dynamic programming over the rows: ``best[k][j]`` is the largest least size of ``k``
    groups holding rows ``0`` to ``j - 1``. ``overhead``: the first piece's headings and
    captions, and the later pieces'.
    """
    n = len(sizes.texts)
    if m > n:
        return None
    best: list[dict[int, tuple[int, int]]] = [{0: (high + 1, -1)}]  # j -> (least size, previous cut)
    for k in range(m):
        last = k == m - 1
        row: dict[int, tuple[int, int]] = {}
        for i, (least, _) in best[k].items():
            for j in [n] if last else range(i + 1, n - (m - k - 1) + 1):
                size = sizes.of(i, j, k == 0, last) + overhead[0 if k == 0 else 1]
                if size > high:
                    break
                if size < low:
                    continue
                value = min(least, size)
                if j not in row or value > row[j][0]:
                    row[j] = (value, i)
        if not row:
            return None
        best.append(row)
    if n not in best[m]:
        return None
    cuts = [n]
    for k in range(m, 0, -1):
        cuts.append(best[k][cuts[-1]][1])
    return cuts[::-1]


def _pieces(
    run: HybridRun,
    window: list[Piece],
    cuts: list[int],
    rows: list[tuple[int, str]],
    parsed: tuple[str, str, str, list[tuple[int, str]]],
    later_captions: list[str] | None,
) -> list[Piece]:
    """The new pieces of ``window`` for the row groups ``cuts`` (indices into ``rows``)."""
    head, tail, opening, _ = parsed
    first, last = window[0], window[-1]
    head_anchors = [a for a in anchors_of(first) if a[0] < len(head)]
    tail_at = len(last.text) - len(tail)
    tail_anchors = [a for a in anchors_of(last) if a[0] >= tail_at]
    own = {ref for _, ref, _, _ in (*head_anchors, *tail_anchors)}
    head_items = [it for it in first.items if it.self_ref in own and any(a[1] == it.self_ref for a in head_anchors)]
    tail_items = [it for it in last.items if it.self_ref in own and any(a[1] == it.self_ref for a in tail_anchors)]
    shared: list[DocItem] = []
    for piece in window:
        shared += [it for it in piece.items if it.self_ref not in own and all(it is not s for s in shared)]
    later = window[1] if len(window) > 1 else replace(first, captions=later_captions, lead_headings=None)
    bounds = [first.table_rows[0]] + [rows[c - 1][0] + 1 for c in cuts[1:-1]] + [last.table_rows[1]]  # type: ignore[index]
    out = []
    m = len(cuts) - 1
    for k in range(m):
        body = "\n".join(text for _, text in rows[cuts[k] : cuts[k + 1]])
        before = head if k == 0 else opening
        after = tail if k == m - 1 else ""
        text = before + body + after
        anchors: list[Anchor] = list(head_anchors) if k == 0 else []
        shift = len(before) + len(body) - tail_at
        anchors += [(pos + shift, ref, s, n) for pos, ref, s, n in tail_anchors] if k == m - 1 else []
        items = [*(head_items if k == 0 else []), *shared, *(tail_items if k == m - 1 else [])]
        template = first if k == 0 else later
        out.append(
            replace(
                template, text=text, items=items, text_tokens=None, anchors=(text, tuple(anchors)),
                table_rows=(bounds[k], bounds[k + 1]),
                end_headings=last.end_headings if k == m - 1 else None,
            )
        )  # fmt: skip
    return out
