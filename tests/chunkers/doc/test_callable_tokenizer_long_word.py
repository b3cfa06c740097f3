"""HybridChunker with a callable ``str -> int`` tokenizer on a word longer than ``max_tokens``
(hostile tester, session 7, finding 2): the default mode's sentence segmenter cut the word
into token windows, which a callable cannot give, and raised ``TokenizerError`` mid-chunking.
"""

from __future__ import annotations

import pytest
from docling_core.types.doc import DocItemLabel, DoclingDocument

import docchunk
from tests.helpers import lost_texts

URL_TEXT = "See https://example.com/" + "abc/def-" * 8 + "x now."


def _utf8_bytes(text: str) -> int:
    return len(text.encode("utf-8"))


@pytest.mark.parametrize("counter", [len, _utf8_bytes])
@pytest.mark.parametrize("max_tokens", [5, 40])
def test_regression_url_longer_than_the_budget_chunks_with_a_callable_tokenizer(counter, max_tokens):
    doc = DoclingDocument(name="url")
    doc.add_heading("Intro")
    doc.add_text(DocItemLabel.TEXT, URL_TEXT)
    chunker = docchunk.HybridChunker(tokenizer=counter, max_tokens=max_tokens)
    chunks = list(chunker.chunk(doc))
    assert lost_texts(doc, chunks) == []
    for chunk in chunks:
        assert chunk.meta.token_count == counter(chunker.contextualize(chunk))
        assert chunk.meta.token_count <= max_tokens or chunk.meta.oversized
