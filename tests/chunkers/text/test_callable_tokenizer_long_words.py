"""A word longer than the budget under a callable tokenizer (hostile tester, session 7, finding 2).

``get_tokenizer`` accepts any callable ``str -> int``, and ``SentenceChunker`` took one at
construction, but cut a word longer than ``chunk_size`` into token windows, which need the
token offsets a callable cannot give: a URL raised ``TokenizerError`` in the middle of
chunking, while short words chunked fine. Now such a word is cut into windows of whole
characters (``character_windows``), and whitespace that fits with neither neighbour is cut
again at characters (``cut_in_two``).
"""

from __future__ import annotations

import pytest

import docchunk
from docchunk.tokenizers import get_tokenizer

URL_TEXT = "See https://example.com/" + "abc/def-" * 8 + "x now."


def _utf8_bytes(text: str) -> int:
    return len(text.encode("utf-8"))


COUNTERS = {"len": len, "utf8 bytes": _utf8_bytes}


@pytest.mark.parametrize("counter", COUNTERS)
@pytest.mark.parametrize(
    ("text", "chunk_size"),
    [(URL_TEXT, 40), ("naïve " + "ü" * 70 + " café.\r\n\r\nNext sentence here.", 9), ("abc\n\ndef", 3), ("x" * 300, 1)],
    ids=["url", "accented word, CRLF", "blank line between", "one long word"],
)
def test_regression_long_word_with_a_callable_tokenizer_is_cut_not_refused(counter, text, chunk_size):
    count = COUNTERS[counter]
    chunks = docchunk.SentenceChunker(tokenizer=count, chunk_size=chunk_size)(text)
    assert "".join(c.text for c in chunks) == text  # tiles the text: nothing lost
    for chunk in chunks:
        assert text[chunk.start_index : chunk.end_index] == chunk.text
        assert chunk.token_count == count(chunk.text)
        assert chunk.token_count <= chunk_size or chunk.oversized
        assert chunk.oversized == (chunk.token_count > chunk_size)
        assert not chunk.text.isspace()


def test_regression_callable_counts_like_the_character_tokenizer_give_its_chunks():
    """``len`` counts as ``"character"`` does: a word too long is cut at the same places."""
    for text in (URL_TEXT, "abc\n\ndef", "abcd   efgh"):
        for size in (1, 2, 3, 4, 40):
            by_len = docchunk.SentenceChunker(tokenizer=len, chunk_size=size)(text)
            by_chars = docchunk.SentenceChunker(tokenizer="character", chunk_size=size)(text)
            assert [c.text for c in by_len] == [c.text for c in by_chars], (text, size)


def test_character_windows_tile_fit_and_keep_crlf_whole():
    from docchunk.chunkers.text.token import character_windows  # here: the regression tests above run on main too

    text = "ab\r\ncdé" * 7
    tokenizer = get_tokenizer(_utf8_bytes)
    assert not tokenizer.gives_offsets and get_tokenizer("character").gives_offsets
    windows = character_windows(text, tokenizer, 3, base=10)
    assert "".join(w.text for w in windows) == text
    assert all(text[w.start_index - 10 : w.end_index - 10] == w.text for w in windows)
    assert all(w.token_count == _utf8_bytes(w.text) <= 3 for w in windows)
    assert not any(w.text.endswith("\r") for w in windows)  # never between \r and \n
    assert max(len(w.text) for w in windows) == 3  # the longest run that fits ("ab\r", "\ncd")
    (alone,) = character_windows("é", tokenizer, 1)  # one character over the budget: alone, flagged
    assert alone.oversized and alone.token_count == 2
