"""LineBasedTokenChunker: docling-core parity in compat mode, per-chunk doc_items by default."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docchunk import ConfigError, LineBasedTokenChunker, get_tokenizer
from tests.helpers import DATA, examples, live_docling_params, load
from tests.property.strategies import texts


def _docling(max_tokens: int, prefix: str, omit: bool, transformers_minilm):
    from docling_core.transforms.chunker.line_chunker import LineBasedTokenChunker as DLLine
    from docling_core.transforms.chunker.tokenizer.huggingface import HuggingFaceTokenizer

    tok = HuggingFaceTokenizer(tokenizer=transformers_minilm, max_tokens=max_tokens)
    return DLLine(tokenizer=tok, prefix=prefix, omit_prefix_on_overflow=omit)


CONFIGS = [
    pytest.param(64, "", False, id="64"),
    pytest.param(32, "Table: revenue by region\n", False, id="32-prefix"),
    pytest.param(32, "Table: revenue by region\n", True, id="32-prefix-omit"),
    pytest.param(8, "a long prefix that does not fit in eight tokens at all\n", False, id="8-long-prefix"),
]


def _grid() -> list:
    """Every configuration on the shipped documents; the corpus with the first (docling-core is slow; outer ring)."""
    out = []
    for doc in live_docling_params():
        for config in CONFIGS if doc.id.startswith("data/") else CONFIGS[:1]:
            out.append(pytest.param(*doc.values, *config.values, id=f"{doc.id}-{config.id}", marks=doc.marks))
    return out


@pytest.mark.parametrize(("path", "max_tokens", "prefix", "omit"), _grid())
def test_compat_equals_docling_core(path, max_tokens, prefix, omit, transformers_minilm, minilm_dir):
    doc = load(path)
    theirs = _docling(max_tokens, prefix, omit, transformers_minilm)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = [(c.text, [it.self_ref for it in c.meta.doc_items]) for c in theirs.chunk(doc)]
    ours = LineBasedTokenChunker(
        tokenizer=f"hf:{minilm_dir}",
        max_tokens=max_tokens,
        prefix=prefix,
        omit_prefix_on_overflow=omit,
        docling_compat=True,
    )
    assert [(c.text, [it.self_ref for it in c.meta.doc_items]) for c in ours.chunk(doc)] == expected


@pytest.mark.parametrize("max_tokens", [16, 64])
def test_default_keeps_lines_and_gives_own_doc_items(max_tokens):
    doc = load(DATA / "docling_core__2_inp_dl_doc.json")
    prefix = "Report\n"
    chunker = LineBasedTokenChunker(max_tokens=max_tokens, prefix=prefix)
    chunks = list(chunker.chunk(doc))
    compat = list(LineBasedTokenChunker(max_tokens=max_tokens, prefix=prefix, docling_compat=True).chunk(doc))
    assert [c.text for c in chunks] == [c.text for c in compat if c.text.strip()]
    n_items = len(compat[0].meta.doc_items)
    assert any(len(c.meta.doc_items) < n_items for c in chunks), "each chunk names its own elements"
    for chunk in chunks:
        assert chunk.text.startswith(prefix)
        assert chunk.meta.token_count == chunker.token_counter.count_tokens(chunk.text)
        assert chunk.meta.token_count <= max_tokens or chunk.meta.oversized
    # the doc_items of a chunk hold the text of its lines (checked on the text items)
    for chunk in chunks:
        body_words = set(chunk.text[len(prefix) :].split())
        item_words = {w for it in chunk.meta.doc_items for w in getattr(it, "text", "").split()}
        if item_words:
            assert body_words & item_words


def test_budget_and_names():
    with pytest.raises(ConfigError, match="disagree"):
        LineBasedTokenChunker(max_tokens=10, max_tokens_override=20)
    assert LineBasedTokenChunker(max_tokens_override=20).max_tokens == 20
    with pytest.raises(ConfigError, match="max_tokens is required"):
        LineBasedTokenChunker(tokenizer="word")
    with pytest.raises(ConfigError, match="max_tokens must be an int >= 1, got 0"):
        LineBasedTokenChunker(max_tokens=0)


@settings(max_examples=examples(80), deadline=None)
@given(
    lines=st.lists(texts(max_words=30), min_size=1, max_size=8),
    max_tokens=st.integers(2, 40),
    prefix=st.sampled_from(["", "H: ", "a header line that is fairly long\n"]),
    omit=st.booleans(),
)
def test_chunk_text_invariants(lines, max_tokens, prefix, omit):
    chunker = LineBasedTokenChunker(tokenizer="character", max_tokens=max_tokens, prefix=prefix,
                                    omit_prefix_on_overflow=omit)  # fmt: skip
    lines = [line + "\n" for line in lines]
    out = chunker.chunk_text(lines)
    tok = get_tokenizer("character")
    for text in out:
        assert text
        assert tok.count_tokens(text) <= max_tokens or len(text) == 1
    # without the prefixes, the chunks give back the lines
    fits = len(prefix) < max_tokens
    body = "".join(t[len(prefix) :] if fits and prefix and t.startswith(prefix) else t for t in out)
    if fits:
        assert body.replace(prefix, "") == "".join(lines).replace(prefix, "")
