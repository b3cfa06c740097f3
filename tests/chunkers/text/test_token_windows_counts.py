"""TokenChunker counts its windows from the one tokenization of the text (issue 47, speed).

A window whose start is not a clean boundary (the previous window ended inside a
pre-token) used to be encoded again whole: 7 to 19% of the windows' text on this text
with cl100k. Now only the few characters up to the first clean token start are counted
alone (0.2 to 1.0%). The counts must
stay exact, so the test checks both: exact counts, and how little text is encoded again.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from docchunk.chunkers.text.token import token_windows
from docchunk.tokenizers import get_tokenizer

DATA = Path(__file__).resolve().parents[2] / "data"


class _Recording:
    """Wraps a tokenizer and records the length of every text passed to ``count_tokens``."""

    def __init__(self, tokenizer):
        self.tokenizer, self.counted = tokenizer, []

    def __getattr__(self, name):
        return getattr(self.tokenizer, name)

    def count_tokens(self, text: str) -> int:
        self.counted.append(len(text))
        return self.tokenizer.count_tokens(text)


@pytest.mark.parametrize(("chunk_size", "chunk_overlap"), [(16, 0), (64, 0), (64, 16), (100, 99)])
def test_token_windows_encode_little_again(cl100k, chunk_size, chunk_overlap):
    text = "\n\n".join((DATA / name).read_text(encoding="utf-8") for name in ("wiki.md", "chat_dialogues.txt"))
    tokenizer = get_tokenizer(cl100k)
    recording = _Recording(tokenizer)
    chunks = token_windows(text, recording, chunk_size, chunk_overlap)
    assert chunks and all(text[c.start_index : c.end_index] == c.text for c in chunks)
    assert all(c.token_count == tokenizer.count_tokens(c.text) <= chunk_size for c in chunks)
    # with whole windows counted again it was 7 to 19% of the windows' text
    windows = sum(len(c.text) for c in chunks)
    assert sum(recording.counted) < 0.02 * windows, (sum(recording.counted), windows)
