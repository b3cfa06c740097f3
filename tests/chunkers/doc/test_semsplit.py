"""semchunk_split against the semchunk library itself (the algorithm it must reproduce)."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

import docchunk
from docchunk.chunkers.doc.compat.semsplit import semchunk_split
from docchunk.tokenizers import Sizer
from tests.property.strategies import texts

semchunk = pytest.importorskip("semchunk")


def their_split(text: str, size: int, tok) -> list[str]:
    backend = getattr(tok, "backend", None)
    chunker = semchunk.chunkerify(backend if backend is not None else tok.count_tokens, chunk_size=size)
    return chunker(text)


@pytest.mark.parametrize("spec", ["character", "word", None])
@given(text=texts(max_words=120), size=st.integers(1, 40))
def test_same_chunks_as_semchunk(spec, text, size):
    tok = docchunk.get_tokenizer(spec)
    spans, oversized = semchunk_split(text, size, Sizer(tok))
    ours = [text[s:e] for s, e in spans]
    if not oversized:  # semchunk recurses without end on an oversized character
        assert ours == their_split(text, size, tok)
    for i, (s, e) in enumerate(spans):
        assert s < e and not text[s:e].isspace()
        assert tok.count_tokens(text[s:e]) <= size or i in oversized
    assert all(a[1] <= b[0] for a, b in pairwise(spans)), "spans are ordered and disjoint"
    covered = "".join(text[s:e] for s, e in spans)
    assert "".join(covered.split()) == "".join(text.split()), "only whitespace between spans is left out"


def test_oversized_character_terminates(cl100k):
    text = "😀😀😀"
    spans, oversized = semchunk_split(text, 1, Sizer(docchunk.get_tokenizer(lambda t: 2 * len(t))))
    assert [text[s:e] for s, e in spans] == ["😀", "😀", "😀"] and oversized == {0, 1, 2}
    tok = docchunk.get_tokenizer(cl100k)  # an emoji is several byte-level tokens
    assert tok.count_tokens("😀") > 1
    spans, oversized = semchunk_split(text, 1, Sizer(tok))
    assert [text[s:e] for s, e in spans] == ["😀", "😀", "😀"] and oversized == {0, 1, 2}
