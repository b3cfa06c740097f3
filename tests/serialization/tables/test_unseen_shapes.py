"""Table shapes a tester found in documents the developers had never seen (issue 46, findings 1, 2, 4).

Each table is built through docling-core's API in the shape the tester's generated
DOCX/HTML/PPTX documents converted to with docling.
"""

from __future__ import annotations

import pytest

from docchunk.serialization.tables import read_table, table_rows
from docchunk.serialization.tables.rules import restarted_header_rows
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
    from docchunk.serialization.tables.rules import is_flagged_header_row

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
        "Service 2 (Service): Fee = 200 EUR; Due = monthly; Schedule A: Fees payable by the customer",
        "Service 3 (Service): Fee = 300 EUR; Due = monthly",
        "Service 4 (Service): Fee = 400 EUR; Due = monthly",
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
    assert rows.rows[0].text == "Service 0 (Service): Fee = 0; Due = monthly; Schedule A: Fees payable"
    assert all("**" not in row.text for row in rows.rows)
    assert rows.notes == "Schedule A: Fees payable"
