"""Flat metadata in real, embedded, in-process vector stores (issue 48): Chroma, LanceDB, LlamaIndex.

Each store test adds the chunks of a real document, reads them back and filters on a
metadata field (the page, the heading). The stores are real; the vectors come from
``HashEmbeddings`` (deterministic), since the stores only need vectors.
"""

from __future__ import annotations

import json
import uuid

import pytest

import docchunk
from docchunk import EmbeddingsRefinery
from docchunk.errors import ConfigError
from docchunk.serialization.rows import chunk_metadata, store_metadata
from tests.helpers import DATA, HashEmbeddings

DOC = DATA / "pdf__multi_page.json"  # 5 pages, headings on each
SCALARS = (str, int, float, bool)


def _chunker():
    return docchunk.HybridChunker(max_tokens=64)


def _langchain_docs(**options):
    pytest.importorskip("langchain_core", reason='needs pip install ".[langchain]"')
    from docchunk.integrations.langchain import DocchunkLoader

    return DocchunkLoader([DOC], chunker=_chunker(), **options).load()


def _langchain_embeddings():
    from docchunk.integrations.langchain import DocchunkEmbeddings

    return DocchunkEmbeddings(EmbeddingsRefinery(HashEmbeddings(), model_name="hash-8"))


def _chroma_client():
    chromadb = pytest.importorskip("chromadb", reason='needs chromadb: pip install ".[test]"')
    from chromadb.config import Settings

    return chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False))


def _collection_name() -> str:
    return f"docchunk-{uuid.uuid4().hex[:12]}"  # in-process clients share their collections


def _assert_flat(metadata: dict) -> None:
    for key, value in metadata.items():
        assert isinstance(value, SCALARS), (key, value)
        assert value != "" and value != "[]", key


def test_flat_metadata_holds_scalars_only_and_gives_the_lists_back():
    chunks = list(_chunker().chunk(docchunk.load_document(DOC)))
    before = [c.meta.export_json_dict() for c in chunks]
    for index, chunk in enumerate(chunks):
        structured = chunk_metadata(chunk, str(DOC), index)
        flat = store_metadata(structured)
        _assert_flat(flat)
        for key, value in structured.items():
            if isinstance(value, list) and value:
                assert json.loads(flat[key]) == value
            elif value in (None, []):
                assert key not in flat
            else:
                assert flat[key] == value
        assert flat["heading"] == chunk.meta.headings[-1]
        assert (flat["first_page"], flat["last_page"]) == (min(chunk.meta.page_numbers), max(chunk.meta.page_numbers))
    assert [c.meta.export_json_dict() for c in chunks] == before  # chunk.meta untouched


def test_flat_metadata_refuses_a_nested_value_naming_its_key():
    with pytest.raises(ConfigError, match=r"'owner'.*metadata='structured'"):
        store_metadata({"owner": {"name": "ann"}})


def test_loader_metadata_forms():
    flat, structured = _langchain_docs(), _langchain_docs(metadata="structured")
    assert len(flat) == len(structured) > 10
    for f, s in zip(flat, structured, strict=True):
        _assert_flat(f.metadata)
        assert f.metadata == store_metadata(s.metadata)
        assert isinstance(s.metadata["headings"], list) and isinstance(s.metadata["captions"], list)
    with pytest.raises(ConfigError, match="metadata='nested' is no metadata form"):
        _langchain_docs(metadata="nested")


def test_chroma_through_langchain_adds_reads_back_and_filters_on_page_and_heading():
    client = _chroma_client()
    pytest.importorskip("langchain_chroma", reason='needs langchain-chroma: pip install ".[test]"')
    from langchain_chroma import Chroma

    docs = _langchain_docs()
    store = Chroma(collection_name=_collection_name(), client=client, embedding_function=_langchain_embeddings())
    ids = [f"c{d.metadata['chunk_index']}" for d in docs]
    store.add_documents(docs, ids=ids)

    got = store.get(ids=ids)
    back = dict(zip(got["ids"], zip(got["documents"], got["metadatas"], strict=True), strict=True))
    assert {i: (d.page_content, d.metadata) for i, d in zip(ids, docs, strict=True)} == back

    on_page_3 = store.get(where={"$and": [{"first_page": {"$lte": 3}}, {"last_page": {"$gte": 3}}]})
    assert (
        sorted(m["chunk_index"] for m in on_page_3["metadatas"])
        == [d.metadata["chunk_index"] for d in docs if d.metadata["first_page"] <= 3 <= d.metadata["last_page"]]
        != []
    )
    target = docs[7]
    hits = store.similarity_search(target.page_content, k=3, filter={"heading": target.metadata["heading"]})
    assert hits[0].page_content == target.page_content
    assert {h.metadata["heading"] for h in hits} == {target.metadata["heading"]}


def test_chroma_refuses_the_structured_form_the_flat_form_fixes():
    """Why the flat form is the default: Chroma takes no list metadata (chroma-core/chroma#1975)."""
    client = _chroma_client()
    pytest.importorskip("langchain_chroma", reason='needs langchain-chroma: pip install ".[test]"')
    from langchain_chroma import Chroma

    store = Chroma(collection_name=_collection_name(), client=client, embedding_function=_langchain_embeddings())
    with pytest.raises(ValueError):
        store.add_documents(_langchain_docs(metadata="structured"))


def test_lancedb_through_langchain_adds_reads_back_and_filters_on_page(tmp_path):
    lancedb = pytest.importorskip("lancedb", reason='needs pip install ".[index]"')
    pytest.importorskip("langchain_community", reason='needs langchain-community: pip install ".[test]"')
    from langchain_community.vectorstores import LanceDB

    docs = _langchain_docs()
    store = LanceDB(connection=lancedb.connect(tmp_path), embedding=_langchain_embeddings(), table_name="chunks")
    store.add_documents(docs, ids=[f"c{d.metadata['chunk_index']}" for d in docs])

    rows = store.get_table().to_arrow().to_pylist()
    assert [(r["text"], {k: v for k, v in r["metadata"].items() if v is not None}) for r in rows] == [
        (d.page_content, d.metadata) for d in docs
    ]
    target = next(d for d in docs if d.metadata["first_page"] == 3)
    hits = store.similarity_search(target.page_content, k=4, filter="metadata.first_page = 3", prefilter=True)
    assert hits[0].page_content == target.page_content
    assert {h.metadata["first_page"] for h in hits} == {3}
    heading = target.metadata["heading"].replace("'", "''")
    by_heading = store.similarity_search(target.page_content, k=50, filter=f"metadata.heading = '{heading}'")
    assert {h.metadata["chunk_index"] for h in by_heading} == {
        d.metadata["chunk_index"] for d in docs if d.metadata["heading"] == target.metadata["heading"]
    }


def _llama_nodes(**options):
    pytest.importorskip("llama_index.core", reason='needs pip install ".[llama-index]"')
    from llama_index.core import Document

    from docchunk.integrations.llama_index import DocchunkNodeParser

    source = Document(text=DOC.read_text(), doc_id="multi_page", metadata={"file_name": DOC.name})
    nodes = DocchunkNodeParser(chunker=_chunker(), **options).get_nodes_from_documents([source])
    vectors = HashEmbeddings()([n.get_content() for n in nodes])
    for node, vector in zip(nodes, vectors, strict=True):
        node.embedding = vector.tolist()
    return nodes


def test_llama_index_flat_metadata_dict_takes_the_nodes():
    from docchunk.index import embedded_rows

    nodes = _llama_nodes()
    from llama_index.core.vector_stores.utils import node_to_metadata_dict

    from docchunk.integrations.llama_index import embedded_nodes

    rows = list(embedded_rows([DOC], embedder=EmbeddingsRefinery(HashEmbeddings(), model_name="hash-8")))
    for node in [*nodes, *embedded_nodes(rows)]:
        _assert_flat(node.metadata)
        stored = node_to_metadata_dict(node, flat_metadata=True)
        assert {k: stored[k] for k in node.metadata} == node.metadata
    with pytest.raises(ValueError, match="Value for metadata headings must be one of"):
        node_to_metadata_dict(_llama_nodes(metadata="structured")[0], flat_metadata=True)
    with pytest.raises(ConfigError, match="metadata='list' is no metadata form"):
        embedded_nodes(rows, metadata="list")


def test_chroma_through_llama_index_adds_reads_back_and_filters_on_heading_and_page():
    client = _chroma_client()
    pytest.importorskip("llama_index.vector_stores.chroma", reason='needs pip install ".[test]"')
    from llama_index.core.vector_stores import FilterOperator, MetadataFilter, MetadataFilters, VectorStoreQuery
    from llama_index.vector_stores.chroma import ChromaVectorStore

    nodes = _llama_nodes()
    store = ChromaVectorStore(chroma_collection=client.get_or_create_collection(_collection_name()))
    assert store.add(nodes) == [n.node_id for n in nodes]

    back = store.get_nodes(node_ids=[n.node_id for n in nodes])
    assert {n.node_id: (n.text, n.metadata) for n in back} == {n.node_id: (n.text, n.metadata) for n in nodes}

    target = nodes[5]
    heading = MetadataFilters(filters=[MetadataFilter(key="heading", value=target.metadata["heading"])])
    result = store.query(VectorStoreQuery(query_embedding=target.embedding, similarity_top_k=3, filters=heading))
    assert result.ids[0] == target.node_id
    assert {n.metadata["heading"] for n in result.nodes} == {target.metadata["heading"]}
    page = MetadataFilters(filters=[MetadataFilter(key="first_page", value=2, operator=FilterOperator.EQ)])
    result = store.query(VectorStoreQuery(query_embedding=target.embedding, similarity_top_k=50, filters=page))
    assert sorted(result.ids) == sorted(n.node_id for n in nodes if n.metadata["first_page"] == 2) != []
