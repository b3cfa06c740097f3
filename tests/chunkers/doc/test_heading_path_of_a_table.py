"""A table's heading path that its rows give up is still written once (issue 45: nothing lost).

When a heading path takes more than half the budget, ``fit_headings`` writes the headings
the path leaves out as text, once. A table's rows may later give up the path they kept, for
a row to stay whole: the key-value table of the tester's ``docx_header_footer`` (MiniLM 64)
kept ``Key-value table`` in its path, dropped it for its rows, and no chunk held it.
"""

from __future__ import annotations

from docling_core.types.doc import DocItemLabel, DoclingDocument, TableCell, TableData

import docchunk
from tests.helpers import lost_texts

ROWS = [
    ["Name", "ACME Corp"],
    ["Founded", "1950"],
    ["Employees", "1,200"],
    ["Address", "1 Road Runner Way, Desert City, Gamma delta report quality revenue delivery market audit quality "
                "beta product gamma."],
    ["CEO", "W. Coyote"],
]  # fmt: skip


def key_value_table_under_a_long_heading() -> DoclingDocument:
    doc = DoclingDocument(name="kv")
    long = "A heading that is very long " + " ".join(["Delivery market shipment region beta gamma."] * 6)
    doc.add_heading(long, level=1)
    doc.add_heading("Key-value table", level=2)
    cells = [
        TableCell(text=value, start_row_offset_idx=r, end_row_offset_idx=r + 1, start_col_offset_idx=c,
                  end_col_offset_idx=c + 1, column_header=r == 0)
        for r, row in enumerate(ROWS) for c, value in enumerate(row)
    ]  # fmt: skip
    doc.add_table(data=TableData(num_rows=len(ROWS), num_cols=2, table_cells=cells))
    doc.add_heading("Numbers only", level=2)
    doc.add_text(label=DocItemLabel.TEXT, text="Ten, twenty and thirty.")
    return doc


def test_a_heading_the_table_rows_give_up_reaches_a_chunk(minilm_dir):
    doc = key_value_table_under_a_long_heading()
    chunker = docchunk.HybridChunker(tokenizer=docchunk.get_tokenizer(f"hf:{minilm_dir}"), max_tokens=64)
    chunks = list(chunker.chunk(doc))
    table = next(c for c in chunks if any(it.label == DocItemLabel.TABLE for it in c.meta.doc_items))
    assert "Key-value table" in (table.meta.headings_dropped or [])  # the rows gave the path up
    assert lost_texts(doc, chunks) == []
    texts = [chunker.contextualize(c) for c in chunks]
    assert sum(t.count("Key-value table") for t in texts) >= 1
    assert all(t.count("Key-value table") <= 1 for t in texts)  # once in any embedded text
