"""The toolbox from the CLI and inside LangChain's and LlamaIndex's docling integrations."""

from __future__ import annotations

import pytest

import docchunk
from tests.helpers import DATA, JsonConverter, rows, run

DOC = DATA / "pdf__multi_page.json"


def _run(capsys, *args: str) -> tuple[int, list[dict], str]:
    """``run`` with the output parsed into rows."""
    code, out, err = run(capsys, *args)
    return code, rows(out), err


def test_cli_page_chunker_gives_one_row_per_page(capsys):
    code, rows, err = _run(capsys, "chunk", str(DOC), "--chunker", "page")
    assert code == 0, err
    doc = docchunk.load_document(DOC)
    assert [r["page_numbers"] for r in rows] == [[p] for p in sorted(doc.pages)]


def test_cli_page_chunker_with_a_budget(capsys):
    code, rows, err = _run(capsys, "chunk", str(DOC), "--chunker", "page", "--max-tokens", "64")
    assert code == 0, err
    assert len(rows) > len(docchunk.load_document(DOC).pages)
    assert all(r["token_count"] <= 64 or r["meta"].get("oversized") for r in rows)


def test_cli_line_chunker(capsys):
    code, rows, err = _run(capsys, "chunk", str(DOC), "--chunker", "line", "--max-tokens", "48")
    assert code == 0, err
    assert rows and all(r["token_count"] <= 48 for r in rows)


def test_cli_expand_tree_and_page(capsys):
    code, small, err = _run(capsys, "chunk", str(DOC), "--max-tokens", "32")
    assert code == 0, err
    code, big, err = _run(capsys, "chunk", str(DOC), "--max-tokens", "32", "--expand", "page")
    assert code == 0, err
    assert len(big) == len(small)
    assert all(b["meta"]["expanded"] is True for b in big)
    assert all(len(b["expanded_text"]) >= len(s["text"]) for s, b in zip(small, big, strict=True))
    code, tree, err = _run(capsys, "chunk", str(DOC), "--max-tokens", "32", "--expand", "tree")
    assert code == 0, err
    assert [r["meta"]["expanded"] for r in tree] == [True] * len(tree)


def test_cli_expand_max_tokens_caps_the_expansion(capsys):
    """``--expand`` had no cap: expanded chunks exceeded every budget without a flag."""
    code, free, err = _run(capsys, "chunk", str(DOC), "--max-tokens", "32", "--expand", "page")
    assert code == 0, err
    cap = sorted(r["expanded_token_count"] for r in free)[len(free) // 2]  # some pages fit, some do not
    code, capped, err = _run(capsys, "chunk", str(DOC), "--max-tokens", "32", "--expand", "page",
                             "--expand-max-tokens", str(cap))  # fmt: skip
    assert code == 0, err
    assert len(capped) == len(free)
    flags = [r["meta"]["expanded"] for r in capped]
    assert True in flags and False in flags
    for row, big in zip(capped, free, strict=True):
        if row["meta"]["expanded"]:
            assert row["expanded_token_count"] <= cap and row["expanded_text"] == big["expanded_text"]
        else:  # left as the chunker made it
            assert big["expanded_token_count"] > cap and row["expanded_token_count"] <= 32
            assert row["expanded_text"] == row["text"]


def test_cli_expand_with_docling_compat_is_docling_cores_expansion(capsys):
    pytest.importorskip("semchunk", reason="docling-core's expanders need docling-core[chunking]")
    from docling_core.transforms.chunker.chunk_expander import TreeChunkExpander as DLTree
    from docling_core.transforms.chunker.hierarchical_chunker import ChunkingSerializerProvider

    code, rows, err = _run(capsys, "chunk", str(DOC), "--max-tokens", "32", "--docling-compat", "--expand", "tree")
    assert code == 0, err
    doc = docchunk.load_document(DOC)
    serializer = ChunkingSerializerProvider().get_serializer(doc=doc)
    chunks = docchunk.HybridChunker(max_tokens=32, docling_compat=True).chunk(doc)  # docling-core's chunks
    theirs = [DLTree().expand(chunk, doc, serializer) for chunk in chunks]
    assert [r["expanded_text"] for r in rows] == [c.text for c in theirs]
    assert all("expanded" not in r["meta"] for r in rows)  # docling-core's output: no flag


def test_cli_expand_max_tokens_usage_errors(capsys):
    code, _, err = _run(capsys, "chunk", str(DOC), "--expand-max-tokens", "100")
    assert code == 2 and "--expand tree or page" in err
    code, _, err = _run(capsys, "chunk", str(DOC), "--expand", "tree", "--docling-compat", "--expand-max-tokens", "9")
    assert code == 2 and "no cap" in err


def test_cli_usage_errors(capsys):
    code, _, err = _run(capsys, "chunk", str(DOC), "--chunker", "page", "--no-merge-peers")
    assert code == 2 and "--no-merge-peers" in err
    code, _, err = _run(capsys, "chunk", str(DOC), "--chunker", "line", "--tokenizer", "word")
    assert code == 2 and "--max-tokens" in err


def _expanding() -> docchunk.ExpandingChunker:
    return docchunk.ExpandingChunker(
        chunker=docchunk.HybridChunker(max_tokens=32), expander=docchunk.PageChunkExpander(max_tokens=2000)
    )


def test_expansion_inside_langchain_docling_loader():
    pytest.importorskip("langchain_docling", reason='needs langchain-docling: pip install ".[langchain]"')
    from langchain_docling import DoclingLoader

    chunker = _expanding()
    docs = list(DoclingLoader(str(DOC), converter=JsonConverter(), chunker=chunker).lazy_load())
    expected = [chunker.contextualize(c) for c in chunker.chunk(docchunk.load_document(DOC))]
    assert [d.page_content for d in docs] == expected
    assert all(d.metadata["dl_meta"]["expanded"] for d in docs)


def test_expansion_inside_llama_index_docling_node_parser():
    pytest.importorskip("llama_index.node_parser.docling", reason='needs pip install ".[llama-index]"')
    from llama_index.core import Document
    from llama_index.node_parser.docling import DoclingNodeParser

    chunker = _expanding()
    nodes = DoclingNodeParser(chunker=chunker).get_nodes_from_documents([Document(text=DOC.read_text())])
    assert [n.text for n in nodes] == [c.text for c in chunker.chunk(docchunk.load_document(DOC))]
    assert len({n.text for n in nodes}) == len(docchunk.load_document(DOC).pages)
