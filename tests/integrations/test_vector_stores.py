"""Other vector stores through LangChain's and LlamaIndex's interfaces (their in-memory stores)."""

from __future__ import annotations

import numpy as np
import pytest

from docchunk import EmbeddingsRefinery
from tests.helpers import DATA, HashEmbeddings

DOC = DATA / "html__html_rich_table_cells.html.json"


def _refinery():
    return EmbeddingsRefinery(HashEmbeddings(), model_name="hash-8")


def test_langchain_in_memory_store_holds_the_refinery_vectors_of_contextualize():
    pytest.importorskip("langchain_core")
    from langchain_core.vectorstores import InMemoryVectorStore

    from docchunk.integrations.langchain import DocchunkEmbeddings, DocchunkLoader

    documents = DocchunkLoader([DOC]).load()
    store = InMemoryVectorStore(DocchunkEmbeddings(_refinery()))
    ids = store.add_documents(documents, ids=[f"{d.metadata['source']}#{d.metadata['chunk_index']}" for d in documents])
    assert len(ids) == len(documents) > 2
    embed = HashEmbeddings()
    for doc_id, document in zip(ids, documents, strict=True):
        stored = store.store[doc_id]
        assert stored["text"] == document.page_content and stored["metadata"]["doc_items"]
        assert np.array_equal(np.asarray(stored["vector"], dtype=np.float32), embed([document.page_content])[0])
    target = documents[2]
    (hit, score), *_ = store.similarity_search_with_score(target.page_content, k=3)
    assert hit.metadata["chunk_index"] == target.metadata["chunk_index"] and score == pytest.approx(1.0)


def test_llama_index_simple_store_takes_embedded_nodes_and_finds_them():
    pytest.importorskip("llama_index.core")
    from llama_index.core.vector_stores import SimpleVectorStore, VectorStoreQuery

    from docchunk.index import embedded_rows
    from docchunk.integrations.llama_index import embedded_nodes

    rows = list(embedded_rows([DOC], embedder=_refinery()))
    nodes = embedded_nodes(rows)
    assert len(nodes) == len(rows) > 2
    assert any(n.metadata["table_rows"] for n in nodes) and all(n.metadata["doc_items"] for n in nodes)
    assert np.array_equal(np.asarray(nodes[1].embedding, dtype=np.float32),
                          HashEmbeddings()([rows[1]["contextualized"]])[0])  # fmt: skip
    store = SimpleVectorStore()
    assert store.add(nodes) == [n.id_ for n in nodes]
    result = store.query(VectorStoreQuery(query_embedding=rows[2]["embedding"], similarity_top_k=2))
    assert result.ids[0] == f"{rows[2]['source']}#2" and result.similarities[0] == pytest.approx(1.0)
