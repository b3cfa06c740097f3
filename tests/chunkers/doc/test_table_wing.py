"""Issue 46's table cases, rebuilt: what every piece of a split table carries, header blocks that restart."""

from __future__ import annotations

import pytest
from docling_core.transforms.chunker.hierarchical_chunker import ChunkingDocSerializer, ChunkingSerializerProvider
from docling_core.transforms.serializer.markdown import MarkdownTableSerializer

import docchunk
from docchunk.serialization.tables import table_rows
from tests.helpers import CORPUS, CORPUS_REASON, load, make_table

MINILM = docchunk.get_tokenizer()


def ten_q(rows: int = 40):
    """A 10-Q balance table: ``December 31,`` over the first of ``2025 | 2024`` (unmerged), then many rows."""
    grid = [["", "December 31,", ""], ["", "2025", "2024"]]
    grid += [[f"Account receivable line {k}", f"${k},{k:03d}", f"${k + 7},{k:03d}"] for k in range(rows)]
    return make_table(grid, header_rows=2)


@pytest.mark.parametrize("max_tokens", [64, 128, 256])
def test_every_piece_of_a_split_table_carries_its_table_wide_notes(max_tokens):
    """Issue 46: the later pieces of a 10-Q table lacked ``December 31,``; their values had no period.

    The note is written once on the first row (an unsplit table reads as before) and
    opens every later piece on a line of its own.
    """
    doc, table = ten_q()
    chunker = docchunk.HybridChunker(tokenizer=MINILM, max_tokens=max_tokens)
    chunks = [c for c in chunker.chunk(doc) if c.meta.table_rows is not None]
    assert len(chunks) > 1
    assert all("December 31," in c.text for c in chunks), [c.text[:60] for c in chunks if "December 31," not in c.text]
    assert all(chunk.meta.token_count <= max_tokens for chunk in chunks)
    lines = {line for c in chunks for line in c.text.split("\n")}
    rows = table_rows(table, doc)
    assert all(row.text in lines for row in rows.rows if row.cells)  # every row whole, none lost


def test_an_unsplit_table_writes_its_notes_once():
    doc, _ = ten_q(rows=3)
    chunks = list(docchunk.HybridChunker(tokenizer=MINILM, max_tokens=256).chunk(doc))
    text = "\n".join(c.text for c in chunks)
    assert text.count("December 31,") == 1


def test_a_header_block_that_restarts_gives_the_rows_below_their_own_headers():
    """Issue 46: a roll-forward's second block repeats its header row, unflagged; its values got the first's years."""
    grid = [
        ["", "2019", "2018"],
        ["Balance at beginning of year", "$10", "$8"],
        ["Additions", "3", "2"],
        ["Balance at end of year", "$13", "$10"],
        ["", "2018", "2017"],
        ["Balance at beginning of year", "$8", "$7"],
        ["Additions", "2", "1"],
    ]
    doc, table = make_table(grid)
    assert [row.text for row in table_rows(table, doc).rows] == [
        "Balance at beginning of year: 2019 = $10; 2018 = $8",
        "Additions: 2019 = 3; 2018 = 2",
        "Balance at end of year: 2019 = $13; 2018 = $10",
        "2018; 2017",
        "Balance at beginning of year: 2018 = $8; 2017 = $7",
        "Additions: 2018 = 2; 2017 = 1",
    ]


NAVIGATION = (
    "Home | About the society | Annual meetings and the programme of lectures | Membership and fees | "
    "Publications of the society and its members | Library and archive | Contact the secretary | Links"
)


def web_page_table(rows: int = 30):
    """An old web page laid out as one table: a long navigation cell beside every content row."""
    grid = [[NAVIGATION, f"Paragraph {k} of the page says what happened at meeting number {k}."] for k in range(rows)]
    return make_table(grid, header_rows=0, spans=[(0, 0, rows, 1)])


@pytest.mark.parametrize("max_tokens", [64, 256])
def test_a_layout_table_is_chunked_as_text_writing_its_navigation_cell_once(max_tokens):
    """Issue 46: a 491-character navigation cell was the row label of 290 of 297 chunks (3.6x compat's tokens)."""
    doc, _ = web_page_table()
    chunks = list(docchunk.HybridChunker(tokenizer=MINILM, max_tokens=max_tokens).chunk(doc))
    text = "\n".join(c.text for c in chunks)
    assert text.count("Contact the secretary") == 1
    assert all(f"meeting number {k}." in text for k in range(30))
    compat = list(docchunk.HybridChunker(tokenizer=MINILM, max_tokens=max_tokens, docling_compat=True).chunk(doc))
    ours, theirs = (sum(c.meta.token_count for c in cs) for cs in (chunks, compat))
    assert ours <= 1.3 * theirs, (ours, theirs)


def test_a_bullet_beside_its_paragraph_reads_as_the_paragraph():
    """An XBRL filing's risk factor laid out as ``●`` | paragraph: text, not ``●: paragraph``."""
    paragraph = " ".join(["The Company may not complete a business combination in time."] * 3)
    doc, table = make_table([["●", paragraph]], header_rows=0)
    assert [row.text for row in table_rows(table, doc).rows] == [f"● {paragraph}"]


def titled_tables():
    """An XLSX sheet (docling#2396): its title cell converted as a one-cell table, then the table it names."""
    doc, title = make_table([["Number of freshwater ducks per year"]])
    grid = [["Year", "Freshwater Ducks"]] + [[str(2000 + k), str(100 + k)] for k in range(25)]
    doc, table = make_table(grid, doc=doc)
    return doc, title, table


@pytest.mark.parametrize("max_tokens", [64, 256])
def test_a_one_cell_title_table_heads_the_table_it_names(max_tokens):
    """Issue 46: the title went to a chunk of its own; the chunk with the rows did not say which table it was."""
    doc, _, table = titled_tables()
    chunker = docchunk.HybridChunker(tokenizer=MINILM, max_tokens=max_tokens)
    chunks = list(chunker.chunk(doc))
    assert all(c.meta.table_rows is not None for c in chunks)  # no chunk of the title alone
    for chunk in chunks:
        context = chunker.contextualize(chunk)
        assert context.startswith("Number of freshwater ducks per year\n"), context[:80]
        assert chunk.meta.token_count <= max_tokens
    assert all(table.self_ref in {it.self_ref for it in c.meta.doc_items} for c in chunks)


@pytest.mark.parametrize("rows", [2, 40])
def test_a_caption_stands_directly_before_its_tables_rows_in_every_piece(rows):
    """Issue 46: after merge_peers, a table's caption stood above the unrelated paragraph merged before it."""
    from docling_core.types.doc import DocItemLabel, DoclingDocument

    doc = DoclingDocument(name="t")
    doc.add_heading("Results")
    doc.add_text(label=DocItemLabel.TEXT, text="The weather was fine all week and nobody complained about it.")
    grid = [["Region", "Units"]] + [[f"Region {k}", str(k)] for k in range(rows)]
    doc, _ = make_table(grid, doc=doc, caption="Table 1: units by region")
    chunker = docchunk.HybridChunker(tokenizer=MINILM, max_tokens=128)
    held = [chunker.contextualize(c) for c in chunker.chunk(doc) if c.meta.table_rows is not None]
    assert held
    for context in held:
        lines = context.split("\n")
        at = lines.index("Table 1: units by region")
        assert lines[at + 1].startswith("Region "), context
    if rows == 2:  # the paragraph still joins the small table's piece, before the caption
        assert "The weather was fine" in held[0].split("Table 1")[0]


class _UserMarkdownTables(ChunkingSerializerProvider):
    """A user's provider: docling-core's ``MarkdownTableSerializer`` for tables (docling-core#535's setting)."""

    def get_serializer(self, doc):
        return ChunkingDocSerializer(doc=doc, table_serializer=MarkdownTableSerializer())


def wide_table(cols: int = 12, rows: int = 8):
    grid = [["Name"] + [f"Metric number {j}" for j in range(cols)]]
    grid += [[f"Row item {k}"] + [f"{k * j}.{j} units" for j in range(cols)] for k in range(rows)]
    return grid, *make_table(grid, header_rows=1)


@pytest.mark.parametrize("max_tokens", [64, 256])
def test_regression_a_users_markdown_table_serializer_split_a_wide_table_by_columns(max_tokens):
    """Issue 46 (docling-core#535): with a user's Markdown table serializer, the default mode split a
    wide table into sub-tables of columns, so each value stood apart from its row's label.

    Now whole rows under the repeated header where a row fits; a row too large is split
    within the row, each piece a sub-table of the label column and the next columns with
    their header cells, flagged in ``meta.table_cols``.
    """
    grid, doc, _ = wide_table()
    chunker = docchunk.HybridChunker(tokenizer=MINILM, max_tokens=max_tokens, serializer_provider=_UserMarkdownTables())
    chunks = list(chunker.chunk(doc))
    labels = {row[0] for row in grid[1:]}
    header_of = dict(zip(grid[0], range(len(grid[0])), strict=True))
    seen: set[tuple[str, str]] = set()
    for chunk in chunks:
        assert chunk.meta.token_count <= max_tokens
        lines = [[c.strip() for c in line.strip("|").split("|")] for line in chunk.text.strip().split("\n")]
        head, body = lines[0], lines[2:]
        assert head[0] == "Name" and body, chunk.text  # every piece repeats the header over its rows
        for cells in body:
            assert cells[0] in labels, chunk.text  # every value beside its row's label
            assert len(cells) == len(head)
            seen.update((cells[0], v) for v in cells[1:])
            row = next(r for r in grid[1:] if r[0] == cells[0])
            assert all(row[header_of[h]] == v for h, v in zip(head, cells, strict=True))  # under its own header
        if chunk.meta.table_cols is not None:  # a row split within: the label column and some others
            assert len(body) == 1 and chunk.meta.table_cols[0][1] == 0
    assert seen == {(row[0], v) for row in grid[1:] for v in row[1:]}  # no value lost
    whole = max_tokens == 256  # a whole row fits beside the header: no row split
    assert all(c.meta.table_cols is None for c in chunks) == whole


LONG_PERIOD = (
    "Three months ended on the last day of the quarter of the fiscal year of the company and of all of its"
    " consolidated subsidiaries and joint ventures in every market where it operates, as restated, December 31,"
)


def _context_dropped_cases():
    """``(case, doc, table_format, max_tokens, what the later pieces lack)``: each context too large beside a row."""
    notes_grid = [["", LONG_PERIOD, ""], ["", "2025", "2024"]] + [
        [f"Receivable {k}", f"${k}", f"${k + 7}"] for k in range(30)
    ]
    notes = make_table(notes_grid, header_rows=2)[0]
    caption = make_table(  # labels without their header: ``Region 0 (Area): Units = 0``, rows too large beside it
        [["Area", "Units"]] + [[f"Region {k}", str(k)] for k in range(30)],
        caption="Table 1: " + " ".join(f"cap{k}" for k in range(30)),
    )[0]
    wide = [[f"Column header number {j}" for j in range(8)]] + [[str(k * j) for j in range(8)] for k in range(30)]
    headers = make_table(wide, header_rows=1)[0]
    return [
        ("notes", notes, "records", 52, ["notes"]),
        ("caption", caption, "records", 64, ["caption"]),
        ("headers", headers, "markdown", 64, ["headers"]),
    ]


@pytest.mark.parametrize(("case", "doc", "table_format", "max_tokens", "lacked"), _context_dropped_cases())
def test_meta_says_when_a_tables_context_does_not_fit_beside_its_rows(case, doc, table_format, max_tokens, lacked):
    """Issue 46: a piece of a split table lacking the caption, the header lines or the table-wide
    notes (each too large beside a row) did not say so; ``meta.table_context_dropped`` names them."""
    chunker = docchunk.HybridChunker(tokenizer=MINILM, max_tokens=max_tokens, table_format=table_format)
    chunks = [c for c in chunker.chunk(doc) if c.meta.table_rows is not None]
    flagged = [c for c in chunks if c.meta.table_context_dropped]
    assert len(flagged) >= 4
    for chunk in flagged:
        assert chunk.meta.table_context_dropped == lacked
        context = chunker.contextualize(chunk)
        if case == "notes":
            assert "December 31," not in context
        elif case == "caption":
            assert "Table 1" not in context and chunk.meta.captions is None
        else:
            assert "Column header number" not in context
    for chunk in chunks:  # a piece that carries its context is not flagged
        if not chunk.meta.table_context_dropped and case == "notes" and chunk.meta.table_rows[0] > 2:
            assert "December 31," in chunk.text


def test_meta_names_no_dropped_context_when_every_piece_carries_it():
    doc, _ = ten_q()
    chunks = list(docchunk.HybridChunker(tokenizer=MINILM, max_tokens=64).chunk(doc))
    assert len(chunks) > 1 and all(c.meta.table_context_dropped is None for c in chunks)


@pytest.mark.parametrize("max_tokens", [64, 256])
def test_regression_a_sheet_named_after_its_one_row_was_written_twice(max_tokens):
    """Issue 46: ``xlsx__xlsx_emf`` (three sheets, each a one-row table named after its row's
    label) gave each chunk the sheet name as a heading and again as the record's label,
    1.56 times compat's tokens. The name is written once, in the text."""
    from docling_core.types.doc import GroupItem

    path = CORPUS / "docling" / "xlsx__xlsx_emf.xlsx.json"
    if not path.exists():
        pytest.skip(CORPUS_REASON)
    doc = load(path)
    chunker = docchunk.HybridChunker(tokenizer=MINILM, max_tokens=max_tokens)
    chunks = list(chunker.chunk(doc))
    compat = list(docchunk.HybridChunker(tokenizer=MINILM, max_tokens=max_tokens, docling_compat=True).chunk(doc))
    assert sum(c.meta.token_count for c in chunks) <= 1.3 * sum(c.meta.token_count for c in compat)
    sheets = [g.name for g in doc.groups if isinstance(g, GroupItem) and g.label == "sheet"]
    assert len(sheets) == 3
    for name, table in zip(sheets, doc.tables, strict=True):
        (chunk,) = [c for c in chunks if table.self_ref in {it.self_ref for it in c.meta.doc_items}]
        context = chunker.contextualize(chunk)
        assert context.count(name) == 1 and chunk.text.startswith(name + " (Name): Objective = "), context
