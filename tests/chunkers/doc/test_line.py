"""LineBasedTokenChunker: docling-core parity in compat mode, per-chunk doc_items by default."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docchunk import ConfigError, LineBasedTokenChunker, get_tokenizer
from docchunk.serialization.selection import serializer_for
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
    # the default serializer's text, line by line (issue 45: docling-core's loses a rich corner cell)
    written = serializer_for(None, doc).serialize().text
    assert "".join("".join(c.text[len(prefix) :] for c in chunks).split()) == "".join(written.split())
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


@pytest.mark.parametrize("max_tokens", [8, 64])
def test_rich_corner_cell_is_kept(max_tokens):
    """Regression (issue 45, found by the order-dependent fuzz runs): the default chunked docling-core's
    text, whose table triplets leave out the top-left cell; a rich cell there (a list) was lost."""
    from docling_core.types.doc import DoclingDocument, GroupLabel, RichTableCell, TableCell, TableData

    doc = DoclingDocument(name="rich-corner")
    cells = [TableCell(text=t, start_row_offset_idx=r, end_row_offset_idx=r + 1, start_col_offset_idx=c,
                       end_col_offset_idx=c + 1, column_header=r == 0)
             for r, c, t in [(0, 1, "price"), (1, 0, "apples"), (1, 1, "3")]]  # fmt: skip
    table = doc.add_table(data=TableData(num_rows=2, num_cols=2, table_cells=cells))
    group = doc.add_group(label=GroupLabel.UNSPECIFIED, name="rich_cell", parent=table)
    inner = doc.add_list_group(parent=group)
    for text in ("fruit", "per kilo"):
        doc.add_list_item(text=text, parent=inner)
    corner = RichTableCell(text="fruit per kilo", ref=group.get_ref(), start_row_offset_idx=0, end_row_offset_idx=1,
                           start_col_offset_idx=0, end_col_offset_idx=1)  # fmt: skip
    doc.add_table_cell(table, corner)
    text = " ".join(c.text for c in LineBasedTokenChunker(tokenizer="word", max_tokens=max_tokens).chunk(doc))
    for word in ("fruit", "per", "kilo", "price", "apples", "3"):
        assert word in text.split() or word in text, (word, text)


def test_furniture_only_document_is_explained():
    """Regression (issue 45): a document of page headers and footers only gave no chunk and no word from
    the line chunker (the others raise the DocumentError that says why), and include_furniture was ignored."""
    from docling_core.types.doc import ContentLayer, DocItemLabel, DoclingDocument

    from docchunk import DocumentError

    doc = DoclingDocument(name="furniture-only")
    doc.add_text(label=DocItemLabel.PAGE_HEADER, text="ACME confidential", content_layer=ContentLayer.FURNITURE)
    doc.add_text(label=DocItemLabel.PAGE_FOOTER, text="Page 1 of 3", content_layer=ContentLayer.FURNITURE)
    with pytest.raises(DocumentError, match=r"page headers or footers.*include_furniture=True"):
        list(LineBasedTokenChunker(tokenizer="word", max_tokens=16).chunk(doc))
    chunks = list(LineBasedTokenChunker(tokenizer="word", max_tokens=16, include_furniture=True).chunk(doc))
    assert "".join(c.text for c in chunks).split() == "ACME confidential Page 1 of 3".split()
    assert list(LineBasedTokenChunker(tokenizer="word", max_tokens=16, docling_compat=True).chunk(doc)) == []


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
