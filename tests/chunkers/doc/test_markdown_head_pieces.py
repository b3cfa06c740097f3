"""``table_format="markdown"``: a head too large to stand beside a row (issue 46; s4/tdocs2 findings 15 and 21).

A 16-column table at MiniLM 64, as the tester's ``docx_wide_table`` and ``xlsx_wide``
converted: the head (header line and delimiter line) leaves no room for a row, so it is
a piece of its own.
"""

from __future__ import annotations

import itertools
import re

import docchunk
from docchunk.chunkers.doc.tables.pack import table_pieces
from docchunk.serialization.tables import table_rows
from docchunk.tokenizers import Sizer
from tests.helpers import make_table

MINILM = docchunk.get_tokenizer()
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
DASHES = re.compile(r"[|\-\s]+")


def wide_table():
    header = ["Region", *MONTHS, "Q-avg", "FY", "YoY %"]
    rows = [[f"Region {k}", *(str(1000 + 37 * k + j) for j in range(15))] for k in range(8)]
    return make_table([header, *rows])


def test_a_head_alone_has_no_delimiter_line():
    doc, table = wide_table()
    rows = table_rows(table, doc, table_format="markdown")
    assert rows.head.endswith("| --- |") and "---" not in rows.head_alone
    assert rows.head_alone == rows.head.split("\n")[0]


def test_no_piece_is_only_dashes_and_the_head_piece_claims_no_body_row():
    """Finding 15: the delimiter line, cut to the budget, made pieces of nothing but dashes;
    finding 21: the head's piece claimed the first piece's rows (``(1, 2)``), so two chunks claimed them."""
    doc, table = wide_table()
    chunker = docchunk.HybridChunker(tokenizer=MINILM, max_tokens=64, table_format="markdown")
    chunks = [c for c in chunker.chunk(doc) if c.meta.table_rows is not None]
    assert not [c.text for c in chunks if DASHES.fullmatch(c.text.strip())]
    head = [c for c in chunks if "| Region | Jan |" in c.text]
    assert head and all(c.meta.table_rows == (1, 1) for c in head)
    assert head[0].meta.table_context_dropped is None  # the head's own piece lacks nothing
    held = [c.meta.table_rows for c in chunks if c.meta.table_rows[0] < c.meta.table_rows[1]]
    assert all(b[0] >= a[1] for a, b in itertools.pairwise(held)), held  # no row claimed twice
    rows = table_rows(table, doc, table_format="markdown")
    pieces = table_pieces(rows, 60, Sizer(MINILM))
    assert pieces[0].rows == (rows.start, rows.start) and pieces[1].rows[0] == rows.start
