"""Character-span retrieval metrics: recall, precision, IoU and precision_Ω.

Spans are half-open ``(start, end)`` character offsets into one corpus text. The
arithmetic is on intervals (numpy arrays of starts and ends), never on sets of
character positions, so a question costs O(n log n) in its number of spans.

Definitions follow Smith and Troynikov, "Evaluating Chunking Strategies for
Retrieval" (Chroma, 2024): with E the union of a question's reference spans and R
the retrieved chunks counted with multiplicity,

- recall = |E ∩ U(R)| / |E|
- precision = |E ∩ U(R)| / Σ|r|
- IoU = |E ∩ U(R)| / (Σ|r| + |E| - |E ∩ U(R)|)
- precision_Ω = the IoU of the ideal retrieval: exactly the chunks that overlap E,
  each once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from docchunk.errors import DocumentError

__all__ = ["SpanScores", "merge_spans", "overlap_length", "overlapping", "precision_omega", "score_retrieval"]

Span = tuple[int, int]


@dataclass(frozen=True)
class SpanScores:
    """Scores of one retrieval, each a fraction in [0, 1].

    Attributes:
        recall: Share of the reference characters that some retrieved chunk covers.
        precision: Reference characters covered, over the retrieved characters
            counted with multiplicity (0 when nothing is retrieved).
        iou: Reference characters covered, over the union-like denominator
            ``Σ|r| + |E| - |E ∩ U(R)|``.
    """

    recall: float
    precision: float
    iou: float


def merge_spans(spans: Sequence[Span] | np.ndarray) -> np.ndarray:
    """The union of half-open spans as sorted, disjoint, non-touching spans.

    Args:
        spans: ``(start, end)`` character offsets, any order; empty spans are dropped.

    Returns:
        An int64 array of shape ``(m, 2)``: starts strictly increasing and each
        span ending before the next starts.
    """
    arr = np.asarray(spans, dtype=np.int64).reshape(-1, 2)
    arr = arr[arr[:, 1] > arr[:, 0]]
    if len(arr) < 2:
        return arr
    arr = arr[np.argsort(arr[:, 0], kind="stable")]
    reach = np.maximum.accumulate(arr[:, 1])
    new = np.empty(len(arr), dtype=bool)
    new[0] = True
    new[1:] = arr[1:, 0] > reach[:-1]  # a span that starts after every earlier end opens a group
    group = np.cumsum(new) - 1
    starts = arr[new, 0]
    ends = np.zeros(len(starts), dtype=np.int64)
    np.maximum.at(ends, group, arr[:, 1])
    return np.stack([starts, ends], axis=1)


def overlap_length(a: np.ndarray, b: np.ndarray) -> int:
    """Characters in both of two merged span arrays (as returned by :func:`merge_spans`).

    Args:
        a: Shape ``(m, 2)``, disjoint spans.
        b: Shape ``(n, 2)``, disjoint spans.

    Returns:
        ``|U(a) ∩ U(b)|`` in characters (exact because each side is disjoint).
    """
    if len(a) == 0 or len(b) == 0:
        return 0
    lo = np.maximum(a[:, None, 0], b[None, :, 0])
    hi = np.minimum(a[:, None, 1], b[None, :, 1])
    return int(np.clip(hi - lo, 0, None).sum())


def _total(spans: Sequence[Span]) -> int:
    return int(sum(e - s for s, e in spans))


def score_retrieval(references: Sequence[Span], retrieved: Sequence[Span]) -> SpanScores:
    """Recall, precision and IoU of retrieved chunk spans against reference spans.

    Args:
        references: The question's reference spans (characters); their union is E.
            Must not be empty or all empty.
        retrieved: The retrieved chunks' own spans, counted with multiplicity (a
            chunk retrieved twice counts twice in Σ|r|).

    Returns:
        The three scores; an empty retrieval scores 0 on all three.

    Raises:
        DocumentError: The references cover no character (a question of the eval set
            whose reference spans are all empty).
    """
    e = merge_spans(references)
    e_len = int((e[:, 1] - e[:, 0]).sum())
    if e_len == 0:
        raise DocumentError(f"the references {list(references)!r} cover no character: each reference span needs "
                            "start < end (characters of the question's corpus); fix or drop that question")
    hit = overlap_length(e, merge_spans(retrieved))
    sum_r = _total(retrieved)
    precision = hit / sum_r if sum_r else 0.0
    return SpanScores(recall=hit / e_len, precision=precision, iou=hit / (sum_r + e_len - hit))


def overlapping(references: Sequence[Span], chunks: np.ndarray) -> np.ndarray:
    """Indices of the chunks that share at least one character with the references.

    Args:
        references: Reference spans (characters).
        chunks: Chunk spans, int array of shape ``(n, 2)``.

    Returns:
        Sorted int array of chunk indices.
    """
    e = merge_spans(references)
    chunks = np.asarray(chunks, dtype=np.int64).reshape(-1, 2)
    if len(e) == 0 or len(chunks) == 0:
        return np.zeros(0, dtype=np.int64)
    lo = np.maximum(chunks[:, None, 0], e[None, :, 0])
    hi = np.minimum(chunks[:, None, 1], e[None, :, 1])
    return np.flatnonzero((hi > lo).any(axis=1))


def precision_omega(references: Sequence[Span], chunks: np.ndarray) -> float:
    """IoU of the ideal retrieval: every chunk overlapping the references, once each.

    It depends on the chunking only, not on the embedding model: the best IoU any
    ranking could reach with these chunks when it retrieves all the evidence.

    Args:
        references: Reference spans (characters).
        chunks: All chunk spans of the corpus, int array of shape ``(n, 2)``.

    Returns:
        A fraction in [0, 1] (0 when no chunk overlaps the references).
    """
    chunks = np.asarray(chunks, dtype=np.int64).reshape(-1, 2)
    ideal = chunks[overlapping(references, chunks)]
    return score_retrieval(references, [tuple(s) for s in ideal.tolist()]).iou
