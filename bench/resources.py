"""Peak memory while chunking, and the CLI's ``--workers 2`` against one worker (see ``bench/run.py``).

Memory: each document runs in a fresh interpreter that loads it, builds the default
``HybridChunker`` (all-MiniLM-L6-v2) and warms it on a small document of 40 paragraphs
(so that one-time costs, such as the tokenizer's thread pool, are not counted), resets the
process' peak resident size (``/proc/self/clear_refs``), chunks at 256 and 64 tokens
and reads the new peak (``VmHWM``): the peak above the loaded document, against the
size of the document's JSON. tracemalloc's peak (Python objects only) is printed too.

Workers: the corpus copied ``--workers-copies`` times (10: 330 documents) into a temporary folder, chunked by
``python -m docchunk chunk DIR -o out.jsonl`` with ``--workers 1`` and ``--workers 2``,
interleaved rounds, median wall time; the two outputs must be equal.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_CHILD = r"""
import json, os, sys, tracemalloc
os.environ["HF_HUB_OFFLINE"] = "1"
import docchunk
from docling_core.types.doc import DoclingDocument

path, trace = sys.argv[1], sys.argv[2] == "1"
doc = DoclingDocument.load_from_json(path)
chunkers = [docchunk.HybridChunker(max_tokens=n) for n in (256, 64)]
small = DoclingDocument(name="warm")
for i in range(40):  # several texts: the batch path starts the tokenizer's threads (a one-time ~1.2 MB)
    small.add_text(label="text", text=f"warm up {i} " * 50)
for c in chunkers:
    list(c.chunk(small))

def rss(field):
    for line in open("/proc/self/status"):
        if line.startswith(field):
            return int(line.split()[1]) * 1024

with open("/proc/self/clear_refs", "w") as f:
    f.write("5")
before = rss("VmRSS")
if trace:
    tracemalloc.start()
n = sum(1 for c in chunkers for _ in c.chunk(doc))
py_peak = tracemalloc.get_traced_memory()[1] if trace else 0
print(json.dumps({{"chunks": n, "rss_peak": rss("VmHWM") - before, "py_peak": py_peak}}))
"""


def _child(path: Path, trace: bool) -> dict:
    import json

    code = _CHILD.replace("{{", "{").replace("}}", "}")
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    out = subprocess.run(
        [sys.executable, "-c", code, str(path), "1" if trace else "0"], capture_output=True, text=True, env=env
    )
    if out.returncode:
        sys.exit(f"memory run failed on {path}: {out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def memory(corpus: Path, big_mb: float) -> None:
    """Peak memory above the loaded document, for the largest corpus documents and the big concatenation."""
    from corpus import corpus_files
    from run import big_document, load_corpus

    with tempfile.TemporaryDirectory() as tmp:
        big, _ = big_document(load_corpus(corpus), big_mb)
        big_path = Path(tmp) / "big.json"
        big_path.write_text(big.model_dump_json())
        del big
        paths = [*sorted(corpus_files(corpus), key=lambda p: p.stat().st_size, reverse=True)[:5], big_path]
        head = f"{'document':<42} {'JSON MB':>8} {'RSS peak MB':>11} {'x JSON':>7} {'py peak MB':>10} {'x JSON':>7}"
        print(f"{head}  load")
        for path in paths:
            size = path.stat().st_size
            rss = _child(path, trace=False)["rss_peak"]
            py = _child(path, trace=True)["py_peak"]
            print(
                f"{path.name[:42]:<42} {size / 1e6:8.2f} {rss / 1e6:11.1f} {rss / size:6.2f}x "
                f"{py / 1e6:10.1f} {py / size:6.2f}x  {os.getloadavg()[0]:.1f}",
                flush=True,
            )


def workers(corpus: Path, rounds: int, copies: int = 10) -> None:
    """``docchunk chunk DIR --workers 2`` against ``--workers 1`` on ``copies`` copies of the corpus.

    Each run starts a new process, so the figure includes the start-up (imports,
    tokenizer), which does not parallelize: the larger the folder, the nearer the
    ratio gets to the number of cores.
    """
    from corpus import corpus_files

    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "docs"
        folder.mkdir()
        for i in range(copies):
            for path in corpus_files(corpus):
                shutil.copy(path, folder / f"{i}_{path.name}")
        n_files = len(list(folder.iterdir()))
        times: dict[int, list[float]] = {1: [], 2: []}
        outputs: dict[int, str] = {}
        for r in range(rounds):
            for w in (1, 2) if r % 2 == 0 else (2, 1):
                out = Path(tmp) / f"out{w}.jsonl"
                start = time.perf_counter()
                subprocess.run(
                    [sys.executable, "-m", "docchunk", "chunk", str(folder), "-o", str(out), "--workers", str(w),
                     "--no-progress"],
                    check=True, env=env,
                )  # fmt: skip
                times[w].append(time.perf_counter() - start)
                outputs[w] = out.read_text()
        if outputs[1] != outputs[2]:
            sys.exit("--workers 2 wrote other output than --workers 1; refusing to report")
        one, two = statistics.median(times[1]), statistics.median(times[2])
        print(
            f"workers: {n_files} documents, --workers 1 {one:.2f} s, --workers 2 {two:.2f} s, "
            f"speed-up {one / two:.2f}x (median of {rounds}, load {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores)"
        )
