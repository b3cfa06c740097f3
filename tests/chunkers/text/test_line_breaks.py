"""Windows (``\\r\\n``) and old Mac (``\\r``) line breaks are line breaks to the text chunkers.

The separators ``"\\n\\n"`` and ``"\\n"`` (and every preset separator with a line break)
match every kind of line break; no chunk ends between ``\\r`` and ``\\n``.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import docchunk
from docchunk.chunkers.text import sentence_spans
from docchunk.chunkers.text.separators import LANGUAGES
from tests.helpers import examples

PARAGRAPHS = [
    "The first paragraph has a line here.\nIt goes on for a second line.",
    "The second paragraph is about rain.\nIts second line is short.",
    "The third paragraph ends the note.\nAnd it has a last line too.",
]
LF = "\n\n".join(PARAGRAPHS)


def crlf(text: str) -> str:
    return text.replace("\n", "\r\n")


def cuts_inside_crlf(text: str, chunks) -> list[int]:
    """Chunk boundaries that fall between a ``\\r`` and its ``\\n``."""
    edges = {c.start_index for c in chunks} | {c.end_index for c in chunks}
    return sorted(e for e in edges if 0 < e < len(text) and text[e - 1] == "\r" and text[e] == "\n")


def check_spans(text, chunks, chunker=None):
    assert "".join(c.text for c in chunks) == text
    for c in chunks:
        assert text[c.start_index : c.end_index] == c.text
        if chunker is not None:
            assert c.token_count == chunker.tokenizer.count_tokens(c.text)


def test_crlf_paragraphs_are_paragraphs_like_lf():
    chunker = docchunk.RecursiveChunker(tokenizer="character", chunk_size=110)
    assert [c.text for c in chunker(LF)] == [PARAGRAPHS[0], "\n\n" + PARAGRAPHS[1], "\n\n" + PARAGRAPHS[2]]
    text = crlf(LF)
    chunks = chunker(text)
    assert [c.text for c in chunks] == [crlf(PARAGRAPHS[0]), *("\r\n\r\n" + crlf(p) for p in PARAGRAPHS[1:])]
    check_spans(text, chunks, chunker)


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
@pytest.mark.parametrize("size", [1, 5, 20, 40, 70])
def test_no_chunk_ends_between_cr_and_lf(newline, size):
    text = LF.replace("\n", newline)
    for keep in ("start", "end", False):
        chunker = docchunk.RecursiveChunker(tokenizer="character", chunk_size=size, keep_separator=keep)
        chunks = chunker(text)
        assert not cuts_inside_crlf(text, chunks), [c.text for c in chunks]
        assert all(text[c.start_index : c.end_index] == c.text for c in chunks)
        if keep:
            check_spans(text, chunks, chunker)
    # a lone "\r" is a line break: the lines of each paragraph come apart at 40 characters
    if newline == "\r" and size == 40:
        assert [c.text.lstrip("\r") for c in chunker(text)][:2] == PARAGRAPHS[0].split("\n")


@pytest.mark.parametrize("keep", ["start", "end", False])
@pytest.mark.parametrize("overlap", [0, 3])
@pytest.mark.parametrize("language", [None, "markdown", "python"])
@given(words=st.lists(st.sampled_from(["alpha", "beta", "# Head", "def f():", "```", "x = 1", "gamma delta"]),
                      min_size=1, max_size=30),
       breaks=st.lists(st.sampled_from(["\n", "\n\n", " ", "\n\n\n"]), min_size=30, max_size=30),
       size=st.integers(4, 24))  # fmt: skip
@settings(max_examples=examples(25), deadline=None)
def test_crlf_text_chunks_as_the_same_lf_text_in_words(keep, overlap, language, words, breaks, size):
    """Counted in words, where a line break of any kind is whitespace, CRLF text gets the LF text's chunks."""
    lf = "".join(w + b for w, b in zip(words, breaks, strict=False))
    text = crlf(lf)
    kwargs = {"language": language} if language else {}
    chunker = docchunk.RecursiveChunker(chunk_size=size, chunk_overlap=overlap, keep_separator=keep,
                                        tokenizer="word", **kwargs)  # fmt: skip
    lf_chunks, chunks = chunker(lf), chunker(text)
    assert [crlf(c.text) for c in lf_chunks] == [c.text for c in chunks]
    assert not cuts_inside_crlf(text, chunks)
    for c in chunks:
        assert text[c.start_index : c.end_index] == c.text
        assert c.token_count == chunker.tokenizer.count_tokens(c.text)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_preset_splits_crlf_text_where_it_splits_lf_text(language):
    lf = ("\n\n".join(PARAGRAPHS) + "\n") * 3
    chunker = docchunk.RecursiveChunker(chunk_size=15, language=language, tokenizer="word")
    assert [crlf(c.text) for c in chunker(lf)] == [c.text for c in chunker(crlf(lf))]


def test_crlf_markdown_fence_stays_with_its_block():
    text = crlf("Some words before.\n\n```\nalpha = 1\nbeta = 2\n```\n\nWords after the block.")
    for size in range(5, 12):
        chunks = docchunk.RecursiveChunker(chunk_size=size, language="markdown", tokenizer="word")(text)
        check_spans(text, chunks)
        assert not cuts_inside_crlf(text, chunks)
        assert not any(c.text.lstrip().startswith("```\r\n\r\n") for c in chunks), [c.text for c in chunks]
        assert any("beta = 2\r\n```" in c.text for c in chunks), [c.text for c in chunks]


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_sentence_spans_have_no_blank_span_for_crlf(newline):
    text = f"Item one{newline}Item two{newline}{newline}Closing remark"
    spans = [text[s:e] for s, e in sentence_spans(text)]
    assert spans == [f"Item one{newline}", f"Item two{newline}{newline}", "Closing remark"]


@pytest.mark.parametrize("size", [3, 8, 12, 30])
def test_sentence_chunker_never_cuts_crlf(size):
    text = crlf("It rained. We stayed in.\nThen it cleared up!\n\nNext day was dry. The end.")
    chunker = docchunk.SentenceChunker("character", chunk_size=size)
    chunks = chunker(text)
    check_spans(text, chunks, chunker)
    assert not cuts_inside_crlf(text, chunks), [c.text for c in chunks]


def test_sentence_chunker_crlf_chunks_are_the_lf_chunks_in_words():
    lf = "It rained. We stayed in.\nThen it cleared up!\n\nNext day was dry. The end.\n\nDr. Lee agreed."
    for size in (2, 4, 6, 9):
        chunker = docchunk.SentenceChunker("word", chunk_size=size)
        assert [crlf(c.text) for c in chunker(lf)] == [c.text for c in chunker(crlf(lf))]


def test_a_hard_wrapped_text_ending_in_a_lone_cr_is_read_to_its_end():
    """Regression: a paragraph whose last line ends with a lone ``"\\r"`` raised IndexError.

    The fuzzer found it in a section header (``"... the\\r\\n3.14 \\r"``): the empty match at
    the end of the text, right after the ``"\\r"``, read one character past the end.
    """
    text = " ".join(["the"] * 64) + "\r\n3.14 \r"
    spans = sentence_spans(text)
    assert "".join(text[a:b] for a, b in spans) == text
