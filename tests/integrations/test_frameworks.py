"""LangChain and LlamaIndex: our chunkers inside their docling integrations, and our own adapters."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from itertools import pairwise

import pytest

import docchunk
from tests.helpers import DATA, JsonConverter

DOC = DATA / "pdf__multi_page.json"
REPEATED = "abc def ghi. " * 30


def test_our_chunker_inside_langchain_docling_loader():
    pytest.importorskip("langchain_docling", reason='needs langchain-docling: pip install ".[langchain]"')
    from langchain_docling import DoclingLoader

    chunker = docchunk.HybridChunker(max_tokens=64)
    docs = list(DoclingLoader(str(DOC), converter=JsonConverter(), chunker=chunker).lazy_load())
    expected = [chunker.contextualize(c) for c in chunker.chunk(docchunk.load_document(DOC))]
    assert [d.page_content for d in docs] == expected
    assert docs[0].metadata["dl_meta"]["token_count"] <= 64


def test_docchunk_loader_structured_metadata():
    pytest.importorskip("langchain_core", reason='needs pip install ".[langchain]"')
    from docchunk.integrations.langchain import DocchunkLoader

    chunker = docchunk.HybridChunker(max_tokens=128)
    docs = list(DocchunkLoader([DOC, str(DOC)], chunker=chunker, metadata="structured").lazy_load())
    assert len(docs) % 2 == 0 and docs
    for d in docs:
        meta = d.metadata
        assert set(meta) == {
            "source", "chunk_index", "headings", "captions", "page_numbers", "token_count", "doc_items", "spans",
            "page_boxes", "table_cols",
        }  # fmt: skip
        for v in meta.values():
            assert isinstance(v, (str, int)) or (isinstance(v, list) and all(isinstance(x, (str, int)) for x in v))
        assert meta["page_numbers"] and meta["token_count"] <= 128


def test_docchunk_text_splitter_exact_start_index():
    pytest.importorskip("langchain_text_splitters", reason='needs pip install ".[langchain]"')
    from docchunk.integrations.langchain import DocchunkTextSplitter

    splitter = DocchunkTextSplitter(docchunk.RecursiveChunker(chunk_size=50), add_start_index=True)
    docs = splitter.create_documents([REPEATED], metadatas=[{"source": "r"}])
    starts = [c.start_index for c in docchunk.RecursiveChunker(chunk_size=50)(REPEATED)]
    assert [d.metadata["start_index"] for d in docs] == starts
    assert all(REPEATED[d.metadata["start_index"] :].startswith(d.page_content) for d in docs)
    assert splitter.split_text(REPEATED) == [d.page_content for d in docs]


def test_text_splitter_gives_each_chunk_its_own_metadata():
    """create_documents and split_documents deep-copy the metadata per chunk, as LangChain's splitters do."""
    pytest.importorskip("langchain_text_splitters", reason='needs pip install ".[langchain]"')
    from langchain_core.documents import Document

    from docchunk.integrations.langchain import DocchunkTextSplitter

    splitter = DocchunkTextSplitter(docchunk.RecursiveChunker(chunk_size=50), add_start_index=True)
    given = {"tags": ["draft"], "owner": {"name": "ann"}}
    made = splitter.create_documents([REPEATED], metadatas=[given])
    split = splitter.split_documents([Document(page_content=REPEATED, metadata=given)])
    for docs in (made, split):
        assert len(docs) > 1
        docs[0].metadata["tags"].append("edited")
        docs[0].metadata["owner"]["name"] = "bob"
        assert docs[1].metadata["tags"] == ["draft"] and docs[1].metadata["owner"] == {"name": "ann"}
    assert given == {"tags": ["draft"], "owner": {"name": "ann"}}


def test_docchunk_loader_gives_each_chunk_its_own_metadata():
    pytest.importorskip("langchain_core", reason='needs pip install ".[langchain]"')
    from docchunk.integrations.langchain import DocchunkLoader

    chunker = docchunk.HybridChunker(max_tokens=64)
    docs = list(DocchunkLoader(DOC, chunker=chunker, metadata="structured").lazy_load())
    same = [(a, b) for a, b in pairwise(docs) if a.metadata["headings"] == b.metadata["headings"]]
    assert same and all(d.metadata["headings"] for d, _ in same)
    first, second = same[0]
    before = list(second.metadata["headings"])
    first.metadata["headings"].append("edited")
    first.metadata["page_numbers"].append(-1)
    assert second.metadata["headings"] == before and -1 not in second.metadata["page_numbers"]
    again = list(DocchunkLoader(DOC, chunker=chunker, metadata="structured").lazy_load())
    assert again[docs.index(first)].metadata["headings"] == before


def test_our_chunker_inside_llama_index_docling_node_parser():
    pytest.importorskip("llama_index.node_parser.docling", reason='needs pip install ".[llama-index]"')
    from llama_index.core import Document
    from llama_index.node_parser.docling import DoclingNodeParser

    chunker = docchunk.HybridChunker(max_tokens=64)
    nodes = DoclingNodeParser(chunker=chunker).get_nodes_from_documents([Document(text=DOC.read_text())])
    expected = [c.text for c in chunker.chunk(docchunk.load_document(DOC))]
    assert [n.text for n in nodes] == expected
    assert "token_count" in nodes[0].metadata and "token_count" in nodes[0].excluded_embed_metadata_keys


def test_docchunk_node_parser_documents_and_text():
    pytest.importorskip("llama_index.core", reason='needs pip install ".[llama-index]"')
    from llama_index.core import Document
    from llama_index.core.schema import MetadataMode, NodeRelationship

    from docchunk.integrations.llama_index import DocchunkNodeParser

    source = Document(text=DOC.read_text(), metadata={"file_path": "multi_page.json"})
    nodes = DocchunkNodeParser(chunker=docchunk.HybridChunker(max_tokens=128)).get_nodes_from_documents([source])
    embed_view = nodes[1].get_content(metadata_mode=MetadataMode.EMBED)
    heading = json.loads(nodes[1].metadata["headings"])[0]
    assert embed_view.count(heading) == 1 and "doc_items" not in embed_view
    assert set(nodes[1].relationships) >= {NodeRelationship.SOURCE, NodeRelationship.PREVIOUS, NodeRelationship.NEXT}

    text_nodes = DocchunkNodeParser(chunker=docchunk.RecursiveChunker(chunk_size=50)).get_nodes_from_documents(
        [Document(text=REPEATED)]
    )
    chunks = docchunk.RecursiveChunker(chunk_size=50)(REPEATED)
    assert [(n.start_char_idx, n.end_char_idx) for n in text_nodes] == [(c.start_index, c.end_index) for c in chunks]
    assert json.dumps([n.text for n in text_nodes]) == json.dumps([c.text for c in chunks])


def test_node_parser_with_a_document_chunker_names_the_document_and_the_text_chunkers_on_plain_text():
    """Regression (stop 56's new-user tester, finding 17): a Markdown note from SimpleDirectoryReader
    given to a document chunker raised a bare "<json>: invalid JSON" naming neither file nor fix."""
    pytest.importorskip("llama_index.core", reason='needs pip install ".[llama-index]"')
    from llama_index.core import Document

    from docchunk.integrations.llama_index import DocchunkNodeParser

    parser = DocchunkNodeParser(chunker=docchunk.HybridChunker(max_tokens=256))
    with pytest.raises(docchunk.DocumentError) as info:
        parser.get_nodes_from_documents([Document(text="# Title\n\nJust a note.", doc_id="notes.md")])
    message = str(info.value)
    assert message.startswith("document 'notes.md': invalid JSON") and "RecursiveChunker()" in message, message


PAPER = DOC.parents[2] / "examples" / "docling_paper.json"  # a real paper with captioned tables
READER_METADATA = {
    "file_path": "/data/papers/docling_paper.json",
    "file_name": "docling_paper.json",
    "file_type": "application/json",
    "file_size": 1234567,
    "creation_date": "2024-01-01",
    "last_modified_date": "2024-01-02",
}  # what SimpleDirectoryReader puts on every document


def test_node_parser_embeds_the_contextualized_chunk_within_max_tokens():
    """The embedded text of each node is contextualize(chunk): a table's caption is in it, and the
    document's metadata does not push it over max_tokens."""
    pytest.importorskip("llama_index.core", reason='needs pip install ".[llama-index]"')
    from llama_index.core import Document
    from llama_index.core.schema import MetadataMode

    from docchunk.integrations.llama_index import DocchunkNodeParser

    chunker = docchunk.HybridChunker(max_tokens=128)
    source = Document(text=PAPER.read_text(), metadata=READER_METADATA)
    nodes = DocchunkNodeParser(chunker=chunker).get_nodes_from_documents([source])
    chunks = chunker.chunk(docchunk.load_document(PAPER))
    embedded = [n.get_content(metadata_mode=MetadataMode.EMBED) for n in nodes]
    assert embedded == [chunker.contextualize(c) for c in chunks]
    assert max(chunker.token_counter.count_tokens(e) for e in embedded) <= 128
    # at 128 tokens the paper's captions, too long to share a piece with a whole row, are chunks of their
    # own before their tables (a row that fits is never cut); at 256 each table piece carries its caption
    wide = docchunk.HybridChunker(max_tokens=256)
    wide_nodes = DocchunkNodeParser(chunker=wide).get_nodes_from_documents([source])
    tables = [(n, n.get_content(metadata_mode=MetadataMode.EMBED)) for n in wide_nodes if "captions" in n.metadata]
    assert tables and all(json.loads(n.metadata["captions"])[0] in e for n, e in tables)
    assert "docling_paper.json" in nodes[0].get_content(metadata_mode=MetadataMode.LLM)

    text = "A sentence about ducks. " * 40
    text_nodes = DocchunkNodeParser(chunker=docchunk.RecursiveChunker(chunk_size=100)).get_nodes_from_documents(
        [Document(text=text, metadata=READER_METADATA)]
    )
    assert [n.get_content(metadata_mode=MetadataMode.EMBED) for n in text_nodes] == [
        c.text for c in docchunk.RecursiveChunker(chunk_size=100)(text)
    ]


@pytest.mark.parametrize("chunker", [docchunk.HybridChunker(max_tokens=128), docchunk.RecursiveChunker(chunk_size=300)])
def test_node_parser_honours_id_func(chunker):
    pytest.importorskip("llama_index.core", reason='needs pip install ".[llama-index]"')
    from llama_index.core import Document
    from llama_index.core.schema import NodeRelationship

    from docchunk.integrations.llama_index import DocchunkNodeParser

    parser = DocchunkNodeParser(chunker=chunker, id_func=lambda i, doc: f"{doc.doc_id}-{i}")
    nodes = parser.get_nodes_from_documents([Document(text=DOC.read_text(), doc_id="multi")])
    assert [n.id_ for n in nodes] == [f"multi-{i}" for i in range(len(nodes))]
    assert nodes[1].relationships[NodeRelationship.PREVIOUS].node_id == "multi-0"


def test_node_parser_default_ids_are_stable_so_reingesting_does_not_duplicate():
    pytest.importorskip("llama_index.core", reason='needs pip install ".[llama-index]"')
    from llama_index.core import Document
    from llama_index.core.storage.docstore import SimpleDocumentStore

    from docchunk.integrations.llama_index import DocchunkNodeParser

    def parse(chunker, doc_id="multi"):
        document = Document(text=DOC.read_text(), doc_id=doc_id, metadata=READER_METADATA)
        return DocchunkNodeParser(chunker=chunker).get_nodes_from_documents([document])

    first, again = parse(docchunk.HybridChunker(max_tokens=128)), parse(docchunk.HybridChunker(max_tokens=128))
    ids = [n.id_ for n in first]
    assert ids == [n.id_ for n in again] and len(set(ids)) == len(ids)
    store = SimpleDocumentStore()
    store.add_documents(first)
    store.add_documents(again)
    assert len(store.docs) == len(first)
    assert not set(ids) & {n.id_ for n in parse(docchunk.HybridChunker(max_tokens=64))}
    assert not set(ids) & {n.id_ for n in parse(docchunk.HybridChunker(max_tokens=128), doc_id="other")}


def test_frameworks_accept_our_chunkers_after_the_light_import():
    """In a fresh interpreter where docchunk is imported before docling-core's chunker package
    (which the frameworks import), llama-index's DoclingNodeParser (a pydantic isinstance check
    against BaseChunker) and langchain-docling's DoclingLoader take our chunkers."""
    pytest.importorskip("llama_index.node_parser.docling", reason='needs pip install "docchunk[llama-index]"')
    pytest.importorskip("langchain_docling", reason='needs langchain-docling: pip install "docchunk[langchain]"')
    code = f"""
import sys
from itertools import pairwise
import docchunk
chunker = docchunk.HybridChunker(max_tokens=64)
doc = docchunk.load_document({str(DOC)!r})
expected = [chunker.contextualize(c) for c in chunker.chunk(doc)]
assert "docling_core.transforms.chunker" not in sys.modules
from llama_index.core import Document
from llama_index.node_parser.docling import DoclingNodeParser
nodes = DoclingNodeParser(chunker=chunker).get_nodes_from_documents([Document(text=open({str(DOC)!r}).read())])
assert [n.text for n in nodes] == [c.text for c in chunker.chunk(doc)]
DoclingNodeParser(chunker=docchunk.HierarchicalChunker())
from langchain_docling import DoclingLoader
class Converter:
    class Result:
        def __init__(self, document):
            self.document = document
    def convert(self, source, **kwargs):
        return self.Result(docchunk.load_document(source))
docs = list(DoclingLoader({str(DOC)!r}, converter=Converter(), chunker=chunker).lazy_load())
assert [d.page_content for d in docs] == expected
print("ok", len(nodes))
"""
    root = DOC.parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root / "src"), str(root)])}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("ok ")
