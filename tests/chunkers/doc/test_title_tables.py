"""A block of one-cell title tables heads the table after it together (a long random run, 5 December).

An XLSX sheet's title cells converted as tables of their own (docling#2396): a company,
then a statement's name, each a one-cell table, then the statement. Each title heads
the table after it (its text in that table's ``meta.captions``, no chunk of its own), so
the first title, heading only the second title, was written in no chunk at all.
"""

from __future__ import annotations

import pytest
from docling_core.types.doc import ContentLayer, DocItemLabel, DoclingDocument

import docchunk
from tests.helpers import lost_tables, make_table


def statement() -> DoclingDocument:
    doc = DoclingDocument(name="statement")
    make_table([["Acme Corp"]], doc=doc)
    make_table([["Balance sheet 2025"]], doc=doc)
    make_table([["Item", "Value"], ["Cash", "10"], ["Debt", "5"]], doc=doc)
    return doc


@pytest.mark.parametrize("table_format", ["records", "triplets", "markdown"])
def test_regression_every_title_of_a_block_heads_the_table(table_format):
    doc = statement()
    chunker = docchunk.HybridChunker(table_format=table_format)
    chunks = list(chunker.chunk(doc))
    assert len(chunks) == 1, [c.text for c in chunks]
    assert chunks[0].meta.captions == ["Acme Corp\nBalance sheet 2025"]
    assert chunker.contextualize(chunks[0]).startswith("Acme Corp\nBalance sheet 2025\n")
    assert lost_tables(doc, chunks) == []


def test_a_block_of_titles_with_no_table_after_it_is_written_once():
    """Titles before a paragraph name no table: the last one is a chunk, headed by the ones before it."""
    doc = statement()
    doc.tables[2].data = make_table([["Notes"]])[1].data  # the last is a title too, before nothing
    chunker = docchunk.HybridChunker()
    chunks = list(chunker.chunk(doc))
    written = "\n".join(chunker.contextualize(c) for c in chunks)
    assert written.count("Acme Corp") == written.count("Balance sheet 2025") == written.count("Notes") == 1, written
    assert lost_tables(doc, chunks) == []


def test_lost_tables_finds_a_table_in_no_chunk():
    """The check can fail: a chunk list without the statement's chunk loses all three tables."""
    doc = statement()
    assert lost_tables(doc, []) == ["#/tables/0", "#/tables/1", "#/tables/2"]


def _refs(chunk) -> list[str]:
    return [it.self_ref for it in chunk.meta.doc_items]


@pytest.mark.parametrize("table_format", ["records", "triplets", "markdown"])
def test_regression_title_tables_are_among_the_doc_items_of_the_table_they_head(table_format):
    """The title tables whose text heads every piece of a table are in each piece's ``doc_items``.

    Their text is in the chunks' ``meta.captions`` (and so in ``contextualize()``), but
    ``meta.doc_items`` listed only the data table: mapped back to its items, a chunk
    missed the items its context was written from (issue 46).
    """
    doc = statement()
    titles, table = doc.tables[:2], doc.tables[2]
    chunker = docchunk.HybridChunker(table_format=table_format)
    (chunk,) = chunker.chunk(doc)
    assert chunk.meta.captions == ["Acme Corp\nBalance sheet 2025"]
    assert _refs(chunk) == [titles[0].self_ref, titles[1].self_ref, table.self_ref]  # in document order


def test_title_tables_are_among_the_doc_items_of_every_piece_of_a_split_table():
    """A table split by rows: every piece, each headed by the title, lists the title table once, first."""
    doc = DoclingDocument(name="ledger")
    _, title = make_table([["Ledger of the Harbour Office"]], doc=doc)
    rows = [
        ["Date", "Entry", "Amount"],
        *[[f"2025-01-{d:02d}", f"Mooring fee of vessel {d}", f"{d * 7}"] for d in range(1, 25)],
    ]
    _, table = make_table(rows, doc=doc)
    chunker = docchunk.HybridChunker(max_tokens=64)
    chunks = list(chunker.chunk(doc))
    assert len(chunks) > 2
    for chunk in chunks:
        assert chunk.meta.captions == ["Ledger of the Harbour Office"]
        assert _refs(chunk) == [title.self_ref, table.self_ref], _refs(chunk)
    assert lost_tables(doc, chunks) == []


def _title_before_furniture(heading: bool = True, paragraphs: bool = True) -> DoclingDocument:
    """A one-cell title table (body) whose next sibling is a furniture table (session 8, hostile finding 1)."""
    doc = DoclingDocument(name="sheet")
    if heading:
        doc.add_heading("Sheet1")
    if paragraphs:
        doc.add_text(label=DocItemLabel.TEXT, text="Intro paragraph.")
    make_table([["Quarterly revenue"]], doc=doc)
    _, furniture = make_table([["Name", "Value"], ["alpha", "1"]], doc=doc)
    furniture.content_layer = ContentLayer.FURNITURE
    if paragraphs:
        doc.add_text(label=DocItemLabel.TEXT, text="Closing paragraph.")
    return doc


@pytest.mark.parametrize("heading", [True, False])
@pytest.mark.parametrize("max_tokens", [8, 256])
@pytest.mark.parametrize("table_format", ["records", "triplets", "markdown"])
def test_regression_title_before_a_furniture_table_is_written(heading, max_tokens, table_format):
    """The title headed the furniture table, which the default mode never chunks: its text was in no chunk.

    Without a heading the document gave no chunk at all; with the heading alone above the
    two tables the chunker raised a ``DocumentError`` blaming the serializer's settings.
    """
    doc = _title_before_furniture(heading, paragraphs=False)
    chunker = docchunk.HybridChunker(max_tokens=max_tokens, table_format=table_format)
    chunks = list(chunker.chunk(doc))
    written = "\n".join(chunker.contextualize(c) for c in chunks)
    assert "Quarterly revenue" in written, written
    assert "alpha" not in written  # the furniture table stays out
    assert lost_tables(doc, chunks) == []  # (body tables only: the furniture table is not counted)


def test_regression_title_between_paragraphs_before_a_furniture_table():
    """The repro's document: the title between the paragraphs, the furniture table left out."""
    doc = _title_before_furniture()
    chunker = docchunk.HybridChunker()
    texts = [chunker.contextualize(c) for c in chunker.chunk(doc)]
    assert texts == ["Sheet1\nIntro paragraph.\nQuarterly revenue\nClosing paragraph."]
    compat = docchunk.HybridChunker(docling_compat=True)
    assert [compat.contextualize(c) for c in compat.chunk(doc)] == texts  # here both modes agree


def test_title_heads_a_furniture_table_with_include_furniture():
    """With ``include_furniture=True`` the furniture table is chunked, and the title heads it, as any table."""
    doc = _title_before_furniture(heading=False, paragraphs=False)
    chunker = docchunk.HybridChunker(include_furniture=True)
    (chunk,) = chunker.chunk(doc)
    assert chunk.meta.captions == ["Quarterly revenue"]
    assert [it.self_ref for it in chunk.meta.doc_items] == [t.self_ref for t in doc.tables]


def test_a_furniture_title_does_not_head_a_body_table():
    """A furniture title between a body title and a body table: left out, and it ends the block of titles.

    Before: the body title headed the furniture title, and the body table's captions wrote both,
    the furniture text in a body chunk of the default mode.
    """
    doc = DoclingDocument(name="sheet")
    make_table([["Quarterly revenue"]], doc=doc)
    _, stamp = make_table([["Printed by the ledger tool"]], doc=doc)
    stamp.content_layer = ContentLayer.FURNITURE
    make_table([["Name", "Value"], ["alpha", "1"]], doc=doc)
    chunker = docchunk.HybridChunker()
    texts = [chunker.contextualize(c) for c in chunker.chunk(doc)]
    assert texts == ["Quarterly revenue", "alpha (Name): Value = 1"]
    with_furniture = docchunk.HybridChunker(include_furniture=True)
    (chunk,) = with_furniture.chunk(doc)
    assert chunk.meta.captions == ["Quarterly revenue\nPrinted by the ledger tool"]
