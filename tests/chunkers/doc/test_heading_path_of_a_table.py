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


PERIODS = [["", "Three months ended", "Three months ended", "Nine months ended", "Nine months ended"],
           ["", "30 Sep 2025", "30 Sep 2024", "30 Sep 2025", "30 Sep 2024"]]  # fmt: skip
FIGURES = [
    ["Product sales", "42,545", "19,872", "51,850", "85,419"],
    ["Services", "6,428", "9,594", "70,339", "12,437"],
    ["Licensing", "48,031", "76,487", "7,702", "66,610"],
    ["Total revenue", "28,240", "5,014", "11,365", "56,938"],
]


def income_statement_under_two_headings(intro: bool = True) -> DoclingDocument:
    """The round-2 tester's ``docx_fin_statement``: two header levels, a section row, two headings."""
    doc = DoclingDocument(name="fin")
    doc.add_heading("Acme Holdings plc — Interim Report Q3 2025", level=1)
    doc.add_heading("Condensed consolidated income statement", level=2)
    if intro:
        doc.add_text(
            label=DocItemLabel.TEXT,
            text="The following table shows the results for the periods ended "
            "30 September (in millions of EUR, unaudited). Revenue grew in every segment but licensing.",
        )
    grid = [*PERIODS, ["Revenue"] * 5, *FIGURES]
    cells = []
    for r, row in enumerate(grid):
        c = 0
        while c < len(row):
            end = c + 1
            while end < len(row) and row[end] == row[c] and row[c]:
                end += 1
            cells.append(TableCell(text=row[c], start_row_offset_idx=r, end_row_offset_idx=r + 1,
                                   start_col_offset_idx=c, end_col_offset_idx=end, column_header=r == 0))  # fmt: skip
            c = end
    doc.add_table(data=TableData(num_rows=len(grid), num_cols=5, table_cells=cells))
    return doc


def test_a_row_that_fits_under_its_innermost_heading_is_not_cut(minilm_dir):
    """Issue 46: a record (both header levels, ~45 tokens) that fits 64 with the innermost heading but
    not with the whole two-heading path stays whole, the outer heading named in ``headings_dropped``;
    it was cut between its two periods (13 rows of ``docx_fin_statement`` at MiniLM 64)."""
    doc = income_statement_under_two_headings()
    tok = docchunk.get_tokenizer(f"hf:{minilm_dir}")
    chunker = docchunk.HybridChunker(tokenizer=tok, max_tokens=64)
    chunks = list(chunker.chunk(doc))
    tables = [c for c in chunks if any(it.label == DocItemLabel.TABLE for it in c.meta.doc_items)]
    for label, *values in FIGURES:
        holding = [c for c in tables if label in c.text]
        assert len(holding) == 1, (label, [c.text for c in holding])  # the row is whole in one chunk
        chunk = holding[0]
        assert all(v in chunk.text for v in values)
        assert chunk.meta.headings == ["Condensed consolidated income statement"]
        assert chunk.meta.headings_dropped == ["Acme Holdings plc — Interim Report Q3 2025"]
    assert all(tok.count_tokens(chunker.contextualize(c)) <= 64 for c in chunks)
    assert lost_texts(doc, chunks) == []


def test_a_heading_over_the_table_alone_is_not_dropped_for_a_row(minilm_dir):
    """Without the paragraph, the report title heads only the table: a row dropping it would lose it."""
    doc = income_statement_under_two_headings(intro=False)
    chunker = docchunk.HybridChunker(tokenizer=docchunk.get_tokenizer(f"hf:{minilm_dir}"), max_tokens=64)
    chunks = list(chunker.chunk(doc))
    assert lost_texts(doc, chunks) == []
    assert any("Acme Holdings plc — Interim Report Q3 2025" in (c.meta.headings or []) for c in chunks)
