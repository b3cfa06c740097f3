"""Strict configuration of the document chunkers: HybridChunker(max_token=64) chunked at 256."""

from __future__ import annotations

import pytest

import docchunk
from tests.helpers import DATA, load

DOC = DATA / "docling_core__2_inp_dl_doc.json"


def test_misspelt_max_token_is_an_error_not_the_default_budget():
    with pytest.raises(docchunk.ConfigError) as info:
        docchunk.HybridChunker(max_token=64)
    message = str(info.value)
    assert "'max_token'" in message and "did you mean 'max_tokens'" in message
    assert "merge_peers" in message.split("Accepted: ")[1]


@pytest.mark.parametrize(
    ("cls", "bad", "good"),
    [
        (docchunk.HybridChunker, "merge_peer", "merge_peers"),
        (docchunk.HybridChunker, "repeat_table_headers", "repeat_table_header"),
        (docchunk.HierarchicalChunker, "always_emit_heading", "always_emit_headings"),
        (docchunk.HierarchicalChunker, "delimiter", "delim"),
    ],
)
def test_unknown_keywords_name_the_closest_accepted_one(cls, bad, good):
    with pytest.raises(docchunk.ConfigError, match=f"'{bad}'; did you mean '{good}'"):
        cls(**{bad: True})


@pytest.mark.parametrize("cls", [docchunk.HierarchicalChunker, docchunk.HybridChunker])
def test_code_chunking_strategy_must_be_a_strategy(cls):
    with pytest.raises(docchunk.ConfigError, match="code_chunking_strategy must be None or a code chunking strategy"):
        cls(code_chunking_strategy=object())
    assert cls(code_chunking_strategy=None).code_chunking_strategy is None


@pytest.mark.parametrize("cls", [docchunk.PageChunker, docchunk.LineBasedTokenChunker])
def test_code_chunking_strategy_on_other_chunkers_says_where_it_applies(cls):
    with pytest.raises(docchunk.ConfigError, match="only HierarchicalChunker and HybridChunker take"):
        cls(max_tokens=64, code_chunking_strategy=object())
    # docling-core's default (None) asks for nothing: accepted
    assert "code_chunking_strategy" not in cls(max_tokens=64, code_chunking_strategy=None).model_dump()


def test_assigned_max_tokens_takes_effect():
    doc = load(DOC)
    chunker = docchunk.HybridChunker(max_tokens=256)
    chunker.max_tokens = 32
    chunks = list(chunker.chunk(doc))
    assert [c.text for c in chunks] == [c.text for c in docchunk.HybridChunker(max_tokens=32).chunk(doc)]
    assert max(c.meta.token_count for c in chunks if not c.meta.oversized) <= 32


def test_assigned_tokenizer_is_resolved_again():
    chunker = docchunk.HybridChunker(max_tokens=64)
    chunker.tokenizer = "word"
    assert chunker.token_counter.count_tokens("two words") == 2
    chunk = next(iter(chunker.chunk(load(DOC))))
    assert chunk.meta.token_count == len(chunker.contextualize(chunk).split())


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("max_tokens", -1, "max_tokens must be an int >= 1, got -1"),
        ("max_tokens", "64", "max_tokens must be an int >= 1, got '64'"),
        ("merge_peers", "perhaps", "merge_peers"),
        ("tokenizer", "no-such-tokenizer", "unknown tokenizer spec"),
        ("text_splitter", 5, "text_splitter must be a docchunk text chunker"),
        ("delim", 3, "invalid delim=3"),
    ],
)
def test_invalid_assignment_is_an_error_and_leaves_the_chunker_unchanged(name, value, message):
    chunker = docchunk.HybridChunker(max_tokens=64)
    before = chunker.model_dump()
    counter = chunker.token_counter
    with pytest.raises(docchunk.DocchunkError, match=message):
        setattr(chunker, name, value)
    assert chunker.model_dump() == before and chunker.token_counter is counter
    assert max(c.meta.token_count for c in chunker.chunk(load(DOC))) <= 64


def test_assigning_an_unknown_setting_is_an_error():
    chunker = docchunk.HierarchicalChunker()
    with pytest.raises(docchunk.ConfigError, match="no setting 'max_token' to assign"):
        chunker.max_token = 64


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("max_tokens", 0, "max_tokens must be an int >= 1, got 0"),
        ("max_tokens", "x", "invalid max_tokens='x'"),
        ("tokenizer", "no-such-tokenizer", "unknown tokenizer spec"),
        ("max_token", 5, "no setting 'max_token' to assign; did you mean 'max_tokens'"),
    ],
)
def test_expander_assignment_is_validated_and_leaves_it_unchanged(name, value, message):
    """Bug: the expanders did not validate assignment (``expander.max_tokens = 0`` was kept)."""
    expander = docchunk.TreeChunkExpander(max_tokens=512)
    before, counter = expander.model_dump(), expander.token_counter
    with pytest.raises(docchunk.DocchunkError, match=message):
        setattr(expander, name, value)
    assert expander.model_dump() == before and expander.token_counter is counter


def test_expander_assigned_tokenizer_is_resolved_again():
    expander = docchunk.PageChunkExpander()
    expander.tokenizer = "word"
    assert expander.token_counter.count_tokens("two words") == 2
    with pytest.raises(docchunk.ConfigError, match="invalid max_token=3"):
        docchunk.TreeChunkExpander(max_token=3)


@pytest.mark.parametrize("value", ["10", True, 1.0, 2.5])
def test_min_tokens_is_not_coerced(value):
    """pydantic turned "10" into 10 and True into 1 before docchunk's own check saw them, while
    max_tokens and every chunk_size reject such values."""
    with pytest.raises(docchunk.ConfigError, match="min_tokens must be None or an int") as raised:
        docchunk.HybridChunker(min_tokens=value)
    assert isinstance(raised.value, ValueError) and repr(value) in str(raised.value)
    chunker = docchunk.HybridChunker(min_tokens=10)
    with pytest.raises(docchunk.ConfigError, match="min_tokens"):
        chunker.min_tokens = value
    assert chunker.min_tokens == 10
