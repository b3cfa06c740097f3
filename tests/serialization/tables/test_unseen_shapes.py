"""Table shapes a tester found in documents the developers had never seen (issue 46, findings 1, 2, 4).

Each table is built through docling-core's API in the shape the tester's generated
DOCX/HTML/PPTX documents converted to with docling.
"""

from __future__ import annotations

import pytest

from docchunk.serialization.tables import read_table, table_rows
from docchunk.serialization.tables.blocks import restarted_header_rows
from tests.helpers import make_table


def _flag_rows(table, rows: set[int]) -> None:
    """Flag every cell of the grid rows ``rows`` ``column_header``, as docling does for ``<th>`` cells."""
    for cell in table.data.table_cells:
        if cell.start_row_offset_idx in rows:
            cell.column_header = True


# -- finding 1: a flagged header row mid-table ---------------------------------------------

ROLL_FORWARD = [
    ["", "Warranty", "Legal"],
    ["Opening 2025", "100", "50"],
    ["Closing 2025", "110", "53"],
    ["", "Restructuring", "Other"],
    ["Opening 2026", "7", "9"],
    ["Closing 2026", "9", "9"],
]


def test_a_flagged_header_row_mid_table_restarts_the_header():
    """An HTML roll-forward whose second block opens with ``<th>`` cells (docling flags them ``column_header``).

    Its names are texts no header row above holds, so the unflagged rule read the row
    as data and the second block's values got the first block's headers.
    """
    from docchunk.serialization.tables.blocks import is_flagged_header_row

    doc, table = make_table(ROLL_FORWARD)
    _flag_rows(table, {3})
    model = read_table(table, doc)
    assert is_flagged_header_row(model.grid[3], model.label_cols, model.text_of)
    assert not is_flagged_header_row(model.grid[4], model.label_cols, model.text_of)
    assert restarted_header_rows(model.grid, model.start, model.label_cols, model.text_of) == [3]
    assert [row.text for row in table_rows(table, doc).rows] == [
        "Opening 2025: Warranty = 100; Legal = 50",
        "Closing 2025: Warranty = 110; Legal = 53",
        "Restructuring; Other",
        "Opening 2026: Restructuring = 7; Other = 9",
        "Closing 2026: Restructuring = 9; Other = 9",
    ]


def test_an_unflagged_row_of_new_names_stays_data():
    """Without the flag, ``| Restructuring | Other`` names nothing the header holds: a row of its own, as before."""
    doc, table = make_table(ROLL_FORWARD)
    assert read_table(table, doc).restarts == []


# -- finding 2: a title row over the whole table ---------------------------------------------

FEES = [["Schedule A: Fees payable by the customer"] * 3, ["Service", "Fee", "Due"]]
FEES += [[f"Service {k}", f"{k * 100} EUR", "monthly"] for k in range(2, 5)]


def test_a_merged_title_row_flagged_as_the_header_is_the_tables_title():
    """A DOCX/PPTX table whose merged first row docling flags as the only header row (the tester's DOCX).

    The title headed every column (``Schedule A: ... = 200 EUR``) and labelled every
    row; the real header row below it was data.
    """
    from docchunk.serialization.tables.rules import title_row

    doc, table = make_table(FEES, header_rows=1, spans=[(0, 0, 1, 3)])
    model = read_table(table, doc)
    assert title_row(model.grid, 1, model.text_of) == FEES[0][0]
    assert (model.title, model.start) == (FEES[0][0], 2)
    rows = table_rows(table, doc)
    assert [row.text for row in rows.rows] == [
        "Service 2: Fee = 200 EUR; Due = monthly; Schedule A: Fees payable by the customer",
        "Service 3: Fee = 300 EUR; Due = monthly",
        "Service 4: Fee = 400 EUR; Due = monthly",
    ]
    assert rows.notes == FEES[0][0]  # it opens every later piece of a split table


def test_a_merged_first_row_over_data_is_no_title():
    """Unflagged, over a row of values (a section row ``Americas`` above ``Canada | 3 | 4``): not a title."""
    from docchunk.serialization.tables.rules import title_row

    grid = [["Americas"] * 3, ["Canada", "3", "4"], ["Mexico", "5", "6"]]
    doc, table = make_table(grid, header_rows=0, spans=[(0, 0, 1, 3)])
    model = read_table(table, doc)
    assert title_row(model.grid, 0, model.text_of) is None and model.title is None


def test_an_html_bold_title_row_over_th_cells_gives_records_that_name_the_columns():
    """The tester's HTML: ``<td colspan=3><b>title</b></td>`` above a ``<th>`` row; ``**`` reached every record."""
    pytest.importorskip("docling", reason="converting HTML needs docling (the convert extra)")
    import docchunk

    html = (
        "<html><body><h1>Fees</h1><table><tr><td colspan='3'><b>Schedule A: Fees payable</b></td></tr>"
        "<tr><th>Service</th><th>Fee</th><th>Due</th></tr>"
        + "".join(f"<tr><td>Service {k}</td><td>{k * 100}</td><td>monthly</td></tr>" for k in range(4))
        + "</table></body></html>"
    )
    doc = docchunk.load_document(html, format="html")
    rows = table_rows(doc.tables[0], doc)
    assert rows.rows[0].text == "Service 0: Fee = 0; Due = monthly; Schedule A: Fees payable"
    assert all("**" not in row.text for row in rows.rows)
    assert rows.notes == "Schedule A: Fees payable"


# -- finding 4: a layout table whose content cell holds headings and paragraphs -------------------


def test_a_rich_cells_paragraphs_are_lines_without_heading_marks():
    from docchunk.serialization.tables.model import cell_paragraphs

    raw = "## News item 0\n\nThe club met on day 0.\n\n### Minutes\nRead   them."
    headings = frozenset({"News item 0", "Minutes"})
    assert cell_paragraphs(raw, headings) == ["News item 0", "The club met on day 0.", "Minutes", "Read them."]
    # a paragraph's own line that starts with "## " keeps it: it is text, no heading (a long random run)
    assert cell_paragraphs("a-b/c\n## naïve }", headings) == ["a-b/c", "## naïve }"]


def test_a_web_page_laid_out_as_a_table_is_written_as_paragraphs_in_reading_order(minilm_dir):
    """The tester's HTML page: a title row, a navigation cell beside a content cell of ``<h2>`` and ``<p>``, a footer.

    The content cell was one line with ``## `` in the middle of it, on the same line as
    the navigation cell.
    """
    pytest.importorskip("docling", reason="converting HTML needs docling (the convert extra)")
    import docchunk

    nav = " | ".join(f"<a href='/p{k}'>Section page {k}</a>" for k in range(8))
    news = "".join(f"<h2>News item {k}</h2><p>The club met on day {k} and discussed the garden.</p>" for k in range(3))
    html = (
        "<html><body><table><tr><td colspan='2'><h1>Welcome to the Village Club</h1></td></tr>"
        f"<tr><td>{nav}</td><td>{news}</td></tr><tr><td colspan='2'>Copyright 1999 Village Club.</td></tr>"
        "</table></body></html>"
    )
    doc = docchunk.load_document(html, format="html")
    met = "The club met on day {} and discussed the garden."
    news_lines = [line for k in range(3) for line in (f"News item {k}", met.format(k))]
    nav_line = " | ".join(f"Section page {k}" for k in range(8))
    assert table_rows(doc.tables[0], doc).text.split("\n") == [
        "Welcome to the Village Club",
        nav_line,
        *news_lines,
        "Copyright 1999 Village Club.",
    ]
    for max_tokens in (64, 256):
        chunker = docchunk.HybridChunker(tokenizer=docchunk.get_tokenizer(f"hf:{minilm_dir}"), max_tokens=max_tokens)
        lines = [line for c in chunker.chunk(doc) for line in chunker.contextualize(c).split("\n")]
        assert "## " not in "\n".join(lines)
        assert all(lines.count(line) == 1 for line in [nav_line, *news_lines]), lines
