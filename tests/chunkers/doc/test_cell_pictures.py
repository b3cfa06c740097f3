"""Pictures inside table cells: their captions are written once (round-3 documents tester, finding 10).

The shape docling's HTML backend gives a product catalogue whose first column holds
``<img alt="Photo of lamp N">``: each cell a rich cell holding a picture, the alt text
the picture's caption, a text item of the body placed after the table. The records
write the captions as row labels; the walk must not write them again, all together,
in a heading-less chunk at the end of the document.
"""

from __future__ import annotations

import re

import pytest
from docling_core.types.doc import DocItemLabel, DoclingDocument, GroupLabel, TableData

import docchunk
from tests.chunkers.doc.item_docs import add_rich_cell, cell, header_row
from tests.helpers import lost_texts


def catalogue(rows: int = 6) -> DoclingDocument:
    doc = DoclingDocument(name="catalogue")
    doc.add_title("Spring catalogue")
    lamps = doc.add_heading("Lamps", level=1)
    doc.add_text(DocItemLabel.TEXT, "All lamps ship in 3-5 days.", parent=lamps)
    cells = header_row(["Photo", "Product", "Price"])
    table = doc.add_table(data=TableData(num_rows=rows + 1, num_cols=3, table_cells=cells), parent=lamps)
    for r in range(1, rows + 1):
        group = doc.add_group(label=GroupLabel.UNSPECIFIED, name="rich_cell", parent=table)
        picture = doc.add_picture(parent=group)
        caption = doc.add_text(DocItemLabel.CAPTION, f"Photo of lamp {r}")  # (a body item, as docling places it)
        picture.captions.append(caption.get_ref())
        add_rich_cell(doc, table, group, caption.text, r, 0)
        doc.add_table_cell(table, cell(f"Lamp L-00{r} in brushed brass", r, 1))
        doc.add_table_cell(table, cell(f"{20 + r}.00 EUR", r, 2))
    shades = doc.add_heading("Shades", level=1)
    doc.add_text(DocItemLabel.TEXT, "Shades are sold separately.", parent=shades)
    return doc


@pytest.mark.parametrize("max_tokens", [64, 256])
def test_regression_captions_of_pictures_in_cells_written_once(max_tokens):
    doc = catalogue()
    chunker = docchunk.HybridChunker(max_tokens=max_tokens)
    chunks = list(chunker.chunk(doc))
    texts = [chunker.contextualize(c) for c in chunks]
    for r in range(1, 7):
        holding = [i for i, t in enumerate(texts) if re.search(rf"Photo of lamp {r}(?!\d)", t)]
        assert len(holding) == 1, (r, holding, texts)
        assert chunks[holding[0]].meta.table_rows is not None, texts[holding[0]]
    assert not any(c.meta.headings is None for c in chunks), texts
    assert lost_texts(doc, chunks) == []
