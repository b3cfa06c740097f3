"""``TiktokenTokenizer`` counts: read from tiktoken's token buffer or from ``encode_ordinary``, the same.

Where tiktoken's core has ``encode_to_tiktoken_buffer`` the counts are read from the buffer
(no Python int per token); they must equal ``len(encode_ordinary(text))`` on every text:
special-token text (counted as ordinary text), multi-byte characters, a lone surrogate
(which only ``encode_ordinary`` repairs, so that text falls back) and a text that is no
``str`` (a :class:`TokenizerError` naming it, as before). Without the buffer (another
tiktoken) the counts come from ``encode_ordinary``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import docchunk.tokenizers.tiktoken as tiktoken_module
from docchunk.errors import TokenizerError
from docchunk.tokenizers import get_tokenizer

DATA = Path(__file__).resolve().parents[1] / "data"
TEXTS = [
    (DATA / "wiki.md").read_text(encoding="utf-8"),
    (DATA / "chat_dialogues.txt").read_text(encoding="utf-8"),
    "",
    "<|endoftext|> before <|fim_prefix|><|fim_middle|> after <|endofprompt|>",
    "Grüße aus Köln 😀👍🏽 — 現在の時刻は午前九時です。현재 ₿ x\u0301 \n\n.",
    "a lone \ud800 surrogate and more text",
]
PIECES = st.sampled_from(["<|endoftext|>", "<|fim_prefix|>", "\n\n", ".", " ", "é", "😀", "\ud800", "12", "ab"])


@pytest.mark.parametrize("buffer", [True, False], ids=["buffer", "list"])
def test_counts_equal_encode_ordinary(cl100k, monkeypatch, buffer):
    if not buffer:
        monkeypatch.setattr(tiktoken_module, "_counts_by_buffer", lambda encoding: False)
    tok = get_tokenizer(cl100k)
    assert tok._by_buffer is (buffer and tiktoken_module._counts_by_buffer(cl100k))
    expected = [len(cl100k.encode_ordinary(t)) for t in TEXTS]
    assert [tok.count_tokens(t) for t in TEXTS] == expected
    assert tok.count_tokens_batch(TEXTS) == expected


@given(st.lists(st.one_of(st.text(max_size=40), PIECES), max_size=12).map("".join))
def test_buffer_counts_hold_on_any_text(cl100k, text):
    tok = get_tokenizer(cl100k)
    texts = [text, "a lone \ud800", text]  # a lone surrogate in the batch: the whole batch falls back
    expected = [len(cl100k.encode_ordinary(t)) for t in texts]
    assert tok.count_tokens(text) == expected[0]
    assert tok.count_tokens_batch(texts) == expected


@pytest.mark.parametrize("call", ["count_tokens", "count_tokens_batch"])
def test_a_text_that_is_not_a_str_still_names_it(cl100k, call):
    tok = get_tokenizer(cl100k)
    with pytest.raises(TokenizerError, match="counts str texts"):
        tok.count_tokens(b"bytes") if call == "count_tokens" else tok.count_tokens_batch(["a", b"bytes"])


class _CountingCore:
    """tiktoken's core, counting the calls of ``encode_to_tiktoken_buffer``."""

    def __init__(self, core):
        self.core, self.calls = core, 0

    def encode_to_tiktoken_buffer(self, text, allowed_special):
        self.calls += 1
        return self.core.encode_to_tiktoken_buffer(text, allowed_special)


class _Encoding:
    """An encoding of its own name over cl100k's core (so no other test shares its cache entry)."""

    def __init__(self, enc, name):
        self.name, self.n_vocab, self._core_bpe = name, enc.n_vocab, _CountingCore(enc._core_bpe)
        self.encode_ordinary = enc.encode_ordinary


def test_regression_buffer_is_probed_once_per_encoding_not_per_tokenizer(cl100k, request):
    if not tiktoken_module._counts_by_buffer(cl100k):
        pytest.skip("this tiktoken has no token buffer to probe")
    encoding = _Encoding(cl100k, f"probe-once-{request.node.nodeid}")
    tokenizers = [tiktoken_module.TiktokenTokenizer(encoding) for _ in range(3)]
    assert encoding._core_bpe.calls == 1  # the probe; each construction probed again
    text = TEXTS[0]
    assert [tok.count_tokens(text) for tok in tokenizers] == [len(cl100k.encode_ordinary(text))] * 3
    assert encoding._core_bpe.calls == 4  # every count is read from the buffer
