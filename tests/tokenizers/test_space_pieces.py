"""cl100k counts and offsets by space-separated pieces (``docchunk.tokenizers.space_pieces``) equal tiktoken's.

The rule: where the character before a space is not whitespace, cl100k's pre-tokenizer
ends a pre-token, so a text's count is the sum of its pieces' (``p0``, ``" " + p1``, ...)
and its token offsets are theirs, shifted. Pieces that end with whitespace (or are empty:
two spaces) are joined with the piece after them. Checked against ``encode_ordinary`` on
generated texts made of what could break it (whitespace of every kind around spaces,
punctuation that takes line breaks, contractions, digits, CJK, emoji, combining marks, a
lone surrogate), on random slices of them, through one tokenizer whose piece cache is
shared by all the texts (a piece seen as a text's last piece or as a whole text must not
give its count to the same string elsewhere).
"""

from __future__ import annotations

import random
from bisect import bisect_left
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from docchunk.tokenizers import get_tokenizer
from docchunk.tokenizers.space_pieces import MIN_CHARS, MIN_POSITION_CHARS, SpacePieces

DATA = Path(__file__).resolve().parents[1] / "data"
PARTS = [
    "word", "Word", "'s", "'S", "'ll", "don't", "1", "1234", "3.14", ".", ",", "!?", "...", "(x)", "--", "#", "|",
    "'", '"', " ", " ", " ", "  ", "   ", "\t", "\n", "\n\n", "\r\n", "\r", " \n", "\n ", "\xa0", "\u3000", "\x0b",
    "\x0c", "\x1c", "\x85", "\u2028", "\u200b", "É", "x\u0301", "東京", "。", "😀", "👍🏽", "₿", "ß", "\ud800",
]  # fmt: skip
texts = st.lists(st.sampled_from(PARTS), min_size=1, max_size=60).map("".join)
# Unicode's White_Space, which cl100k's regex (\s in Rust's regex crate) uses
WHITE_SPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B)))
WHITE_SPACE += "\u2028\u2029\u202f\u205f\u3000"


def _encode_count(cl100k, text: str) -> int:
    return len(cl100k.encode_ordinary(text))


@pytest.fixture(scope="module")
def tok(cl100k):
    tokenizer = get_tokenizer(cl100k)
    if tokenizer._pieces is None:
        pytest.skip("numpy is not installed: no piece cache")
    return tokenizer


@pytest.fixture(scope="module")
def plain(cl100k):
    """The same tokenizer without the piece cache: offsets from one encode."""
    tokenizer = get_tokenizer(cl100k)
    tokenizer._pieces = None
    return tokenizer


def test_applies_only_to_cl100k_pattern(cl100k):
    assert SpacePieces.applies_to(cl100k)

    class Other:
        _pat_str = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""  # gpt2's

    assert not SpacePieces.applies_to(Other())
    assert not SpacePieces.applies_to(object())


def test_whitespace_of_the_regex_is_whitespace_to_python():
    """A piece is joined with the next when it ends with str.isspace(); that must cover the regex's \\s."""
    assert all(c.isspace() for c in WHITE_SPACE)


@settings(deadline=None)
@given(text=texts, seed=st.integers(0, 2**16))
@example(text="x  y  z | a   b |  c\n  d " * 12, seed=1)  # several runs of unclean cuts in one text
@example(text="abc\n" + " abc\n def" * 20 + " abc\n", seed=2)  # a piece ending with whitespace, last and not
@example(text="x a\n \n" * 10, seed=6)  # " a\n" + " \n" is not " a\n \n": the line breaks join
@example(text=" " * 70 + "a", seed=3)  # a text opening with spaces: the first piece is empty
@example(text="a lone \ud800 surrogate " * 10, seed=4)
def test_counts_equal_encode(tok, cl100k, text, seed):
    rnd = random.Random(seed)
    cuts = sorted(rnd.randrange(len(text) + 1) for _ in range(8))
    spans = [text, text + " ", " " + text, *(text[a:b] for a, b in zip(cuts, [*cuts[1:], len(text)], strict=True))]
    spans += [text[: len(text) // 2], text * 3]
    assert tok.count_tokens_batch(spans) == [_encode_count(cl100k, s) for s in spans]
    assert tok.count_tokens(text * 2) == _encode_count(cl100k, text * 2)


@settings(deadline=None)
@given(text=texts, seed=st.integers(0, 2**16))
@example(text="x  y  z | a   b |  c\n  d " * 12, seed=1)
@example(text="Grüße aus Köln 😀👍🏽 — 現在の時刻は午前九時です。 x\u0301 ", seed=5)  # tokens inside characters
def test_positions_equal_one_encode(tok, plain, text, seed):
    text = text * (MIN_POSITION_CHARS // len(text) + 1)
    ours, ref = tok.token_positions(text), plain.token_positions(text)
    assert ours.n == ref.n
    offsets = [ref.at(k) for k in range(ref.n)]
    assert [ours.at(k) for k in range(ours.n)] == offsets
    assert [ours.before(o) for o in range(len(text) + 1)] == [bisect_left(offsets, o) for o in range(len(text) + 1)]
    rnd = random.Random(seed)
    for _ in range(20):
        a = rnd.randrange(ref.n)
        b = rnd.randrange(a, ref.n + 2)
        assert ours.between(a, b) == ref.between(a, b)


@pytest.mark.parametrize("name", ["wiki.md", "chat_dialogues.txt"])
def test_real_text_paragraphs_and_slices(tok, cl100k, name):
    text = (DATA / name).read_text(encoding="utf-8")
    paragraphs = [p for p in text.split("\n\n") if p]
    assert tok.count_tokens_batch(paragraphs) == [_encode_count(cl100k, p) for p in paragraphs]
    rnd = random.Random(0)
    for _ in range(50):
        a = rnd.randrange(len(text))
        span = text[a : a + rnd.randrange(MIN_CHARS, 4000)]
        assert tok.count_tokens(span) == _encode_count(cl100k, span)


def test_positions_of_a_long_text(tok, plain):
    """Over ``_NUMPY_PIECES`` pieces the piece offsets come from numpy; the same offsets as one encode."""
    from docchunk.tokenizers import space_pieces

    text = (DATA / "wiki.md").read_text(encoding="utf-8") + "| a  |  b |\n  x \xa0 y\u3000 z  "
    text = " " + text * (space_pieces._NUMPY_PIECES // text.count(" ") + 1)
    assert text.count(" ") > space_pieces._NUMPY_PIECES
    ours, ref = tok.token_positions(text), plain.token_positions(text)
    assert ours.n == ref.n
    rnd = random.Random(0)
    for k in rnd.sample(range(ref.n), 3000):
        assert ours.at(k) == ref.at(k)
    for o in rnd.sample(range(len(text)), 3000):
        assert ours.before(o) == ref.before(o)
