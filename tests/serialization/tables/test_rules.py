"""The table model's rules, one table shape each, rebuilt from tables seen in real documents."""

from __future__ import annotations

import pytest

from docchunk.serialization.tables import read_table
from docchunk.serialization.tables.blocks import restarted_header_rows
from docchunk.serialization.tables.rules import (
    is_layout_table,
    is_parallel_text_table,
    is_section_row,
    is_title_table,
    is_value,
    qualifies_all,
    spanning_text,
    table_kind,
    table_wide_headers,
)
from tests.helpers import CORPUS, CORPUS_REASON, load, make_table

DOCLING = CORPUS / "docling"
PARAGRAPH = (
    "The Company may not be able to complete an initial business combination within the prescribed time "
    "frame, in which case it would cease all operations except for the purpose of winding up."
)


def model_of(grid, **kwargs):
    doc, table = make_table(grid, **kwargs)
    return read_table(table, doc)


# -- header rows and label columns ---------------------------------------------------


def test_flagged_header_rows_are_the_column_headers():
    """A fin report's two header rows (doc-qa fin: a period over the years)."""
    grid = [["", "Year ended", "Year ended"], ["", "2019", "2018"], ["Revenue", "5", "6"]]
    model = model_of(grid, header_rows=2, spans=[(0, 1, 1, 2)])
    assert (model.start, model.label_cols, model.n_rows, model.n_cols) == (2, 1, 3, 3)


def test_flagged_row_headers_are_the_label_columns():
    """HTML ``<th scope=row>`` in two columns (region and country) label the rows."""
    grid = [["Region", "Country", "Units"], ["Americas", "Canada", "3"], ["Americas", "Mexico", "4"]]
    assert model_of(grid, row_header_cols=2).label_cols == 2
    assert model_of(grid).label_cols == 1  # unflagged: column 0, as docling-core's triplets


def test_a_one_column_table_has_no_label_column():
    assert model_of([["Name"], ["Ann"], ["Bob"]]).label_cols == 0


# -- rows --------------------------------------------------------------------------------


def test_a_row_of_one_text_in_every_cell_is_spanning():
    """Wikipedia tables as FeTaQA gives them: a merged row written into each of its cells."""
    model = model_of([["Year", "Team", "W", "L"], ["Toledo Rockets"] * 4, ["2001", "a", "1", "2"]])
    assert spanning_text(model.grid[1], model.text_of) == "Toledo Rockets"
    assert spanning_text(model.grid[2], model.text_of) is None


@pytest.mark.parametrize("row", [["0", "0", "0"], ["-", "-", "-"], ["Luxembourg", "Luxembourg"]])
def test_equal_values_are_not_a_spanning_row(row):
    """A row of zeros or dashes, or a two-column row whose value equals its label, stays values."""
    model = model_of([["h"] * len(row), row])
    assert spanning_text(model.grid[1], model.text_of) is None


@pytest.mark.parametrize(
    ("label", "spans", "expected"),
    [("Americas:", (), True), ("Americas", [(1, 0, 1, 3)], True), ("Ann", (), False)],
)
def test_section_rows(label, spans, expected):
    """A fin report's ``Americas:`` over its countries, a merged region row; a lone label is a row."""
    grid = [["", "2019", "2018"], [label, "", ""]]
    model = model_of(grid, spans=spans)
    assert is_section_row(model.grid[1], [label], model.label_cols) is expected


# -- table-wide headers -----------------------------------------------------------------


def test_a_period_over_the_first_year_column_heads_the_whole_table():
    """A 10-Q's unmerged ``December 31,`` over ``2019 | 2018`` (doc-qa fin) qualifies both years."""
    grid = [["", "December 31,", ""], ["", "2019", "2018"], ["Cash", "5", "6"]]
    model = model_of(grid, header_rows=2)
    rest, notes = table_wide_headers(model.grid, model.start, model.label_cols, model.text_of)
    assert notes == ["December 31,"]
    assert [model.text_of(cell) for cell in rest[0]] == ["", "", ""]
    assert rest[1] is model.grid[1]


def test_a_header_over_an_inner_column_heads_the_whole_table():
    """``Fiscal`` over the middle of ``2019 | 2018 | 2017``: a converter's unmerged spanning header."""
    grid = [["", "", "Fiscal", ""], ["", "2019", "2018", "2017"], ["Sales", "1", "2", "3"]]
    model = model_of(grid, header_rows=2)
    assert table_wide_headers(model.grid, model.start, model.label_cols, model.text_of)[1] == ["Fiscal"]


def test_a_header_of_its_own_column_stays_that_columns():
    """``Restated`` over ``2018`` alone names that column, not the table."""
    grid = [["", "", "Restated"], ["", "2019", "2018"], ["Sales", "1", "2"]]
    model = model_of(grid, header_rows=2)
    assert table_wide_headers(model.grid, model.start, model.label_cols, model.text_of)[1] == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("December 31,", True),
        ("(in thousands)", True),
        ("(Dollars in millions)", True),
        ("Year ended 31 December", True),
        ("As at 31 March", True),
        ("(unaudited)", False),
        ("(1)", False),
        ("Change", False),
    ],
)
def test_what_qualifies_every_column(text, expected):
    assert qualifies_all(text) is expected


# -- header blocks that restart ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [("$614,493", True), ("(5,149)", True), ("12.5%", True), ("$(3.1)", True), ("2019", False),
     ("FY2019", False), ("2019 \u20acm", False), ("-", False), ("Ann", False)],
)  # fmt: skip
def test_what_reads_as_a_value(text, expected):
    """Numbers of a fin report's body; a bare year names a column."""
    assert is_value(text) is expected


def test_a_repeated_header_row_after_values_restarts_the_header():
    """A roll-forward's second block (doc-qa fin): ``| 2018 | 2017`` under the first block's values."""
    grid = [["", "2019", "2018"], ["Balance", "$10", "$8"], ["", "2018", "2017"], ["Balance", "$8", "$7"]]
    model = model_of(grid)
    assert restarted_header_rows(model.grid, model.start, model.label_cols, model.text_of) == [2]
    assert model.restarts == [2]


@pytest.mark.parametrize(
    "row",
    [["Total", "", ""], ["", "Restated", "Other"], ["", "2018", ""]],
)
def test_rows_that_do_not_restart_the_header(row):
    """A label alone, texts no header row holds, one year alone: not a header block."""
    grid = [["", "2019", "2018"], ["Balance", "$10", "$8"], row, ["Balance", "$8", "$7"]]
    assert model_of(grid).restarts == []


def test_a_header_row_at_the_end_restarts_nothing():
    assert model_of([["", "2019", "2018"], ["Balance", "$10", "$8"], ["", "2018", "2017"]]).restarts == []


# -- the kind of a table -----------------------------------------------------------------


def test_a_one_cell_table_is_a_title():
    """An XLSX sheet's title cell converted as a table of its own (docling#2396)."""
    model = model_of([["Number of freshwater ducks per year"]])
    assert model.kind == "title"
    assert is_title_table(model.grid, model.text_of)


@pytest.mark.parametrize(
    "grid", [[["1"]], [[PARAGRAPH]], [["Year", "Ducks"], ["2019", "5"]], [["", "", ""], ["", "", "xxxx"]]]
)
def test_not_a_title(grid):
    """A lone number, a boxed paragraph, a table of values, one text among empty cells (a fuzzer's table)."""
    model = model_of(grid)
    assert not is_title_table(model.grid, model.text_of)


def test_a_bullet_beside_its_paragraph_is_layout():
    """An XBRL filing's risk factors: ``●`` in one cell, the paragraph in the next."""
    model = model_of([["●", PARAGRAPH], ["●", PARAGRAPH.upper()]], header_rows=0)
    assert model.kind == "layout"


def test_a_navigation_cell_beside_the_rows_is_layout():
    """An old web page laid out as one table: the navigation cell spans every content row."""
    grid = [[PARAGRAPH, f"row {k}", str(k)] for k in range(12)]
    model = model_of(grid, header_rows=0, spans=[(0, 0, 12, 1)])
    assert is_layout_table(model.grid, model.start, model.text_of)


def test_a_data_table_with_a_notes_column_stays_data():
    """A Wikipedia discography: many rows, a long notes cell in some: still one record per row."""
    rows = [[str(2000 + k), f"Album {k}", PARAGRAPH if k % 3 == 0 else ""] for k in range(8)]
    grid = [["Year", "Title", "Notes"], *rows]
    model = model_of(grid)
    assert table_kind(model.grid, model.start, model.text_of) == "data"


def test_a_header_over_a_long_value_stays_data():
    """``Name | Bio`` over one long biography: a record, not layout."""
    assert model_of([["Name", "Bio"], ["Ann", PARAGRAPH]]).kind == "data"


ENGLISH = "Repairs: the landlord is responsible for the structure, the roof and the heating system."
ARABIC = "الإصلاحات: المالك مسؤول عن الهيكل والسقف ونظام التدفئة؛ المستأجر مسؤول عن الأضرار."


def test_a_bilingual_table_side_by_side_is_parallel_text():
    """A tester's DOCX tenancy notice (issue 46, round-3 finding 1): ``English | العربية`` over the same clauses."""
    grid = [["English", "العربية"], *[[f"{ENGLISH} Clause {k}.", ARABIC] for k in range(4)]]
    model = model_of(grid)
    assert is_parallel_text_table(model.grid, model.start, model.text_of)
    assert not is_layout_table(model.grid, model.start, model.text_of)  # flagged headers: the older rule stays out
    assert model.kind == "layout"


@pytest.mark.parametrize(
    "grid",
    [
        [["Term", "Meaning"], ["Lease", ARABIC], ["Rent", ARABIC]],  # one sentence a row: a glossary's records
        [["English", "العربية"], [ENGLISH, ARABIC], ["Deposit", "الوديعة"]],  # a row of two short cells
        [["Text"], [f"{ENGLISH} {ENGLISH}"], [f"{ARABIC} {ARABIC}"]],  # one column
        [["Clause", "Draft A", "Draft B"], ["1. Repairs", ENGLISH, ENGLISH.upper()]],  # a label names the drafts
    ],
)
def test_not_parallel_text(grid):
    """A sentence beside a short label is a record; every row holds sentences only, two or more; two columns."""
    model = model_of(grid)
    assert not is_parallel_text_table(model.grid, model.start, model.text_of)


def test_a_fin_table_is_data():
    grid = [["", "2019", "2018"], ["Revenue", "$614,493", "$668,580"], ["Cost", "1", "2"]]
    assert model_of(grid).kind == "data"


@pytest.mark.corpus
@pytest.mark.parametrize(
    ("name", "kinds"),
    [
        ("xlsx__xlsx_05_table_with_title.xlsx.json", {"#/tables/0": "title", "#/tables/1": "data"}),
        ("xbrl__mlac-20251231.xml.json", {"#/tables/1": "layout", "#/tables/14": "layout", "#/tables/0": "data"}),
    ],
)
def test_kinds_in_the_corpus(name, kinds):
    path = DOCLING / name
    if not path.is_file():
        pytest.skip(CORPUS_REASON)
    doc = load(path)
    found = {t.self_ref: read_table(t, doc).kind for t in doc.tables if t.self_ref in kinds}
    assert found == kinds
