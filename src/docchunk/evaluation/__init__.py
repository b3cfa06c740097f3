"""Retrieval evaluation of chunkings over character spans (``docchunk eval``).

Needs numpy, and sentence-transformers for the embedding model (``pip install ".[eval]"``).
Metrics follow Smith and Troynikov, "Evaluating Chunking Strategies for Retrieval"
(Chroma, 2024); see :mod:`docchunk.evaluation.metrics`.

Example:
    >>> from docchunk.evaluation import CachedEmbedder, ChunkingConfig, default_cache_dir, evaluate
    >>> from docchunk.evaluation import load_eval_set, load_model
    >>> embed = CachedEmbedder(load_model(), "all-MiniLM-L6-v2", cache_dir=default_cache_dir())  # doctest: +SKIP
    >>> config = ChunkingConfig("token", "tiktoken:cl100k_base", 200)
    >>> report = evaluate(load_eval_set("chroma-general"), config, embed)  # doctest: +SKIP
    >>> report.summary()["recall_k"]["mean"]  # doctest: +SKIP
    78.0
"""

from __future__ import annotations

from docchunk.evaluation.config import CHUNKERS, ChunkingConfig, EvalChunks, chunk_corpus
from docchunk.evaluation.data import EvalSet, Question, load_eval_set
from docchunk.evaluation.embed import DEFAULT_MODEL, CachedEmbedder, default_cache_dir, load_model
from docchunk.evaluation.metrics import SpanScores, merge_spans, overlap_length, precision_omega, score_retrieval
from docchunk.evaluation.run import BUDGET_TOKENIZER, EvalReport, evaluate, rank, select_budget

__all__ = [
    "BUDGET_TOKENIZER",
    "CHUNKERS",
    "DEFAULT_MODEL",
    "CachedEmbedder",
    "ChunkingConfig",
    "EvalChunks",
    "EvalReport",
    "EvalSet",
    "Question",
    "SpanScores",
    "chunk_corpus",
    "default_cache_dir",
    "evaluate",
    "load_eval_set",
    "load_model",
    "merge_spans",
    "overlap_length",
    "precision_omega",
    "rank",
    "score_retrieval",
    "select_budget",
]
