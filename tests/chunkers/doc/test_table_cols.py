"""``meta.table_cols`` (issue 28): which grid columns of a table row split between chunks each chunk holds.

Invariants, on generated tables whose rows exceed the budget but whose entries fit it
(hypothesis, all-MiniLM-L6-v2's tokenizer, every row form):

- every column listed by a chunk holds a cell whose text (whitespace collapsed) is in
  the chunk's text;
- the columns of a split row with text are listed by exactly one of the row's chunks,
  except its label columns (records and triplets repeat the label in every piece),
  which every chunk of the row lists;
- a chunk that lists a row lists every row it holds.
"""

from __future__ import annotations

import json
from collections import defaultdict

import pytest
from docling_core.types.doc import DocItemLabel, DoclingDocument
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import docchunk
from tests.chunkers.doc.test_table_chunks import corpus_table_docs
from tests.helpers import check_tables, collapse, load, make_table

WORDS = ["alpha", "beta", "gamma", "delta", "12", "3.5", "net", "sales", "東京", "naïve"]
WORD_TEXT = st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join)


@st.composite
def wide_tables(draw):
    """A document with one wide table (8-16 columns of short cells, some empty, some merged)."""
    n_rows, n_cols = draw(st.integers(2, 4)), draw(st.integers(8, 16))
    grid: list[list[str | None]] = [
        [draw(st.one_of(st.just(""), WORD_TEXT)) for _ in range(n_cols)] for _ in range(n_rows)
    ]
    spans = []
    for r in range(1, n_rows):  # horizontal merges of value columns, one per body row at most
        if draw(st.booleans()):
            c = draw(st.integers(1, n_cols - 2))
            width = draw(st.integers(2, min(3, n_cols - c)))
            spans.append((r, c, 1, width))
            for j in range(c + 1, c + width):
                grid[r][j] = None
    doc = DoclingDocument(name="wide")
    if draw(st.booleans()):
        doc.add_text(label=DocItemLabel.TEXT, text="The table below lists the measures.")
    make_table(grid, 1, draw(st.integers(0, 1)), spans, doc=doc)
    return doc


class _NoTable:  # a chunk of another table or of text: lists no columns of the checked table
    meta = type("meta", (), {"table_cols": None})()
    text = ""


_NO_TABLE = _NoTable()


def _subsequence(short: str, long: str) -> bool:
    it = iter(long)
    return all(ch in it for ch in short)


def table_cols_faults(doc, chunks, label_cols: tuple[int, ...], text_splits: bool = False, table=None) -> list[str]:
    """What breaks the ``table_cols`` invariants (empty when none); ``label_cols``: the columns every piece repeats.

    ``table`` (default: the document's first) is the table checked: only the chunks
    holding it are read.

    With ``text_splits``, a cell whose text is whole in none of the chunks listing it
    may be listed by several (a cell split by text): its characters must then be, in
    order, in theirs.
    """
    table = doc.tables[0] if table is None else table
    grid = table.data.grid
    chunks = [c if any(it.self_ref == table.self_ref for it in c.meta.doc_items) else _NO_TABLE for c in chunks]
    faults: list[str] = []
    listed: dict[int, list[tuple[int, set[int]]]] = defaultdict(list)  # row -> (chunk, columns)
    split: set[tuple[int, int]] = set()  # cells whose text some chunk listing them holds in part
    for k, chunk in enumerate(chunks):
        cols = chunk.meta.table_cols
        if cols is None:
            continue
        body = collapse(chunk.text)
        rows: dict[int, set[int]] = defaultdict(set)
        for row, start, end in cols:
            if not 0 <= start < end <= len(grid[row]):
                faults.append(f"chunk {k}: range {(row, start, end)} outside the grid")
                continue
            rows[row].update(range(start, end))
            for col in range(start, end):
                text = collapse(grid[row][col].text)
                if text and text not in body:
                    if text_splits:
                        split.add((row, col))
                    else:
                        faults.append(f"chunk {k}: cell {(row, col)} {text!r} not in its text")
        held = set(range(*chunk.meta.table_rows))
        if not set(rows) <= held:
            faults.append(f"chunk {k}: rows {sorted(rows)} outside table_rows {chunk.meta.table_rows}")
        for row, columns in rows.items():
            listed[row].append((k, columns))
    for row, entries in listed.items():
        with_text = {c for c, cell in enumerate(grid[row]) if collapse(cell.text)}
        for col in sorted(with_text):
            holders = [k for k, columns in entries if col in columns]
            if (row, col) in split:
                joined = "".join(collapse(chunks[k].text) for k in holders).replace(" ", "")
                if len(holders) < 2 or not _subsequence(collapse(grid[row][col].text).replace(" ", ""), joined):
                    faults.append(f"row {row}: column {col}, split by text, not spread over chunks {holders}")
            elif col in label_cols and len(entries) > 1:
                if len(holders) != len(entries):
                    faults.append(f"row {row}: label column {col} in chunks {holders}, not in all of {entries}")
            elif len(holders) != 1:
                faults.append(f"row {row}: column {col} listed by chunks {holders}, not exactly once")
    return faults


@pytest.mark.parametrize("table_format", ["records", "triplets", "markdown"])
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(doc=wide_tables(), max_tokens=st.sampled_from([32, 48, 64]), merge_peers=st.booleans(),
       min_tokens=st.sampled_from([None, 24]))  # fmt: skip
def test_table_cols_of_split_rows_on_generated_tables(table_format, doc, max_tokens, merge_peers, min_tokens):
    chunker = docchunk.HybridChunker(
        max_tokens=max_tokens, merge_peers=merge_peers, min_tokens=min_tokens, table_format=table_format
    )
    chunks = list(chunker.chunk(doc))
    if table_format == "records":  # check_tables reads the rows in the default form
        check_tables(chunker, doc, chunks)
    label_cols = () if table_format == "markdown" else (0,)
    assert not table_cols_faults(doc, chunks, label_cols)


def measures_table(rows=(1, 2), extra: str | None = None) -> DoclingDocument:
    header = ["Item"] + [f"Measure {k}" for k in range(1, 29)]
    body = [[f"Sample {r}"] + [f"{r}{k}.5 units" for k in range(1, 29)] for r in rows]
    if extra is not None:
        body[0][5] = extra
    doc, _ = make_table([header, *body])
    return doc


@pytest.mark.parametrize("table_format", ["records", "triplets", "markdown"])
def test_a_split_row_lists_its_value_columns_once_and_its_label_in_every_piece(table_format):
    doc = measures_table()
    chunker = docchunk.HybridChunker(max_tokens=120, table_format=table_format)
    chunks = list(chunker.chunk(doc))
    split = [c for c in chunks if c.meta.table_cols]
    assert len(split) >= 4, [c.meta.table_cols for c in chunks]
    label_cols = () if table_format == "markdown" else (0,)
    assert not table_cols_faults(doc, chunks, label_cols)
    first = [c.meta.table_cols for c in split if c.meta.table_rows == (1, 2)]
    assert first[0][0][:2] == (1, 0) and first[-1][-1][2] == 29, first


def test_a_cell_larger_than_the_budget_is_listed_by_each_of_its_fragments():
    long = " ".join(["gamma delta"] * 60)
    doc = measures_table(rows=(1,), extra=long)
    chunks = list(docchunk.HybridChunker(max_tokens=64).chunk(doc))
    holders = [c for c in chunks if c.meta.table_cols and any(s <= 5 < e for _, s, e in c.meta.table_cols)]
    assert len(holders) > 1
    assert collapse(long) in collapse(" ".join(c.text.split(" = ", 1)[-1] for c in holders))
    assert not table_cols_faults(doc, chunks, (0,), text_splits=True)


def test_a_split_row_merged_with_the_next_rows_lists_them_whole():
    """``min_tokens`` merges the last piece of a split row with the next row: the merged chunk lists both."""
    header = ["Item"] + [f"Measure {k}" for k in range(1, 16)]
    grid = [header, ["Sample 1"] + [f"1{k}.5 units" for k in range(1, 16)], ["Sample 2", "7", *[""] * 14]]
    doc, _ = make_table(grid)
    chunker = docchunk.HybridChunker(max_tokens=64, min_tokens=32)
    chunks = list(chunker.chunk(doc))
    check_tables(chunker, doc, chunks)
    merged = [c for c in chunks if c.meta.table_cols and any(row == 2 for row, _, _ in c.meta.table_cols)]
    assert len(merged) == 1 and (2, 0, 16) in merged[0].meta.table_cols, [c.meta.table_cols for c in chunks]
    assert not table_cols_faults(doc, chunks, (0,))


def test_a_row_split_again_for_a_lead_in_sentence_gave_each_new_piece_the_columns_of_the_first():
    # the lead-in sentence goes as context of the first row's first piece, packed again to leave it
    # room: the two new pieces each listed all the columns of the piece they came from (9-11 twice)
    body = ["alpha alpha", "alpha alpha alpha", *[""] * 7, "alpha alpha", "alpha", "alpha 3.5", "alpha alpha alpha",
            "", "alpha"]  # fmt: skip
    doc = DoclingDocument(name="lead-in")
    doc.add_text(label=DocItemLabel.TEXT, text="The table below lists the measures.")
    make_table([[""] * 13 + ["alpha", "alpha"], body], doc=doc)
    chunks = list(docchunk.HybridChunker(max_tokens=32, merge_peers=False, table_format="triplets").chunk(doc))
    row_pieces = [c for c in chunks if c.meta.table_rows == (1, 2)]
    # the paragraph is that sentence: it moves into the first piece's text (issue 46 finding 1), not its captions
    assert len(row_pieces) == 3 and row_pieces[0].text.startswith("The table below")
    assert not table_cols_faults(doc, chunks, (0,))


def test_a_markdown_head_fragment_merged_with_a_piece_of_a_split_row_listed_the_whole_row():
    # at 32 tokens the Markdown head is cut into pieces of row 1's range without table_cols; min_tokens
    # merged the last ("|") with the row's first piece, and joined_cols read it as holding row 1 whole
    grid = [[""] * 16 for _ in range(4)]
    cells = [(0, 6, "3.5 3.5"), (0, 9, "alpha alpha"), (0, 10, "alpha alpha alpha"), (0, 13, "alpha alpha alpha"),
             (1, 1, "alpha alpha"), (1, 2, "alpha alpha 3.5"), (1, 5, "alpha alpha"), (1, 6, "3.5"),
             (1, 7, "alpha alpha alpha"), (1, 9, "alpha alpha"), (1, 11, "alpha alpha alpha"),
             (1, 12, "alpha 東京 3.5"), (3, 12, "alpha"), (3, 14, "beta alpha 12")]  # fmt: skip
    for r, c, text in cells:
        grid[r][c] = text
    doc, _ = make_table(grid)
    for min_tokens in (None, 24):
        chunker = docchunk.HybridChunker(
            max_tokens=32, merge_peers=False, min_tokens=min_tokens, table_format="markdown"
        )
        chunks = list(chunker.chunk(doc))
        assert sum(1 for c in chunks if c.meta.table_cols) == 2
        assert not table_cols_faults(doc, chunks, ())


def test_export_rows_and_integrations_carry_table_cols():
    from docchunk.batch.rows import chunk_rows
    from docchunk.serialization.rows import chunk_metadata

    doc = measures_table(rows=(1,))
    chunker = docchunk.HybridChunker(max_tokens=120)
    chunks = list(chunker.chunk(doc))
    cols = [c.meta.table_cols for c in chunks]
    assert all(cols)
    assert [c.export_json_dict()["meta"]["table_cols"] for c in chunks] == [[list(r) for r in c] for c in cols]
    rows = chunk_rows(chunker, "x", doc)
    assert [r["meta"]["table_cols"] for r in rows] == [[list(r) for r in c] for c in cols]
    flat = chunk_metadata(chunks[0], "x", 0)["table_cols"]
    assert flat == [f"{r}:{s}:{e}" for r, s, e in cols[0]]
    pytest.importorskip("llama_index.core", reason='needs pip install ".[llama-index]"')
    from docchunk.integrations.llama_index import embedded_nodes

    node = embedded_nodes([{**rows[0], "embedding": [0.0, 1.0]}])[0]
    assert node.metadata["table_cols"] == json.dumps(flat) and "table_cols" in node.excluded_embed_metadata_keys


def label_columns(table) -> tuple[int, ...]:
    """The label columns of ``table`` by the rule of ``table_rows``: flagged row headers, else column 0.

    A layout table (cells as page layout, written as text) has none: no cell labels the others.
    """
    from docchunk.serialization.tables import read_table

    model = read_table(table)
    return tuple(range(model.label_cols)) if model.kind != "layout" else ()


@pytest.mark.slow
@pytest.mark.parametrize("path", corpus_table_docs())
def test_table_cols_on_the_corpus(path):
    doc = load(path)
    chunks = list(docchunk.HybridChunker(max_tokens=64).chunk(doc))
    for table in doc.tables:
        assert not table_cols_faults(doc, chunks, label_columns(table), text_splits=True, table=table)
