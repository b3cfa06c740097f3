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
    refined = docchunk.OverlapRefinery(tokenizer=tok, context_size=context, mode=mode, method=method,
                                       inplace=False, stop_at=())(
        chunks
    )
    assert [c.model_dump() for c in chunks] == [c.model_dump() for c in original]
    merged_any = any(a.text != b.text for a, b in zip(original, refined, strict=True))
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
        if merged_any:  # a list that took context is recounted in one unit: the refinery's tokenizer (lane47e, F12)
            assert after.token_count == docchunk.get_tokenizer(tok).count_tokens(after.text)
        else:
            assert after.token_count == before.token_count


@given(
    text=texts(max_words=80),
    size=st.integers(3, 40),
    context=st.integers(1, 12),
    first=st.sampled_from(["suffix", "prefix"]),
    merge=st.booleans(),
    mode=st.sampled_from(["token", "recursive"]),
    tok=st.sampled_from(["character", "word"]),
)
def test_both_sides_take_context_from_original_neighbours(text, size, context, first, merge, mode, tok):
    """A prefix and a suffix pass in either order, merged or not."""
    chunks = docchunk.RecursiveChunker(chunk_size=size)(text)
    bodies = [c.text for c in chunks]
    second = "prefix" if first == "suffix" else "suffix"
    kw = {"tokenizer": tok, "context_size": context, "mode": mode, "merge": merge}
    out = docchunk.OverlapRefinery(method=first, inplace=False, stop_at=(), **kw)(chunks)
    out = docchunk.OverlapRefinery(method=second, stop_at=(), **kw)(out)
    assert [c.text for c in chunks] == bodies
    for i, (body, c) in enumerate(zip(bodies, out, strict=False)):
        assert isinstance(c.start_index, int) and text[c.start_index : c.end_index] == c.text
        if merge:
            assert c.context_prefix is None and c.context_suffix is None
            at = chunks[i].start_index - c.start_index  # the body sits where it was
            assert at >= 0 and c.text[at : at + len(body)] == body
            prefix, suffix = c.text[:at], c.text[at + len(body) :]
        else:
            assert c.text == body
            prefix, suffix = c.context_prefix or "", c.context_suffix or ""
        assert (prefix == "") == (i == 0 or not bodies[i - 1])
        assert (suffix == "") == (i + 1 == len(bodies) or not bodies[i + 1])
        assert i == 0 or bodies[i - 1].endswith(prefix)
        assert i + 1 == len(bodies) or bodies[i + 1].startswith(suffix)
