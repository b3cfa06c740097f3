"""``TiktokenTokenizer.token_positions``: the numpy path and the lazy path give the offsets of ``token_offsets``.

With numpy the tokens come from ``Encoding.encode_to_numpy`` and the offsets are summed at
once; without it they are summed lazily from a Python list. Both must give, token by
token, the offsets of :meth:`token_offsets` (a token inside a multi-byte character at the
character's start), and the same ``between`` answers, on real text and on text with
multi-byte characters, emoji, CJK and a lone surrogate (which only ``encode_ordinary``
repairs, so the numpy path falls back).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import docchunk.tokenizers.tiktoken as tiktoken_module
from docchunk.tokenizers import get_tokenizer

DATA = Path(__file__).resolve().parents[1] / "data"
TEXTS = {
    "wiki": (DATA / "wiki.md").read_text(encoding="utf-8"),
    "chat": (DATA / "chat_dialogues.txt").read_text(encoding="utf-8"),
    "multibyte": "Grüße aus Köln 😀👍🏽 — 現在の時刻は午前九時です。현재 ₿ x\u0301 " * 20,
    "surrogate": "a lone \ud800 surrogate and more text",
}


@pytest.mark.parametrize("name", list(TEXTS))
@pytest.mark.parametrize("numpy", [True, False], ids=["numpy", "lazy"])
def test_positions_equal_token_offsets(cl100k, monkeypatch, name, numpy):
    if not numpy:
        monkeypatch.setattr(tiktoken_module, "_numpy", lambda: None)
    elif tiktoken_module._numpy() is None:
        pytest.skip("numpy is not installed")
    tok = get_tokenizer(cl100k)
    text = TEXTS[name]
    offsets = tok.token_offsets(text)
    positions = tok.token_positions(text)
    assert positions.n == len(offsets) > 0
    assert [positions.at(k) for k in range(positions.n)] == offsets
    starts_inside = [k for k in range(1, positions.n) if offsets[k] == offsets[k - 1]]  # a token inside a character
    for a, b in [(0, positions.n), (0, positions.n // 2), *((k, positions.n) for k in starts_inside[:5])]:
        expected = None if a in starts_inside or b in starts_inside else b - a
        assert positions.between(a, b) == expected
