"""A docchunk index as a LangChain and a LlamaIndex retriever, ranked as docchunk search ranks, in process."""

from __future__ import annotations

import pytest

pytest.importorskip("lancedb")

from docchunk import ConfigError, EmbeddingsRefinery
from docchunk.index import index_paths, search
from tests.helpers import DATA, HashEmbeddings


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    db = tmp_path_factory.mktemp("retrievers") / "db"
    index_paths([DATA / "wiki.md", DATA / "pdf__multi_page.json"], db, model=_embedder())
    return db


def _embedder():
    return EmbeddingsRefinery(HashEmbeddings(), model_name="hash-8")


@pytest.mark.parametrize("mode", ["hybrid", "dense", "lexical"])
def test_langchain_retriever_gives_the_hits_of_search_as_documents(db, mode):
    pytest.importorskip("langchain_core")
    from docchunk.integrations.index_retrievers import langchain_retriever

    question = "In which year was IBM founded?"
    documents = langchain_retriever(db, k=4, mode=mode, model=_embedder()).invoke(question)
    hits = search(db, question, k=4, model=_embedder(), mode=mode)
    assert [d.metadata["id"] for d in documents] == [h.row["id"] for h in hits] and documents
    assert [d.page_content for d in documents] == [h.row["contextualized"] for h in hits]
    assert [d.metadata["score"] for d in documents] == [h.score for h in hits]
    assert {d.metadata["role"] for d in documents} == {"content"}


@pytest.mark.parametrize("mode", ["hybrid", "lexical"])
def test_llama_index_retriever_gives_the_hits_of_search_as_nodes(db, mode):
    pytest.importorskip("llama_index.core")
    from docchunk.integrations.index_retrievers import llama_index_retriever

    question = "Which company introduced the word processor?"
    nodes = llama_index_retriever(db, k=3, mode=mode, model=_embedder()).retrieve(question)
    hits = search(db, question, k=3, model=_embedder(), mode=mode)
    assert [n.node.node_id for n in nodes] == [h.row["id"] for h in hits] and nodes
    assert [n.score for n in nodes] == [h.score for h in hits]


def test_a_bad_mode_is_refused_when_the_retriever_is_made(db):
    pytest.importorskip("langchain_core")
    from docchunk.integrations.index_retrievers import langchain_retriever

    with pytest.raises(ConfigError, match="not a ranking mode"):
        langchain_retriever(db, mode="bm25")
