"""Invariants of the default (structure-faithful) document chunkers on generated documents."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import docchunk
from tests.helpers import check_tables, debris_lines, examples, lost_texts, page_sets
from tests.property.strategies import structured_documents

TOKENIZERS = {"word": ("word", [6, 20, 80]), "minilm": (None, [16, 48, 160])}


@pytest.mark.parametrize("name", list(TOKENIZERS))
@settings(
    deadline=None,
    max_examples=examples(60),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    doc=structured_documents(),
    size_index=st.integers(0, 2),
    merge_peers=st.booleans(),
    across=st.booleans(),
    low=st.sampled_from([None, 1, 4, 12]),
)
def test_default_hybrid_invariants(name, doc, size_index, merge_peers, across, low):
    spec, sizes = TOKENIZERS[name]
    tok = docchunk.get_tokenizer(spec)
    max_tokens = sizes[size_index]
    low = min(low, max_tokens) if low is not None else None
    chunker = docchunk.HybridChunker(tokenizer=tok, max_tokens=max_tokens, merge_peers=merge_peers,
                                     merge_across_pages=across, min_tokens=low)  # fmt: skip
    chunks = list(chunker.chunk(doc))

    assert not lost_texts(doc, chunks)
    check_tables(chunker, doc, chunks)  # whole rows that fit, no debris line, no cell text lost
    for chunk in chunks:
        assert chunk.text.strip(), "empty chunk"
        n = tok.count_tokens(chunker.contextualize(chunk))
        debris = debris_lines(chunker.contextualize(chunk), doc)
        # a remnant stands alone only when its text has no room for it and one more token
        room = max_tokens - n + tok.count_tokens(chunk.text)
        assert not debris or room <= max(tok.count_tokens(line) for line in debris), repr(chunk.text)
        assert n == chunk.meta.token_count
        assert n <= max_tokens or chunk.meta.oversized
        if not across:
            assert len(page_sets(chunk)) <= 1, "a chunk joins items of different pages"
    if low is not None:
        _assert_no_mergeable_small_chunk(chunker, chunks, low, max_tokens, across)
    again = [(c.text, c.meta.headings, [i.self_ref for i in c.meta.doc_items]) for c in chunker.chunk(doc)]
    assert again == [(c.text, c.meta.headings, [i.self_ref for i in c.meta.doc_items]) for c in chunks]


def _assert_no_mergeable_small_chunk(chunker, chunks, low, max_tokens, across) -> None:
    """A chunk under min_tokens remains only when joining it with a neighbour would exceed max_tokens."""
    tok = chunker.token_counter
    for i, chunk in enumerate(chunks):
        if chunk.meta.token_count >= low:
            continue
        for j in (i - 1, i + 1):
            if not 0 <= j < len(chunks) or (not across and page_sets(chunks[j]) != page_sets(chunk)):
                continue
            first, second = (chunks[j], chunk) if j < i else (chunk, chunks[j])
            if first.meta.table_rows and second.meta.table_rows:
                continue  # rows of two tables are not merged
            # the merged chunk holds both texts, the headings of both (a path they share once: two
            # headings that read the same are still two headings) and the captions of both
            ha, hb = first.meta.headings or [], second.meta.headings or []
            common = next((k for k, (a, b) in enumerate(zip(ha, hb, strict=False)) if a != b), min(len(ha), len(hb)))
            caps = [*(first.meta.__dict__.get("captions") or []), *(second.meta.__dict__.get("captions") or [])]
            merged = chunker.delim.join([*ha, *hb[common:], *dict.fromkeys(caps), first.text, second.text])
            assert tok.count_tokens(merged) > max_tokens, (chunk.text, chunks[j].text)


@settings(
    deadline=None,
    max_examples=examples(60),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(doc=structured_documents(), emit=st.booleans())
def test_default_hierarchical_keeps_every_text(doc, emit):
    chunker = docchunk.HierarchicalChunker(tokenizer="character", always_emit_headings=emit)
    chunks = list(chunker.chunk(doc))
    assert not lost_texts(doc, chunks)
    for chunk in chunks:
        assert chunk.text or emit
        assert not debris_lines(chunk.text, doc), repr(chunk.text)
        assert chunk.meta.token_count == len(chunker.contextualize(chunk))
