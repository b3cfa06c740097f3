"""Strict configuration of the text chunkers: unknown keywords and assignments fail loudly."""

from __future__ import annotations

import pytest

import docchunk


def embed(batch: list[str]) -> list[list[float]]:
    return [[1.0, float(len(t))] for t in batch]


# (make the chunker from keyword arguments, a misspelt keyword, the keyword it should suggest)
MISSPELT = [
    pytest.param(docchunk.RecursiveChunker, "chunk_sizes", "chunk_size", id="RecursiveChunker"),
    pytest.param(docchunk.TokenChunker, "chunk_overlapp", "chunk_overlap", id="TokenChunker"),
    pytest.param(docchunk.SentenceChunker, "min_sentence_per_chunk", "min_sentences_per_chunk", id="SentenceChunker"),
    pytest.param(docchunk.WindowChunker, "offest", "offset", id="WindowChunker"),
    pytest.param(lambda **kw: docchunk.SemanticChunker(embed, **kw), "treshold", "threshold", id="SemanticChunker"),
    pytest.param(lambda **kw: docchunk.SDPMChunker(embed, **kw), "skipwindow", "skip_window", id="SDPMChunker"),
]


@pytest.mark.parametrize(("make", "bad", "good"), MISSPELT)
def test_misspelt_keyword_is_a_config_error_naming_the_accepted_ones(make, bad, good):
    with pytest.raises(docchunk.ConfigError) as info:
        make(**{bad: 3})
    message = str(info.value)
    assert repr(bad) in message and f"did you mean {good!r}" in message
    assert "Accepted: " in message and "tokenizer" in message.split("Accepted: ")[1]


def test_unknown_keyword_without_a_close_match_lists_the_accepted_ones():
    with pytest.raises(docchunk.ConfigError, match=r"'colour'; Accepted: chunk_overlap, chunk_size, keep_separator"):
        docchunk.RecursiveChunker(colour="red")


def test_too_many_positional_arguments_is_a_config_error():
    with pytest.raises(docchunk.ConfigError, match="too many positional arguments"):
        docchunk.TokenChunker("character", 8, 0, 5)


TEXT = "one two three four five six seven eight nine ten eleven twelve"


def test_assigned_chunk_size_takes_effect_like_a_constructed_one():
    chunker = docchunk.RecursiveChunker(chunk_size=20, tokenizer="word")
    assert len(chunker(TEXT)) == 1
    chunker.chunk_size = 5
    assert [c.text for c in chunker(TEXT)] == [c.text for c in docchunk.RecursiveChunker(5, tokenizer="word")(TEXT)]
    assert max(c.token_count for c in chunker(TEXT)) <= 5


def test_assignment_rebuilds_derived_state():
    # SentenceChunker splits a sentence longer than chunk_size with an inner chunker sized at construction
    chunker = docchunk.SentenceChunker("word", chunk_size=12)
    chunker.chunk_size = 3
    chunks = chunker(TEXT + ".")
    assert len(chunks) == 4 and all(c.token_count <= 3 for c in chunks)


@pytest.mark.parametrize(
    ("make", "name", "value", "message"),
    [
        (lambda: docchunk.RecursiveChunker(chunk_size=8), "chunk_size", -1, "chunk_size must be an int >= 1"),
        (lambda: docchunk.RecursiveChunker(chunk_size=8), "chunk_overlap", 8, "must be smaller than chunk_size"),
        (lambda: docchunk.RecursiveChunker(chunk_size=8), "keep_separator", "middle", "keep_separator"),
        (lambda: docchunk.TokenChunker(chunk_size=8), "chunk_size", 2.5, "chunk_size must be an int"),
        (lambda: docchunk.SentenceChunker(chunk_size=8), "min_sentences_per_chunk", 0, "min_sentences_per_chunk"),
        (lambda: docchunk.WindowChunker(), "unit", "line", "unit must be"),
        (lambda: docchunk.SemanticChunker(embed), "boundaries", "page", "boundaries must be one of"),
    ],
)
def test_invalid_assignment_is_an_error_and_leaves_the_chunker_unchanged(make, name, value, message):
    chunker = make()
    before = getattr(chunker, name)
    with pytest.raises(docchunk.ConfigError, match=message):
        setattr(chunker, name, value)
    assert getattr(chunker, name) == before
    assert "".join(c.text for c in chunker(TEXT)) == TEXT or isinstance(chunker, docchunk.WindowChunker)


def test_assigning_an_unknown_setting_is_an_error():
    chunker = docchunk.TokenChunker(chunk_size=8)
    with pytest.raises(docchunk.ConfigError, match=r"no setting 'chunksize' to assign; did you mean 'chunk_size'"):
        chunker.chunksize = 4
    assert not hasattr(chunker, "chunksize")


def test_assigned_tokenizer_spec_is_resolved():
    chunker = docchunk.TokenChunker(chunk_size=4)
    chunker.tokenizer = "word"
    assert isinstance(chunker.tokenizer, docchunk.Tokenizer) and chunker.tokenizer.count_tokens("a b") == 2
    assert [c.token_count for c in chunker(TEXT)] == [4, 4, 4]
