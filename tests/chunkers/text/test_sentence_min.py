"""SentenceChunker.min_sentences_per_chunk (it was validated but never used)."""

from __future__ import annotations

from itertools import pairwise

import pytest

import docchunk

TEXT = "A b. C d. E f. G h."  # four sentences of two words


def texts(**kwargs):
    return [c.text for c in docchunk.SentenceChunker("word", **kwargs)(TEXT)]


def test_min_sentences_per_chunk_was_ignored_and_left_a_one_sentence_tail():
    assert texts(chunk_size=6) == ["A b. C d. E f. ", "G h."]  # greedy
    assert texts(chunk_size=6, min_sentences_per_chunk=2) == ["A b. C d. ", "E f. G h."]


def test_the_chunk_before_keeps_the_minimum():
    # taking a sentence would leave the first chunk with two of three: nothing moves
    assert texts(chunk_size=6, min_sentences_per_chunk=3) == ["A b. C d. E f. ", "G h."]


def test_the_budget_wins_over_the_minimum():
    chunks = docchunk.SentenceChunker("word", chunk_size=2, min_sentences_per_chunk=2)(TEXT)
    assert [c.text for c in chunks] == ["A b. ", "C d. ", "E f. ", "G h."]
    assert all(c.token_count <= 2 for c in chunks)


def test_fewer_sentences_than_the_minimum_give_one_chunk():
    assert [c.text for c in docchunk.SentenceChunker("word", chunk_size=50, min_sentences_per_chunk=9)(TEXT)] == [TEXT]


@pytest.mark.parametrize(
    ("size", "overlap"), [(size, overlap) for size in (2, 4, 6, 8) for overlap in (0, 2) if overlap < size]
)
@pytest.mark.parametrize("minimum", [1, 2, 3, 4])
def test_invariants_hold_with_a_minimum(size, minimum, overlap):
    text = " ".join(f"Sentence {k} has words." for k in range(9))
    tok = docchunk.get_tokenizer("word")
    chunker = docchunk.SentenceChunker(tok, chunk_size=size, chunk_overlap=overlap, min_sentences_per_chunk=minimum)
    chunks = chunker(text)
    for c in chunks:
        assert text[c.start_index : c.end_index] == c.text and c.text
        assert c.token_count == tok.count_tokens(c.text) and (c.token_count <= size or c.oversized)
    assert chunks[0].start_index == 0 and chunks[-1].end_index == len(text)
    if not overlap:
        assert "".join(c.text for c in chunks) == text
    else:
        assert all(a.start_index < b.start_index <= a.end_index for a, b in pairwise(chunks))
