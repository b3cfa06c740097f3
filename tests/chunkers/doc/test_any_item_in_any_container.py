"""Any item kind inside any container kind: no crash, no text lost, in both modes.

Regression for issue 45, fault 1: a list item holding a picture with a caption raised
``AttributeError: 'PictureItem' object has no attribute 'hyperlink'`` from
``list_split._plain`` at every budget (a Wikipedia page whose list items hold pictures;
a 13-item HTML list with an image in one item). A list's lines may be any block inside
a list item, not only list items and text. Documents are built through docling-core's
API, and one through docling's HTML converter.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from docling_core.types.doc import (
    DocItemLabel,
    DoclingDocument,
    GroupLabel,
    RichTableCell,
    TableCell,
    TableData,
)

import docchunk
from tests.chunkers.doc.item_docs import graph
from tests.helpers import lost_texts, span_faults, table_data


def _list(n: int = 13) -> tuple[DoclingDocument, list[Any]]:
    doc = DoclingDocument(name="list")
    doc.add_heading("Ducks of the world", level=1)
    group = doc.add_list_group()
    items = [doc.add_list_item(f"Item {i}: the duck number {i} and where it lives", parent=group) for i in range(n)]
    return doc, items


def picture_in_item() -> DoclingDocument:
    doc, items = _list()
    picture = doc.add_picture(parent=items[5])
    picture.captions.append(doc.add_text(DocItemLabel.CAPTION, "A mandarin duck", parent=picture).get_ref())
    return doc


def table_in_item() -> DoclingDocument:
    doc, items = _list()
    doc.add_table(data=table_data([["Name", "Weight"], ["Mallard", "1.1 kg"]]), parent=items[3])
    return doc


def code_in_item() -> DoclingDocument:
    doc, items = _list()
    doc.add_code("def quack():\n    return 'quack'", parent=items[7])
    return doc


def form_in_item() -> DoclingDocument:
    doc, items = _list()
    pairs = graph([("Species", "Aix galericulata")])
    doc.add_form(graph=pairs, parent=items[2])
    doc.add_key_values(graph=pairs, parent=items[9])
    return doc


def formula_in_item() -> DoclingDocument:
    doc, items = _list()
    doc.add_formula("E = m c^2", parent=items[4])
    return doc


def list_in_table_cell() -> DoclingDocument:
    doc = DoclingDocument(name="cell")
    cells = [
        TableCell(
            text=t,
            start_row_offset_idx=0,
            end_row_offset_idx=1,
            start_col_offset_idx=c,
            end_col_offset_idx=c + 1,
            column_header=True,
        )
        for c, t in enumerate(["Duck", "Seen in"])
    ]
    cells.append(
        TableCell(
            text="Mallard", start_row_offset_idx=1, end_row_offset_idx=2, start_col_offset_idx=0, end_col_offset_idx=1
        )
    )
    table = doc.add_table(data=TableData(num_rows=2, num_cols=2, table_cells=cells))
    group = doc.add_group(label=GroupLabel.UNSPECIFIED, name="rich_cell", parent=table)
    inner = doc.add_list_group(parent=group)
    seen = [doc.add_list_item(t, parent=inner).text for t in ("Europe", "North America")]
    doc.add_table_cell(
        table,
        RichTableCell(
            text=" ".join(seen),
            ref=group.get_ref(),
            start_row_offset_idx=1,
            end_row_offset_idx=2,
            start_col_offset_idx=1,
            end_col_offset_idx=2,
        ),
    )
    return doc


def heading_in_group() -> DoclingDocument:
    doc = DoclingDocument(name="group")
    for label in (GroupLabel.SECTION, GroupLabel.CHAPTER, GroupLabel.SLIDE, GroupLabel.PICTURE_AREA):
        group = doc.add_group(label=label, name=label.value)
        doc.add_heading(f"A heading in a {label.value}", level=2, parent=group)
        doc.add_text(DocItemLabel.TEXT, f"The text under the heading of the {label.value}.", parent=group)
    return doc


CAPTION = "A mandarin duck on a pond"


def title_and_picture_in_item(title: str = "Mandarin duck") -> DoclingDocument:
    """A list item holding a title and a captioned picture, then a paragraph after the list."""
    doc, items = _list(4)
    doc.add_title(title, parent=items[1])
    picture = doc.add_picture(parent=items[1])
    picture.captions.append(doc.add_text(DocItemLabel.CAPTION, CAPTION, parent=picture).get_ref())
    doc.add_text(DocItemLabel.TEXT, "Ducks are water birds of the family Anatidae.")
    return doc


DOCUMENTS: dict[str, Callable[[], DoclingDocument]] = {
    f.__name__: f
    for f in (
        picture_in_item,
        table_in_item,
        code_in_item,
        form_in_item,
        formula_in_item,
        list_in_table_cell,
        heading_in_group,
        title_and_picture_in_item,
    )
}


@pytest.mark.parametrize("compat", [False, True], ids=["default", "compat"])
@pytest.mark.parametrize("max_tokens", [16, 64, 256])
@pytest.mark.parametrize("name", list(DOCUMENTS))
def test_any_item_in_any_container_is_chunked(name, max_tokens, compat):
    doc = DOCUMENTS[name]()
    chunker = docchunk.HybridChunker(max_tokens=max_tokens, docling_compat=compat)
    chunks = list(chunker.chunk(doc))
    assert chunks and all(c.text.strip() for c in chunks)
    if not compat:  # docling-core loses some of them (docs/compat.md)
        assert not lost_texts(doc, chunks)
        assert all(c.meta.token_count <= max_tokens or c.meta.oversized for c in chunks)


def test_regression_picture_with_caption_in_a_list_item_no_attribute_error():
    """The issue's document: 13 items, the sixth holding a captioned picture; it crashed at every budget."""
    doc = picture_in_item()
    for max_tokens in (16, 64, 256):
        chunks = list(docchunk.HybridChunker(max_tokens=max_tokens).chunk(doc))
        assert not lost_texts(doc, chunks)


def test_regression_html_list_with_an_image_in_an_item_is_chunked():
    """A 13-item HTML list with an image (its alt text the picture's caption) in one item, converted by docling.

    docling writes the caption after the list (a child of the body, not of the picture):
    split between items, the list lost it at 16 and 64 tokens after the crash was fixed.
    """
    pytest.importorskip("docling.document_converter", reason="docling converts HTML (the convert extra)")
    image = '<img src="duck.png" alt="A mandarin duck">'
    items = "".join(f"<li>Item {i}: the duck number {i}{image if i == 5 else ''}</li>" for i in range(13))
    doc = docchunk.load_document(f"<html><body><h1>Ducks</h1><ul>{items}</ul></body></html>", format="html")
    assert doc.pictures and doc.pictures[0].parent.resolve(doc).label == DocItemLabel.LIST_ITEM
    for max_tokens in (16, 64, 256):
        chunks = list(docchunk.HybridChunker(max_tokens=max_tokens).chunk(doc))
        assert not lost_texts(doc, chunks)
        assert all(c.meta.token_count <= max_tokens or c.meta.oversized for c in chunks)


@pytest.mark.parametrize(
    "title",
    ["Mandarin duck", "The mandarin duck is a perching duck of East Asia, now seen in parks of Europe."],
    ids=["title", "content-title"],
)
def test_regression_title_and_picture_in_a_list_item_written_once(title):
    """A non-empty title inside a list item that also holds a captioned picture (issue 45).

    The hybrid chunker lost the picture's caption when it split the list (the picture,
    written only as its caption, is not among the list's items, and the caption counted as
    nothing); the hierarchical chunker wrote the title twice: in the list's text, and again
    as the heading path of the paragraph after the list (or, for a title that reads as
    content, as a chunk of its own). The title is text of its list item, written once.
    """
    doc = title_and_picture_in_item(title)
    chunkers = [docchunk.HierarchicalChunker(), *(docchunk.HybridChunker(max_tokens=n) for n in (16, 64, 256))]
    for chunker in chunkers:
        chunks = list(chunker.chunk(doc))
        assert not lost_texts(doc, chunks)
        assert span_faults(doc, chunks) == []
        if getattr(chunker, "max_tokens", 64) >= 64:  # (at 16 tokens the title is cut)
            embedded = [chunker.contextualize(c) for c in chunks]
            assert sum(e.count(title) for e in embedded) == 1, embedded
            assert sum(e.count(CAPTION) for e in embedded) == 1, embedded


@pytest.mark.parametrize("kind", ["hierarchical", "hybrid"])
def test_title_and_picture_in_a_list_item_compat_is_docling_cores(kind, minilm_dir, transformers_minilm):
    """``docling_compat=True`` still writes docling-core's chunks of that document (the title in the path)."""
    from docling_core.transforms.chunker.hierarchical_chunker import HierarchicalChunker
    from docling_core.transforms.chunker.hybrid_chunker import HybridChunker
    from docling_core.transforms.chunker.tokenizer.huggingface import HuggingFaceTokenizer

    doc = title_and_picture_in_item()
    tok = docchunk.get_tokenizer(f"hf:{minilm_dir}")
    for n in (16, 64, 256):
        if kind == "hierarchical":
            ours, theirs = docchunk.HierarchicalChunker(tokenizer=tok, docling_compat=True), HierarchicalChunker()
        else:
            ours = docchunk.HybridChunker(tokenizer=tok, max_tokens=n, docling_compat=True)
            theirs = HybridChunker(tokenizer=HuggingFaceTokenizer(tokenizer=transformers_minilm, max_tokens=n))
        got = [(c.text, c.meta.headings) for c in ours.chunk(doc)]
        assert got == [(c.text, c.meta.headings) for c in theirs.chunk(doc)]


def test_captions_of_pictures_in_table_cells_are_written_once():
    """Round-3 finding 10 (issue 46): an HTML catalogue's ``<img alt="Photo of lamp k">`` in each first cell (docling:
    a picture in a rich cell, its alt text a caption in the body). The records' labels are the alt texts, and all of
    them were written again, in a chunk without headings at the end of the document."""
    doc = DoclingDocument(name="html_catalog")
    doc.add_heading("Lamps", level=1)
    rows = 4
    cells = [
        TableCell(text=t, start_row_offset_idx=0, end_row_offset_idx=1, start_col_offset_idx=c,
                  end_col_offset_idx=c + 1, column_header=True)
        for c, t in enumerate(["Photo", "Product"])
    ] + [
        TableCell(text=f"Lamp model L-00{r}", start_row_offset_idx=r, end_row_offset_idx=r + 1,
                  start_col_offset_idx=1, end_col_offset_idx=2)
        for r in range(1, rows + 1)
    ]  # fmt: skip
    table = doc.add_table(data=TableData(num_rows=rows + 1, num_cols=2, table_cells=cells))
    for r in range(1, rows + 1):
        group = doc.add_group(label=GroupLabel.UNSPECIFIED, name="rich_cell", parent=table)
        picture = doc.add_picture(parent=group)
        caption = doc.add_text(DocItemLabel.CAPTION, f"Photo of lamp {r}")  # in the body, as docling's HTML converter
        picture.captions.append(caption.get_ref())
        cell = RichTableCell(text=caption.text, ref=group.get_ref(), start_row_offset_idx=r, end_row_offset_idx=r + 1,
                             start_col_offset_idx=0, end_col_offset_idx=1)  # fmt: skip
        doc.add_table_cell(table, cell)
    doc.add_heading("Shades", level=1)
    doc.add_text(DocItemLabel.TEXT, "Shades are sold apart.")
    chunks = list(docchunk.HybridChunker().chunk(doc))
    for r in range(1, rows + 1):
        holders = [c for c in chunks if f"Photo of lamp {r}" in c.text]
        assert len(holders) == 1 and holders[0].meta.table_rows is not None, [c.text for c in chunks]
    assert not lost_texts(doc, chunks)
