"""Overlap on both sides, and overlap units on document chunks."""

from __future__ import annotations

import pytest

import docchunk
from docchunk import OverlapRefinery
from tests.helpers import DATA, load

THREE_PARAGRAPHS = (
    "Alpha one two three four five six seven eight nine ten.\n\n"
    "Bravo eleven twelve thirteen fourteen fifteen sixteen seventeen.\n\n"
    "Charlie eighteen nineteen twenty twentyone twentytwo twentythree."
)


def _both_sides(chunks, merge, first="prefix", **kw):
    second = "suffix" if first == "prefix" else "prefix"
    chunks = OverlapRefinery(context_size=2, stop_at=(), method=first, merge=merge, **kw)(chunks)
    return OverlapRefinery(context_size=2, stop_at=(), method=second, merge=merge, **kw)(chunks)


@pytest.mark.parametrize("first", ["prefix", "suffix"])
def test_prefix_then_suffix_merged_takes_neighbours_original_text(first):
    chunks = docchunk.RecursiveChunker(chunk_size=12, tokenizer="word")(THREE_PARAGRAPHS)
    bodies = [c.text for c in chunks]
    assert len(bodies) == 3
    out = _both_sides(chunks, merge=True, first=first, tokenizer="word")
    # without the fix it gave "...nine ten.nine ten.\n\n": the suffix pass copied the chunk's own merged tail
    assert [c.text for c in out] == [
        bodies[0] + "\n\nBravo eleven ",
        "nine ten." + bodies[1] + "\n\nCharlie eighteen ",
        "sixteen seventeen." + bodies[2],
    ]
    for c in out:
        assert isinstance(c.start_index, int) and isinstance(c.end_index, int)
        assert THREE_PARAGRAPHS[c.start_index : c.end_index] == c.text
        assert c.context_prefix is None and c.context_suffix is None
        assert c.token_count == docchunk.get_tokenizer("word").count_tokens(c.text)


@pytest.mark.parametrize("first", ["prefix", "suffix"])
def test_prefix_then_suffix_unmerged_keeps_both_sides_apart(first):
    chunks = docchunk.RecursiveChunker(chunk_size=12, tokenizer="word")(THREE_PARAGRAPHS)
    bodies = [(c.text, c.start_index, c.end_index, c.token_count) for c in chunks]
    out = _both_sides(chunks, merge=False, first=first, tokenizer="word")
    assert [(c.text, c.start_index, c.end_index, c.token_count) for c in out] == bodies
    assert [c.context_prefix for c in out] == [None, "nine ten.", "sixteen seventeen."]
    assert [c.context_suffix for c in out] == ["\n\nBravo eleven ", "\n\nCharlie eighteen ", None]


def test_same_method_twice_replaces_instead_of_duplicating():
    chunks = docchunk.RecursiveChunker(chunk_size=12, tokenizer="word")(THREE_PARAGRAPHS)
    once = [c.text for c in OverlapRefinery(tokenizer="word", context_size=2, stop_at=(), inplace=False)(chunks)]
    refinery = OverlapRefinery(tokenizer="word", context_size=2, stop_at=())
    twice = refinery(refinery(chunks))
    assert [c.text for c in twice] == once
    # a later unmerged pass on the same side takes the merged context back out of text
    unmerged = OverlapRefinery(tokenizer="word", context_size=2, stop_at=(), merge=False)(twice)
    plain = docchunk.RecursiveChunker(12, tokenizer="word")(THREE_PARAGRAPHS)
    assert [c.text for c in unmerged] == [c.text for c in plain]
    assert unmerged[0].context_suffix == "\n\nBravo eleven "


def test_overlapping_neighbours_keep_exact_offsets():
    text = " ".join(f"w{i}" for i in range(40))
    chunks = docchunk.TokenChunker(tokenizer="word", chunk_size=10, chunk_overlap=3)(text)
    out = _both_sides(chunks, merge=True, tokenizer="word")
    for after in out:
        # neighbours are not adjacent (they overlap): the context goes to the fields, text stays the slice
        assert text[after.start_index : after.end_index] == after.text
    assert all(c.context_prefix for c in out[1:]) and all(c.context_suffix for c in out[:-1])


# -- document chunks ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def hybrid():
    return docchunk.HybridChunker(max_tokens=64)


@pytest.fixture(scope="module")
def doc():
    return load(DATA / "docling_core__2_inp_dl_doc.json")


def _assert_counts_in_chunker_tokens(chunker, chunks):
    for c in chunks:
        real = chunker.token_counter.count_tokens(chunker.contextualize(c))
        assert c.meta.token_count == real
        assert real <= chunker.max_tokens or c.meta.oversized


@pytest.mark.parametrize("merge", [True, False])
@pytest.mark.parametrize("tokenizer", ["character", "word", "cl100k"])
def test_document_overlap_counts_in_chunkers_tokens(hybrid, doc, merge, tokenizer, cl100k):
    plain = list(hybrid.chunk(doc))
    spec = cl100k if tokenizer == "cl100k" else tokenizer
    out = OverlapRefinery(tokenizer=spec, context_size=8, merge=merge, inplace=False)(plain)
    assert [c.text for c in out] != [c.text for c in plain] or merge is False
    _assert_counts_in_chunker_tokens(hybrid, out)


def test_document_overlap_defaults_issue_example(hybrid, doc):
    plain = list(hybrid.chunk(doc))
    out = OverlapRefinery(context_size=8, inplace=False)(plain)  # characters, merged, suffix
    _assert_counts_in_chunker_tokens(hybrid, out)
    assert sum(a.text != b.text for a, b in zip(out, plain, strict=False)) > len(plain) // 2  # context was added


def test_document_overlap_both_sides_does_not_duplicate(hybrid, doc):
    plain = list(hybrid.chunk(doc))
    big = docchunk.HybridChunker(max_tokens=256)
    roomy = list(big.chunk(doc))
    for chunks, chunker in ((plain, hybrid), (roomy, big)):
        bodies = [c.text for c in chunks]
        out = OverlapRefinery(context_size=10, method="prefix", inplace=False)(chunks)
        out = OverlapRefinery(context_size=10, method="suffix")(out)
        _assert_counts_in_chunker_tokens(chunker, out)
        for i, c in enumerate(out):
            head, sep, rest = c.text.partition(bodies[i])
            assert sep, "the body is kept whole"
            prefix, suffix = head.removesuffix("\n"), rest.removeprefix("\n")
            # context comes from the neighbours' original text only
            assert not prefix or (i > 0 and bodies[i - 1].endswith(prefix))
            assert not suffix or (i + 1 < len(bodies) and bodies[i + 1].startswith(suffix))
        assert any("\n" in c.text.replace(bodies[i], "", 1) for i, c in enumerate(out[1:-1], 1))


def test_document_chunks_without_their_chunker_need_chunker_argument(hybrid, doc):
    loaded = [docchunk.DocChunk.model_validate_json(c.model_dump_json()) for c in hybrid.chunk(doc)]
    with pytest.raises(docchunk.ConfigError, match="chunker="):
        OverlapRefinery(context_size=8, inplace=False)(loaded)
    out = OverlapRefinery(context_size=8, chunker=hybrid)(loaded)
    _assert_counts_in_chunker_tokens(hybrid, out)
