"""What ``token_count`` counts, for every chunker family (docs/concepts.md, "What token_count counts").

A new user's finding 13 (stop 57): a text chunk's ``token_count`` counts its ``text``
alone, a document chunk's ``meta.token_count`` counts ``contextualize(chunk)``; the docs
said each in its own page only. These tests pin the statement the docs now make in one place.
"""

from __future__ import annotations

import hashlib

import pytest

import docchunk
from tests.helpers import DATA, rows, run

PAGED = DATA / "pdf__multi_page.json"
MARKDOWN = DATA / "wiki.md"

DOC_CHUNKERS = {
    "hybrid": lambda tok: docchunk.HybridChunker(tokenizer=tok, max_tokens=48),
    "hybrid-compat": lambda tok: docchunk.HybridChunker(tokenizer=tok, max_tokens=48, docling_compat=True),
    "hierarchical": lambda tok: docchunk.HierarchicalChunker(tokenizer=tok),
    "hierarchical-compat": lambda tok: docchunk.HierarchicalChunker(tokenizer=tok, docling_compat=True),
    "page": lambda tok: docchunk.PageChunker(tokenizer=tok, max_tokens=64),
    "line": lambda tok: docchunk.LineBasedTokenChunker(tokenizer=tok, max_tokens=48),
}


def _embed(texts):
    """A fixed embedding of each text (letter counts): SemanticChunker needs one, this test reads no similarity."""
    np = pytest.importorskip("numpy")
    return np.array([[t.lower().count(c) + 1 for c in "etaoinshrdlu"] for t in texts], dtype=float)


TEXT_CHUNKERS = {
    "recursive": lambda tok: docchunk.RecursiveChunker(chunk_size=40, tokenizer=tok, language="markdown"),
    "token": lambda tok: docchunk.TokenChunker(tok, chunk_size=40, chunk_overlap=8),
    "sentence": lambda tok: docchunk.SentenceChunker(tokenizer=tok, chunk_size=40),
    "window": lambda tok: docchunk.WindowChunker(offset=40, overlap=8, unit="token", tokenizer=tok),
    "semantic": lambda tok: docchunk.SemanticChunker(_embed, threshold=0.5, chunk_size=40, tokenizer=tok),
    "sdpm": lambda tok: docchunk.SDPMChunker(_embed, threshold=0.5, chunk_size=40, tokenizer=tok),
}


@pytest.fixture(scope="module")
def doc():
    return docchunk.load_document(PAGED)


@pytest.mark.parametrize("kind", list(DOC_CHUNKERS))
def test_document_chunk_counts_contextualize(doc, kind):
    tok = docchunk.get_tokenizer()
    chunker = DOC_CHUNKERS[kind](tok)
    chunks = list(chunker.chunk(doc))
    assert chunks
    for chunk in chunks:
        assert chunk.meta.token_count == tok.count_tokens(chunker.contextualize(chunk)), chunk.text[:60]
    if kind.startswith(("hybrid", "hierarchical")):  # headings in contextualize: more than the text alone
        assert any(chunk.meta.token_count > tok.count_tokens(chunk.text) for chunk in chunks)


@pytest.mark.parametrize("expander", [docchunk.TreeChunkExpander, docchunk.PageChunkExpander])
def test_expanded_chunk_counts_contextualize(doc, expander):
    tok = docchunk.get_tokenizer()
    chunker = docchunk.HybridChunker(tokenizer=tok, max_tokens=48)
    big = list(expander(tokenizer=tok).expand_all(chunker.chunk(doc), doc))
    assert any(c.meta.expanded for c in big)
    assert all(c.meta.token_count == tok.count_tokens(chunker.contextualize(c)) for c in big)


def test_document_chunk_counts_the_context_a_refinery_attached(doc):
    tok = docchunk.get_tokenizer()
    chunker = docchunk.HybridChunker(tokenizer=tok, max_tokens=64)
    refined = docchunk.OverlapRefinery(tokenizer=tok, context_size=8, method="prefix", merge=False)(
        list(chunker.chunk(doc))
    )
    assert any(c.meta.context_prefix for c in refined)
    assert all(c.meta.token_count == tok.count_tokens(chunker.contextualize(c)) for c in refined)


@pytest.mark.parametrize("kind", list(TEXT_CHUNKERS))
def test_text_chunk_counts_its_text_alone(kind):
    tok = docchunk.get_tokenizer()
    text = MARKDOWN.read_text(encoding="utf-8")
    chunks = TEXT_CHUNKERS[kind](tok)(text)
    assert len(chunks) > 1
    assert all(c.token_count == tok.count_tokens(c.text) for c in chunks)
    for refinery in (docchunk.OverlapRefinery(tokenizer=tok, context_size=8, merge=False),
                     docchunk.HeadingContextRefinery()):  # fmt: skip
        refined = refinery([c.model_copy() for c in chunks])
        assert any(c.context_prefix or c.context_suffix for c in refined), type(refinery).__name__
        assert all(c.token_count == tok.count_tokens(c.text) for c in refined)  # the context is not counted


def test_text_chunk_counts_context_merged_into_its_text():
    tok = docchunk.get_tokenizer()
    text = MARKDOWN.read_text(encoding="utf-8")
    chunks = docchunk.OverlapRefinery(tokenizer=tok, context_size=8, merge=True)(
        docchunk.RecursiveChunker(chunk_size=40, tokenizer=tok)(text)
    )
    assert all(c.token_count == tok.count_tokens(c.text) and text[c.start_index : c.end_index] == c.text
               for c in chunks)  # fmt: skip


def test_code_chunk_counts_its_text_alone():
    pytest.importorskip("tree_sitter")
    tok = docchunk.get_tokenizer()
    code = "\n\n".join(f"def f{i}(x):\n    return x * {i} + {hashlib.md5(bytes(i)).hexdigest()!r}\n" for i in range(9))
    chunks = list(docchunk.CodeChunkingStrategy(tokenizer=tok, max_tokens=40).chunk_code(code, "python"))
    assert len(chunks) > 1
    assert all(c.meta.token_count == tok.count_tokens(c.text) for c in chunks)


def test_command_rows_count_contextualized_for_both_kinds(capsys):
    tok = docchunk.get_tokenizer()
    code, out, err = run(capsys, "chunk", str(MARKDOWN), "--chunker", "recursive", "--chunk-size", "40",
                         "--context-size", "8")  # fmt: skip
    assert code == 0, err
    text_rows = rows(out)
    assert any(r["contextualized"] != r["text"] for r in text_rows)
    for r in text_rows:
        assert r["token_count"] == tok.count_tokens(r["contextualized"])
        assert r["meta"]["token_count"] == tok.count_tokens(r["text"])
    code, out, err = run(capsys, "chunk", str(PAGED), "--max-tokens", "48")
    assert code == 0, err
    assert all(r["token_count"] == r["meta"]["token_count"] == tok.count_tokens(r["contextualized"])
               for r in rows(out))  # fmt: skip
