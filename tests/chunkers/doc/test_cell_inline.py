"""A table cell's inline runs are joined as a paragraph's are (round-3 documents tester, finding 3).

docling's HTML backend puts a cell's ``<code>`` and text runs in an inline group. The
records wrote them joined by a space each (``urllib ;``, ``( .gz , .bz2 )``,
``Use tab , not comma .``), and the same sentence as a paragraph lost the space after
the comma (``(.gz,.bz2)``): a ``.`` that starts a word (a file extension) was read as
closing punctuation.
"""

from __future__ import annotations

from docling_core.types.doc import DocItemLabel, DoclingDocument, GroupLabel, TableData

import docchunk
from tests.chunkers.doc.item_docs import add_rich_cell, cell, header_row
from tests.helpers import lost_texts

RUNS = [("text", "Fetched with"), ("code", "urllib"), ("text", "; compressed files ("), ("code", ".gz"),
        ("text", ","), ("code", ".bz2"), ("text", ") are opened transparently.")]  # fmt: skip
SENTENCE = "Fetched with urllib; compressed files (.gz, .bz2) are opened transparently."


def _runs(doc: DoclingDocument, parent) -> None:
    group = doc.add_inline_group(parent=parent)
    for kind, text in RUNS:
        if kind == "code":
            doc.add_code(text, parent=group)
        else:
            doc.add_text(DocItemLabel.TEXT, text, parent=group)


def api_reference() -> DoclingDocument:
    doc = DoclingDocument(name="api")
    doc.add_title("Inline code and punctuation")
    _runs(doc, None)
    table = doc.add_table(data=TableData(num_rows=2, num_cols=2, table_cells=header_row(["Name", "Description"])))
    doc.add_table_cell(table, cell("path", 1, 0))
    content = doc.add_group(label=GroupLabel.UNSPECIFIED, name="rich_cell", parent=table)
    _runs(doc, content)
    add_rich_cell(doc, table, content, SENTENCE, 1, 1)
    return doc


def test_regression_cell_inline_runs_joined_as_a_paragraph_s():
    doc = api_reference()
    chunks = list(docchunk.HybridChunker(max_tokens=128, merge_peers=False).chunk(doc))
    texts = [c.text for c in chunks]
    assert texts[0] == SENTENCE  # the paragraph, a space after the comma
    assert any(t.endswith(f"Description = {SENTENCE}") for t in texts[1:]), texts  # the cell, the same sentence
    assert lost_texts(doc, chunks) == []
