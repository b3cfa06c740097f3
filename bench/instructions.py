"""Chunking cost in CPU instructions (valgrind's callgrind): this tree against a base commit.

Usage:
    python bench/instructions.py [--base 77ff0f6] [--max-tokens 256] [--chunker hybrid] [--compat]
                                 [--corpus ../shared/corpus/docling]

Timings on a shared machine move by 5-15% between runs, more than the differences a
speed limit of 10% has to tell apart. Instruction counts move far less: callgrind counts
every instruction the process executes (Python and the Rust tokenizer alike), with the
hash seed fixed and the tokenizer on one thread. Each tree is first run once without
callgrind (so that every module is compiled before counting), then twice under it: once
loading the corpus and warming the chunker on the first document, once doing the same
and then chunking every document; the difference is the cost of chunking. Measured
repeatability: the same tree twice on the 33 corpus documents gave 3.534 and 3.544 G
(0.3%); a few million instructions of the difference are not the chunking's (imports,
garbage collection), so a corpus of a few small documents is too small to compare on.
Both runs check the chunks of the warm-up pass (no empty chunk; ``token_count`` within
``max_tokens`` unless ``oversized``), so that the check costs the same in both and a
wrong answer cannot pass unseen.

Needs ``valgrind`` (Debian's package). Each run takes 1-3 minutes (callgrind slows
Python about 50 times); the four runs go two at a time.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "docling"

_CHILD = r"""
import glob, sys, warnings
warnings.filterwarnings("ignore")
import docchunk
from docling_core.types.doc import DoclingDocument
corpus, chunker, max_tokens = sys.argv[1], sys.argv[2], int(sys.argv[3])
compat, measure = sys.argv[4] == "1", sys.argv[5] == "1"
docs = [DoclingDocument.load_from_json(p) for p in sorted(glob.glob(corpus + "/*.json"))]
cls = {"hybrid": docchunk.HybridChunker, "hierarchical": docchunk.HierarchicalChunker}[chunker]
kwargs = {"max_tokens": max_tokens} if chunker == "hybrid" else {}
c = cls(docling_compat=True, **kwargs) if compat else cls(**kwargs)
warm = list(c.chunk(docs[0]))
if measure:
    for d in docs:
        list(c.chunk(d))
def check(chunks):
    for ch in chunks:
        assert ch.text.strip() or getattr(ch.meta, "headings", None), "an empty chunk"
        n = getattr(ch.meta, "token_count", None)
        if chunker == "hybrid" and n is not None and not getattr(ch.meta, "oversized", None):
            assert n <= max_tokens, f"{n} tokens over max_tokens={max_tokens} without the oversized flag"
check(warm)
print("OK")
"""


def _env(src: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0", "RAYON_NUM_THREADS": "1",
           "TOKENIZERS_PARALLELISM": "false"}  # fmt: skip


def _warm(src: Path, args: argparse.Namespace) -> None:
    """One run without callgrind, so that every module the chunking imports is compiled (``.pyc``) before counting."""
    cmd = [sys.executable, "-c", _CHILD, str(args.corpus), args.chunker, str(args.max_tokens),
           "1" if args.compat else "0", "1"]  # fmt: skip
    subprocess.run(cmd, capture_output=True, check=True, env=_env(src), cwd=tempfile.gettempdir())


def _run(src: Path, args: argparse.Namespace, measure: bool) -> int:
    env = _env(src)
    flags = ["1" if args.compat else "0", "1" if measure else "0"]
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", _CHILD,
           str(args.corpus), args.chunker, str(args.max_tokens), *flags]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=tempfile.gettempdir())
    if done.returncode != 0 or "OK" not in done.stdout:
        raise SystemExit(f"the run under {src} failed:\n{done.stdout}\n{done.stderr[-3000:]}")
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"callgrind printed no instruction count:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    """Print the chunking instructions of the base commit and of this tree, and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", default="77ff0f6", help="the commit to compare with")
    parser.add_argument("--max-tokens", type=int, default=256)
    parser.add_argument("--chunker", choices=["hybrid", "hierarchical"], default="hybrid")
    parser.add_argument("--compat", action="store_true", help="docling_compat=True")
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    args = parser.parse_args()
    from corpus import corpus_files
    from refactor_check import export  # the base commit's src, exported once (git archive)

    corpus_files(args.corpus)
    trees = {"base": export(args.base), "this tree": ROOT / "src"}
    for src in trees.values():
        _warm(src, args)
    jobs = [(name, src, measure) for name, src in trees.items() for measure in (False, True)]
    with ThreadPoolExecutor(2) as pool:
        found = pool.map(lambda job: _run(job[1], args, job[2]), jobs)
        counts = dict(zip([(n, m) for n, _, m in jobs], found, strict=True))
    cost = {name: counts[(name, True)] - counts[(name, False)] for name in trees}
    mode = "docling_compat=True" if args.compat else "default"
    print(f"{args.chunker} ({mode}, max_tokens={args.max_tokens}) on {args.corpus}:")
    for name in trees:
        print(f"  {name:10s} {cost[name] / 1e9:8.3f} G instructions of chunking")
    print(f"  this tree / base ({args.base}): {cost['this tree'] / cost['base']:.3f}")


if __name__ == "__main__":
    main()
