"""Haystack: our chunkers in docling-haystack's DoclingConverter, and our DocchunkConverter in a real store."""

# no `from __future__ import annotations`: Haystack reads a component's run() annotations at runtime
import warnings
from dataclasses import replace

import pytest

import docchunk
from docchunk.errors import ConfigError
from docchunk.serialization.rows import chunk_metadata, store_metadata
from tests.helpers import DATA, HashEmbeddings

pytest.importorskip("haystack", reason='needs haystack-ai: pip install ".[haystack]"')

DOC = DATA / "pdf__multi_page.json"


def _chunker():
    return docchunk.HybridChunker(max_tokens=64)


def _expected():
    chunker = _chunker()
    return [(chunker.contextualize(c), c) for c in chunker.chunk(docchunk.load_document(DOC))]


def test_our_chunker_inside_docling_haystack_converter():
    """docling-haystack takes our chunker and keeps contextualize; its meta is nested under dl_meta."""
    pytest.importorskip(
        "haystack_integrations.components.converters.docling",
        reason="needs docling-haystack: pip install --no-deps docling-haystack (over the convert extra)",
    )
    from docling.datamodel.base_models import InputFormat
    from docling.document_converter import DocumentConverter
    from haystack_integrations.components.converters.docling import DoclingConverter, ExportType

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # docling's plugin notices
        converter = DoclingConverter(
            converter=DocumentConverter(allowed_formats=[InputFormat.JSON_DOCLING]),
            export_type=ExportType.DOC_CHUNKS,
            chunker=_chunker(),
        )
        documents = converter.run(sources=[str(DOC)])["documents"]
    expected = _expected()
    assert [d.content for d in documents] == [text for text, _ in expected]
    for document, (_, chunk) in zip(documents, expected, strict=True):
        assert document.meta["dl_meta"]["meta"].get("headings") == chunk.meta.headings
        assert document.meta["dl_meta"]["meta"]["token_count"] == chunk.meta.token_count <= 64
        assert document.meta["page_number"] == min(chunk.meta.page_numbers)


def test_docchunk_converter_gives_contextualized_chunks_with_flat_metadata():
    from docchunk.integrations.haystack import DocchunkConverter

    converter = DocchunkConverter(chunker=_chunker())
    documents = converter.run(sources=[DOC, str(DOC)], meta=[{"lang": "en"}, {"lang": "en", "copy": True}])["documents"]
    expected = _expected()
    assert len(documents) == 2 * len(expected)
    for index, (text, chunk) in enumerate(expected):
        document = documents[index]
        assert document.content == text
        assert document.meta == {**store_metadata(chunk_metadata(chunk, str(DOC), index)), "lang": "en"}
    assert documents[len(expected)].meta["copy"] is True
    structured = DocchunkConverter(chunker=_chunker(), metadata="structured").run(sources=[DOC])["documents"]
    assert structured[0].meta["headings"] == expected[0][1].meta.headings
    with pytest.raises(ConfigError, match="1 dicts for 2 sources"):
        converter.run(sources=[DOC, DOC], meta=[{}])
    with pytest.raises(ConfigError, match="no metadata form"):
        DocchunkConverter(metadata="dl_meta")


def test_docchunk_converter_in_a_pipeline_to_the_in_memory_store_retrieved_and_filtered():
    from haystack import Document, Pipeline, component
    from haystack.components.retrievers.in_memory import InMemoryEmbeddingRetriever
    from haystack.components.writers import DocumentWriter
    from haystack.document_stores.in_memory import InMemoryDocumentStore

    from docchunk.integrations.haystack import DocchunkConverter

    embed = HashEmbeddings(dim=16)

    @component
    class HashEmbedder:  # deterministic vectors: the store and the retriever are Haystack's own
        @component.output_types(documents=list[Document])
        def run(self, documents: list[Document]):
            vectors = embed([d.content for d in documents])
            return {"documents": [replace(d, embedding=v.tolist()) for d, v in zip(documents, vectors, strict=True)]}

    store = InMemoryDocumentStore()
    indexing = Pipeline()
    indexing.add_component("converter", DocchunkConverter(chunker=_chunker()))
    indexing.add_component("embedder", HashEmbedder())
    indexing.add_component("writer", DocumentWriter(document_store=store))
    indexing.connect("converter", "embedder")
    indexing.connect("embedder", "writer")
    indexing.run({"converter": {"sources": [DOC]}})

    expected = _expected()
    stored = sorted(store.filter_documents(), key=lambda d: d.meta["chunk_index"])
    assert [d.content for d in stored] == [text for text, _ in expected]

    target_text, target = expected[9]
    hits = InMemoryEmbeddingRetriever(document_store=store, top_k=3).run(
        query_embedding=embed([target_text])[0].tolist(),
        filters={"field": "meta.heading", "operator": "==", "value": target.meta.headings[-1]},
    )["documents"]
    assert hits[0].content == target_text and {h.meta["heading"] for h in hits} == {target.meta.headings[-1]}
    on_page_2 = store.filter_documents({"field": "meta.first_page", "operator": "==", "value": 2})
    assert (
        sorted(d.meta["chunk_index"] for d in on_page_2)
        == [i for i, (_, c) in enumerate(expected) if min(c.meta.page_numbers) == 2]
        != []
    )
