"""docchunk index cost: chunk + embed + write into LanceDB, against the embedding pass alone.

Usage:
    python bench/index_run.py [--corpus ../shared/corpus/docling] [--repeats 3] [--device cpu]

Both passes embed the same texts with the same model object (the bundled
all-MiniLM-L6-v2, no cache) in the same batches (each file's chunks on their own):

* embedding alone: ``EmbeddingsRefinery.embed`` on each file's ``contextualized``
  strings, chunked beforehand, outside the timing;
* index: ``docchunk.index.index_paths`` into a new folder: loading each document,
  chunking it (HybridChunker), embedding, one LanceDB write per file, compaction.

Before reporting, the index is checked against the embedding pass: the same number of
rows, and every row's vector equal to the vector of its text. Prints, per pass, the
median wall and CPU seconds of ``--repeats`` runs and chunks per second, and how much
chunking and writing add to the embedding time (the target is at most 10%).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

warnings.simplefilter("ignore")
ROOT = Path(__file__).resolve().parents[1]


def _timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - wall, time.process_time() - cpu


def _embed_pass(embedder, texts_by_file):
    return [embedder.embed(texts) for texts in texts_by_file]


def _index_pass(files, embedder, chunker):
    from docchunk.index import IndexStore, index_paths

    db = Path(tempfile.mkdtemp(prefix="docchunk-bench-index-"))
    report = index_paths(files, db, chunker=chunker, model=embedder)
    return db, report, IndexStore(db)


def _check(store, files, texts_by_file, vectors_by_file) -> int:
    table = store.table().to_arrow().to_pylist()
    want = {}
    for path, texts, vectors in zip(files, texts_by_file, vectors_by_file, strict=True):
        for i, (text, vector) in enumerate(zip(texts, vectors, strict=True)):
            want[f"{path}#{i}"] = (text, vector)
    if len(table) != len(want):
        sys.exit(f"index_run: the index has {len(table)} rows, the embedding pass {len(want)} chunks")
    for row in table:
        text, vector = want[row["id"]]
        if row["contextualized"] != text or not np.array_equal(np.asarray(row["vector"], dtype=np.float32), vector):
            sys.exit(f"index_run: row {row['id']} differs from the embedding pass")
    return len(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus" / "docling")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--docs", type=int, default=None, help="Only the first N documents (by name).")
    args = parser.parse_args()

    import docchunk
    from docchunk.batch.rows import chunk_rows

    files = sorted(args.corpus.glob("*.json"))[: args.docs] if args.corpus.is_dir() else []
    if not files:
        print(f"index_run: no DoclingDocument JSON in --corpus {args.corpus}", file=sys.stderr)
        sys.exit(1)
    chunker = docchunk.HybridChunker()
    texts_by_file = []
    for path in files:
        try:
            texts_by_file.append(
                [r["contextualized"] for r in chunk_rows(chunker, str(path), docchunk.load_document(path))]
            )
        except docchunk.DocchunkError as exc:
            print(f"index_run: skipping {path.name}: {exc}", file=sys.stderr)
            texts_by_file.append(None)
    files = [p for p, t in zip(files, texts_by_file, strict=True) if t is not None]
    texts_by_file = [t for t in texts_by_file if t is not None]
    if not files:
        print(f"index_run: no document with text in --corpus {args.corpus}", file=sys.stderr)
        sys.exit(1)
    chunks = sum(len(t) for t in texts_by_file)
    embedder = docchunk.EmbeddingsRefinery("all-MiniLM-L6-v2", device=args.device)
    embedder.embed(texts_by_file[0][:8])  # warm-up: first-call costs out of both timings

    runs: dict[str, list[tuple[float, float]]] = {"embedding alone": [], "chunk+embed+write": []}
    for _ in range(args.repeats):  # interleaved, so a change in machine load hits both
        vectors, wall, cpu = _timed(lambda: _embed_pass(embedder, texts_by_file))
        runs["embedding alone"].append((wall, cpu))
        (db, report, store), wall, cpu = _timed(lambda: _index_pass(files, embedder, chunker))
        runs["chunk+embed+write"].append((wall, cpu))
        rows = _check(store, files, texts_by_file, vectors)
        assert report.chunks == rows == chunks and not report.failed
        shutil.rmtree(db)
        print(f"index_run: repeat done: embedding {runs['embedding alone'][-1]}, index {runs['chunk+embed+write'][-1]}",
              file=sys.stderr, flush=True)  # fmt: skip

    import lancedb
    import torch

    versions = f"torch {torch.__version__}, lancedb {lancedb.__version__}, {torch.get_num_threads()} torch threads"
    print(f"{len(files)} documents, {chunks} chunks; all-MiniLM-L6-v2 on {args.device}, {versions}; "
          f"median of {args.repeats}")  # fmt: skip
    print(f"{'pass':<20} {'wall s':>8} {'CPU s':>8} {'chunks/s (wall)':>16} {'chunks/s (CPU)':>15}")
    medians = {}
    for name, values in runs.items():
        wall = statistics.median(v[0] for v in values)
        cpu = statistics.median(v[1] for v in values)
        medians[name] = (wall, cpu)
        print(f"{name:<20} {wall:>8.2f} {cpu:>8.2f} {chunks / wall:>16.1f} {chunks / cpu:>15.1f}")
    (ew, ec), (iw, ic) = medians["embedding alone"], medians["chunk+embed+write"]
    print(f"chunking and writing add {100 * (iw / ew - 1):+.1f}% wall, {100 * (ic / ec - 1):+.1f}% CPU "
          "to the embedding pass (target: at most +10%)")  # fmt: skip


if __name__ == "__main__":
    main()
