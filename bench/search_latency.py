"""Search latency of an index by mode: dense, lexical, hybrid, on an index of 10,000 chunks.

Usage:
    python bench/search_latency.py [--rows 10000] [--repeats 20] [--corpus ../shared/corpus/docling]

Builds a LanceDB index with :class:`docchunk.index.IndexStore` (as ``docchunk index``
writes it: full-text index, compaction) from the chunks of the corpus (HybridChunker),
repeated with distinct ids until ``--rows`` rows; the vectors are all-MiniLM-L6-v2's
of each chunk (embedding cache of ``docchunk eval``), with a little noise per copy so
that no two rows are equal. Then asks 10 questions ``--repeats`` times each in each
mode (interleaved, the order rotating) through one open :class:`docchunk.index.Searcher` (the warm path: model loaded,
table open) and prints the median latency per question of each mode, without and
with the query's embedding, and the ratio to dense (target: hybrid <= 1.5x dense).
Checked before reporting: every mode returns k hits, hybrid's are the weighted reciprocal
rank fusion (``hybrid_fusion``) of dense's and lexical's top ``max(k, CANDIDATES)``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import numpy as np  # noqa: E402

import docchunk  # noqa: E402
from docchunk.batch.rows import chunk_rows  # noqa: E402
from docchunk.embeddings import default_cache_dir  # noqa: E402
from docchunk.index import IndexStore, Searcher  # noqa: E402
from docchunk.index.build import table_rows  # noqa: E402
from docchunk.index.fusion import CANDIDATES, hybrid_fusion  # noqa: E402

QUESTIONS = ["Which models does Docling use for layout analysis?", "How are table cells represented?",
             "What was the company's net income?", "When was the bridge built?", "What is the trust account?",
             "Which languages are supported?", "How long is the warranty?", "Who wrote the report?",
             "What does TableFormer predict?", "How many pages does the document have?"]  # fmt: skip
K = 10


def _rows(corpus: Path, embedder: docchunk.EmbeddingsRefinery, target: int) -> tuple[list[dict], int]:
    chunker = docchunk.HybridChunker()
    base = []
    for path in sorted(corpus.glob("*.json")):
        rows = chunk_rows(chunker, str(path), docchunk.load_document(path))
        base.extend(table_rows(rows, embedder.embed([r["contextualized"] for r in rows]), "HybridChunker()", "x"))
    rng = np.random.default_rng(0)
    out = []
    for copy in range(-(-target // len(base))):
        for row in base:
            if len(out) == target:
                break
            vector = np.asarray(row["vector"], dtype=np.float32)
            noise = rng.standard_normal(len(vector)).astype(np.float32) * 0.01 if copy else 0.0
            out.append({**row, "id": f"{row['id']}~{copy}", "source": f"{row['source']}~{copy}",
                        "vector": (vector + noise).tolist()})  # fmt: skip
    return out, len(base)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus" / "docling")
    args = parser.parse_args()
    embedder = docchunk.EmbeddingsRefinery("all-MiniLM-L6-v2", cache_dir=default_cache_dir())
    rows, distinct = _rows(args.corpus, embedder, args.rows)
    db = Path(tempfile.mkdtemp(prefix="search-latency-"))
    store = IndexStore(db)
    dimension = len(rows[0]["vector"])
    store.write_record("all-MiniLM-L6-v2", dimension, "HybridChunker()")
    store.replace_files(sorted({r["source"] for r in rows}), rows, dimension)
    store.ensure_fts()
    store.optimize()
    searcher = Searcher(db, model=embedder)
    searcher.search(QUESTIONS[0], k=K)  # warm: model loaded, table and indexes open
    print(f"index: {store.count_rows()} rows ({distinct} distinct chunks of {args.corpus}), k={K}, "
          f"{args.repeats} repeats of {len(QUESTIONS)} questions, median per question")  # fmt: skip
    vectors = {q: embedder.embed([q])[0] for q in QUESTIONS}
    for q in QUESTIONS:  # check the fusion before timing anything
        ranked = {m: store.search(vectors[q], max(K, CANDIDATES), mode=m, text=q) for m in ("dense", "lexical")}
        ranked["hybrid"] = store.search(vectors[q], K, mode="hybrid", text=q)
        assert len(ranked["dense"]) == max(K, CANDIDATES) and len(ranked["hybrid"]) == K, q
        fused = hybrid_fusion(*[[h.row["id"] for h in ranked[m]] for m in ("dense", "lexical")])[:K]
        assert [h.row["id"] for h in ranked["hybrid"]] == [i for i, _ in fused], q
    calls = {}
    for mode in ("dense", "lexical", "hybrid"):
        calls[f"{mode} store"] = lambda q, m=mode: store.search(vectors[q], K, mode=m, text=q)
        calls[f"{mode} with query embedding"] = lambda q, m=mode: searcher.search(q, k=K, mode=m)
    times: dict[str, list[float]] = {name: [] for name in calls}
    for repeat in range(args.repeats):  # interleaved, the order rotating, so that the machine's load hits all alike
        names = list(calls)[repeat % len(calls) :] + list(calls)[: repeat % len(calls)]
        for q in QUESTIONS:
            for name in names:
                start = time.perf_counter()
                calls[name](q)
                times[name].append(time.perf_counter() - start)
    for name, spent in times.items():
        mode, label = name.split(" ", 1)
        ratio = statistics.median(spent) / statistics.median(times[f"dense {label}"])
        print(f"{name:32} {1000 * statistics.median(spent):8.1f} ms   x{ratio:.2f} of dense")


if __name__ == "__main__":
    main()
