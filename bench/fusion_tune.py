"""Tuning the hybrid ranker on doc-qa's tuning half: the fusion's k, the rankers' weights, the BM25 words.

Usage:
    nice -n 10 python bench/fusion_tune.py [--data ../shared/eval/doc-qa] [--half tune] [--limit N]
                                           [--k 60 --k 20 ...] [--weight 1 --weight 2 ...]

Each route (docchunk's default chunks, docling-core's) is chunked once and embedded
once (the embedding cache of eval-docs); each question's dense ranking and BM25 scores
(words as :class:`docchunk.evaluation.rankers.LexicalScorer` cuts them, with and
without English stemming) are computed once, then every fusion is scored: weighted
reciprocal rank fusion ``w_dense / (k + rank_dense) + w_lexical / (k + rank_lexical)``
(:func:`docchunk.index.fusion.reciprocal_rank_fusion`) for each ``k`` and lexical weight
(dense weight 1), beside dense and lexical alone. Prints doc@1 per genre, their mean,
doc@3 and all@5 for each, and the pipeline's lead (docchunk's chunks, that fusion) over
docling-core's chunks ranked dense, the target of issue 49. Decide on ``--half tune``
only (docs/quality.md, "Tuning and checking halves").
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import docchunk  # noqa: E402
from docchunk.embeddings import CachedEmbedder, default_cache_dir, load_model  # noqa: E402
from docchunk.evaluation.docqa import chunk_document, load_docqa, route_chunker, score_held  # noqa: E402
from docchunk.evaluation.rankers import LexicalScorer, fuse, lexical_order, rank  # noqa: E402
from docchunk.evaluation.run import BUDGET_TOKENIZER  # noqa: E402


def orders(ranker: str, k: int, weight: float, dense: np.ndarray, bm25: np.ndarray) -> np.ndarray:
    """The ranking of one configuration over ``len(bm25)`` chunks, from the dense ranking and the BM25 scores."""
    if ranker == "dense":
        return dense
    words = lexical_order(bm25)
    if ranker == "lexical":
        return np.concatenate([words, np.setdiff1d(np.arange(len(bm25)), words, assume_unique=True)])
    return fuse([dense, words], len(bm25), k, (1.0, weight))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "eval" / "doc-qa")
    parser.add_argument("--half", default="tune", choices=["all", "tune", "check"])
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--k", type=int, action="append", default=None)
    parser.add_argument("--weight", type=float, action="append", default=None)
    parser.add_argument("--routes", nargs="+", default=["doc", "docling-core"])
    args = parser.parse_args()
    ks, weights = args.k or [60, 20, 5], args.weight or [1.0, 1.5, 2.0, 3.0]
    data = load_docqa(args.data, None, args.limit, 0, args.half)
    embed = CachedEmbedder(load_model("all-MiniLM-L6-v2"), "all-MiniLM-L6-v2", cache_dir=default_cache_dir())
    count = docchunk.get_tokenizer(BUDGET_TOKENIZER).count_tokens
    configs = [("dense", 0, 0.0)] + [("lexical", 0, 0.0)] + [("hybrid", k, w) for k in ks for w in weights]
    table: dict[tuple[str, str, str, int, float], dict[str, dict[str, list[float]]]] = {}
    for route in args.routes:
        chunker = route_chunker(route, "hybrid", {"max_tokens": 256})
        for genre, (docs, questions) in data.items():
            held = {d: chunk_document(doc, route, chunker, count) for d, doc in docs.items()}
            flat = [(d, h) for d, hs in held.items() for h in hs]
            vectors = embed([h.text for _, h in flat])
            qvecs = embed([q["question"] for q in questions])
            owner = np.array([d for d, _ in flat])
            for stem in ("none", "english"):
                scorer = LexicalScorer([h.text for _, h in flat], stemmer=None if stem == "none" else stem)
                for q, qv in zip(questions, qvecs, strict=True):
                    bm25 = scorer.scores(q["question"])
                    idx = np.flatnonzero(owner == q["doc_id"])
                    dense_doc, dense_all = rank(qv, vectors[idx]), rank(qv, vectors)
                    for ranker, k, w in configs:
                        if stem == "english" and ranker == "dense":
                            continue
                        cell = table.setdefault((route, stem, ranker, k, w), {}).setdefault(genre, {})
                        order = idx[orders(ranker, k, w, dense_doc, bm25[idx])]
                        for n in (1, 3):
                            cell.setdefault(f"doc@{n}", []).append(score_held(q["evidence"],
                                                                              [flat[i][1] for i in order[:n]]))
                        every = orders(ranker, k, w, dense_all, bm25)
                        cell.setdefault("all@5", []).append(score_held(q["evidence"], [flat[i][1] for i in every[:5]]))
            print(f"done {route} {genre}", file=sys.stderr, flush=True)
    genres = list(data)
    means = {key: {g: {f: 100 * float(np.mean(v)) for f, v in cell[g].items()} for g in genres}
             for key, cell in table.items()}  # fmt: skip
    base = ("docling-core", "none", "dense", 0, 0.0)
    peer = float(np.mean([means[base][g]["doc@1"] for g in genres])) if base in means else float("nan")
    print(f"doc-qa half={args.half} limit={args.limit}; doc@1 per genre, mean doc@1, doc@3, all@5; "
          f"lead = mean doc@1 - docling-core dense ({peer:.1f})")  # fmt: skip
    print("route stem ranker k w".ljust(40) + "".join(f"{g} d@1".rjust(11) for g in genres)
          + "mean d@1".rjust(10) + "mean d@3".rjust(10) + "mean a@5".rjust(10) + "lead".rjust(8))  # fmt: skip
    for key, cell in means.items():
        mean1 = float(np.mean([cell[g]["doc@1"] for g in genres]))
        mean3 = float(np.mean([cell[g]["doc@3"] for g in genres]))
        mean5 = float(np.mean([cell[g]["all@5"] for g in genres]))
        print(" ".join(str(x) for x in key).ljust(40) + "".join(f"{cell[g]['doc@1']:11.1f}" for g in genres)
              + f"{mean1:10.1f}{mean3:10.1f}{mean5:10.1f}{mean1 - peer:+8.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
