"""Small tables within 1.3 times compat's tokens: a record's label does not repeat its column's header (issue 46).

A tester's second round of new documents (s4/tdocs2 finding 3): ``xlsx_gaps``, an XLSX
inventory sheet docling cut into two-column blocks, was 1.37x compat's tokens at MiniLM
256 (``SKU-0005 (SKU): Item = Washer`` on every row); ``html_one_table``, one ``Key |
Value`` table, 1.36x (``host (Key): Value = db.internal``). Issue 46's ceiling is 1.3x.
The tables are built through docling-core's API in the shapes docling converted them to.
"""

from __future__ import annotations

import pytest
from docling_core.types.doc import DoclingDocument

import docchunk
from docchunk.serialization.tables import table_rows
from docchunk.serialization.tables.records import label_holds_corner
from tests.helpers import make_table

ITEMS = ["Washer", "Bolt M8", "Bracket"] * 3
INVENTORY = [["SKU", "Item"], *[[f"SKU-{i:04d}", item] for i, item in enumerate(ITEMS, 5)]]
QUANTITIES = [["Qty", "Location"], *[[str(q), f"Aisle {q % 9 + 1}"] for q in (255, 234, 282, 161, 147, 288, 55, 34)]]
KEY_VALUE = [["Key", "Value"], ["host", "db.internal"], ["port", "5432"]]


def _sku_block(first: int, items: str) -> list[list[str]]:
    return [[f"SKU-{i:04d}", item] for i, item in enumerate(items.split(", "), first)]


def _qty_block(quantities: str, aisles: str) -> list[list[str]]:
    return [[q, f"Aisle {a}"] for q, a in zip(quantities.split(), aisles.split(), strict=True)]


XLSX_GAPS = [  # the tester's sheet as docling converted it: blocks apart, each one table, the first row flagged
    [["Warehouse stock"]],
    [["SKU", "Item"], *_sku_block(5, "Washer, Bolt M8, Bracket, Washer, Hinge, Bolt M8, Bracket, Bracket, Bolt M8")],
    [["Qty", "Location"], *_qty_block("255 234 282 161 147 288 55 34 109", "1 5 2 4 1 2 5 1 4")],
    _sku_block(15, "Bolt M8, Bracket, Hinge, Washer, Washer, Bracket, Nut M8, Bolt M8, Bracket, Nut M8"),
    _qty_block("240 214 322 172 170 388 126 30 90 229", "7 2 4 2 1 2 2 8 9 9"),
    [["Stock counted on 30 June 2025 by J. Smith."]],
]


def _sheet(grids: list[list[list[str]]]):
    doc = DoclingDocument(name="xlsx_gaps")
    for grid in grids:
        doc, _ = make_table(grid, doc=doc)
    return doc


def test_a_label_that_holds_its_columns_header_is_not_followed_by_it():
    """``SKU-0005`` under ``SKU``: the label carries the header; ``(SKU)`` after it said it again."""
    doc, table = make_table(INVENTORY)
    rows = table_rows(table, doc)
    assert [row.text for row in rows.rows[:2]] == ["SKU-0005: Item = Washer", "SKU-0006: Item = Bolt M8"]
    assert rows.notes == ""  # the header is read in the labels: not written apart as one no record names


@pytest.mark.parametrize(
    ("label", "corner", "holds"),
    [
        ("SKU-0005", "SKU", True),
        ("Region 11", "Region", True),
        ("model 1", "Model", True),  # whatever the case
        ("Europe / Region 2", "Region", True),  # a section's label before it
        ("Regional office", "Region", False),  # a word of its own only
        ("Subregion 2", "Region", False),
        ("Segment 0", "Division", False),
        ("Q1 2026", "Quarter / Year", False),
    ],
)
def test_label_holds_corner_rule(label, corner, holds):
    assert label_holds_corner(label, corner) is holds


def test_a_units_note_over_the_labels_follows_each_label_that_does_not_hold_it():
    """``(in millions)`` over the labels follows a label as it is (``Costs (in millions)``), once."""
    doc, table = make_table([["(in millions)", "2026"], ["Revenue (in millions)", "5"], ["Costs", "3"]])
    assert [row.text for row in table_rows(table, doc).rows] == [
        "Revenue (in millions): 2026 = 5",
        "Costs (in millions): 2026 = 3",
    ]


def test_a_number_label_keeps_its_columns_header():
    """``255`` under ``Qty``: the header is what the number means, on every record."""
    doc, table = make_table(QUANTITIES)
    assert table_rows(table, doc).rows[0].text == "255 (Qty): Location = Aisle 4"


def test_a_key_column_header_is_written_once():
    """``host`` under ``Key``: a record's label is its row's key; ``Key`` is written once, on the first label."""
    doc, table = make_table(KEY_VALUE)
    texts = [row.text for row in table_rows(table, doc).rows]
    assert texts == ["host (Key): Value = db.internal", "port: Value = 5432"]


@pytest.mark.parametrize("grids", [[INVENTORY], [KEY_VALUE], XLSX_GAPS], ids=["inventory", "key_value", "xlsx_gaps"])
@pytest.mark.parametrize("max_tokens", [64, 256])
def test_a_small_table_is_within_1_3_times_compats_tokens(minilm_dir, grids, max_tokens):
    """Differential, docling-core's chunker (compat mode) against the default, MiniLM, same content.

    ``xlsx_gaps`` was 1.31x / 1.37x at 64 / 256 with ``(SKU)`` after every ``SKU-00nn``.
    """
    doc = _sheet(grids)
    tok = docchunk.get_tokenizer(f"hf:{minilm_dir}", max_tokens=max_tokens)
    counts = []
    for compat in (False, True):
        chunker = docchunk.HybridChunker(tokenizer=tok, max_tokens=max_tokens, docling_compat=compat)
        counts.append(sum(tok.count_tokens(chunker.contextualize(c)) for c in chunker.chunk(doc)))
    ours, theirs = counts
    assert ours <= 1.3 * theirs, (ours, theirs, ours / theirs)
