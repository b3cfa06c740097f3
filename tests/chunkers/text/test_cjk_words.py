"""With tokenizer="word", each CJK character is a word.

Before, a 1,000-character Chinese paragraph counted as one whitespace-separated word and was never split.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import docchunk

SENTENCE = "今天的天气很好，我们在公园里散步。湖边有很多人在休息，孩子们在草地上玩耍。"
PARAGRAPH = (SENTENCE * 30)[:1000]
NO_PUNCTUATION = ("我们在公园里散步湖边有很多人在休息孩子们在草地上玩耍" * 40)[:1000]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("今天很好", 4),
        ("今天很好。", 4),  # CJK punctuation stays with the character before it
        ("今天，很好。", 4),
        ("使用Python编程", 5),  # 使 用 Python 编 程
        ("Hello world. 今天很好。", 6),
        ("こんにちは、カタカナ", 9),  # kana, one word each
        ("한국어 문장", 5),  # hangul syllables, one word each
        ("plain words, naïve café", 4),
        ("", 0),
    ],
)
def test_word_tokenizer_counts_each_cjk_character(text, words):
    word = docchunk.get_tokenizer("word")
    assert word.count_tokens(text) == words
    assert len(word.token_offsets(text)) == words


CHUNKERS = {
    "recursive": lambda: docchunk.RecursiveChunker(chunk_size=100, tokenizer="word"),
    "sentence": lambda: docchunk.SentenceChunker("word", chunk_size=100),
    "token": lambda: docchunk.TokenChunker("word", chunk_size=100),
    "semantic": lambda: docchunk.SemanticChunker(lambda b: [[1.0, 0.0]] * len(b), chunk_size=100, tokenizer="word"),
}


@pytest.mark.parametrize("kind", CHUNKERS)
@pytest.mark.parametrize("text", [PARAGRAPH, NO_PUNCTUATION], ids=["punctuated", "unpunctuated"])
def test_chunkers_split_a_1000_character_chinese_paragraph(kind, text):
    word = docchunk.get_tokenizer("word")
    assert word.count_tokens(text) >= 850
    chunks = CHUNKERS[kind]()(text)
    assert len(chunks) >= 9
    assert "".join(c.text for c in chunks) == text
    for c in chunks:
        assert text[c.start_index : c.end_index] == c.text
        assert c.token_count == word.count_tokens(c.text) <= 100 and not c.oversized


def test_hybrid_chunker_with_word_tokenizer_splits_chinese():
    doc = docchunk.load_document("# 标题\n\n" + PARAGRAPH + "\n", format="md")
    chunker = docchunk.HybridChunker(tokenizer="word", max_tokens=100)
    chunks = list(chunker.chunk(doc))
    assert len(chunks) >= 10
    for c in chunks:
        assert c.meta.token_count == chunker.token_counter.count_tokens(chunker.contextualize(c)) <= 100


cjk_text = st.text(alphabet=st.sampled_from(list("你好世界。，「」こんにカナ한국 \n abc.!")), max_size=120)


@given(text=cjk_text, size=st.integers(1, 30))
def test_word_counts_stay_exact_on_cjk_text(text, size):
    """The arithmetic at joins (clean_boundary, joins_additively) stays exact with CJK words."""
    word = docchunk.get_tokenizer("word")
    chunkers = (
        docchunk.RecursiveChunker(chunk_size=size, tokenizer="word"),
        docchunk.SentenceChunker("word", chunk_size=size),
    )
    for chunker in chunkers:
        chunks = chunker(text)
        assert "".join(c.text for c in chunks) == text
        for c in chunks:
            assert c.token_count == word.count_tokens(c.text)
            assert c.token_count <= size or c.oversized
