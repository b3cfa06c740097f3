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

__all__ = ["CANDIDATES", "DENSE_WEIGHT", "LEXICAL_WEIGHT", "RRF_K", "hybrid_fusion", "reciprocal_rank_fusion"]

RRF_K = 60
"""The ``k`` of the fusion (the paper's value, and LanceDB's ``RRFReranker`` default)."""
CANDIDATES = 20
"""How many chunks each ranking of a hybrid search gives the fusion (at least ``k``).

The evaluation fuses the two rankings of every chunk; the index fuses the top
``max(k, CANDIDATES)`` of each, so that a chunk ranked a little below ``k`` by both
(dense 7th and lexical 8th for ``k = 5``) gets both terms, as in the evaluation. 20,
not more: each candidate row is read whole, and 50 brought hybrid to 1.5x dense.
"""
DENSE_WEIGHT = 1.0
"""The weight of the dense (vector) ranking in :func:`hybrid_fusion`."""
LEXICAL_WEIGHT = 1.5
"""The weight of the lexical (BM25) ranking in :func:`hybrid_fusion`.

Chosen on doc-qa's tuning half (``bench/fusion_tune.py``, docs/index-search.md): with
equal weights the two top chunks tie and the fusion's first chunk is the one both
rankings like, which on doc-qa is the words' first chunk less often than lexical
ranking alone would give; weight 1.5 (mean doc@1 73.3 against 67.5 with weight 1, and
74.0 with weight 2, k barely mattering) lets the words' first chunk lead unless the
vectors rank another chunk high that the words also rank high. It stays below 2 so
that the vectors still lift a chunk that shares few words with the question.
"""

Item = TypeVar("Item", bound=Hashable)


def reciprocal_rank_fusion(rankings: Sequence[Sequence[Item]], k: int = RRF_K,
                           weights: Sequence[float] | None = None) -> list[tuple[Item, float]]:  # fmt: skip
    """Fuse rankings: every item of any ranking with its score ``sum w / (k + rank)``, best first.

    Args:
        rankings: Each a sequence of distinct items, best first; an item may be
            missing from some (it then gets nothing from them).
        k: The fusion constant; >= 1. A larger ``k`` flattens the weight of the top ranks.
        weights: One weight ``w`` per ranking (default 1 each): a ranking of weight 2
            counts as two rankings of the same order.

    Returns:
        ``(item, score)`` by decreasing score; ties in the order the items were first
        met (ranking by ranking). The best possible score is ``len(rankings) / (k + 1)``.

    Example:
        >>> reciprocal_rank_fusion([["a", "b", "c"], ["c", "a"]])[0]
        ('a', 0.03252247488101534)
    """
    scores: dict[Item, float] = {}
    for ranking, weight in zip(rankings, [1.0] * len(rankings) if weights is None else weights, strict=True):
        for rank, item in enumerate(ranking, 1):
            scores[item] = scores.get(item, 0.0) + weight / (k + rank)
    return sorted(scores.items(), key=lambda pair: -pair[1])


def hybrid_fusion(by_vector: Sequence[Item], by_words: Sequence[Item]) -> list[tuple[Item, float]]:
    """The hybrid ranking of docchunk: the dense and the lexical ranking, fused.

    The one fusion of ``docchunk search --mode hybrid`` (:meth:`docchunk.index.store.IndexStore.search`)
    and of the evaluation's ``hybrid`` ranker (:func:`docchunk.evaluation.rankers.rank_chunks`):
    :func:`reciprocal_rank_fusion` with ``k = RRF_K`` and the weights
    ``DENSE_WEIGHT`` (vectors) and ``LEXICAL_WEIGHT`` (BM25), so an item's score is
    ``1 / (60 + dense rank) + 1.5 / (60 + lexical rank)`` (a term only for the rankings
    that hold it; at most ``2.5 / 61``).

    Args:
        by_vector: Items by decreasing vector similarity.
        by_words: Items by decreasing BM25 score (those with a word of the question).

    Returns:
        ``(item, score)`` best first, as :func:`reciprocal_rank_fusion`.
    """
    return reciprocal_rank_fusion([by_vector, by_words], RRF_K, (DENSE_WEIGHT, LEXICAL_WEIGHT))
