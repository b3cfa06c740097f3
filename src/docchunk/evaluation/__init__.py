"""Retrieval evaluation of chunkings over character spans (``docchunk eval``).

Needs numpy, and sentence-transformers for the embedding model (``pip install ".[eval]"``).
Metrics follow Smith and Troynikov, "Evaluating Chunking Strategies for Retrieval"
(Chroma, 2024); see :mod:`docchunk.evaluation.metrics`.

Example:
    >>> from docchunk.embeddings import DEFAULT_MODEL, CachedEmbedder, default_cache_dir, load_model
    >>> from docchunk.evaluation import ChunkingConfig, evaluate, load_eval_set
    >>> embed = CachedEmbedder(load_model(), DEFAULT_MODEL, cache_dir=default_cache_dir())  # doctest: +SKIP
    >>> config = ChunkingConfig("token", "tiktoken:cl100k_base", 200)
    >>> report = evaluate(load_eval_set("chroma-general"), config, embed)  # doctest: +SKIP
    >>> report.summary()["recall_k"]["mean"]  # doctest: +SKIP
    78.0
"""

from __future__ import annotations

import warnings
from typing import Any

from docchunk.evaluation.config import CHUNKERS, ChunkingConfig, EvalChunks, chunk_corpus
from docchunk.evaluation.data import EvalSet, Question, load_eval_set
from docchunk.evaluation.metrics import SpanScores, merge_spans, overlap_length, precision_omega, score_retrieval
from docchunk.evaluation.run import BUDGET_TOKENIZER, EvalReport, evaluate, rank, select_budget

__all__ = [
    "BUDGET_TOKENIZER",
    "CHUNKERS",
    "ChunkingConfig",
    "EvalChunks",
    "EvalReport",
    "EvalSet",
    "Question",
    "SpanScores",
    "chunk_corpus",
    "evaluate",
    "load_eval_set",
    "merge_spans",
    "overlap_length",
    "precision_omega",
    "rank",
    "score_retrieval",
    "select_budget",
]

_MOVED = frozenset({"DEFAULT_MODEL", "CachedEmbedder", "default_cache_dir", "load_model"})


def __getattr__(name: str) -> Any:
    """The embedding names this package exported before :mod:`docchunk.embeddings`, with a DeprecationWarning."""
    if name not in _MOVED:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(f"docchunk.evaluation.{name} moved to docchunk.embeddings.{name}; import it from there "
                  "(the old name goes away in a later release)", DeprecationWarning, stacklevel=2)  # fmt: skip
    import docchunk.embeddings

    return getattr(docchunk.embeddings, name)
