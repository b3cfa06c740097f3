"""balance_tables: the last two pieces of a table split by rows are evened out (issue 28)."""

from __future__ import annotations

import itertools

import pytest
from docling_core.types.doc import DocItemLabel

import docchunk
from tests.helpers import check_tables, load, make_table, shipped_docs

GRID = [["Year", "Award", "Result"]] + [[str(2000 + i), f"Award number {i} for best work", "Won"] for i in range(10)]


def _table_chunks(chunks):
    return [c for c in chunks if c.meta.table_rows is not None]


def _lone_last_row_budget(table_format: str = "records") -> int:
    """A budget (MiniLM tokens) at which greedy packing leaves the table's last row alone."""
    doc, _ = make_table(GRID)
    for max_tokens in range(40, 200):
        chunks = _table_chunks(docchunk.HybridChunker(max_tokens=max_tokens, table_format=table_format,
                                                      balance_tables=False).chunk(doc))  # fmt: skip
        lo, hi = chunks[-1].meta.table_rows
        if len(chunks) >= 2 and hi - lo == 1:
            return max_tokens
    raise AssertionError("no budget leaves one row alone")


@pytest.mark.parametrize("table_format", ["records", "triplets"])
def test_the_last_piece_is_not_a_lone_row(table_format):
    max_tokens = _lone_last_row_budget(table_format)
    doc, _ = make_table(GRID)
    greedy = list(docchunk.HybridChunker(max_tokens=max_tokens, table_format=table_format,
                                         balance_tables=False).chunk(doc))  # fmt: skip
    chunker = docchunk.HybridChunker(max_tokens=max_tokens, table_format=table_format, balance_tables=True)
    even = list(chunker.chunk(doc))
    assert len(even) == len(greedy)
    lo, hi = _table_chunks(even)[-1].meta.table_rows
    assert hi - lo >= 2  # fails with greedy packing: one row
    # the rows only moved between the last two pieces: same rows, same order, same text
    assert "\n".join(c.text for c in even) == "\n".join(c.text for c in greedy)
    ranges = [c.meta.table_rows for c in _table_chunks(even)]
    assert ranges[0][0] == 1 and ranges[-1][1] == len(GRID)
    assert all(a[1] == b[0] for a, b in itertools.pairwise(ranges))
    sizes = [chunker.token_counter.count_tokens(chunker.contextualize(c)) for c in even]
    assert all(s <= max_tokens for s in sizes)
    assert sizes[-1] <= sizes[-2]  # the last piece stays no larger than the one before
    if table_format == "records":  # check_tables reads the rows in the default (record) form
        check_tables(chunker, doc, even)


def test_markdown_pieces_are_left_as_they_are():
    max_tokens = 80
    doc, _ = make_table(GRID)
    chunkers = [docchunk.HybridChunker(max_tokens=max_tokens, table_format="markdown", balance_tables=flag)
                for flag in (False, True)]  # fmt: skip
    texts = [[c.text for c in chunker.chunk(doc)] for chunker in chunkers]
    assert texts[0] == texts[1]


def test_a_lead_in_stays_first_and_its_spans_hold():
    doc, _ = make_table(GRID)
    # a lead-in before the table goes into the table's first piece
    lead = doc.add_text(label=DocItemLabel.TEXT, text="The following table shows the awards:")
    doc.body.children.insert(0, doc.body.children.pop())  # the lead-in before the table
    assert lead.self_ref == doc.body.children[0].cref
    for max_tokens in range(60, 200, 12):
        chunker = docchunk.HybridChunker(max_tokens=max_tokens, balance_tables=True)
        chunks = list(chunker.chunk(doc))
        first = _table_chunks(chunks)[0]
        if lead.text in first.text:
            assert first.text.startswith(lead.text)
        for c in chunks:
            for s in c.meta.spans:
                item = next(t for t in doc.texts if t.self_ref == s.ref)
                assert item.text[s.start:s.end] in c.text
        check_tables(chunker, doc, chunks)


@pytest.mark.parametrize("path", shipped_docs()[:12], ids=lambda p: p.name)
def test_shipped_documents_keep_every_row(path):
    doc = load(path)
    for max_tokens in (64, 256):
        greedy = list(docchunk.HybridChunker(max_tokens=max_tokens, balance_tables=False).chunk(doc))
        chunker = docchunk.HybridChunker(max_tokens=max_tokens, balance_tables=True)
        even = list(chunker.chunk(doc))
        assert len(even) == len(greedy)
        assert [" ".join(c.text.split()) for c in even if c.meta.table_rows is None] == [
            " ".join(c.text.split()) for c in greedy if c.meta.table_rows is None]  # fmt: skip
        assert "".join("".join(c.text.split()) for c in even) == "".join("".join(c.text.split()) for c in greedy)
        for c in even:
            assert c.meta.oversized or chunker.token_counter.count_tokens(chunker.contextualize(c)) <= max_tokens


def test_section_rows_move_with_the_boundary():
    """Records: a section row has no line of its own (its label prefixes the rows below); ranges follow the lines."""
    from docchunk.serialization.tables import table_rows

    grid = [["Segment", "2019", "2018"]]
    for section in ("Transportation", "Industrial", "Communications"):
        grid.append([section, "", ""])
        grid += [[f"{section} product {i}", f"{i},1{i}9", f"{i},0{i}8"] for i in range(4)]
    doc, table = make_table(grid)
    lines = {r.index: r.text for r in table_rows(table, doc).rows if r.cells}
    moved = False
    for max_tokens in range(60, 160, 8):
        greedy = list(docchunk.HybridChunker(max_tokens=max_tokens, balance_tables=False).chunk(doc))
        chunker = docchunk.HybridChunker(max_tokens=max_tokens, balance_tables=True)
        even = list(chunker.chunk(doc))
        moved |= [c.meta.table_rows for c in even] != [c.meta.table_rows for c in greedy]
        for c in _table_chunks(even):
            lo, hi = c.meta.table_rows
            assert c.text == "\n".join(lines[r] for r in range(lo, hi) if r in lines)
        check_tables(chunker, doc, even)
    assert moved
