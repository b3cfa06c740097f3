"""A checkbox in a table cell keeps its state (round-3 documents tester, finding 11).

docling's HTML backend makes ``<input type="checkbox" checked> yes`` a rich cell holding a
checkbox item without text, then a text item. The default mode wrote the record
``Wipers: OK = yes; Needs repair = no``: which box was ticked was gone, while a checkbox
of the body is written ``- [ ] I confirm ...`` and compat mode writes the cells' markers.
"""

from __future__ import annotations

import pytest
from docling_core.types.doc import DocItemLabel, DoclingDocument, GroupLabel, TableData

import docchunk
from tests.chunkers.doc.item_docs import add_rich_cell, cell, header_row
from tests.helpers import lost_texts


def inspection_form() -> DoclingDocument:
    """The tester's html_form_checkboxes: three rows of marks as text, then Wipers' cells of a checkbox and a word."""
    doc = DoclingDocument(name="form")
    doc.add_title("Vehicle inspection form")
    doc.add_text(DocItemLabel.TEXT, "Inspector: ____________ Date: __/__/____")
    doc.add_heading("Exterior", level=1)
    rows = [
        ["Headlights", "☑", "☐", ""],
        ["Brake lights", "☐", "☒", "Left bulb out"],
        ["Tyres (tread ≥ 1.6 mm)", "☑", "☐", ""],
    ]
    cells = [cell(text, r, c) for r, row in enumerate(rows, start=1) for c, text in enumerate(row)]
    header = header_row(["Item", "OK", "Needs repair", "Comment"])
    table = doc.add_table(data=TableData(num_rows=5, num_cols=4, table_cells=header + cells))
    doc.add_table_cell(table, cell("Wipers", 4, 0))
    boxes = [(DocItemLabel.CHECKBOX_SELECTED, "yes"), (DocItemLabel.CHECKBOX_UNSELECTED, "no")]
    for col, (label, word) in enumerate(boxes, start=1):
        group = doc.add_group(label=GroupLabel.UNSPECIFIED, name="rich_cell", parent=table)
        doc.add_text(label, "", parent=group)
        doc.add_text(DocItemLabel.TEXT, word, parent=group)
        add_rich_cell(doc, table, group, word, 4, col)
    doc.add_heading("Interior", level=1)
    doc.add_text(DocItemLabel.CHECKBOX_UNSELECTED, "I confirm the vehicle is roadworthy")
    return doc


@pytest.mark.parametrize("table_format", ["records", "triplets"])
def test_regression_checkbox_in_a_cell_keeps_its_state(table_format):
    doc = inspection_form()
    chunks = list(docchunk.HybridChunker(max_tokens=128, table_format=table_format).chunk(doc))
    text = "\n".join(c.text for c in chunks)
    assert "[x] yes" in text and "[ ] no" in text, text
    assert "[ ] I confirm the vehicle is roadworthy" in text  # the body's checkbox, written the same way
    assert lost_texts(doc, chunks) == []
