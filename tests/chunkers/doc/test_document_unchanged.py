"""Chunking leaves the document as it was: the tests share one loaded copy of each document (tests.helpers.load)."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from docling_core.types.doc import DoclingDocument

import docchunk
from tests.helpers import DATA, changed_documents, doc_digest, load

DOCS = ["docling_core__2_inp_dl_doc.json", "pdf__multi_page.json"]  # tables, pictures, lists; pages


def _chunkers() -> dict[str, Any]:
    out = {}
    for compat in (False, True):
        mode = "compat" if compat else "default"
        out[f"hybrid-64-{mode}"] = docchunk.HybridChunker(max_tokens=64, docling_compat=compat)
        out[f"hierarchical-{mode}"] = docchunk.HierarchicalChunker(docling_compat=compat)
        out[f"page-{mode}"] = docchunk.PageChunker(docling_compat=compat)
        out[f"line-32-{mode}"] = docchunk.LineBasedTokenChunker(max_tokens=32, prefix="T\n", docling_compat=compat)
    return out


def _expanders() -> dict[str, Any]:
    kinds = (docchunk.TreeChunkExpander, docchunk.PageChunkExpander)
    return {f"{kind.__name__}-{compat}": kind(docling_compat=compat) for kind in kinds for compat in (False, True)}


@pytest.mark.parametrize("name", DOCS)
def test_no_chunker_changes_the_document(name):
    doc = DoclingDocument.load_from_json(DATA / name)  # a private copy: the shared one is checked by conftest
    before = doc_digest(doc)
    for label, chunker in _chunkers().items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            chunks = list(chunker.chunk(doc))
            for chunk in chunks:
                chunker.contextualize(chunk)
        assert chunks, label
        assert doc_digest(doc) == before, f"{label} changed {name}"
    if name == DOCS[0]:
        return  # docling-core's tree expansion (compat) takes about a second a chunk there
    some = list(docchunk.HybridChunker(max_tokens=32).chunk(doc))[:6]
    for label, expander in _expanders().items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # docling-core's page expansion of a document without pages
            assert [expander.expand(chunk, doc) for chunk in some], label
        assert doc_digest(doc) == before, f"{label} changed {name}"


def test_a_changed_shared_document_is_reported_once():
    """The check behind conftest's teardown: a shared document changed since loading is named, then forgotten."""
    changed_documents()  # what earlier code of this test handed out
    doc = load(DATA / "docling_core__2_inp_dl_doc.json")
    assert changed_documents() == []
    doc = load(DATA / "docling_core__2_inp_dl_doc.json")
    name, doc.name = doc.name, "changed"
    try:
        assert [p.name for p in changed_documents()] == ["docling_core__2_inp_dl_doc.json"]
        assert changed_documents() == []  # reported for the test that handed it out only
    finally:
        doc.name = name
    load(DATA / "docling_core__2_inp_dl_doc.json")
    assert changed_documents() == []
