"""The default ``HybridChunker`` of two (or more) source trees over the corpus, in CPU time, alternating.

Usage:
    python bench/tree_speed.py --trees /tmp/fdwt /work/wt46m [--rounds 5] [--max-tokens 64 256]
                               [--corpus ../shared/corpus/docling] [--top 8]

Each round runs one subprocess per tree (``PYTHONPATH=<tree>/src``, the tree order
reversed every other round). The subprocess loads every corpus document, then for each
budget builds ``HybridChunker(max_tokens=N)`` (MiniLM, the default), chunks the corpus
once to warm up (the tokenizer's word cache, as ``bench/run.py``'s repeated rounds do),
and times three passes in CPU time (``time.process_time``, less moved by other load than
wall time), keeping the fastest pass and each document's fastest time. Printed: each
round's totals with the load average, the median totals and their ratio to the first
tree, and the documents whose time grew most from the first tree to the last.
A reference tree is made with ``git worktree add --detach /tmp/fdwt fd12390``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import warnings
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "docling"


def worker(corpus: Path, budgets: list[int], passes: int = 3) -> None:
    """Time this interpreter's ``docchunk`` (the tree on ``PYTHONPATH``); print JSON."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    warnings.simplefilter("ignore")
    from docling_core.types.doc import DoclingDocument

    import docchunk

    docs = [(p.name, DoclingDocument.load_from_json(p)) for p in sorted(corpus.glob("*.json"))]
    out: dict = {"file": docchunk.__file__, "total": {}, "per": {}}
    for n in budgets:
        chunker = docchunk.HybridChunker(max_tokens=n)
        for _, doc in docs:
            list(chunker.chunk(doc))
        runs = []
        for _ in range(passes):
            per = {}
            for name, doc in docs:
                start = time.process_time()
                list(chunker.chunk(doc))
                per[name] = time.process_time() - start
            runs.append(per)
        out["total"][n] = min(sum(per.values()) for per in runs)
        out["per"][n] = {name: min(per[name] for per in runs) for name, _ in docs}
    print(json.dumps(out))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trees", nargs="+", type=Path, default=[], help="source trees (each with src/)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--max-tokens", type=int, nargs="+", default=[64, 256])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--top", type=int, default=8, help="documents listed per budget")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.corpus, args.max_tokens)
        return
    if not args.trees:
        parser.error("--trees: give the source trees to compare (each with src/), the reference first")
    trees = [str(t.resolve()) for t in args.trees]
    results: dict[str, list[dict]] = {t: [] for t in trees}
    for r in range(args.rounds):
        for tree in trees if r % 2 == 0 else trees[::-1]:
            cmd = [sys.executable, __file__, "--worker", "--corpus", str(args.corpus), "--max-tokens"]
            env = dict(os.environ, PYTHONPATH=f"{tree}/src")
            done = subprocess.run([*cmd, *map(str, args.max_tokens)], env=env, capture_output=True, text=True)
            if done.returncode:
                sys.exit(done.stderr)
            got = json.loads(done.stdout.strip().splitlines()[-1])
            results[tree].append(got)
            totals = ", ".join(f"{n}: {s:.3f} s" for n, s in got["total"].items())
            print(f"round {r + 1} {tree}: {totals}  load {os.getloadavg()[0]:.1f}", flush=True)
    first, last = trees[0], trees[-1]
    for n in map(str, args.max_tokens):
        medians = {t: statistics.median(o["total"][n] for o in results[t]) for t in trees}
        ratios = "  ".join(f"{t}: {m:.3f} s ({m / medians[first]:.3f})" for t, m in medians.items())
        print(f"max_tokens {n}, median CPU s (ratio to {first}): {ratios}")
        per = {t: {d: statistics.median(o["per"][n][d] for o in results[t]) for d in results[t][0]["per"][n]}
               for t in (first, last)}  # fmt: skip
        grown = sorted(per[last], key=lambda d: per[first][d] - per[last][d])[: args.top]
        for d in grown:
            print(f"  {d[:44]:<44} {per[first][d] * 1000:8.1f} ms -> {per[last][d] * 1000:8.1f} ms")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
