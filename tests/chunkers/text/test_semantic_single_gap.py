"""Semantic chunking with one candidate gap.

With one candidate gap, "a local minimum below the threshold quantile" can never hold, so two
paragraphs on two topics (or two sentences with boundaries="sentence") came back as one chunk.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

import docchunk

TOPICS = ("cat", "stock")


def topic_embed(batch: list[str]) -> np.ndarray:
    """One axis per topic keyword plus a small shared component: same topic ~1, different ~0."""
    rows = [[t.lower().count(k) for k in TOPICS] + [0.05] for t in batch]
    return np.asarray(rows, dtype=float)


CATS = "The cat sleeps on the sofa. The cat eats fish. My cat purrs at night."
STOCKS = "The stock fell in the morning. A stock rose later. Stock traders went home."
TWO_PARAGRAPHS = CATS + "\n\n" + STOCKS
TWO_SENTENCES = "The cat sleeps on the warm sofa all afternoon. The stock market fell after the bank raised rates."
SAME_TOPIC = "The cat sleeps on the sofa. The cat eats fish.\n\nMy cat purrs at night. The cat naps."

CHUNKERS = {
    "semantic": lambda embed, **kw: docchunk.SemanticChunker(embed, chunk_size=2000, **kw),
    "sdpm": lambda embed, **kw: docchunk.SDPMChunker(embed, chunk_size=2000, **kw),
}


@pytest.mark.parametrize("kind", CHUNKERS)
def test_two_paragraphs_on_two_topics_give_two_chunks(kind):
    chunks = CHUNKERS[kind](topic_embed)(TWO_PARAGRAPHS)
    assert [c.text for c in chunks] == [CATS + "\n\n", STOCKS]


@pytest.mark.parametrize("kind", CHUNKERS)
def test_two_sentences_on_two_topics_give_two_chunks(kind):
    chunks = CHUNKERS[kind](topic_embed, boundaries="sentence")(TWO_SENTENCES)
    assert len(chunks) == 2 and "".join(c.text for c in chunks) == TWO_SENTENCES
    assert "cat" in chunks[0].text and "stock" in chunks[1].text


@pytest.mark.parametrize("kind", CHUNKERS)
def test_one_topic_with_one_candidate_stays_one_chunk(kind):
    assert len(CHUNKERS[kind](topic_embed)(SAME_TOPIC)) == 1


def test_similarity_floor_none_keeps_the_quantile_rule_only():
    # the stock sentences share no keyword with each other's neighbours here, so the relative rule
    # (less similar than every pair inside the paragraphs) does not apply either
    chunker = docchunk.SemanticChunker(topic_embed, chunk_size=2000, boundaries="sentence", similarity_floor=None)
    assert len(chunker(TWO_SENTENCES)) == 1
    with pytest.raises(docchunk.ConfigError, match="similarity_floor"):
        docchunk.SemanticChunker(topic_embed, similarity_floor=2)


def test_relative_rule_splits_when_every_similarity_is_high():
    """A model whose similarities all run high (no gap below the floor): the paragraph gap is
    less similar than every pair of sentences inside the paragraphs, so it is a boundary."""

    def high_embed(batch):
        return topic_embed(batch) + 2.0  # every cosine similarity is now above 0.8

    chunks = docchunk.SemanticChunker(high_embed, chunk_size=2000)(TWO_PARAGRAPHS)
    assert [c.text for c in chunks] == [CATS + "\n\n", STOCKS]


@pytest.fixture(scope="module")
def minilm(minilm_dir):
    pytest.importorskip("torch", reason="needs torch: pip install torch==2.13.0 (CPU build)")
    pytest.importorskip("sentence_transformers", reason='needs sentence-transformers: pip install "docchunk[semantic]"')
    os.environ["HF_HUB_OFFLINE"] = "1"
    from docchunk.embeddings.sentence_transformers import SentenceTransformerEmbeddings

    return SentenceTransformerEmbeddings(str(minilm_dir), device="cpu")


REAL_PARAGRAPHS = (
    "Cats are small domesticated carnivores. They sleep for most of the day. "
    "A cat grooms its fur with its rough tongue.\n\n"
    "The central bank raised interest rates again. Bond yields climbed after the announcement. "
    "Investors sold shares of regional banks."
)
REAL_SENTENCES = (
    "Cats are small domesticated carnivores that sleep most of the day. "
    "The central bank raised interest rates again to fight inflation."
)


@pytest.mark.slow
@pytest.mark.parametrize("kind", CHUNKERS)
def test_real_model_splits_a_single_candidate_gap(minilm, kind):
    cut = REAL_PARAGRAPHS.index("The central")
    chunks = CHUNKERS[kind](minilm)(REAL_PARAGRAPHS)
    assert [c.text for c in chunks] == [REAL_PARAGRAPHS[:cut], REAL_PARAGRAPHS[cut:]]
    cut = REAL_SENTENCES.index("The central")
    chunks = CHUNKERS[kind](minilm, boundaries="sentence")(REAL_SENTENCES)
    assert [c.text for c in chunks] == [REAL_SENTENCES[:cut], REAL_SENTENCES[cut:]]


DUCKS_RATES_DUCKS = (
    "Ducks swim on the pond every morning. A duck quacks loudly at the bread. Ducks dive for weed.\n\n"
    "The central bank raised interest rates again. Mortgages cost more. Savers earn a little more.\n\n"
    "The ducks come back to the pond at dusk. A duck sleeps with its head under a wing."
)


def duck_or_rates(batch: list[str]) -> np.ndarray:
    """Exact: duck sentences on one axis, the others on another, so both gaps score 0 at every window."""
    return np.asarray([[1.0, 0.0] if "duck" in t.lower() else [0.0, 1.0] for t in batch])


@pytest.mark.parametrize("cls", [docchunk.SemanticChunker, docchunk.SDPMChunker])
@pytest.mark.parametrize("window", [0, 1, 2, 3])
@pytest.mark.parametrize("threshold", [0.0, 0.3, 0.5, 0.8, 1.0])
def test_a_gap_below_the_floor_always_splits(cls, window, threshold):
    """Ducks, interest rates, ducks: both gaps are below similarity_floor, so the rates stand alone,
    whatever the window and threshold, and SDPM does not merge the two duck paragraphs across them."""
    chunker = cls(duck_or_rates, threshold=threshold, similarity_window=window, similarity_floor=0.15,
                  chunk_size=1000)  # fmt: skip
    if cls is docchunk.SDPMChunker:
        chunker.skip_window = 2
    texts = [c.text for c in chunker(DUCKS_RATES_DUCKS)]
    assert "".join(texts) == DUCKS_RATES_DUCKS
    assert [t.strip() for t in texts] == [p for p in DUCKS_RATES_DUCKS.split("\n\n")], texts
