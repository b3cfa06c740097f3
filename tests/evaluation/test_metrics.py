"""Span metrics: hand-checked small cases, and interval arithmetic against per-character sets."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from docchunk.errors import DocumentError
from docchunk.evaluation import merge_spans, overlap_length, precision_omega, score_retrieval, select_budget


def test_a_chunk_equal_to_the_reference_scores_one():
    s = score_retrieval([(10, 20)], [(10, 20)])
    assert (s.recall, s.precision, s.iou) == (1.0, 1.0, 1.0)


@pytest.mark.parametrize(
    ("refs", "retrieved", "expected"),
    [
        # half the reference, in a chunk of 15: hit 5; IoU 5 / (15 + 10 - 5)
        ([(10, 20)], [(15, 30)], (0.5, 5 / 15, 0.25)),
        # the same chunk twice counts twice in the retrieved size
        ([(10, 20)], [(10, 20), (10, 20)], (1.0, 0.5, 10 / (20 + 10 - 10))),
        # two references, one chunk over the gap between them: hit 10 of 20
        ([(0, 10), (20, 30)], [(5, 25)], (0.5, 0.5, 10 / (20 + 20 - 10))),
        # overlapping references are one span of E
        ([(0, 10), (5, 15)], [(0, 15)], (1.0, 1.0, 1.0)),
        # a chunk that misses
        ([(0, 10)], [(50, 60)], (0.0, 0.0, 0.0)),
        # nothing retrieved
        ([(0, 10)], [], (0.0, 0.0, 0.0)),
    ],
)
def test_scores_by_hand(refs, retrieved, expected):
    s = score_retrieval(refs, retrieved)
    assert (s.recall, s.precision, s.iou) == pytest.approx(expected)


def test_precision_omega_takes_each_overlapping_chunk_once():
    chunks = np.array([(0, 10), (10, 20), (20, 30)])
    assert precision_omega([(5, 15)], chunks) == pytest.approx(10 / 20)  # chunks 0 and 1; E inside them
    assert precision_omega([(10, 20)], chunks) == 1.0  # a touching neighbour shares no character
    assert precision_omega([(0, 10), (2, 8)], chunks) == 1.0


def test_references_that_cover_nothing_are_a_docchunk_error():
    """It was a bare ValueError, outside docchunk's exception tree (issue 50)."""
    with pytest.raises(DocumentError, match="cover no character") as err:
        score_retrieval([(5, 5)], [(0, 10)])
    assert isinstance(err.value, ValueError)  # still caught by `except ValueError`


def test_select_budget_keeps_the_longest_ranked_prefix_that_fits():
    tokens = np.array([100, 300, 50])
    order = np.array([1, 0, 2])
    assert select_budget(order, tokens, 400).tolist() == [1, 0]
    assert select_budget(order, tokens, 449).tolist() == [1, 0]
    assert select_budget(order, tokens, 450).tolist() == [1, 0, 2]
    assert select_budget(order, tokens, 299).tolist() == []  # the top chunk alone is too large


spans = st.lists(st.tuples(st.integers(0, 60), st.integers(0, 60)).map(sorted).map(tuple), max_size=8)


def chars(ss):
    return {i for s, e in ss for i in range(s, e)}


@given(spans, spans)
def test_interval_arithmetic_matches_character_sets(a, b):
    ma, mb = merge_spans(a), merge_spans(b)
    assert chars(ma.tolist()) == chars(a)
    assert all(ma[i, 1] < ma[i + 1, 0] for i in range(len(ma) - 1))  # disjoint, not touching
    assert overlap_length(ma, mb) == len(chars(a) & chars(b))


@given(spans.filter(lambda s: any(e > b for b, e in s)), spans)
def test_scores_match_their_definitions_on_character_sets(refs, retrieved):
    e, hit_set = chars(refs), chars(refs) & chars(retrieved)
    total = sum(b - a for a, b in retrieved)
    s = score_retrieval(refs, retrieved)
    assert s.recall == pytest.approx(len(hit_set) / len(e))
    assert s.precision == pytest.approx(len(hit_set) / total if total else 0.0)
    assert s.iou == pytest.approx(len(hit_set) / (total + len(e) - len(hit_set)))
