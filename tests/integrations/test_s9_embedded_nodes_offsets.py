"""s9 new-user finding 6: ``embedded_nodes()`` dropped a text row's ``start_index``/``end_index``.

``DocchunkNodeParser`` with a text chunker sets ``start_char_idx``/``end_char_idx`` to the
chunk's exact offsets; the nodes of ``docchunk chunk --embed`` rows of the same text had None.
"""

from __future__ import annotations

import pytest

import docchunk
from docchunk.batch.rows import text_rows
from tests.helpers import HashEmbeddings

TEXT = (
    "Quarterly operations meeting, 3 October.\n\nAttendees: M. Rossi (chair), J. Okafor, L. Chen.\n\n"
    "The warranty period is 24 months from delivery. Seals and gaskets are not covered.\n\n"
    "Action items: Okafor updates the spare-parts price list by 15 October.\n"
)


def _embedded(rows: list[dict]) -> list[dict]:
    vectors = HashEmbeddings()([r["contextualized"] for r in rows])
    return [{**r, "embedding": v.tolist()} for r, v in zip(rows, vectors, strict=True)]


def test_embedded_nodes_keep_the_offsets_of_text_rows():
    pytest.importorskip("llama_index.core")
    from llama_index.core import Document

    from docchunk.integrations.llama_index import DocchunkNodeParser, embedded_nodes

    chunker = docchunk.RecursiveChunker(chunk_size=12, tokenizer="word")
    rows = _embedded(text_rows(chunker(TEXT), "notes.txt", chunker.tokenizer))
    nodes = embedded_nodes(rows)
    assert len(nodes) == len(rows) > 3
    for node, row in zip(nodes, rows, strict=True):
        assert (node.start_char_idx, node.end_char_idx) == (row["start_index"], row["end_index"])
        assert TEXT[node.start_char_idx : node.end_char_idx] == node.text
    parsed = DocchunkNodeParser(chunker=chunker).get_nodes_from_documents([Document(text=TEXT)])
    assert [(n.start_char_idx, n.end_char_idx) for n in parsed] == [(n.start_char_idx, n.end_char_idx) for n in nodes]


def test_embedded_nodes_of_document_rows_have_no_offsets():
    pytest.importorskip("llama_index.core")
    from docchunk.index import embedded_rows
    from docchunk.integrations.llama_index import embedded_nodes
    from tests.helpers import DATA

    rows = list(embedded_rows([DATA / "html__html_rich_table_cells.html.json"],
                              embedder=docchunk.EmbeddingsRefinery(HashEmbeddings(), model_name="hash-8")))  # fmt: skip
    nodes = embedded_nodes(rows)
    assert nodes and all(n.start_char_idx is None and n.end_char_idx is None for n in nodes)
