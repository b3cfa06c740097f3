"""Checks on chunks shared by several test files: lost text, debris lines, pages, tables."""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from typing import Any

_WS = re.compile(r"\s+")
_FENCE_LINE = re.compile(r"^ {0,3}(`{3,}|~{3,})[\w+#. -]*$", re.M)
"""A fence line a split code block adds: the marks and an info string (a language name), nothing else;
a line of a text cut just before its backticks (three backticks, then "](url)") is text (issue 45's random runs).
Fence lines are read as markup only in the chunks of code items and in code items' own text."""


def squash(text: str) -> str:
    """``text`` without whitespace (chunkers may split and join at whitespace)."""
    return _WS.sub("", text)


def lost_texts(doc: Any, chunks: list[Any], items: list[Any] | None = None) -> list[str]:
    """Texts of body text items (headings, captions, footnotes included) that reach no chunk.

    A text reaches a chunk when, without whitespace, it is part of the chunks' texts
    (in order, joined; the pieces of a split table row also read without the label they
    repeat, :func:`_without_row_labels`), equals one of a chunk's headings or captions, or
    is part of a chunk's captions entry (a table's two captions are one entry).
    ``items``: the text items that must reach a chunk, when not the body's
    (``bench/user_docs.py`` adds the notes of the furniture layer; the one reader of both).
    """
    from docling_core.types.doc import TextItem

    # a split code block closes its fence at the end of each piece and reopens it in the next:
    # fence lines are markup in a chunk of a code item, and in a code item's own text; a text
    # item's own fence-like line ("~~~ ..."), in a chunk with a code item, is read both ways
    # (so does a split display formula its "$$": they are markup in a chunk of a formula item)
    def fenced(c: Any) -> str:
        items = getattr(c.meta, "doc_items", ())
        text = _FENCE_LINE.sub("", c.text) if any(_is_code(it) for it in items) else c.text
        return text.replace("$$", "") if any(getattr(it, "label", None) == "formula" for it in items) else text

    context = {squash(h) for c in chunks for h in [*(c.meta.headings or []), *(c.meta.__dict__.get("captions") or [])]}
    # a table's captions are one entry, as docling-core's serialize_captions writes them (joined by a space)
    captions = {squash(h) for c in chunks for h in c.meta.__dict__.get("captions") or []}
    if items is None:
        items = [item for item, _ in doc.iterate_items() if isinstance(item, TextItem)]
    items = [item for item in items if item.text.strip()]
    # a chunk merged across a heading boundary (min_tokens) has that heading as a line of its text,
    # which may sit between two parts of a split paragraph; so has one merged across a nested
    # list's path (its parent items' texts, in the headings of the chunks of that list)
    headings = {it.text for it in items if it.label in ("title", "section_header")}
    headings |= {h for c in chunks for h in c.meta.headings or []}
    found = {squash("".join(_without_row_labels(chunks)))}
    for read in (fenced, lambda c: c.text):
        found.add(squash("".join(read(c) for c in chunks)))
        found.add(squash("".join(line for c in chunks for line in _without_headings(read(c), headings))))
    lost = []
    for item in items:
        own = {squash(_FENCE_LINE.sub("", item.text)), squash(item.text)} if not _is_code(item) else set()
        texts = own or {squash(_FENCE_LINE.sub("", item.text))}
        if not any(t in context or any(t in f for f in (*found, *captions)) for t in texts):
            lost.append(item.text)
    return lost


def lost_tables(doc: Any, chunks: list[Any]) -> list[str]:
    """The refs of body tables with text that reach no chunk.

    A table reaches a chunk when it is among the chunk's ``doc_items``, or when it is a
    title the chunker writes in the captions of the table it names (a one-cell title
    table: its text in a chunk's ``meta.captions``). :func:`lost_texts` reads text items
    only: a title table dropped whole (the first of two titles before a table, a long
    random run of 5 December) was found only by counting characters.
    """
    from docling_core.types.doc import TableItem

    held = {it.self_ref for c in chunks for it in getattr(c.meta, "doc_items", ())}
    captions = [squash(t) for c in chunks for t in c.meta.__dict__.get("captions") or []]
    lost = []
    def inside_table(item: Any) -> bool:  # a table in a rich cell: written in the outer table's rows
        parent = item.parent
        while parent is not None:
            node = parent.resolve(doc)
            if isinstance(node, TableItem):
                return True
            parent = node.parent
        return False

    for item, _ in doc.iterate_items():
        if not isinstance(item, TableItem) or item.self_ref in held or inside_table(item):
            continue
        text = squash("".join(cell.text for cell in item.data.table_cells))
        if text and not any(text in caption for caption in captions):
            lost.append(item.self_ref)
    return lost


def _without_row_labels(chunks: list[Any]) -> list[str]:
    """The chunks' texts, the pieces of a split table row (or Markdown table) without the label they repeat.

    A table row cut between its entries repeats the row's label in each piece, and a Markdown
    table's pieces (a table in a list item) repeat its header, so a long cell's text reaches
    the chunks in parts with the label between them (issue 45's random runs). The pieces of
    one row are consecutive chunks of one table with the same ``table_rows`` (None for the
    Markdown pieces); the first piece holds the label, and each other piece is read without
    what it begins with as the first does.
    """

    def row(c: Any) -> tuple[Any, ...] | None:
        tables = tuple(it.self_ref for it in getattr(c.meta, "doc_items", ()) if it.label == "table")
        return (getattr(c.meta, "table_rows", None), *tables) if tables else None

    out: list[str] = []
    for key, group in itertools.groupby(chunks, key=row):
        first, *rest = [c.text.lstrip() for c in group]
        out.append(first)
        if key is None or not rest:
            out.extend(rest)
            continue
        # a nested label (a column header under a row label) is repeated by some pieces only:
        # each piece without what it shares with the first, or, when it is all of one of them
        # (pieces of one long word), without what every piece shares
        shared = min(_prefix_length(first, text) for text in rest)
        previous = first
        for text in rest:
            cut = _prefix_length(first, text)
            cut = shared if cut in (len(first), len(text)) else cut
            # what a piece shares with the first ends with a label: "label: xxxxxx >", the end of a long
            # word, shares some of its letters with the first piece "label: xxxxxxxxxxxx"
            cut = _label_end(text, cut) or cut
            # a piece inside an entry repeats the entry's key after the row's label ("label: Notes = "),
            # which the first piece (of another entry) does not hold: the labels it shares with the piece before
            out.append(text[max(cut, _label_end(text, _prefix_length(previous, text))) :])
            previous = text
    return out


_LABEL_ENDS = (" = ", ": ")


def _label_end(text: str, limit: int) -> int:
    """Where the last label of ``text[:limit]`` ends (after its last ``" = "`` or ``": "``); 0 without one."""
    found = [text.rfind(end, 0, limit) + len(end) for end in _LABEL_ENDS if text.rfind(end, 0, limit) >= 0]
    return max(found, default=0)


def _prefix_length(a: str, b: str) -> int:
    """The length of the longest common prefix of ``a`` and ``b``."""
    return next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))


def _is_code(item: Any) -> bool:
    return getattr(item, "label", None) == "code"


def _without_headings(text: str, headings: set[str]) -> list[str]:
    """The lines of ``text`` without those that make up one of ``headings`` (a heading may have several lines)."""
    lines = text.split("\n")
    runs = sorted((h.split("\n") for h in headings), key=len, reverse=True)
    out, i = [], 0
    while i < len(lines):
        run = next((r for r in runs if lines[i : i + len(r)] == r), None)
        if run is None:
            out.append(lines[i])
        i += len(run) if run else 1
    return out


def page_sets(chunk: Any) -> set[frozenset[int]]:
    """The distinct, non-empty page sets of a chunk's doc items' provenance."""
    pages = {frozenset(p.page_no for p in (getattr(it, "prov", None) or ())) for it in chunk.meta.doc_items}
    pages.discard(frozenset())
    return pages


_DEBRIS_LINE = re.compile(r"^[ \t]*[|\-:][|\-: \t]*$")
_LIST_MARKER = re.compile(r"^[ \t]*- ")


TINY_ROOM = 8
"""Tokens of room under which a lone ``-``/``|``/``:`` fragment may stand as its own line.

The chunkers keep such a fragment with as much of its neighbour as fits; when not even
one character of the neighbour fits with it (budgets of a few tokens), the budget wins
over the look of the line.
"""


def debris_lines(text: str, doc: Any = None) -> list[str]:
    """Lines of ``text`` made only of ``|``, ``-``, ``:`` and spaces (one of the three at least).

    Such lines are Markdown table remnants. With ``doc``, a line that is also a line of
    one of its text items (a paragraph's own ``-`` line) is the document's text, not debris.
    """
    found = [line for line in text.splitlines() if _DEBRIS_LINE.match(line)]
    if doc is not None and found:
        own = {line.strip() for item in doc.texts for line in item.text.splitlines()}
        # a list item's line is its marker and its own text: "- -" for an item "-"
        found = [line for line in found if line.strip() not in own and _LIST_MARKER.sub("", line).strip() not in own]
    return found


def collapse(text: str) -> str:
    """``text`` with every run of whitespace turned into one space, stripped."""
    return " ".join(text.split())


def captions(chunk: Any) -> list[str] | None:
    """``meta.captions`` without docling-core's deprecation warning for reading the field."""
    return chunk.meta.__dict__.get("captions")


def table_chunks(chunks: list[Any], table: Any) -> list[Any]:
    return [c for c in chunks if any(it.self_ref == table.self_ref for it in c.meta.doc_items)]


def check_tables(chunker: Any, doc: Any, chunks: list[Any]) -> None:
    """The table invariants on one chunked document.

    No debris line; every chunk within max_tokens or flagged; every table row whose
    entry fits with its headings and caption is a whole line of one chunk; the
    row ranges of a table's chunks cover its body in order; no cell text is lost.
    """
    from docling_core.transforms.chunker.hierarchical_chunker import ChunkingSerializerProvider
    from docling_core.types.doc import RichTableCell

    from docchunk.chunkers.doc.tables.titles import heads_next_table
    from docchunk.serialization.chunk import join_context
    from docchunk.serialization.selection import serializer_for
    from docchunk.serialization.tables import table_rows

    tok, max_tokens = chunker.token_counter, chunker.max_tokens
    furniture = bool(getattr(chunker, "include_furniture", False))  # (a title heads only a table it writes)
    serializer = serializer_for(ChunkingSerializerProvider(), doc, include_furniture=furniture)
    contexts = [chunker.contextualize(c) for c in chunks]
    for chunk, ctx in zip(chunks, contexts, strict=False):
        room = max_tokens - tok.count_tokens(ctx) + tok.count_tokens(chunk.text)  # the budget left for the text
        assert not debris_lines(ctx, doc) or room < TINY_ROOM, repr(ctx)  # repr: a form feed also ends a line
        assert chunk.meta.token_count == tok.count_tokens(ctx)
        assert chunk.meta.token_count <= max_tokens or chunk.meta.oversized, ctx
    for table in walked_tables(doc):
        rows = table_rows(table, doc, serializer)
        if not rows.text:
            continue
        if heads_next_table(table, doc, serializer):  # a title: the next table's captions hold it (its chunks list it)
            assert any(rows.text in (c.meta.captions or [""])[0] for c in chunks), table.self_ref
            continue
        holders = [c for c in table_chunks(chunks, table) if c.meta.table_rows is not None]
        if holders:
            ranges = [c.meta.table_rows for c in holders]
            assert ranges[0][0] == rows.start and ranges[-1][1] == rows.end
            assert all(b == a or b[0] == a[1] for a, b in itertools.pairwise(ranges)), ranges
        else:  # two small whole tables merged into one chunk (min_tokens): no one row range
            holders = [c for c in table_chunks(chunks, table) if _tables_in(c) > 1]
            assert len(holders) == 1, f"no chunk holds {table.self_ref}"
        lines = {line for c in holders for line in c.text.split("\n")}
        for row in rows.rows:
            # the row's context is that of the pieces holding it: a first piece merged with
            # the paragraph before it writes the caption in its text, not in meta.captions
            own = [c for c in holders if c.meta.table_rows and c.meta.table_rows[0] <= row.index < c.meta.table_rows[1]]
            fits = all(
                tok.count_tokens(join_context(c.meta.headings, captions(c), row.text, chunker.delim)) <= max_tokens
                for c in own or holders[:1]
            )
            if row.cells and fits:
                whole = row.text in lines or ("\n" in row.text and any(row.text in c.text for c in holders))
                assert whole, f"row cut although it fits: {row.text!r}"  # a layout row: one paragraph a line
        held = "".join("".join(chunker.contextualize(c).split()) for c in holders)
        for cell in table.data.table_cells:  # whole, or split by text over consecutive chunks
            if isinstance(cell, RichTableCell):  # its text is its content's serialization, not ``cell.text``
                continue
            assert is_subsequence("".join(cell.text.split()), held), cell.text


def _tables_in(chunk: Any) -> int:
    from docling_core.types.doc import TableItem

    return sum(isinstance(it, TableItem) for it in chunk.meta.doc_items)


def walked_tables(doc: Any) -> list[Any]:
    """The body's tables, but for those nested in another table's cells (chunked with it)."""
    from docling_core.types.doc import TableItem

    out = []
    for item, _ in doc.iterate_items():
        parent = item.parent.resolve(doc) if isinstance(item, TableItem) and item.parent else None
        while parent is not None and not isinstance(parent, TableItem):
            parent = parent.parent.resolve(doc) if parent.parent else None
        if isinstance(item, TableItem) and parent is None:
            out.append(item)
    return out


def is_subsequence(needle: str, haystack: str) -> bool:
    it = iter(haystack)
    return all(ch in it for ch in needle)


def span_faults(doc: Any, chunks: list[Any], tiling: bool = True) -> list[str]:
    """What breaks the two span invariants in ``chunks`` of ``doc`` (empty when none).

    Each span's text (whitespace normalized) is in its chunk's text; with ``tiling``, the
    spans of the chunked text items tile each item's text (see tests/chunkers/doc/test_spans.py).
    """
    from docchunk.chunkers.doc.provenance import normalize

    texts = {t.self_ref: t.text for t in doc.texts}
    faults: list[str] = []
    cover: dict[str, list[tuple[int, int]]] = defaultdict(list)
    chunked: set[str] = set()
    for k, chunk in enumerate(chunks):
        body = normalize(chunk.text)
        for span in chunk.meta.spans or []:
            part = normalize(texts[span.ref][span.start : span.end])
            if not 0 <= span.start < span.end <= len(texts[span.ref]) or part not in body:
                faults.append(f"chunk {k}: {span} {part[:40]!r} not in its text")
            cover[span.ref].append((span.start, span.end))
        captions = {c.strip() for c in chunk.meta.captions or []}  # a caption is carried stripped
        for item in chunk.meta.doc_items:
            text = getattr(item, "text", None)
            if isinstance(text, str) and text.strip() and text.strip() not in captions:
                chunked.add(item.self_ref)
    headings = {t.self_ref for t in doc.texts if t.label in ("title", "section_header")}
    for ref in chunked if tiling else ():
        ranges = sorted(cover.get(ref, []))
        if ref in headings:  # a heading path written as text may be written again (as meta.headings is)
            ranges = sorted(set(ranges))
        tiles = bool(ranges) and ranges[0][0] == 0 and ranges[-1][1] == len(texts[ref])
        if not tiles or any(a[1] != b[0] for a, b in itertools.pairwise(ranges)):
            faults.append(f"{ref}: spans {ranges[:6]} do not tile its {len(texts[ref])} characters")
    return faults
