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
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from docling_core.types.doc.document import (
    DocItem,
    GroupItem,
    InlineGroup,
    ListGroup,
    ListItem,
    TextItem,
)

from docchunk.chunkers.doc.list_tables import table_in_list, tables_over_budget
from docchunk.chunkers.doc.piece import Piece
from docchunk.serialization.inline import inline_group_of, plain_inline_text

if TYPE_CHECKING:
    from docling_core.types.doc import DoclingDocument

    from docchunk.chunkers.doc.hybrid_run import HybridRun

__all__ = ["list_lines", "split_list_piece"]

_LINK_LINE = re.compile(r"(\S+ )(\[.*\]\(.*\))")
"""A list line that is a marker and one Markdown link (a list item whose ``hyperlink`` is set)."""


@dataclass
class _Line:
    """One list item of a list piece: its serialized line, its nesting depth and its parent items."""

    item: Any  # a ListItem, or a block inside one (see _block_line)
    depth: int
    text: str  # the serializer's line of the item, without indentation
    parents: list[ListItem]


def list_lines(run: HybridRun, piece: Piece) -> list[_Line] | None:
    """The items of a walked list piece, in order, or None when ``piece`` is not one list written line by line."""
    doc = run.doc
    first = next((it for it in piece.items if isinstance(it, ListItem)), None)
    if first is None or piece.from_headings or piece.table_rows is not None:
        return None
    top: Any = None
    node: Any = first
    while isinstance(node, (ListGroup, ListItem)):
        if isinstance(node, ListGroup):
            top = node
        node = node.parent.resolve(doc) if node.parent is not None else None
    if top is None:
        return None
    lines: list[_Line] = []
    if not _collect(run, top, 0, [], lines):
        return None
    refs = {it.self_ref for it in piece.items}
    own = [k for k, ln in enumerate(lines) if ln.item.self_ref in refs]
    if own and len(own) < len(lines):  # a part of the list (split_at_pages cut it where its pages change): its lines
        lines = lines[own[0] : own[-1] + 1]  # (a block among them, a picture written as its caption, included)
    indent = _indent(run)
    written = "\n".join(_indent_lines(ln.text, indent * ln.depth) for ln in lines if ln.text)
    if written != piece.text and _unindented(written) != _unindented(piece.text):
        return None  # the serializer wrote other lines than one per item (its indentation aside)
    return [_plain(run, ln) for ln in lines if ln.text]


def _unindented(text: str) -> list[str]:
    """The non-blank lines of ``text`` without their indentation.

    docling-core's list serializer writes a nested list at its parent's indentation
    when the parent item also holds another block (an empty picture, a paragraph):
    the same lines, flat. The lines are then written again with their nesting.
    """
    return [line.strip() for line in text.split("\n") if line.strip()]


def _collect(run: HybridRun, group: ListGroup, depth: int, parents: list[ListItem], out: list[_Line]) -> bool:
    """Append the lines of ``group``'s items; False when a child is not a list item or a nested list."""
    doc = run.doc
    for ref in group.children:
        child = ref.resolve(doc)
        if isinstance(child, ListGroup):
            if not _collect(run, child, depth + 1, parents, out):
                return False
            continue
        if not isinstance(child, ListItem):
            # a block beside the items (docling's DOCX and Markdown converters put a picture,
            # a table or a code block of a nested item in its list): at the items' depth
            if not _block_line(run, child, depth, parents, out):
                return False
            continue
        inline = _inline_of(child, doc)
        text = run.item_text(child)
        if inline is not None and inline_group_of(child, doc) is None:
            # the item's inline run is one child among others (a nested list after it): the
            # serializer writes it after the item's marker, on the item's line
            serialized = run.serializer.serialize(item=inline, visited=set()).text
            if serialized and not text.endswith(serialized):
                marker = text or run.serializer.serialize(item=child, visited=set()).text  # "- " alone reads as debris
                text = marker.rstrip() + " " + serialized
        out.append(_Line(child, depth, text, parents))
        for sub_ref in child.children:
            sub = sub_ref.resolve(doc)
            if isinstance(sub, ListGroup):
                if not _collect(run, sub, depth + 1, [*parents, child], out):
                    return False
            elif isinstance(sub, InlineGroup) and sub is inline:
                continue
            elif not _block_line(run, sub, depth + 1, [*parents, child], out):
                return False
    return True


def _block_line(run: HybridRun, block: Any, depth: int, parents: list[ListItem], out: list[_Line]) -> bool:
    """Append the lines of a block inside a list item (a paragraph, a picture, a table, code); False if none can be.

    A block that writes no text (a picture without caption) has an empty line, left
    out of the text; one that writes text is a line of its own, indented under its
    item (a Markdown continuation); a block of several lines (a table's rows, a fenced
    code block) has each of its lines indented so (:func:`_indent_lines`). A group
    (other than a nested list) is not a block: the list is then split at element
    boundaries.
    """
    if isinstance(block, GroupItem) or not isinstance(block, DocItem):
        return False
    text = run.item_text(block).strip("\n")
    out.append(_Line(block, depth, text if "\n" in text else text.strip(), parents))
    return True


def _inline_of(item: Any, doc: DoclingDocument) -> InlineGroup | None:
    """The inline run that is a list item's text: its only child (see :func:`inline_group_of`), or its first.

    An item without text of its own whose first child is an inline group and whose
    other children are nested lists or blocks (a table, a picture, code) reads as that
    run, then the nested items and blocks.
    """
    group = inline_group_of(item, doc)
    if group is not None or not isinstance(item, ListItem) or item.text or not item.children:
        return group
    first = item.children[0].resolve(doc)
    rest = [ref.resolve(doc) for ref in item.children[1:]]
    if isinstance(first, InlineGroup) and not any(isinstance(sub, InlineGroup) for sub in rest):
        return first
    return None


def _plain(run: HybridRun, line: _Line) -> _Line:
    """``line`` with an inline run written as one plain line (marker kept, no Markdown, no URL)."""
    group = _inline_of(line.item, run.doc)
    if group is None:
        # a line's item is any kind of block inside a list item: only a text item has a hyperlink
        hyperlink = line.item.hyperlink if isinstance(line.item, TextItem) else None
        link = _LINK_LINE.fullmatch(line.text) if hyperlink is not None else None
        if link is None or not link.group(2).endswith(f"]({hyperlink})"):
            return line
        return replace(line, text=link.group(1) + " ".join(line.item.text.split()))  # a link item: its text, no URL
    marked = line.text
    serialized = run.serializer.serialize(item=group, visited=set()).text
    if not serialized or not marked.endswith(serialized):
        return line
    return replace(line, text=marked[: len(marked) - len(serialized)] + plain_inline_text(group, run.doc))


def parent_text(item: ListItem, doc: DoclingDocument) -> str:
    """A parent item's text as context: its own text, or its inline run as one line."""
    group = _inline_of(item, doc)
    return plain_inline_text(group, doc) if group is not None else " ".join(item.text.split())


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
    indent = _indent(run)
    all_lines = _indented(lines, 0, len(lines), indent)
    whole = replace(piece, text="\n".join(all_lines), text_tokens=_joined_count(run, all_lines), captions=None)
    if run.ctx_count(whole) <= run.max:
        return [whole]
    owner = _owners(piece.items, lines, doc)
    if owner is None:
        return None
    out: list[Piece] = []
    parent_names = _ParentNames()

    def names_of(line: _Line) -> list[str]:
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


def _widened(run: HybridRun, window: Piece, piece: Piece, first: _Line, names: list[str]) -> Piece:
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


def _window_path(run: HybridRun, piece: Piece, first: _Line, names: list[str]) -> list[str] | None:
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


def _last_fitting(run: HybridRun, window: Any, lines: list[_Line], lo: int, hi: int, indent: int) -> int:
    """The largest ``k`` in ``[lo, hi]`` whose window ``lines[lo - 1 : k]`` fits (``lo`` when none does).

    Sizes follow by arithmetic from each line's count (cached) plus the delimiter's;
    the exact size is counted only where the estimate reaches the budget, and for
    the window returned.
    """
    first = lo - 1
    base = lines[first].depth
    texts = [_indent_lines(ln.text, indent * (ln.depth - base)) for ln in lines[first:hi]]
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


def _joined_count(run: HybridRun, texts: list[str]) -> int:
    """Tokens of the lines joined by line breaks, by arithmetic from their cached counts (not tokenized again)."""
    return int(run.sizer.join_count(texts, run.count_many(texts), "\n"))


def _indent(run: HybridRun) -> int:
    """Spaces per nesting level: the serializer's ``indent`` (docling-core's Markdown default, 4)."""
    indent = getattr(getattr(run.serializer, "params", None), "indent", 4)
    return indent if isinstance(indent, int) else 4


def _indented(lines: list[_Line], lo: int, hi: int, indent: int) -> list[str]:
    """The lines ``lo:hi``, each indented by its depth below the shallowest of them."""
    base = min(ln.depth for ln in lines[lo:hi])
    return [_indent_lines(ln.text, indent * (ln.depth - base)) for ln in lines[lo:hi]]


def _indent_lines(text: str, spaces: int) -> str:
    """``text`` with each of its non-blank lines indented by ``spaces`` (a block's lines under its list item)."""
    if "\n" not in text:
        return " " * spaces + text
    pad = " " * spaces
    return "\n".join(pad + line if line.strip() else line for line in text.split("\n"))


def _owners(items: list[Any], lines: list[_Line], doc: DoclingDocument) -> dict[str, int] | None:
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
