"""Reciprocal rank fusion: one ranking from several, by the sum of ``1 / (k + rank)``.

Cormack, Clarke and Büttcher, "Reciprocal Rank Fusion outperforms Condorcet and
individual Rank Learning Methods" (SIGIR 2009). ``docchunk search --mode hybrid``
fuses the dense and the full-text ranking of the index with it, and the evaluation's
``hybrid`` ranker (:mod:`docchunk.evaluation.rankers`) the same two rankings of a
question's chunks.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

__all__ = ["RRF_K", "reciprocal_rank_fusion"]

RRF_K = 60
"""The ``k`` of the fusion (the paper's value, and LanceDB's ``RRFReranker`` default)."""

Item = TypeVar("Item", bound=Hashable)


def reciprocal_rank_fusion(rankings: Sequence[Sequence[Item]], k: int = RRF_K) -> list[tuple[Item, float]]:
    """Fuse rankings: every item of any ranking with its score ``sum 1 / (k + rank)``, best first.

    Args:
        rankings: Each a sequence of distinct items, best first; an item may be
            missing from some (it then gets nothing from them).
        k: The fusion constant; >= 1. A larger ``k`` flattens the weight of the top ranks.

    Returns:
        ``(item, score)`` by decreasing score; ties in the order the items were first
        met (ranking by ranking). The best possible score is ``len(rankings) / (k + 1)``.

    Example:
        >>> reciprocal_rank_fusion([["a", "b", "c"], ["c", "a"]])[0]
        ('a', 0.03252247488101534)
    """
    scores: dict[Item, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, 1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    return sorted(scores.items(), key=lambda pair: -pair[1])
