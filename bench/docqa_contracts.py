"""Why the doc-qa contracts do not move with chunking: configurations, text variants, bounds.

Usage:
    python bench/docqa_contracts.py ../shared/eval/doc-qa [--limit 40] [--offset 0] [--genre legal]

For one genre (``legal`` by default), documents ``offset + 1`` to ``offset + limit``, it
chunks every document with ``HybridChunker(max_tokens=256)`` in several configurations,
embeds ``contextualize(chunk)`` with all-MiniLM-L6-v2 through the shipped evaluator's
cache (``docchunk.evaluation``), and prints evidence recall@1 and @3 per document
(``doc@1``, ``doc@3`` of ``docchunk eval-docs``) with three bounds that locate the figure:

* ``oracle``: the best single chunk of the question's document (the most any ranking of
  these chunks could give at k = 1);
* ``random``: the expected recall@1 of a random chunk of the document;
* ``largest``: always the largest chunk (cl100k tokens of its text).

Configurations: the default, ``min_tokens`` 64 / 192 / 256, ``merge_peers=False``, compat
mode, the flat route (the evaluator's Markdown export chunked by ``RecursiveChunker``),
and one variant of the embedded text: the paragraph before a list (its lead-in, or the
list item a nested list hangs from) before every chunk that starts inside that list, after
the chunk's heading path. The variant is a probe, not a chunker option.

The figures of ``docs/quality.md`` ("Contracts do not move with chunking") come from
this script on documents 1-40 (``--limit 40``) and 41-120 (``--offset 40 --limit 80``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import docchunk
from docchunk.embeddings import DEFAULT_MODEL, CachedEmbedder, default_cache_dir, load_model
from docchunk.errors import ConfigError
from docchunk.evaluation.docqa import build_chunker, chunk_document, load_docqa, score_held
from docchunk.evaluation.run import BUDGET_TOKENIZER, rank

CONFIGS: list[tuple[str, dict[str, Any], str]] = [
    ("default", {}, "doc"),
    ("min_tokens=64", {"min_tokens": 64}, "doc"),
    ("min_tokens=192", {"min_tokens": 192}, "doc"),
    ("min_tokens=256", {"min_tokens": 256}, "doc"),
    ("merge_peers=False", {"merge_peers": False}, "doc"),
    ("docling_compat=True", {"docling_compat": True}, "doc"),
    ("list lead-in as context", {}, "lead"),
    ("flat route", {}, "flat"),
]


def _list_lead_in(doc: Any, item: Any) -> str | None:
    """The text before the list ``item`` is in, when ``item`` is not the list's first item."""
    group = item.parent.resolve(doc) if item.parent is not None else None
    if group is None or not getattr(group, "children", None):
        return None
    refs = [child.cref for child in group.children]
    if refs.index(item.self_ref) == 0:
        return None
    holder = group.parent.resolve(doc) if group.parent is not None else None
    if holder is None:
        return None
    if holder.self_ref != "#/body" and getattr(holder, "text", None):
        return str(holder.text)  # a nested list hangs from this item
    siblings = [child.cref for child in holder.children]
    j = siblings.index(group.self_ref)
    if j > 0 and siblings[j - 1].startswith("#/texts/"):
        return str(doc.texts[int(siblings[j - 1].rsplit("/", 1)[1])].text)
    return None


def _held(doc: Any, route: str, options: dict[str, Any], count: Callable[[str], int]) -> list[Any]:
    if route == "flat":
        chunker = docchunk.RecursiveChunker(chunk_size=256, tokenizer=docchunk.get_tokenizer(None))
        return chunk_document(doc, "flat", chunker, count)
    chunker = build_chunker("hybrid", {"max_tokens": 256, **options})
    held = chunk_document(doc, "doc", chunker, count)
    if route == "lead":
        for h, chunk in zip(held, chunker.chunk(doc), strict=True):
            first = chunk.meta.doc_items[0]
            lead = _list_lead_in(doc, first) if first.label.value == "list_item" else None
            if lead:
                context = chunker.contextualize(chunk)
                h.text = context[: len(context) - len(chunk.text)] + lead + "\n" + chunk.text
    return held


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("--genre", default="legal")
    parser.add_argument("--limit", type=int, default=40)
    parser.add_argument("--offset", type=int, default=0)
    args = parser.parse_args()
    try:
        docs, questions = load_docqa(args.data, [args.genre], limit=args.limit, offset=args.offset)[args.genre]
    except ConfigError as exc:
        sys.exit(f"docqa_contracts: {exc}")
    embed = CachedEmbedder(load_model(DEFAULT_MODEL, progress=False), DEFAULT_MODEL, default_cache_dir())
    count = docchunk.get_tokenizer(BUDGET_TOKENIZER).count_tokens
    print(f"{args.genre}: {len(docs)} documents, {len(questions)} questions, max_tokens=256")
    names = ("doc@1", "doc@3", "oracle", "random", "largest")
    print(f"{'configuration':26}" + "".join(f"{n:>8}" for n in names) + f"{'chunks':>8}{'mean tok':>9}")
    for name, options, route in CONFIGS:
        held = {d: _held(doc, route, options, count) for d, doc in docs.items()}
        vectors = {d: embed([h.text for h in hs]) for d, hs in held.items()}
        qvecs = embed([q["question"] for q in questions])
        figures: dict[str, list[float]] = {k: [] for k in names}
        for q, qv in zip(questions, qvecs, strict=True):
            hs = held[q["doc_id"]]
            order = rank(qv, vectors[q["doc_id"]])
            alone = [score_held(q["evidence"], [h]) for h in hs]
            figures["doc@1"].append(alone[order[0]])
            figures["doc@3"].append(score_held(q["evidence"], [hs[i] for i in order[:3]]))
            figures["oracle"].append(max(alone))
            figures["random"].append(float(np.mean(alone)))
            figures["largest"].append(alone[max(range(len(hs)), key=lambda i: hs[i].tokens)])
        tokens = [h.tokens for hs in held.values() for h in hs]
        print(f"{name:26}" + "".join(f"{100 * np.mean(v):8.1f}" for v in figures.values())
              + f"{len(tokens):8d}{np.mean(tokens):9.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
