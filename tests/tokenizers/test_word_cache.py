"""The word cache of WordPiece tokenizers gives the library's own counts and offsets, text by text.

``HFTokenizer`` counts a BERT-style pipeline's text as the sum of its whitespace-delimited
words, each tokenized once (``docchunk.tokenizers.word_cache``). Each test compares it
with ``tokenizers.Tokenizer.encode`` of the whole text, on hostile text: whitespace
that BERT deletes or keeps, control characters, combining marks, CJK, added tokens
(matched raw; any other kind leaves the cache out), words longer than WordPiece's limit.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import docchunk
from docchunk.tokenizers.hf import BUNDLED_TOKENIZER_JSON, HFTokenizer
from docchunk.tokenizers.word_cache import WordCache
from tests.property.strategies import texts

tokenizers = pytest.importorskip("tokenizers")

_PARTS = [
    "word", "Word", "WORD", "naïve", "café", "e\u0301", "İstanbul", "straße", "中文", "한국어", "😀", "x" * 120,
    "[CLS]", "[cls]", "[MASK]x", "a[SEP]b", "newyork", "NewYork", "zz|top", "ZZ|TOP", "ß!", "SS!", "can't", "_a_",
    " ", "  ", "\n", "\n\n", "\t", "\r", "\r\n", "\xa0", "\u3000", "\x0b", "\x0c", "\x1c", "\x85", "\u2028",
    "\u200b", "\x00", "\x84", "\ufffd", "-", "|", "—", "’", "(", ")", ".", ",",
]  # fmt: skip
_HOSTILE = st.lists(st.sampled_from(_PARTS), max_size=12).map("".join) | texts(max_words=12)


def _raw() -> object:
    raw = tokenizers.Tokenizer.from_file(str(BUNDLED_TOKENIZER_JSON))
    raw.no_padding()  # the shipped file pads and truncates to 128 tokens
    raw.no_truncation()
    return raw


def _with_added_tokens() -> object:
    """Added tokens the cache takes: matched in the raw text, no whitespace taken along or held."""
    raw = _raw()
    added = tokenizers.AddedToken
    raw.add_tokens([added(t, normalized=False) for t in ("newyork", "zz|top", "ß!")])
    return raw


def _with_other_added_tokens(*tokens) -> object:
    raw = _raw()
    raw.add_tokens(list(tokens))
    return raw


def _expected(raw, text: str) -> list[int]:
    return [start for start, _ in raw.encode(text, add_special_tokens=False).offsets]


@pytest.mark.parametrize("make", [_raw, _with_added_tokens], ids=["minilm", "added-tokens"])
def test_word_cache_equals_the_library(make):
    raw = make()
    tok = HFTokenizer(raw)
    assert tok._words is not None  # the path under test is taken

    @given(batch=st.lists(_HOSTILE, min_size=1, max_size=6), over=st.integers(-1, 8))
    def check(batch, over):
        expected = [_expected(raw, t) for t in batch]
        assert tok.count_tokens_batch(batch) == [len(e) for e in expected]
        assert [tok.count_tokens(t) for t in batch] == [len(e) for e in expected]
        assert [tok.token_offsets(t) for t in batch] == expected
        got = tok.counts_and_offsets_batch(batch, over)
        assert got == [(len(e), e if len(e) > over else None) for e in expected]

    check()


def test_word_cache_starts_again_past_its_limit():
    raw = _raw()
    cache = WordCache(raw, limit=3)
    words = "alpha beta gamma delta epsilon alpha"
    assert cache.counts([words, "zeta eta"]) == [len(_expected(raw, words)), len(_expected(raw, "zeta eta"))]
    assert len(cache._starts) <= 8  # cleared, then this call's words
    expected = _expected(raw, "theta iota kappa")
    assert cache.counts_and_offsets(["theta iota kappa"], -1) == [(len(expected), expected)]


def test_text_with_an_added_token_goes_to_the_library_whole():
    raw = _with_added_tokens()
    cache = WordCache(raw)
    assert not cache.covers("we met in newyork") and not cache.covers("[CLS] x") and not cache.covers("a zz|top b")
    assert cache.covers("ZZ|TOP is matched raw") and cache.covers("york new")
    tok = HFTokenizer(raw)
    assert tok._words is not None
    assert tok.count_tokens("we met in newyork") == len(_expected(raw, "we met in newyork"))


_ADDED = tokenizers.AddedToken
_NO_CACHE = {  # added tokens that leave the word cache out, and texts where the words alone differed
    "space": (_ADDED("new york", normalized=True), ["we met in New\tYork", "new\nyork", "New York"]),
    "normalized lstrip": (_ADDED("ab", lstrip=True, normalized=True), [" Áb", "x Áb", " a\x00b"]),
    "deleted rstrip": (_ADDED("\u200b", normalized=True, rstrip=True), ["a b", " ", "a\u200b b"]),
    "normalized": (_ADDED("foo", normalized=True), ["FOO bar", "f\x00oo"]),
    "raw lstrip": (_ADDED("[X]", lstrip=True, normalized=False), ["a [X]", " [X] b"]),
}


@pytest.mark.parametrize("name", list(_NO_CACHE))
def test_added_tokens_not_matched_raw_alone_leave_the_word_cache_out(name):
    """Found by trying to break the cache: a normalized "ab" with lstrip matched " Áb" with its space
    (offset 0, the words alone gave 1); a normalized zero-width space with rstrip made " " a token."""
    token, texts = _NO_CACHE[name]
    raw = _with_other_added_tokens(token)
    tok = HFTokenizer(raw)
    assert tok._words is None
    for text in texts:
        assert tok.count_tokens(text) == len(_expected(raw, text))
        assert tok.token_offsets(text) == _expected(raw, text)


def test_other_pipelines_have_no_word_cache():
    from tokenizers import Tokenizer, models, pre_tokenizers

    raw = Tokenizer(models.BPE(vocab={"a": 0, "b": 1, "ab": 2}, merges=[("a", "b")]))
    raw.pre_tokenizer = pre_tokenizers.ByteLevel()
    assert HFTokenizer(raw)._words is None


def test_word_cache_errors_are_the_tokenizers():
    tok = HFTokenizer(_raw())
    with pytest.raises(docchunk.TokenizerError, match="lone surrogate"):
        tok.count_tokens_batch(["fine", "bad \ud800 text"])
    for bad in (5, None, b"bytes", ["a list"], ("a", "tuple"), {"a": 1}):
        with pytest.raises(docchunk.TokenizerError):
            tok.count_tokens(bad)  # type: ignore[arg-type]
        with pytest.raises(docchunk.TokenizerError):
            tok.count_tokens_batch(["fine", bad])  # type: ignore[list-item]
