"""The default ``HybridChunker`` of two (or more) source trees over the corpus, in instructions counted by callgrind.

Usage:
    python bench/tree_instructions.py --trees /tmp/fdwt /work/main [--max-tokens 64 256]
                                      [--corpus ../shared/corpus/docling] [--seeds 0 1]

For a host whose timings move by tens of percent between rounds (a shared machine),
CPU time cannot show a change of a few percent; the number of instructions executed
can. Each tree, budget and seed runs one subprocess under ``valgrind --tool=callgrind``
(``PYTHONPATH=<tree>/src``, ``PYTHONHASHSEED=<seed>``) that loads every corpus document,
builds ``HybridChunker(max_tokens=N)`` (MiniLM, the default), chunks the corpus once to
warm up, then switches instrumentation on (``callgrind_control -i on``) for one more pass
only. Printed: the instructions of that pass per tree, their ratio to the first tree
(below 1: fewer instructions than the reference), and each tree's chunk count, which
must be the same in every seed.

Instructions are not time (a cache miss costs more than an add), but on the same
interpreter and libraries a pass that executes fewer instructions of the same kinds is
faster, and the count moves by under 1% between seeds (dict and set order). The run is
slow (about 2 minutes a pass under callgrind); ``valgrind`` must be installed
(``apt-get install valgrind``). A reference tree is made with
``git worktree add --detach /tmp/fdwt fd12390``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from callgrind import counted, instrumented

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "docling"


def worker(corpus: Path, budget: int) -> None:
    """Chunk the corpus twice with this interpreter's ``docchunk``; callgrind counts only the second pass."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    warnings.simplefilter("ignore")
    from docling_core.types.doc import DoclingDocument

    import docchunk

    docs = [DoclingDocument.load_from_json(p) for p in sorted(corpus.glob("*.json"))]
    chunker = docchunk.HybridChunker(max_tokens=budget)
    for doc in docs:
        list(chunker.chunk(doc))
    count = instrumented(lambda: sum(len(list(chunker.chunk(doc))) for doc in docs))
    print(f"chunks {count}")


def counted_tree(tree: str, corpus: Path, budget: int, seed: int, out_dir: str) -> tuple[int, str]:
    """(instructions of the instrumented pass, the worker's chunk line) for one tree, budget and seed."""
    args = [__file__, "--worker", "--corpus", str(corpus), "--max-tokens", str(budget)]
    env = dict(os.environ, PYTHONPATH=f"{tree}/src", PYTHONHASHSEED=str(seed))
    return counted(args, env, Path(out_dir) / f"cg.{os.getpid()}.{budget}.{seed}.out", f"{tree} at {budget}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trees", nargs="+", type=Path, default=[], help="source trees (each with src/)")
    parser.add_argument("--max-tokens", type=int, nargs="+", default=[64, 256])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0], help="PYTHONHASHSEED of each run")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.corpus, args.max_tokens[0])
        return
    if not args.trees:
        parser.error("--trees: give the source trees to compare (each with src/), the reference first")
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed: apt-get install valgrind")
    trees = [str(t.resolve()) for t in args.trees]
    with tempfile.TemporaryDirectory() as out_dir:
        for n in args.max_tokens:
            counts: dict[str, list[int]] = {}
            for tree in trees:
                runs = [counted_tree(tree, args.corpus, n, seed, out_dir) for seed in args.seeds]
                counts[tree] = [c for c, _ in runs]
                lines = sorted({line for _, line in runs})
                print(f"max_tokens {n} {tree}: {', '.join(f'{c:,}' for c in counts[tree])} instructions; "
                      f"{'; '.join(lines)}", flush=True)  # fmt: skip
            ref = statistics.mean(counts[trees[0]])
            ratios = "  ".join(f"{t}: {statistics.mean(c) / ref:.3f}" for t, c in counts.items())
            print(f"max_tokens {n}, mean instructions, ratio to {trees[0]}: {ratios}")


if __name__ == "__main__":
    main()
