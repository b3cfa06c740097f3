"""The evaluation's rankers: BM25 (bm25s), reciprocal rank fusion, and --ranker through eval-docs and eval."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("bm25s")

from docchunk import ConfigError
from docchunk.evaluation.docqa import evaluate_docs, load_docqa
from docchunk.evaluation.rankers import RRF_K, LexicalScorer, fuse, rank_chunks
from docchunk.index.fusion import DENSE_WEIGHT, LEXICAL_WEIGHT, hybrid_fusion
from tests.helpers import ROOT, letter_counts

DOCQA = ROOT / "tests" / "data" / "doc-qa"


def test_bm25_ranks_the_text_with_the_rare_words_of_the_question_first():
    texts = ["The warranty covers parts for two years.", "The buyer pays the shipping.",
             "Either party may end the agreement with notice.", "The seller pays the shipping of returns."]  # fmt: skip
    scores = LexicalScorer(texts).scores("Who pays for shipping returns?")
    assert int(np.argmax(scores)) == 3 and scores[0] == scores[2] == 0.0 and scores[1] > 0


def test_fuse_sums_reciprocal_ranks_by_hand():
    # items 2 and 0 both score 1/61 + 1/62: a tie keeps the item met first (2); 3 is in no ranking
    assert fuse([np.array([2, 0, 1]), np.array([0, 2])], 4).tolist() == [2, 0, 1, 3]
    assert fuse([np.array([1, 0]), np.array([1])], 3).tolist() == [1, 0, 2]
    assert 1 / (RRF_K + 1) + 1 / (RRF_K + 2) > 2 / (RRF_K + 2)


def test_bm25_stems_english_words_as_the_index_does():
    """The words are stemmed (Snowball English, as LanceDB's full-text index): "returned" finds "returns"."""
    texts = ["The seller pays the shipping of returns.", "The buyer pays the taxes.", "Delivery takes a week."]
    assert LexicalScorer(texts).scores("Who pays when goods are returned?")[0] > LexicalScorer(texts).scores(
        "Who pays when goods are returned?")[1] > 0  # fmt: skip
    assert LexicalScorer(texts, stemmer=None).scores("returned shipments").tolist() == [0.0, 0.0, 0.0]
    assert LexicalScorer(texts).scores("returned shipments")[0] > 0


def test_weighted_fusion_by_hand():
    assert fuse([np.array([0, 1]), np.array([1, 0])], 2, weights=(1.0, 2.0)).tolist() == [1, 0]
    fused = dict(hybrid_fusion(["a", "b", "c"], ["c", "b"]))
    assert fused["a"] == pytest.approx(DENSE_WEIGHT / (RRF_K + 1))
    assert fused["c"] == pytest.approx(DENSE_WEIGHT / (RRF_K + 3) + LEXICAL_WEIGHT / (RRF_K + 1))
    # the words' first chunk leads the vectors' first, and a chunk both rank high leads both
    assert hybrid_fusion(["a", "x"], ["b", "y"])[0][0] == "b"
    assert hybrid_fusion(["a", "b", "x"], ["c", "b", "y"])[0][0] == "b"


@given(st.lists(st.floats(0, 5), min_size=1, max_size=30), st.sampled_from(["dense", "lexical", "hybrid"]))
def test_every_ranker_ranks_every_chunk_once(lexical, ranker):
    n = len(lexical)
    rng = np.random.default_rng(n)
    order = rank_chunks(ranker, rng.standard_normal(4), rng.standard_normal((n, 4)), np.array(lexical))
    assert sorted(order.tolist()) == list(range(n))
    if ranker == "lexical":
        ranked = np.array(lexical)[order]
        positive = int((ranked > 0).sum())
        assert list(ranked[:positive]) == sorted(ranked[:positive], reverse=True) and not ranked[positive:].any()


_letters = letter_counts


def test_eval_docs_figures_per_ranker_on_the_excerpt():
    data = load_docqa(DOCQA)
    rankers = ("dense", "lexical", "hybrid")
    reports = {r: evaluate_docs(data, _letters, options={"max_tokens": 256}, ranker=r) for r in rankers}
    for name, report in reports.items():
        assert report.config["ranker"] == name
        for row in report.rows:
            assert 0 <= row["doc@1"] <= row["doc@3"] <= row["doc@5"] <= 1
    # letter counts barely rank; the question's words do: lexical and hybrid beat dense on doc@1
    means = {name: report.summary()["overall"]["doc@1"] for name, report in reports.items()}
    assert means["lexical"] > means["dense"] and means["hybrid"] > means["dense"], means


def test_an_unknown_ranker_is_a_config_error():
    with pytest.raises(ConfigError, match="ranker='bm25' is not a ranker; choose one of dense, lexical, hybrid"):
        evaluate_docs(load_docqa(DOCQA, ["fin"], 1), _letters, ranker="bm25")


def test_chunked_documents_are_reused_and_give_the_same_figures():
    data = load_docqa(DOCQA, ["fin"], 2)
    chunked: dict = {}
    first = evaluate_docs(data, _letters, options={"max_tokens": 256}, ranker="hybrid", chunked=chunked)
    assert len(chunked) == 1
    again = evaluate_docs(data, _letters, options={"max_tokens": 256}, ranker="hybrid", chunked=chunked)
    assert again.rows == first.rows and len(chunked) == 1
    other = evaluate_docs(data, _letters, options={"max_tokens": 128}, ranker="hybrid", chunked=chunked)
    assert len(chunked) == 2 and other.chunks["fin"]["chunks"] >= first.chunks["fin"]["chunks"]


def test_content_first_moves_marked_chunks_after_the_others_in_order():
    from docchunk.evaluation.rankers import content_first

    marked = np.array([False, True, False, True, False])
    assert content_first(np.array([3, 1, 0, 4, 2]), marked).tolist() == [0, 4, 2, 3, 1]
