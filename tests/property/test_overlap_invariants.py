"""OverlapRefinery invariants on chunks of generated text (hypothesis)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import docchunk
from tests.property.strategies import texts


@given(
    text=texts(max_words=80),
    size=st.integers(3, 40),
    context=st.one_of(st.integers(1, 20), st.floats(0.01, 1.0)),
    method=st.sampled_from(["suffix", "prefix"]),
    mode=st.sampled_from(["token", "recursive"]),
    tok=st.sampled_from(["character", "word"]),
)
def test_context_is_adjacent_source_text(text, size, context, method, mode, tok):
    chunks = docchunk.RecursiveChunker(chunk_size=size)(text)
    original = [c.model_copy() for c in chunks]
    refined = docchunk.OverlapRefinery(tokenizer=tok, context_size=context, mode=mode, method=method, inplace=False)(
        chunks
    )
    assert [c.model_dump() for c in chunks] == [c.model_dump() for c in original]
    for i, (before, after) in enumerate(zip(original, refined, strict=True)):
        assert text[after.start_index : after.end_index] == after.text  # chunks tile: context is adjacent
        if method == "suffix":
            assert after.text.startswith(before.text)
            added = after.text[len(before.text) :]
            neighbour = original[i + 1].text if i + 1 < len(original) else ""
            assert neighbour.startswith(added)
        else:
            assert after.text.endswith(before.text)
            added = after.text[: len(after.text) - len(before.text)]
            neighbour = original[i - 1].text if i > 0 else ""
            assert neighbour.endswith(added)
        if neighbour.strip():
            assert added, "a positive context size never gives zero context when the neighbour has text"
        if added:  # recounted with the refinery's tokenizer
            assert after.token_count == docchunk.get_tokenizer(tok).count_tokens(after.text)
        else:
            assert after.token_count == before.token_count
