"""Nested lists in the default mode: the nesting kept, split between top-level items first.

A walked list piece's text is its serializer's text: one line per list item, a
nested item indented by ``indent`` spaces per level (docling-core's Markdown list
serializer, as :class:`HierarchicalChunker` writes it). :func:`split_list_piece`
keeps that text when it fits ``max_tokens``; otherwise it cuts it between items:

- a window never ends where a shallower cut is possible within the budget: lists
  are cut between top-level items first, then between the items of the next level;
  but a window never holds a parent item alone when its first sub-item fits with it;
- a window that starts inside a nested item stays inside its parent item, and
  carries its parent items (outermost first) after the section headings in
  ``headings``, each named by its text, or by its first clause or words when the
  text is long for the budget (:class:`_ParentNames`): a sub-item never starts a
  chunk without its parent (``contextualize()`` shows the path);
- inside a window, the nesting is written relative to its first item.

An item's text that is larger than the budget on its own is one window, which the
chunker then splits at sentence ends (with the same headings). A table inside the list
(inside an item or beside its items) that fits a window is lines of it; one too large
for a window is chunked as a table (:mod:`~docchunk.chunkers.doc.list_tables`: whole
rows, its caption before them in every piece, ``table_rows`` set, the items above it as
its path). A block of one line
inside a list item (a paragraph; a picture without text writes nothing) is a line
of its own, indented under its item; a block of several lines (a table's rows, a
fenced code block) has each line indented so. A block beside the items of a list
(where docling's DOCX and Markdown converters put a nested item's picture, table or
code) is written at the items' depth. docling-core's serializer writes the nested
list of such an item flat, and the lines are written again with their nesting. A
list the walk did not write as one line per item or block (a group other than a
list inside an item, a page break inside the list) is split at element boundaries
as before.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from docling_core.types.doc.document import (
    ListItem,
)

from docchunk.chunkers.doc.list_lines import ListLine, indent_lines, indent_of, list_lines, parent_text
from docchunk.chunkers.doc.list_tables import table_in_list, tables_over_budget
from docchunk.chunkers.doc.piece import Piece, replace

if TYPE_CHECKING:
    from docling_core.types.doc import DoclingDocument

    from docchunk.chunkers.doc.hybrid_run import HybridRun

__all__ = ["as_list_lines", "split_list_piece"]


def split_list_piece(run: HybridRun, piece: Piece) -> list[Piece] | None:
    """Windows of ``piece``'s list items that fit ``max_tokens`` (see the module docstring), or None.

    Args:
        run: The ``chunk()`` call's state (``HybridRun``): counts, serializer, budget.
        piece: A walked piece.

    Returns:
        None when ``piece`` is not a list written one item per line (the caller
        splits it at element boundaries); else the pieces, in order, whose texts
        hold every item line once; each fits ``max_tokens`` unless it is one item.
    """
    lines = list_lines(run, piece)
    if lines is None:
        return None
    doc = run.doc
    indent = indent_of(run)
    all_lines = _indented(lines, 0, len(lines), indent)
    whole = replace(piece, text="\n".join(all_lines), text_tokens=_joined_count(run, all_lines), captions=None)
    if run.ctx_count(whole) <= run.max:
        return [whole]
    owner = _owners(piece.items, lines, doc)
    if owner is None:
        return None
    out: list[Piece] = []
    parent_names = _ParentNames()

    def names_of(line: ListLine) -> list[str]:
        return [parent_names.get(run, p, k == len(line.parents) - 1) for k, p in enumerate(line.parents)]

    def window(lo: int, hi: int, headings: list[str] | None) -> Piece:
        kept = [it for it in piece.items if lo <= owner[it.self_ref] < hi]
        texts = _indented(lines, lo, hi, indent)
        return Piece(text="\n".join(texts), items=kept, headings=headings, origin=piece.origin,
                     heading_items=piece.heading_items, text_tokens=_joined_count(run, texts),
                     item_path=min(len(lines[lo].parents), len(headings or ())))  # fmt: skip

    def alone(k: int) -> Piece:  # line k's window, alone under its path
        return window(k, k + 1, _window_path(run, piece, lines[k], names_of(lines[k])))

    tables = tables_over_budget(run, [ln.item for ln in lines], alone)
    n = len(lines)
    i = 0
    while i < n:
        names = names_of(lines[i])
        if i in tables:  # a table inside the list, too large for a window: its own pieces, of whole rows
            items = [it for it in piece.items if owner[it.self_ref] == i]
            path = [*(piece.headings or []), *names]
            inner = _window_path(run, piece, lines[i], names) or []
            out.extend(table_in_list(run, piece, items, path, inner, len(lines[i].parents)))
            i += 1
            continue
        depth = lines[i].depth
        end = i + 1  # the window may not leave the parent item of its first line, nor hold such a table
        while end < n and end not in tables and (depth == 0 or lines[end].depth >= depth):
            end += 1
        headings = _window_path(run, piece, lines[i], names)
        fit = _last_fitting(run, lambda hi, lo=i, h=headings: window(lo, hi, h), lines, i + 1, end, indent)
        if fit < end:
            # cut before the shallowest item of the window (the last one of that depth), but
            # never right after a parent item whose first sub-item fits with it (a parent alone,
            # then its sub-item under the parent's name: more chunks, each repeating the path)
            best = max(range(i + 1, fit + 1), key=lambda k: (-lines[k].depth, k)) if fit > i + 1 else fit
            if not (best == i + 1 and lines[best].depth > depth):
                fit = best
        out.append(_widened(run, window(i, fit, headings), piece, lines[i], names))
        i = fit
    return out


def _widened(run: HybridRun, window: Piece, piece: Piece, first: ListLine, names: list[str]) -> Piece:
    """``window`` with the entries of its full path that :func:`_window_path` left out put back while it fits.

    :func:`_window_path` keeps the innermost entries within half of ``max_tokens`` before
    the window's text is known; the window often leaves room for more (a section heading
    of one token). The left-out entries are tried outermost first, each kept when the
    window still fits ``max_tokens`` (a window of one item over the budget: while the path
    stays within half of it, as :func:`_window_path` allows); those still left out are named in
    ``headings_dropped`` (tester's finding 10 of issue 45: the section heading was dropped
    with 14 to 28 tokens to spare, and ``headings_dropped`` stayed None).
    """
    sections = list(piece.headings or [])
    full = [*sections, *names]
    have = list(window.headings or [])
    if not first.parents or have == full:
        return window
    shortened = bool(have) and have[-1].endswith(" …") and have[-1] not in full
    inner = len(have) - shortened  # the entries kept whole: the last ones of the path
    kept_whole = full[len(full) - inner :] if inner else []
    candidates = full[: len(full) - inner - shortened]
    whole_fits = run.ctx_count(window) <= run.max
    chosen: list[str] = []
    for entry in candidates:
        path = [*chosen, entry, *have]
        if whole_fits:
            fits = run.ctx_count(replace(window, headings=path)) <= run.max
        else:  # a window of one item over the budget, split at sentence ends next: the path within half of it
            fits = run.headings_cost(path) <= run.path_limit
        if fits:
            chosen.append(entry)
    dropped = [e for e in candidates if e not in chosen] + ([full[len(full) - inner - 1]] if shortened else [])
    headings = [*chosen, *have] or None
    parents_kept = sum(1 for e in chosen if full.index(e) >= len(sections)) + len(kept_whole) + shortened
    return replace(
        window,
        headings=headings,
        item_path=min(parents_kept, len(first.parents)),
        headings_dropped=[*(piece.headings_dropped or []), *dropped] or None,
    )


def _window_path(run: HybridRun, piece: Piece, first: ListLine, names: list[str]) -> list[str] | None:
    """The headings of a window that starts with ``first``: the section headings, then its parent items' texts.

    At a small budget the whole path may not fit with any text (the chunker would then
    drop it all); the path keeps its innermost entries, the parent items first, within
    half of ``max_tokens`` (as :func:`~docchunk.chunkers.doc.heading_paths.fit_headings`
    keeps a section's), so a window of a nested item keeps its parent in
    ``contextualize()``; a parent item too long for that is named by its first words
    (:func:`_shortened`).
    """
    path = [*(piece.headings or []), *names]
    if not path:
        return None
    if not first.parents:
        return path  # the section's path, as fit_headings left it
    limit = run.path_limit
    return run.fitting_headings(path, limit) or _shortened(run, path[-1], limit)


INNER_SHARE = 8
"""The innermost parent item of a window is named in its path within ``max_tokens // INNER_SHARE`` tokens."""
OUTER_SHARE = 16
"""Each outer parent item of a window is named in its path within ``max_tokens // OUTER_SHARE`` tokens."""
_FIRST_CLAUSE = re.compile(r"(.+?[:;.])\s")
"""A list item's first clause: its text up to the first ``:``, ``;`` or ``.`` before a space (``Step 2:``)."""


class _ParentNames:
    """The names of parent items in the windows' paths, each worked out once per list piece.

    Every window of a nested item repeats its parents in ``meta.headings``; a parent's
    whole text, repeated so, made the default output 1.9 times compat's tokens on a
    Markdown list of long items four levels deep at MiniLM 64 (issue 46, tester's
    finding 17). A parent is named by its whole text when that fits its share of the
    budget (``max_tokens // INNER_SHARE`` tokens for the innermost parent, which the
    window's items continue, ``max_tokens // OUTER_SHARE`` for the outer ones);
    otherwise by its first clause then `` …`` (``Step 2: …``) when that fits, else by
    its first words that fit then `` …`` (:func:`_shortened`). The parent's whole text
    is in the chunk that holds its own line.
    """

    def __init__(self) -> None:
        self._names: dict[tuple[str, bool], str] = {}

    def get(self, run: HybridRun, parent: ListItem, innermost: bool) -> str:
        key = (parent.self_ref, innermost)
        name = self._names.get(key)
        if name is None:
            limit = run.max // (INNER_SHARE if innermost else OUTER_SHARE)
            name = self._names[key] = _parent_name(run, parent_text(parent, run.doc), limit)
        return name


def _parent_name(run: HybridRun, text: str, limit: int) -> str:
    """``text`` (a parent item's) within ``limit`` tokens of the path: whole, its first clause, or its first words."""
    if run.headings_cost([text]) <= limit:
        return text
    clause = _FIRST_CLAUSE.match(text)
    if clause is not None and run.headings_cost([clause.group(1) + " …"]) <= limit:
        return clause.group(1) + " …"
    short = _shortened(run, text, limit)
    return short[0] if short else text  # not one word fits: whole, and the path rules below drop it


def _shortened(run: HybridRun, text: str, limit: int) -> list[str] | None:
    """A parent item's text too long for the path: its first words that fit ``limit`` tokens, then ``…``.

    The parent's whole text is in a chunk of its own; in the path it names the item the
    window is inside. None when not even one word fits.
    """
    words = text.split()
    lo, hi = 0, len(words)  # the most words whose shortened text fits: at least lo, less than hi + 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if run.headings_cost([" ".join(words[:mid]) + " …"]) <= limit:
            lo = mid
        else:
            hi = mid - 1
    return [" ".join(words[:lo]) + " …"] if lo else None


def _last_fitting(run: HybridRun, window: Any, lines: list[ListLine], lo: int, hi: int, indent: int) -> int:
    """The largest ``k`` in ``[lo, hi]`` whose window ``lines[lo - 1 : k]`` fits (``lo`` when none does).

    Sizes follow by arithmetic from each line's count (cached) plus the delimiter's;
    the exact size is counted only where the estimate reaches the budget, and for
    the window returned.
    """
    first = lo - 1
    base = lines[first].depth
    texts = [indent_lines(ln.text, indent * (ln.depth - base)) for ln in lines[first:hi]]
    counts = run.count_many(texts)
    overhead = run.ctx_count(window(lo)) - counts[0]
    running = counts[0]
    k = lo
    while k < hi:
        running += counts[k - first] + run.delim_tokens
        if running + overhead > run.max:
            exact = run.ctx_count(window(k + 1))
            if exact > run.max:
                break
            running = exact - overhead
        k += 1
    while k > lo and run.ctx_count(window(k)) > run.max:
        k -= 1
    return k


def as_list_lines(run: HybridRun, piece: Piece) -> Piece:
    """``piece`` with a whole list written as :func:`split_list_piece` writes a list that fits, else ``piece``.

    One line per item or block, nested items indented, an item that is a link or an
    inline run written as its plain text (no Markdown marks, no URL: :func:`list_lines`);
    :class:`~docchunk.HierarchicalChunker`'s default mode writes its lists so, as
    :class:`~docchunk.HybridChunker`'s does. Every item's text is kept; a piece that is
    not one list written line by line comes back as it is.
    """
    lines = list_lines(run, piece)
    if lines is None:
        return piece
    text = "\n".join(_indented(lines, 0, len(lines), indent_of(run)))
    return piece if text == piece.text else replace(piece, text=text, text_tokens=None)


def _joined_count(run: HybridRun, texts: list[str]) -> int:
    """Tokens of the lines joined by line breaks, by arithmetic from their cached counts (not tokenized again)."""
    return int(run.sizer.join_count(texts, run.count_many(texts), "\n"))


def _indented(lines: list[ListLine], lo: int, hi: int, indent: int) -> list[str]:
    """The lines ``lo:hi``, each indented by its depth below the shallowest of them."""
    base = min(ln.depth for ln in lines[lo:hi])
    return [indent_lines(ln.text, indent * (ln.depth - base)) for ln in lines[lo:hi]]


def _owners(items: list[Any], lines: list[ListLine], doc: DoclingDocument) -> dict[str, int] | None:
    """The index of the line each item of the piece belongs to (its own list item or the one it is inside).

    A caption belongs to the line of the block it captions, wherever it sits in the tree
    (docling's HTML converter puts an image's alt text after the list, as the caption of
    a picture inside an item).
    """
    index = {ln.item.self_ref: k for k, ln in enumerate(lines)}
    for k, ln in enumerate(lines):
        for ref in getattr(ln.item, "captions", None) or ():
            index.setdefault(ref.cref, k)
    out: dict[str, int] = {}
    last = 0
    for it in items:
        node: Any = it
        while node is not None and node.self_ref not in index:
            node = node.parent.resolve(doc) if node.parent is not None else None
        if node is None:
            if (getattr(it, "text", None) or "").strip():
                return None
            # an item that writes no line (a list item of zero-width spaces only): kept with the line before it
            out[it.self_ref] = last
            continue
        last = out[it.self_ref] = index[node.self_ref]
    return out
