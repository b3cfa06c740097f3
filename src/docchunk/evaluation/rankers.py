"""The rankers of the evaluation: dense (cosine), lexical (BM25) and hybrid (reciprocal rank fusion).

The same three modes as ``docchunk search`` (:mod:`docchunk.index`), so that every
retrieval figure can be given per ranker. The index ranks with LanceDB's full-text
index and its ``RRFReranker``; the evaluation ranks whole chunk lists in memory, with
BM25 from ``bm25s`` (Lucene's variant, ``k1=1.5``, ``b=0.75``; lower case, words of
two or more letters or digits, English stop words removed, English Snowball stemming
as LanceDB's full-text index stems) and the same fusion,
:func:`docchunk.index.fusion.hybrid_fusion`: ``score(c) = 1 / (60 + dense rank) +
1.5 / (60 + lexical rank)`` over the rankings that hold c, rank 1-based (weighted
reciprocal rank fusion; Cormack, Clarke and Büttcher, "Reciprocal Rank Fusion
outperforms Condorcet and individual Rank Learning Methods", SIGIR 2009).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from docchunk._extras import require
from docchunk.errors import ConfigError
from docchunk.index.fusion import RRF_K, hybrid_fusion, reciprocal_rank_fusion

__all__ = ["RANKERS", "RRF_K", "STEMMER", "LexicalScorer", "check_ranker", "content_first", "fuse", "rank",
           "rank_chunks"]  # fmt: skip

RANKERS = ("dense", "lexical", "hybrid")
STEMMER = "english"
"""The BM25 words' stemmer (PyStemmer's Snowball English, the stemmer of LanceDB's ``FTS(language="English")``)."""


def check_ranker(ranker: str) -> str:
    """``ranker`` when it is one of :data:`RANKERS`.

    Raises:
        ConfigError: Another name.
    """
    if ranker not in RANKERS:
        raise ConfigError(f"ranker={ranker!r} is not a ranker; choose one of {', '.join(RANKERS)}")
    return ranker


def rank(question: np.ndarray, chunks: np.ndarray) -> np.ndarray:
    """Chunk indices by decreasing cosine similarity to the question (ties: earlier chunk first).

    Args:
        question: Shape ``(d,)``.
        chunks: Shape ``(n, d)``.

    Returns:
        int array of shape ``(n,)``.
    """
    norms = np.linalg.norm(chunks, axis=1) * np.linalg.norm(question)
    scores = (chunks @ question) / np.where(norms == 0, 1.0, norms)
    return np.argsort(-scores, kind="stable")


class LexicalScorer:
    """BM25 scores of a question against a fixed list of texts (``bm25s``).

    Args:
        texts: The chunks' texts (what is embedded: ``contextualize(chunk)``).
        stemmer: A Snowball stemmer's language (PyStemmer), or None for unstemmed words.

    Raises:
        MissingDependencyError: bm25s or PyStemmer is missing (``pip install ".[eval]"``).
    """

    def __init__(self, texts: Sequence[str], stemmer: str | None = STEMMER):
        self._bm25s: Any = require("bm25s", "eval", "the lexical and hybrid rankers")
        self._stemmer: Any = None
        if stemmer is not None:
            self._stemmer = require("Stemmer", "eval", "stemmed BM25 words").Stemmer(stemmer)
        self.size = len(texts)
        self._model: Any = None
        if texts:
            tokens = self._bm25s.tokenize(list(texts), stopwords="en", stemmer=self._stemmer, show_progress=False)
            self._model = self._bm25s.BM25()
            self._model.index(tokens, show_progress=False)

    def scores(self, question: str) -> np.ndarray:
        """BM25 score of ``question`` for each text: float array of shape ``(len(texts),)``, 0 where no word matches."""
        if self._model is None:
            return np.zeros(0)
        words = self._bm25s.tokenize([question], stopwords="en", stemmer=self._stemmer, show_progress=False,
                                     return_ids=False)[0]
        return np.asarray(self._model.get_scores(words), dtype=float)


def lexical_order(scores: np.ndarray) -> np.ndarray:
    """Indices of the positive ``scores``, highest first (ties: earlier first); the others are left out."""
    order = np.argsort(-scores, kind="stable")
    return order[scores[order] > 0]


def fuse(rankings: Sequence[np.ndarray], n: int, k: int = RRF_K, weights: Sequence[float] | None = None) -> np.ndarray:
    """Reciprocal rank fusion of rankings of ``n`` items into one ranking of all ``n``.

    Args:
        rankings: Each an int array of item indices, best first (it may hold only some items).
        n: The number of items.
        k: The fusion constant; >= 1.
        weights: One per ranking (default 1 each).

    Returns:
        int array of shape ``(n,)``: :func:`docchunk.index.fusion.reciprocal_rank_fusion`'s
        order, then the items of no ranking, in order.
    """
    return _with_rest([i for i, _ in reciprocal_rank_fusion([order.tolist() for order in rankings], k, weights)], n)


def _with_rest(fused: list[int], n: int) -> np.ndarray:
    """``fused`` then the items of ``range(n)`` it lacks, in order: int array of shape ``(n,)``."""
    rest = np.setdiff1d(np.arange(n), fused, assume_unique=True)
    return np.concatenate([np.array(fused, dtype=np.int64), rest]).astype(np.int64)


def rank_chunks(ranker: str, question: np.ndarray, vectors: np.ndarray, lexical: np.ndarray | None) -> np.ndarray:
    """The ranking of ``ranker`` over ``n`` chunks: every index once, best first.

    Args:
        ranker: ``dense``, ``lexical`` or ``hybrid``.
        question: The question's vector, shape ``(d,)`` (unused by ``lexical``).
        vectors: The chunks' vectors, shape ``(n, d)``.
        lexical: The chunks' BM25 scores for the question, shape ``(n,)`` (None for ``dense``).

    Returns:
        int array of shape ``(n,)``. ``lexical`` ranks the chunks with a matching word by
        BM25, then the others in order; ``hybrid`` fuses the dense ranking with the
        ranking of the matching chunks (:func:`docchunk.index.fusion.hybrid_fusion`), as
        the index's hybrid search does.
    """
    if ranker == "dense":
        return rank(question, vectors)
    assert lexical is not None
    words = lexical_order(lexical)
    if ranker == "lexical":
        rest = np.setdiff1d(np.arange(len(lexical)), words, assume_unique=True)
        return np.concatenate([words, rest]).astype(np.int64)
    return _with_rest([i for i, _ in hybrid_fusion(rank(question, vectors).tolist(), words.tolist())], len(lexical))


def content_first(order: np.ndarray, marked: np.ndarray) -> np.ndarray:
    """``order`` with the ``marked`` items (bool array indexed by item) after the others, each group in order."""
    is_marked = marked[order]
    return np.concatenate([order[~is_marked], order[is_marked]])
