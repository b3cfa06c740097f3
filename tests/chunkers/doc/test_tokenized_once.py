"""The default hybrid chunker tokenizes a document's text about once (one tokenizer pass).

Every count goes through the chunker's tokenizer; the characters it is given,
over all calls, are compared with the characters of the document's texts. Joined
pieces (element windows, merge candidates, heading paths) are sized by arithmetic
from counts already known, and long texts' sentences and words from the token
offsets kept when they were counted, not tokenized again; before that, these
documents were tokenized 1.3 to 2.8 times over.
"""

from __future__ import annotations

import pytest

import docchunk
from tests.helpers import DATA, load

# documents of text, headings and lists, one with a small table (table rows repeat their
# column headers, so a table's serialized text is longer than its cells: not comparable)
DOCS = [
    "docling_core__2_inp_dl_doc.json",
    "docling_core__2h_headings_doc.json",
    "md_deepseek__deepseek_title.md.json",
    "pdf__multi_page.json",
]


def _recording(tok, seen: list[int]) -> None:
    names = ("count_tokens", "count_tokens_batch", "token_offsets", "token_offsets_batch", "counts_and_offsets_batch")
    for name in names:
        original = getattr(tok, name)

        def record(arg, *rest, _original=original):
            seen.append(len(arg) if isinstance(arg, str) else sum(map(len, arg)))
            return _original(arg, *rest)

        setattr(tok, name, record)


@pytest.mark.parametrize("max_tokens", [256, 64])
@pytest.mark.parametrize("name", DOCS)
def test_hybrid_chunking_tokenizes_the_text_about_once(minilm_dir, name, max_tokens):
    tok = docchunk.get_tokenizer(f"hf:{minilm_dir}")
    seen: list[int] = []
    _recording(tok, seen)
    doc = load(DATA / name)
    chunks = list(docchunk.HybridChunker(tokenizer=tok, max_tokens=max_tokens).chunk(doc))
    assert chunks
    text_chars = sum(len(t.text) for t in doc.texts)
    assert sum(seen) <= 1.25 * text_chars, (sum(seen), text_chars)
