"""A bootstrap interval over documents for the difference of two `docchunk eval-docs --json` runs.

Usage:
    python bench/docqa_interval.py OURS.json PEER.json [--metric doc@1 --metric all@5] [--rounds 2000]

Both files are `docchunk eval-docs ... --json` outputs over the same questions (the same
`--half`, genres and limits; a question missing from either is an error). For each genre
and for the mean of the genres, it prints the two figures, their difference (ours minus
peer, in points) and a 95% paired percentile bootstrap interval of the difference: each
round draws the genre's documents with replacement (a document's questions go together,
since its chunks are shared), in both runs at once. The mean of the genres draws each
genre apart and averages the genres' figures, as the targets of issue 46 state them.

``doc@k`` is a per-document ranking, so documents are independent draws; ``all@k`` ranks
the genre's chunks together, and its interval (resampling documents' scores, not re-ranking)
is a guide, not exact.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from collections import defaultdict
from pathlib import Path


def load(path: Path) -> dict[str, dict[str, dict[str, float]]]:
    """genre -> qid -> the question's row (doc_id and the metrics), from an eval-docs --json file."""
    data = json.loads(path.read_text(encoding="utf-8"))
    out: dict[str, dict[str, dict[str, float]]] = defaultdict(dict)
    for row in data["questions"]:
        out[row["genre"]][row["qid"]] = row
    return out


def by_document(ours: dict, peer: dict, metric: str) -> list[tuple[float, float, int]]:
    """Per document of one genre: (sum of ours, sum of peer, number of questions)."""
    if set(ours) != set(peer):
        raise SystemExit(f"the two runs hold different questions ({len(set(ours) ^ set(peer))} differ)")
    sums: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
    for qid, row in ours.items():
        s = sums[row["doc_id"]]
        s[0] += row[metric]
        s[1] += peer[qid][metric]
        s[2] += 1
    return [(a, b, int(n)) for a, b, n in sums.values()]


def figure(docs: list[tuple[float, float, int]]) -> tuple[float, float]:
    """(ours, peer) in percent of the questions of ``docs``."""
    n = sum(d[2] for d in docs)
    return 100 * sum(d[0] for d in docs) / n, 100 * sum(d[1] for d in docs) / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("ours", type=Path)
    parser.add_argument("peer", type=Path)
    parser.add_argument("--metric", action="append", help="metrics to report (default doc@1 and all@5)")
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    metrics = args.metric or ["doc@1", "all@5"]
    ours, peer = load(args.ours), load(args.peer)
    if set(ours) != set(peer):
        raise SystemExit(f"the two runs hold different genres: {sorted(ours)} vs {sorted(peer)}")
    genres = sorted(ours)
    rng = random.Random(args.seed)
    print(f"{args.ours.name} vs {args.peer.name}: ours, peer, difference [95% bootstrap interval over documents]")
    for metric in metrics:
        docs = {g: by_document(ours[g], peer[g], metric) for g in genres}
        diffs: dict[str, list[float]] = {g: [] for g in [*genres, "mean"]}
        for _ in range(args.rounds):
            means = []
            for g in genres:
                drawn = rng.choices(docs[g], k=len(docs[g]))
                a, b = figure(drawn)
                diffs[g].append(a - b)
                means.append(a - b)
            diffs["mean"].append(statistics.fmean(means))
        print(f"\n{metric:<8}{'ours':>8}{'peer':>8}{'diff':>8}   interval")
        pairs = [figure(docs[g]) for g in genres]
        for g, (a, b) in zip(genres, pairs, strict=True):
            low, high = _interval(diffs[g])
            print(f"{g:<8}{a:8.1f}{b:8.1f}{a - b:+8.1f}   [{low:+.1f}, {high:+.1f}]")
        a = statistics.fmean(p[0] for p in pairs)
        b = statistics.fmean(p[1] for p in pairs)
        low, high = _interval(diffs["mean"])
        print(f"{'mean':<8}{a:8.1f}{b:8.1f}{a - b:+8.1f}   [{low:+.1f}, {high:+.1f}]")


def _interval(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return ordered[int(0.025 * len(ordered))], ordered[min(len(ordered) - 1, int(0.975 * len(ordered)))]


if __name__ == "__main__":
    main()
