"""Table shapes of a tester's second round of new documents (issue 46; s4/tdocs2 findings 2, 9, 11, 15, 20, 21).

Each table is built through docling-core's API in the shape docling converted the
tester's generated DOCX/XLSX/HTML documents to; each test names the document.
"""

from __future__ import annotations

from docchunk.serialization.tables import read_table, table_rows
from docchunk.serialization.tables.rules import block_headers, sub_header_row
from tests.helpers import make_table

# -- finding 9: a header block that restarts, the label column's header with it -----------------

ROLL_FORWARD = [
    ["Cost", "Land and buildings", "Plant and machinery"],
    ["At 1 January 2025", "25,093", "96,030"],
    ["At 31 December 2025", "28,000", "161"],
    ["Accumulated depreciation", "Land and buildings", "Plant and machinery"],
    ["At 1 January 2025", "77,791", "39,964"],
    ["Charge for the year", "27,718", "24,650"],
    ["Net book value", "Land and buildings", "Plant and machinery"],
    ["At 31 December 2025", "28,050", "57,973"],
]


def test_a_restarted_block_reads_its_label_header_from_its_own_restart_row():
    """``docx_rollforward``: ``Accumulated depreciation | Land and buildings | ...`` restarts the header.

    The value columns took the restart row's headers, but every record of the later
    blocks kept the first block's label header: ``At 1 January 2025 (Cost)`` under
    ``Accumulated depreciation``.
    """
    doc, table = make_table(ROLL_FORWARD)
    model = read_table(table, doc)
    assert model.restarts == [3, 6]
    assert block_headers(model.grid[3], model.label_cols, model.text_of, "Cost") == (
        "Accumulated depreciation",
        ["", "Land and buildings", "Plant and machinery"],
    )
    assert [row.text for row in table_rows(table, doc).rows] == [
        "At 1 January 2025 (Cost): Land and buildings = 25,093; Plant and machinery = 96,030",
        "At 31 December 2025 (Cost): Land and buildings = 28,000; Plant and machinery = 161",
        "Accumulated depreciation; Land and buildings; Plant and machinery",
        "At 1 January 2025 (Accumulated depreciation): Land and buildings = 77,791; Plant and machinery = 39,964",
        "Charge for the year (Accumulated depreciation): Land and buildings = 27,718; Plant and machinery = 24,650",
        "Net book value; Land and buildings; Plant and machinery",
        "At 31 December 2025 (Net book value): Land and buildings = 28,050; Plant and machinery = 57,973",
    ]


def test_triplets_read_a_restarted_block_as_records_do():
    """The same roll-forward in triplets: the restart row a row of its own, the later blocks' corner their own."""
    doc, table = make_table(ROLL_FORWARD)
    texts = [row.text for row in table_rows(table, doc, table_format="triplets").rows]
    assert texts[2] == "Accumulated depreciation. Land and buildings. Plant and machinery"
    assert texts[3].startswith("Accumulated depreciation = At 1 January 2025. At 1 January 2025, Land and buildings")
    assert texts[6].startswith("Net book value = At 31 December 2025.")
    assert not any("Cost" in text for text in texts[2:])


def test_a_restart_row_with_an_empty_label_cell_keeps_only_a_units_corner():
    """doc-qa's fin roll-forwards restart with ``| 2018 | 2017``: a units note over the labels stays, a name goes."""
    row_of = {}
    for corner in ["(in millions)", "Cost"]:
        grid = [[corner, "2019", "2018"], ["Balance", "$10", "$8"], ["", "2018", "2017"], ["Balance", "$8", "$7"]]
        doc, table = make_table(grid)
        model = read_table(table, doc)
        row_of[corner] = block_headers(model.grid[2], model.label_cols, model.text_of, corner)[0]
    assert row_of == {"(in millions)": "(in millions)", "Cost": ""}


# -- finding 2: an unflagged second header row under a merged period ----------------------------

INCOME = [
    ["", "Three months ended", None, "Nine months ended", None],
    ["", "30 Sep 2025", "30 Sep 2024", "30 Sep 2025", "30 Sep 2024"],
    ["Revenue", None, None, None, None],
    ["Product sales", "42,545", "19,872", "51,850", "85,419"],
    ["Services", "6,428", "9,594", "70,339", "12,437"],
]
INCOME_SPANS = [(0, 1, 1, 2), (0, 3, 1, 2), (2, 0, 1, 5)]


def test_dates_under_a_merged_period_are_a_header_row():
    """``docx_fin_statement``: docling flags only the ``Three months ended`` row; the dates row was a record."""
    doc, table = make_table(INCOME, spans=INCOME_SPANS)
    model = read_table(table, doc)
    assert sub_header_row(model.grid, 1, model.text_of)
    assert model.start == 2
    assert [row.text for row in table_rows(table, doc).rows if row.cells] == [
        "Revenue / Product sales: Three months ended: 30 Sep 2025 = 42,545, 30 Sep 2024 = 19,872; "
        "Nine months ended: 30 Sep 2025 = 51,850, 30 Sep 2024 = 85,419",
        "Revenue / Services: Three months ended: 30 Sep 2025 = 6,428, 30 Sep 2024 = 9,594; "
        "Nine months ended: 30 Sep 2025 = 70,339, 30 Sep 2024 = 12,437",
    ]


def test_halves_under_a_merged_year_are_a_header_row_with_the_labels_header():
    """``xlsx_multi_sheet_fin``: ``Line item | H1 | H2 | H1 | H2`` under ``FY2024`` and ``FY2025``, merged."""
    grid = [
        ["", "FY2024", None, "FY2025", None],
        ["Line item", "H1", "H2", "H1", "H2"],
        ["Sales", "936", "1958", "3950", "1711"],
    ]
    doc, table = make_table(grid, spans=[(0, 1, 1, 2), (0, 3, 1, 2)])
    assert read_table(table, doc).start == 2
    assert [row.text for row in table_rows(table, doc).rows] == [
        "Sales (Line item): FY2024: H1 = 936, H2 = 1958; FY2025: H1 = 3950, H2 = 1711"
    ]


def test_rows_that_are_not_a_sub_header():
    """Values under the merged header, a row that does not divide it, no merged header, no value below."""
    spans = [(0, 1, 1, 2)]
    cases = [
        [["", "Q", None], ["A", "5", "6"], ["B", "7", "8"]],  # values
        [["", "Q", None], ["", "Total", "Total"], ["B", "7", "8"]],  # one text under the merged cell
        [["", "Q", "R"], ["", "H1", "H2"], ["B", "7", "8"]],  # nothing merged above
        [["", "Name", None], ["", "John", "Smith"], ["", "Jane", "Doe"]],  # no value below: names, not headers
    ]
    for grid in cases:
        doc, table = make_table(grid, spans=spans if grid[0][2] is None else ())
        assert read_table(table, doc).start == 1, grid
