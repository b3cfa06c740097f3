"""doc-qa under each ranker: docchunk's chunks, docling-core's and the flat route, dense / lexical / hybrid.

Usage:
    python bench/ranker_compare.py [--data ../shared/eval/doc-qa] [--half tune|check] [--limit N] [--genre G ...]
                                   [--json out.json] [--rows DIR]

The same figures as ``docchunk eval-docs --ranker R [--peer P]`` (all-MiniLM-L6-v2,
256 tokens, the embedding cache of eval-docs), each route chunked once and ranked
three ways, plus the default pipeline: docchunk's chunks, hybrid ranking, the chunks
marked as boilerplate ranked last (``--marked-last``). Prints doc@1, doc@3, doc@5 and
all@5 per genre and the mean of the genres, then the targets of issue 49:

- hybrid over dense on docchunk's chunks: >= +4 doc@1 on contracts (legal);
- no genre where hybrid is below dense by more than 1 point in doc@1 or all@5;
- the default pipeline over docling-core's chunks ranked dense: >= +8 doc@1 on the mean of the genres.

``--rows DIR`` writes each run's per-question rows as ``DIR/<run>.json`` in the layout of
``docchunk eval-docs --json``, for ``bench/docqa_interval.py`` (e.g. the pipeline against
docling-core dense: ``docqa_interval.py DIR/docchunk_pipeline.json DIR/docling-core_dense.json``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from docchunk.embeddings import CachedEmbedder, default_cache_dir, load_model  # noqa: E402
from docchunk.evaluation.docqa import evaluate_docs, load_docqa  # noqa: E402

FIGURES = ("doc@1", "doc@3", "doc@5", "all@5")
RUNS = [  # (name, route, ranker, marked_last)
    ("docchunk dense", "doc", "dense", False), ("docchunk lexical", "doc", "lexical", False),
    ("docchunk hybrid", "doc", "hybrid", False), ("docchunk pipeline", "doc", "hybrid", True),
    ("docling-core dense", "docling-core", "dense", False), ("docling-core lexical", "docling-core", "lexical", False),
    ("docling-core hybrid", "docling-core", "hybrid", False),
    ("flat dense", "flat", "dense", False), ("flat lexical", "flat", "lexical", False),
    ("flat hybrid", "flat", "hybrid", False),
]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "eval" / "doc-qa")
    parser.add_argument("--half", default="tune", choices=["all", "tune", "check"])
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--genre", action="append", default=None)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--rows", type=Path, default=None)
    args = parser.parse_args()
    data = load_docqa(args.data, args.genre, args.limit, 0, args.half)
    embed = CachedEmbedder(load_model("all-MiniLM-L6-v2"), "all-MiniLM-L6-v2", cache_dir=default_cache_dir())
    chunked: dict = {}
    results: dict[str, dict[str, dict[str, float]]] = {}
    for name, route, ranker, marked_last in RUNS:
        report = evaluate_docs(data, embed, options={"max_tokens": 256}, route=route, ranker=ranker,
                               marked_last=marked_last, chunked=chunked)  # fmt: skip
        results[name] = report.summary()
        if args.rows is not None:
            args.rows.mkdir(parents=True, exist_ok=True)
            out = {"config": report.config, "summary": results[name], "questions": report.rows}
            (args.rows / f"{name.replace(' ', '_')}.json").write_text(json.dumps(out) + "\n", encoding="utf-8")
        print(f"done {name}: {json.dumps(results[name])}", file=sys.stderr, flush=True)
    genres = [g for g in next(iter(results.values())) if g != "overall"]
    print(f"doc-qa half={args.half} limit={args.limit}; percent of evidence held; mean = mean of the genres")
    print("run".ljust(22) + "".join(f"{g} {f}".rjust(13) for g in [*genres, "mean"] for f in FIGURES))
    for name, summary in results.items():
        summary["mean"] = {f: sum(summary[g][f] for g in genres) / len(genres) for f in FIGURES}
        print(name.ljust(22) + "".join(f"{summary[g][f]:13.1f}" for g in [*genres, "mean"] for f in FIGURES))
    dense, hybrid = results["docchunk dense"], results["docchunk hybrid"]
    if "legal" in genres:
        gain = hybrid["legal"]["doc@1"] - dense["legal"]["doc@1"]
        print(f"target hybrid - dense, legal doc@1: {gain:+.1f} (>= +4: {'met' if gain >= 4 else 'not met'})")
    worst = min(hybrid[g][f] - dense[g][f] for g in genres for f in ("doc@1", "all@5"))
    verdict = "met" if worst >= -1 else "not met"
    print(f"target worst genre hybrid - dense (doc@1, all@5): {worst:+.1f} (>= -1: {verdict})")
    lead = results["docchunk pipeline"]["mean"]["doc@1"] - results["docling-core dense"]["mean"]["doc@1"]
    print(f"target pipeline - docling-core dense, mean doc@1: {lead:+.1f} (>= +8: {'met' if lead >= 8 else 'not met'})")
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
