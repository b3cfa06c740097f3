"""The examples of docs/compat.md: each difference from docling-core, pinned on both sides."""

from __future__ import annotations

import warnings

import pytest

import docchunk

pytest.importorskip("semchunk")
from docling_core.transforms.chunker.hierarchical_chunker import HierarchicalChunker as DLHierarchical
from docling_core.transforms.chunker.hybrid_chunker import HybridChunker as DLHybrid
from docling_core.types.doc import DocItemLabel, DoclingDocument, TableCell, TableData


def table(doc: DoclingDocument, rows: list[list[str]], caption: str | None = None):
    cells = [
        TableCell(
            text=text, start_row_offset_idx=r, end_row_offset_idx=r + 1, start_col_offset_idx=c,
            end_col_offset_idx=c + 1, column_header=r == 0,
        )
        for r, row in enumerate(rows)
        for c, text in enumerate(row)
    ]
    cap = doc.add_text(label=DocItemLabel.CAPTION, text=caption) if caption else None
    return doc.add_table(data=TableData(num_rows=len(rows), num_cols=len(rows[0]), table_cells=cells), caption=cap)


@pytest.fixture
def cl100k_pair(cl100k):
    from docling_core.transforms.chunker.tokenizer.openai import OpenAITokenizer

    def make(max_tokens: int):
        return DLHybrid(tokenizer=OpenAITokenizer(tokenizer=cl100k, max_tokens=max_tokens)), docchunk.HybridChunker(
            tokenizer=cl100k, max_tokens=max_tokens, docling_compat=True
        )

    return make


def test_headings_only_document_gives_one_chunk():
    doc = DoclingDocument(name="h")
    doc.add_title(text="Annual report")
    doc.add_heading(text="Summary", level=1)
    assert list(DLHierarchical().chunk(doc)) == []
    chunks = list(docchunk.HierarchicalChunker(docling_compat=True).chunk(doc))
    assert [(c.text, c.meta.headings) for c in chunks] == [("Annual report\nSummary", None)]
    hybrid = list(docchunk.HybridChunker(docling_compat=True).chunk(doc))
    assert [c.text for c in hybrid] == ["Annual report\nSummary"]


def test_table_with_pipe_keeps_cells_docling_drops(cl100k_pair):
    doc = DoclingDocument(name="t")
    table(doc, [["key", "value"], ["a|b", "x"], ["c", "long value " * 6]], caption="Table 1: codes")
    theirs, ours = cl100k_pair(20)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        their_text = "".join(c.text for c in theirs.chunk(doc))
    our_text = "".join(c.text for c in ours.chunk(doc))
    assert "value = x" not in their_text  # docling-core drops the cells beyond the shortest row
    assert "b, value = x" in our_text and our_text.count("long value") == 6


def test_character_over_budget_is_kept_and_flagged(cl100k_pair):
    doc = DoclingDocument(name="e")
    doc.add_text(label=DocItemLabel.TEXT, text="ok 𝔘𝔫𝔦𝔠𝔬𝔡𝔢")
    theirs, ours = cl100k_pair(1)
    with pytest.raises(RecursionError):
        list(theirs.chunk(doc))
    chunks = list(ours.chunk(doc))
    assert [c.text for c in chunks] == ["ok", *"𝔘𝔫𝔦𝔠𝔬𝔡𝔢"]
    assert [bool(c.meta.oversized) for c in chunks] == [False] + [True] * 7


def test_special_token_text_is_counted_not_raised(cl100k_pair):
    doc = DoclingDocument(name="s")
    doc.add_text(label=DocItemLabel.TEXT, text="the string <|endoftext|> appears in a paper")
    theirs, ours = cl100k_pair(64)
    with pytest.raises(ValueError, match="special token"):
        list(theirs.chunk(doc))
    assert [c.text for c in ours.chunk(doc)] == ["the string <|endoftext|> appears in a paper"]


def test_dropped_headings_keep_typed_doc_items(cl100k_pair):
    doc = DoclingDocument(name="l")
    doc.add_heading(text="very long heading " * 10, level=1)
    table(doc, [["k", "v"], ["a", "x"]])
    theirs, ours = cl100k_pair(20)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        their_items = [type(i).__name__ for c in theirs.chunk(doc) for i in c.meta.doc_items]
    ours_chunks = list(ours.chunk(doc))
    assert their_items == ["DocItem"]
    assert [type(i).__name__ for c in ours_chunks for i in c.meta.doc_items] == ["TableItem"]
    assert all(c.meta.headings is None for c in ours_chunks)


def test_added_metadata_is_excluded_from_contextualize():
    doc = DoclingDocument(name="m")
    doc.add_heading(text="Intro", level=1)
    doc.add_text(label=DocItemLabel.TEXT, text="Body text.")
    chunk = next(docchunk.HybridChunker().chunk(doc))
    assert chunk.meta.token_count == 4 and chunk.meta.page_numbers is None  # intro body text .
    assert docchunk.contextualize(chunk) == DLHierarchical().contextualize(chunk) == "Intro\nBody text."
    exported = chunk.meta.export_json_dict()
    assert exported["token_count"] == 4 and "oversized" not in exported


def test_title_inside_a_list_item_is_text_of_its_list(cl100k_pair):
    doc = DoclingDocument(name="ducks")
    doc.add_heading(text="Ducks", level=1)
    group = doc.add_list_group()
    first = doc.add_list_item("Item 1", parent=group)
    doc.add_list_item("Item 2", parent=group)
    doc.add_title("Mandarin duck", parent=first)
    picture = doc.add_picture(parent=first)
    picture.captions.append(doc.add_text(DocItemLabel.CAPTION, "A mandarin duck on a pond", parent=picture).get_ref())
    doc.add_text(DocItemLabel.TEXT, "Ducks are water birds.")
    theirs, ours = cl100k_pair(256)
    expected = [("- Item 1\n- Item 2", ["Ducks"]), ("Ducks are water birds.", ["Mandarin duck"])]
    assert [(c.text, c.meta.headings) for c in theirs.chunk(doc)] == expected
    assert [(c.text, c.meta.headings) for c in ours.chunk(doc)] == expected
    default = docchunk.HybridChunker(tokenizer=ours.tokenizer, max_tokens=256)
    assert [(c.text, c.meta.headings) for c in default.chunk(doc)] == [
        ("- Item 1\n    # Mandarin duck\n    A mandarin duck on a pond\n- Item 2\nDucks are water birds.", ["Ducks"])
    ]
