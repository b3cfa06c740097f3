"""Table shapes a tester found in documents the developers had never seen (issue 46, findings 1, 2, 4).

Each table is built through docling-core's API in the shape the tester's generated
DOCX/HTML/PPTX documents converted to with docling.
"""

from __future__ import annotations

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
