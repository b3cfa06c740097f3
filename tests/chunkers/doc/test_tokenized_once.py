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
from docling_core.types.doc import DocItemLabel, DoclingDocument
from docling_core.types.doc.document import Formatting

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


def _inline_runs(paragraphs: int) -> DoclingDocument:
    """Paragraphs written as inline runs: text, a linked citation and a bold term in each."""
    doc = DoclingDocument(name="runs")
    doc.add_heading("Findings", level=1)
    for k in range(paragraphs):
        run = doc.add_inline_group()
        doc.add_text(DocItemLabel.TEXT, f"Sample {k} was dried and heated for one hour, as described", parent=run)
        doc.add_text(DocItemLabel.TEXT, f"(Author et al., {2000 + k})", parent=run, hyperlink="https://example.com/c")
        doc.add_text(DocItemLabel.TEXT, "and then weighed against the", parent=run)
        doc.add_text(DocItemLabel.TEXT, "control", parent=run, formatting=Formatting(bold=True))
        doc.add_text(DocItemLabel.TEXT, "sample of the same batch.", parent=run)
    return doc


@pytest.mark.parametrize("max_tokens", [256, 64])
def test_inline_runs_are_tokenized_once(minilm_dir, max_tokens):
    """A sentence written as inline fragments is split at sentence ends only: its fragments are not counted."""
    tok = docchunk.get_tokenizer(f"hf:{minilm_dir}")
    seen: list[int] = []
    _recording(tok, seen)
    doc = _inline_runs(40)
    chunks = list(docchunk.HybridChunker(tokenizer=tok, max_tokens=max_tokens).chunk(doc))
    assert "Sample 39 was dried and heated for one hour, as described (Author et al., 2039) and then" in chunks[-1].text
    text_chars = sum(len(t.text) for t in doc.texts)
    assert sum(seen) <= 1.25 * text_chars, (sum(seen), text_chars)
