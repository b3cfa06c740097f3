"""``RecursiveChunker(language="langchain")`` gives LangChain's exact chunks (issue 47, tester s9/t47 finding 3).

Differential against the real ``langchain_text_splitters.RecursiveCharacterTextSplitter``
(a test dependency), with ``len`` and with cl100k as LangChain's ``length_function``,
plus the tester's cases as regression tests.
"""

from __future__ import annotations

import logging
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import docchunk
from docchunk import RecursiveChunker

lc_splitters = pytest.importorskip("langchain_text_splitters")

KEEPS = {"start": True, "end": "end", False: False}  # ours -> LangChain's keep_separator

PIECES = [
    "Hi.", "I'm", "here.", "Bye", "now.", "word", "a", "antidisestablishment", "The quick brown fox.",
    " ", "  ", "\t", "\n", "\n\n", "\n\n\n", "\r\n", "\r\n\r\n", "\u3000", "\xa0",
    "日本語の文。", "é", "café", "🙂", "👩\u200d👩\u200d👧", "e\u0301", "Ωmega", "x" * 40,
]  # fmt: skip
texts = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


@pytest.fixture(autouse=True)
def _quiet_langchain():
    """LangChain logs a warning for each chunk over chunk_size; the tests compare those chunks too."""
    logger = logging.getLogger("langchain_text_splitters.base")
    level = logger.level
    logger.setLevel(logging.ERROR)
    yield
    logger.setLevel(level)


def langchain(text: str, size: int, overlap: int, keep, length) -> list[str]:
    """LangChain's chunks, without the single whitespace characters it keeps when one alone reaches ``size``."""
    splitter = lc_splitters.RecursiveCharacterTextSplitter(
        chunk_size=size, chunk_overlap=overlap, keep_separator=KEEPS[keep], length_function=length
    )
    return [c for c in splitter.split_text(text) if not c.isspace()]


def check(text: str, chunks: list[docchunk.Chunk], chunker: RecursiveChunker) -> None:
    """Exact offsets and counts, stripped chunks, oversized exactly where over the budget."""
    for c in chunks:
        assert text[c.start_index : c.end_index] == c.text
        assert c.text and c.text == c.text.strip()
        assert c.token_count == chunker.tokenizer.count_tokens(c.text)
        assert c.oversized == (c.token_count > chunker.chunk_size)
    assert [c.start_index for c in chunks] == sorted(c.start_index for c in chunks)


def same(ours: list[str], theirs: list[str], keep) -> None:
    if keep is False:  # LangChain joins over a run of separators with one: compare all but the whitespace
        assert ["".join(c.split()) for c in ours] == ["".join(c.split()) for c in theirs]
    else:
        assert ours == theirs


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts, size=st.integers(1, 200), keep=st.sampled_from(["start", "end", False]), data=st.data())
def test_langchain_preset_equals_langchain_with_len(text, size, keep, data):
    overlap = data.draw(st.integers(0, size - 1) | st.just(0))
    chunker = RecursiveChunker(chunk_size=size, chunk_overlap=overlap, keep_separator=keep, language="langchain")
    chunks = chunker(text)
    check(text, chunks, chunker)
    same([c.text for c in chunks], langchain(text, size, overlap, keep, len), keep)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts, size=st.integers(1, 200), keep=st.sampled_from(["start", "end", False]), data=st.data())
def test_langchain_preset_equals_langchain_with_cl100k(cl100k, text, size, keep, data):
    overlap = data.draw(st.integers(0, size - 1) | st.just(0))
    chunker = RecursiveChunker(size, overlap, keep_separator=keep, language="langchain", tokenizer=cl100k)
    chunks = chunker(text)
    check(text, chunks, chunker)
    same([c.text for c in chunks], langchain(text, size, overlap, keep, lambda s: len(cl100k.encode_ordinary(s))), keep)


@pytest.mark.parametrize(
    ("size", "expected"),
    [
        (8, ["Hi.", "I'm", "here.", "Bye", "now."]),  # main packed "Hi.\n\nI'm" across the paragraph break
        (5, ["Hi.", "I'm", "here", ".", "Bye", "now."]),  # main gave ". Bye"
    ],
)
def test_issue47_finding3_langchain_preset_gives_langchain_chunks(size, expected):
    text = "Hi.\n\nI'm here. Bye now."
    chunker = RecursiveChunker(chunk_size=size, language="langchain")
    chunks = chunker(text)
    check(text, chunks, chunker)
    assert [c.text for c in chunks] == expected == langchain(text, size, 0, "start", len)


def test_issue47_finding3_langchain_preset_on_prose_with_cl100k(cl100k):
    """The tester's grid shape: prose and paragraphs at LangChain's defaults, in tokens."""
    text = ("Visitors must sign the register at the front desk first. Then they receive a badge.\n\n"
            "The badge must be worn at all times.\r\nLost badges are reported to the guard.  Thank you.")  # fmt: skip
    for size in (3, 7, 12, 20):
        chunker = RecursiveChunker(chunk_size=size, language="LangChain", tokenizer=cl100k)
        chunks = chunker(text)
        check(text, chunks, chunker)
        assert [c.text for c in chunks] == langchain(text, size, 0, "start", lambda s: len(cl100k.encode_ordinary(s)))


def test_langchain_preset_leaves_out_only_whitespace():
    text = "  Hi there.\n\n\n  A second paragraph, longer.\r\n\tEnd.  "
    for size in range(1, 30):
        chunks = RecursiveChunker(chunk_size=size, language="langchain", keep_separator="end")(text)
        kept = [i for c in chunks for i in range(c.start_index, c.end_index)]
        assert all(text[i].isspace() for i in set(range(len(text))) - set(kept))
    assert RecursiveChunker(chunk_size=5, language="langchain")(" \n\t ") == []  # LangChain gives [] too
    assert [c.text for c in RecursiveChunker(chunk_size=1, language="langchain")("a b")] == ["a", "b"]


def test_langchain_preset_keep_false_keeps_the_slice_over_repeated_separators():
    text = "one  two three"
    chunks = RecursiveChunker(chunk_size=9, language="langchain", keep_separator=False)(text)
    assert [c.text for c in chunks] == ["one  two", "three"]  # LangChain: "one two" (no slice of the text)
    assert langchain(text, 9, 0, False, len) == ["one two", "three"]


def test_langchain_preset_overlap_is_langchains():
    text = "alpha beta gamma delta epsilon zeta eta theta"
    chunks = RecursiveChunker(chunk_size=16, chunk_overlap=6, language="langchain")(text)
    assert [c.text for c in chunks] == langchain(text, 16, 6, "start", len)
    assert any(a.end_index > b.start_index for a, b in pairwise(chunks))  # repeated pieces


def test_langchain_preset_flags_chunks_over_the_budget(cl100k):
    """LangChain sums the pieces' counts; the joined, stripped text may count more: flagged, with its exact count."""
    length = lambda s: len(cl100k.encode_ordinary(s))  # noqa: E731
    for text, size in [(" \U0001f642!本\n\n1ére.?", 8), ("日本 語の 文。 日本", 1)]:  # summed 8; one character of 2
        chunker = RecursiveChunker(chunk_size=size, language="langchain", tokenizer=cl100k)
        chunks = chunker(text)
        check(text, chunks, chunker)
        assert any(c.oversized for c in chunks)
        assert [c.text for c in chunks] == langchain(text, size, 0, "start", length)


def test_langchain_preset_survives_with_budget():
    """HybridChunker's text_splitter copy keeps LangChain's algorithm, not only its separators."""
    copy = RecursiveChunker(chunk_size=100, language="langchain").with_budget("character", 8)
    assert [c.text for c in copy("Hi.\n\nI'm here. Bye now.")] == ["Hi.", "I'm", "here.", "Bye", "now."]
