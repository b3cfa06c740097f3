"""A form's title cell converted as a paragraph heads every piece of its table (issue 46, s4/tdocs2 finding 18).

docling's DOCX converter turns a form's one-cell title table (``FORM 7B — Vehicle
mileage log``) into a paragraph, nested under the section heading with the table
after it (and an empty paragraph between): the round-2 tester's
``docx_title_cell_apart``. As a paragraph it headed only the table's first piece, where
the same title as a real one-cell table (HTML, XLSX) heads every piece. The documents
here are built through docling-core's API in that shape.
"""

from __future__ import annotations

import pytest
from docling_core.types.doc import DocItemLabel, DoclingDocument, TableCell, TableData

import docchunk
from docchunk.chunkers.doc.lead_in_rules import is_title_line, title_paragraph_before
from tests.helpers import CORPUS, CORPUS_REASON, lost_texts

TITLE = "FORM 7B — Vehicle mileage log"
TRIPS = [["Date", "From", "To", "Miles"]] + [
    [f"2026-01-{d:02d}", town, "Ripon", str(10 + 7 * d)] for d, town in enumerate(["Leeds", "Hull", "York"] * 5, 1)
]


def form(before: list[str], nested: bool = True) -> DoclingDocument:
    """A heading ``Forms``, the paragraphs ``before``, an empty paragraph, then the trips table.

    ``nested``: the paragraphs and the table are children of the heading (docling's DOCX
    converter); else the heading's siblings (Markdown, HTML).
    """
    doc = DoclingDocument(name="form")
    heading = doc.add_heading("Forms", level=1)
    parent = heading if nested else None
    for text in [*before, ""]:
        doc.add_text(DocItemLabel.TEXT, text, parent=parent)
    cells = [
        TableCell(text=text, start_row_offset_idx=r, end_row_offset_idx=r + 1, start_col_offset_idx=c,
                  end_col_offset_idx=c + 1, column_header=r == 0)
        for r, row in enumerate(TRIPS) for c, text in enumerate(row)
    ]  # fmt: skip
    doc.add_table(data=TableData(num_rows=len(TRIPS), num_cols=4, table_cells=cells), parent=parent)
    return doc


@pytest.mark.parametrize(
    ("text", "title"),
    [
        (TITLE, True),
        ("Schedule of fees — effective 1 April 2026", True),  # the tester's docx_title_cell_units
        ("FORM 1: Declaration of goods shipped to warehouse 1", True),  # the round-1 tester's docx_title_cell
        ("下表列出了各个版本的价格：", False),  # a lead-in (a full-width colon ends it)
        ("राज्यवार बिक्री रिपोर्ट", True),  # an XLSX sheet's title line (the round-1 tester's xlsx_hindi)
        ("**Quarterly KPI report**", True),  # bold
        ("Fees are reviewed annually.", False),  # a sentence
        ("The trips are as follows:", False),  # a lead-in: it moves into the first piece
        ("Table 2: Hardness by alloy", False),  # a caption-style title line: a lead-in too
        ("Source: the fleet office", False),  # a note
        ("当社の業績は以下のとおりです。売上高は増加しました", False),  # CJK sentences
        ("to be filled in by the driver", False),  # lower-case: it goes on from something
        ("Name, address and date of birth", False),
        ("2026", False),
        (" ".join(["word"] * 21), False),  # longer than a title cell
    ],
)
def test_is_title_line(text, title):
    assert is_title_line(text) is title


@pytest.mark.parametrize("nested", [True, False], ids=["docx", "flat"])
def test_title_paragraph_before_fires_on_the_first_paragraph_under_the_heading(nested):
    doc = form([TITLE], nested=nested)
    assert title_paragraph_before(doc.tables[0], doc) is doc.texts[1]


@pytest.mark.parametrize(
    "before", [["Vehicle use is logged daily.", TITLE], ["The trips are as follows:"], []], ids=str
)
def test_title_paragraph_before_needs_a_title_alone_under_its_heading(before):
    """After another paragraph the line is not the first content under the heading; a lead-in is no title."""
    doc = form(before)
    assert title_paragraph_before(doc.tables[0], doc) is None


def test_title_paragraph_before_needs_a_heading():
    """A sheet's (or a document's) first line without a heading over it: not taken (``xlsx_hindi``, 1.35x)."""
    doc = DoclingDocument(name="sheet")
    sheet = doc.add_group(name="sheet: Sales")
    doc.add_text(DocItemLabel.TEXT, "Sales by state", parent=sheet)
    cells = [TableCell(text=t, start_row_offset_idx=0, end_row_offset_idx=1, start_col_offset_idx=c,
                       end_col_offset_idx=c + 1) for c, t in enumerate(["Kerala", "5"])]  # fmt: skip
    doc.add_table(data=TableData(num_rows=1, num_cols=2, table_cells=cells), parent=sheet)
    assert title_paragraph_before(doc.tables[0], doc) is None


@pytest.mark.parametrize(("tokenizer", "max_tokens"), [("minilm", 64), ("cl100k", 128), ("minilm", 256)])
@pytest.mark.parametrize("merge_peers", [True, False])
def test_a_title_paragraph_heads_every_piece_of_its_table(tokenizer, max_tokens, merge_peers, minilm_dir, cl100k):
    """The tester's repro: 6 later pieces at MiniLM 64, 2 at cl100k 128, 1 at MiniLM 256 lacked the title."""
    doc = form([TITLE])
    tok = docchunk.get_tokenizer(f"hf:{minilm_dir}" if tokenizer == "minilm" else cl100k)
    chunker = docchunk.HybridChunker(tokenizer=tok, max_tokens=max_tokens, merge_peers=merge_peers)
    chunks = list(chunker.chunk(doc))
    tables = [c for c in chunks if c.meta.table_rows is not None]
    assert len(tables) > 1, [c.text for c in chunks]  # the shape this test is about: a split table
    for chunk in tables:
        context = chunker.contextualize(chunk)
        assert context.count(TITLE) == 1, context  # once, directly before the rows
        assert context.split("\n")[1] == TITLE and context.split("\n")[2].startswith("2026-01-")
        assert chunk.meta.token_count <= max_tokens
    if merge_peers:  # the paragraph is content: in the first piece's text, with its item
        assert tables[0].text.startswith(TITLE + "\n") and doc.texts[1] in tables[0].meta.doc_items
    assert not lost_texts(doc, chunks)


def test_a_paragraph_that_is_not_alone_under_its_heading_heads_the_first_piece_only():
    """Another paragraph before it: the line may title a part of the section, not the table (the rule does not fire)."""
    doc = form(["Vehicle use is logged daily.", TITLE])
    chunker = docchunk.HybridChunker(max_tokens=64)
    tables = [c for c in chunker.chunk(doc) if c.meta.table_rows is not None]
    assert len(tables) > 1 and all(TITLE not in chunker.contextualize(c) for c in tables[1:])


CORPUS_TITLED = {  # the tables of ../shared/corpus the rule fires on: a paragraph alone under its heading
    ("docling/docx__docx_rich_cells.docx.json", "Before table"),
    ("docling/odf__text_document_03.odt.json", "Before table"),
    ("docling-core-tests/chunker/2_inp_dl_doc.json", "These are the trends"),
}


@pytest.mark.corpus
@pytest.mark.skipif(not CORPUS.is_dir(), reason=CORPUS_REASON)
def test_the_rule_fires_on_few_tables_of_the_corpus():
    """A narrow rule: 3 of the shared corpus's 88 tables (none of doc-qa's 770, see docs/quality.md)."""
    fired = set()
    for path in sorted(CORPUS.rglob("*.json")):
        try:
            doc = docchunk.load_document(path)
        except Exception:  # not a DoclingDocument (the corpus holds other JSON too)
            continue
        for table in doc.tables:
            title = title_paragraph_before(table, doc)
            if title is not None:
                fired.add((path.relative_to(CORPUS).as_posix(), title.text))
    assert fired == CORPUS_TITLED
