"""PageChunker on a document without pages (a DOCX conversion): max_tokens still holds."""

from __future__ import annotations

from pathlib import Path

import pytest

from docchunk import PageChunker, get_tokenizer, load_document

DOC = Path(__file__).parents[2] / "data" / "docx__word_sample.docx.json"


@pytest.mark.parametrize("max_tokens", [1, 40, 200])
def test_pageless_document_is_split_to_max_tokens(max_tokens):
    doc = load_document(DOC)
    assert not doc.pages
    tok = get_tokenizer("character")
    whole = list(PageChunker(tokenizer="character").chunk(doc))
    assert len(whole) == 1 and tok.count_tokens(whole[0].text) > 200
    chunks = list(PageChunker(tokenizer="character", max_tokens=max_tokens).chunk(doc))
    assert len(chunks) > 1
    for chunk in chunks:
        assert chunk.text.strip()
        assert chunk.meta.token_count == tok.count_tokens(chunk.text)
        assert chunk.meta.token_count <= max_tokens or chunk.meta.oversized
    # no text lost: the non-blank characters of the chunks, in order, are those of the whole document
    assert "".join("".join(c.text.split()) for c in chunks) == "".join(whole[0].text.split())


def test_pageless_document_keeps_docling_compat_whole():
    doc = load_document(DOC)
    chunks = list(PageChunker(tokenizer="character", max_tokens=40, docling_compat=True).chunk(doc))
    assert len(chunks) == 1
