"""Table shapes of a tester's second round of new documents (issue 46; s4/tdocs2 findings 2, 9, 11, 15, 20, 21).

Each table is built through docling-core's API in the shape docling converted the
tester's generated DOCX/XLSX/HTML documents to; each test names the document.
"""

from __future__ import annotations

import pytest

import docchunk
from docchunk.serialization.tables import read_table, table_rows
from docchunk.serialization.tables.blocks import block_headers, restart_block
from docchunk.serialization.tables.rules import is_key_value_table, is_title_block, sub_header_row
from tests.helpers import make_table

MINILM = docchunk.get_tokenizer()

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
    assert model.blocks == {3: range(3, 4), 6: range(6, 7)}
    assert block_headers([model.grid[3]], model.label_cols, model.text_of, "Cost") == (
        "Accumulated depreciation",
        [[], ["Land and buildings"], ["Plant and machinery"]],
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
        row_of[corner] = block_headers([model.grid[2]], model.label_cols, model.text_of, corner)[0]
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


# -- finding 11: an XLSX title block (a merged title row over a merged units row) ---------------

TITLE = "Quarterly KPI report — Northern division"
UNITS = "All figures in thousands of GBP"
KPI = [["KPI", "Q1", "Q2", "Q3"]] + [[f"KPI line {k}", str(100 + k), str(200 + k), str(300 + k)] for k in range(12)]


def title_block_document():
    """``xlsx_merged_title_notes``: docling converts the two merged rows as a table, the KPI table after it."""
    doc, block = make_table([[TITLE, None, None, None], [UNITS, None, None, None]], spans=[(0, 0, 1, 4), (1, 0, 1, 4)])
    make_table(KPI, doc=doc)
    return doc, block


def test_two_merged_rows_of_short_text_are_a_title_block():
    doc, block = title_block_document()
    model = read_table(block, doc)
    assert is_title_block(model.grid, model.text_of)
    assert model.kind == "title"
    assert table_rows(block, doc).text == f"{TITLE}\n{UNITS}"  # in reading order, not the header after the body


@pytest.mark.parametrize(
    "grid",
    [
        [["Name"], ["Ann"], ["Bob"]],  # one column: each row is one cell, a list of values
        [["a", "b", "c"], ["d", "e", "f"]],  # cells, not merged rows
    ],
)
def test_not_a_title_block(grid):
    doc, table = make_table(grid)
    model = read_table(table, doc)
    assert not is_title_block(model.grid, model.text_of)


def test_a_title_block_heads_every_piece_of_the_table_it_names():
    """The block was a chunk of its own, reversed; the KPI table's chunks named neither the report nor the units."""
    doc, _ = title_block_document()
    chunker = docchunk.HybridChunker(tokenizer=MINILM, max_tokens=64)
    chunks = list(chunker.chunk(doc))
    assert len(chunks) > 1
    for chunk in chunks:
        text = chunker.contextualize(chunk)
        assert f"{TITLE}\n{UNITS}\nKPI line" in text, text
    assert all(chunk.meta.table_rows is not None and chunk.meta.table_rows[0] >= 1 for chunk in chunks)


# -- finding 20: a key-value table with one long value --------------------------------------------

BIO = "This cell holds a very long description that goes on and on. " * 12


def key_value_document():
    """``html_odd_tables``' fourth table: ``<th scope=row>`` keys, which docling flags ``row_header``."""
    grid = [["Name", "Jane Roe"], ["Role", "Editor"], ["Bio", BIO.strip()]]
    return make_table(grid, header_rows=0, row_header_cols=1)


def test_flagged_row_headers_make_a_key_value_table_data():
    doc, table = key_value_document()
    model = read_table(table, doc)
    assert is_key_value_table(model.grid, model.text_of)
    assert model.kind == "data"
    assert [row.text for row in table_rows(table, doc).rows][:2] == ["Name: Jane Roe", "Role: Editor"]
    unflagged_doc, unflagged = make_table([["Name", "Jane Roe"], ["Bio", BIO.strip()]], header_rows=0)
    assert read_table(unflagged, unflagged_doc).kind == "layout"  # without the flags, still page layout


def test_every_piece_of_a_long_value_names_its_key():
    """The key ``Bio`` was a 3-token chunk of its own; the pieces of the value never said ``Bio``."""
    doc, _ = key_value_document()
    chunker = docchunk.HybridChunker(tokenizer=MINILM, max_tokens=64)
    bio = [c.text for c in chunker.chunk(doc) if "very long description" in c.text]
    assert len(bio) > 1
    assert all(text.startswith("Bio: This cell") for text in bio), bio


def test_a_year_in_a_restart_rows_label_cell_is_no_labels_header():
    """A TAT-QA table (doc-qa fin) whose converter shifted the restarted years left: ``2017 | 2019 | 2018``.

    Read as the labels' header, it made ``Supplier A (2017): 2019 = 30%`` of every record below.
    """
    grid = [
        ["", "2019", "2018", "2017"],
        ["Supplier A", "31%", "33%", "34%"],
        ["2017", "2019", "2018", ""],
        ["Supplier A", "30%", "40%", "33%"],
    ]
    doc, table = make_table(grid)
    model = read_table(table, doc)
    assert model.restarts == [2]
    assert block_headers([model.grid[2]], model.label_cols, model.text_of, "")[0] == ""
    assert table_rows(table, doc).rows[-1].text == "Supplier A: 2019 = 30%; 2018 = 40%; 33%"


def test_a_restarted_block_of_three_rows_heads_the_rows_below_it():
    """A TAT-QA quarterly table (doc-qa fin ``tatqa-073a0021``): the second fiscal year restarts with three rows.

    ``Fiscal 2018`` over ``First | ... | Fourth`` over ``Quarter | ... | Total``; only
    the middle row read as the restart, the others were data (``Fourth / Quarter =
    Fiscal 2018``) and the values below lost ``Quarter`` and ``Total``.
    """
    head = [
        ["", "", "", "Fiscal {}", ""],
        ["", "First", "Second", "Third", ""],
        ["", "Quarter", "Quarter", "Quarter", "Total"],
    ]
    grid = [[c.format(2019) for c in row] for row in head] + [
        ["Revenues", "$ 94,888", "$ 96,037", "$ 88,495", "$363,800"]
    ]
    grid += [[c.format(2018) for c in row] for row in head] + [
        ["Revenues", "$88,081", "$89,767", "$93,669", "$365,912"]
    ]
    doc, table = make_table(grid, header_rows=3)
    model = read_table(table, doc)
    assert model.restarts == [5]
    assert model.blocks == {4: range(4, 7)}
    assert restart_block(model.grid, 5, model.start, model.label_cols, model.text_of) == range(4, 7)
    records = [row.text for row in table_rows(table, doc).rows]
    assert (
        records[-1] == "Revenues: First / Quarter = $88,081; Second / Quarter = $89,767; Third / Quarter = $93,669; "
        "Total = $365,912"
    )
    triplets = [row.text for row in table_rows(table, doc, table_format="triplets").rows]
    assert triplets[-1].startswith("Revenues, First Quarter = $88,081.") and triplets[-1].endswith(
        "Revenues, Total = $365,912"
    )
    assert "Fiscal 2018" in records[1:4] and all("Fiscal 2018" not in text for text in records[4:])
