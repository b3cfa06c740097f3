"""Regression: a layout table's rich cells were written flat by the layout writer (issue 46 findings 7, 8, 13).

A tester's CMS pages laid out as one table, built here through docling-core's API: a
navigation cell holding a nested list, a content cell holding a title, paragraphs and
section headings, a logo cell holding a captioned picture, and a plain footer cell. The
layout writer wrote each cell's paragraphs one a line: the nested list flat (``- Services``
/ ``- Audit``), the headings as plain lines (a piece could end with ``Contact`` while its
body opened the next piece, under no heading), and the picture's caption again after the
footer (the picture was written, its caption item counted as an orphan). The cells are now
walked as content, where they stand.
"""

from __future__ import annotations

import pytest
from docling_core.types.doc import (
    DocItemLabel,
    DoclingDocument,
    GroupLabel,
    RichTableCell,
    TableCell,
    TableData,
    TableItem,
)

import docchunk
from docchunk.serialization.tables import read_table
from tests.helpers import bench_script, lost_texts, span_faults
from tests.test_bench_structure_kept import _bench

BODY = "We advise owner-managed businesses on corporation tax, VAT and payroll, and we file returns on time."
CAPTION = "Riverside Chess Club"
FOOTER = "Last updated 2 March 2004. Best viewed in Netscape Navigator 4 at 800x600."


def _cell(doc: DoclingDocument, table: TableItem, col: int, text: str) -> object:
    group = doc.add_group(label=GroupLabel.UNSPECIFIED, name=f"cell {col}", parent=table)
    cell = RichTableCell(text=text, ref=group.get_ref(), start_row_offset_idx=0, end_row_offset_idx=1,
                         start_col_offset_idx=col, end_col_offset_idx=col + 1)  # fmt: skip
    return group, cell


def cms_page() -> DoclingDocument:
    """One 2x3 layout table: logo | navigation | content, then a footer row of plain text over all three."""
    doc = DoclingDocument(name="cms")
    doc.add_text(DocItemLabel.TEXT, "This website uses cookies.")
    footer = TableCell(text=FOOTER, start_row_offset_idx=1, end_row_offset_idx=2, start_col_offset_idx=0,
                       end_col_offset_idx=3, col_span=3)  # fmt: skip
    table = doc.add_table(data=TableData(num_rows=2, num_cols=3, table_cells=[footer]))
    logo, logo_cell = _cell(doc, table, 0, CAPTION)
    caption = doc.add_text(DocItemLabel.CAPTION, CAPTION)  # in the body, as docling's HTML converter puts it
    picture = doc.add_picture(parent=logo)
    picture.captions.append(caption.get_ref())
    nav, nav_cell = _cell(doc, table, 1, "Home Services Audit Tax News")
    menu = doc.add_list_group(parent=nav)
    doc.add_list_item("Home", parent=menu)
    services = doc.add_list_item("Services", parent=menu)
    sub = doc.add_list_group(parent=services)
    doc.add_list_item("Audit", parent=sub)
    doc.add_list_item("Tax", parent=sub)
    doc.add_list_item("News", parent=menu)
    content, content_cell = _cell(doc, table, 2, "Tax services ...")
    doc.add_title("Tax services", parent=content)
    doc.add_text(DocItemLabel.TEXT, " ".join([BODY] * 3), parent=content)
    doc.add_heading("Contact", level=1, parent=content)
    doc.add_text(DocItemLabel.TEXT, "Call 0113 496 0000 or email tax@example.co.uk.", parent=content)
    for cell in (logo_cell, nav_cell, content_cell):
        doc.add_table_cell(table, cell)
    return doc


@pytest.fixture(scope="module")
def page() -> DoclingDocument:
    doc = cms_page()
    assert read_table(doc.tables[0], doc).kind == "layout"  # the case of the findings
    return doc


def _chunks(doc: DoclingDocument, tokenizer: str, max_tokens: int, minilm_dir, cl100k) -> tuple[list, list[str]]:
    tok = docchunk.get_tokenizer(f"hf:{minilm_dir}" if tokenizer == "minilm" else cl100k)
    chunker = docchunk.HybridChunker(tokenizer=tok, max_tokens=max_tokens)
    chunks = list(chunker.chunk(doc))
    return chunks, [chunker.contextualize(c) for c in chunks]


CONFIGS = [("minilm", 64), ("minilm", 256), ("cl100k", 128)]


@pytest.mark.parametrize(("tokenizer", "max_tokens"), CONFIGS)
def test_a_nested_list_in_a_layout_cell_keeps_its_nesting(page, tokenizer, max_tokens, minilm_dir, cl100k):
    """Finding 7: ``- Services`` / ``- Audit`` / ``- Tax`` at one indentation; the chunk named only the table."""
    chunks, _ = _chunks(page, tokenizer, max_tokens, minilm_dir, cl100k)
    holder = next(c for c in chunks if "Audit" in c.text)
    lines = holder.text.split("\n")
    at = lines.index("- Services")
    assert lines[at + 1 : at + 3] == ["    - Audit", "    - Tax"], holder.text
    assert {"Services", "Audit", "Tax"} <= {getattr(it, "text", None) for it in holder.meta.doc_items}
    bench = _bench()
    assert bench.flattened(page, chunks, [c.text for c in chunks]) == 0
    assert not lost_texts(page, chunks) and not span_faults(page, chunks)


@pytest.mark.parametrize(("tokenizer", "max_tokens"), CONFIGS)
def test_headings_in_a_layout_cell_head_what_follows_them(page, tokenizer, max_tokens, minilm_dir, cl100k):
    """Finding 8: ``Contact`` was a plain line that could end a piece, its body in the next piece under no heading."""
    chunks, _ = _chunks(page, tokenizer, max_tokens, minilm_dir, cl100k)
    contact = next(c for c in chunks if "Call 0113" in c.text)
    assert contact.meta.headings == ["Tax services", "Contact"]
    first_body = next(c for c in chunks if BODY[:40] in c.text)
    assert first_body.meta.headings == ["Tax services"]
    for chunk in chunks:
        assert chunk.text.split("\n")[-1] not in ("Tax services", "Contact"), chunk.text
        assert chunk.meta.token_count <= max_tokens


@pytest.mark.parametrize(("tokenizer", "max_tokens"), CONFIGS)
def test_a_picture_caption_in_a_layout_cell_is_written_once(page, tokenizer, max_tokens, minilm_dir, cl100k):
    """Finding 13: the caption was written with its picture, then again as the last line, after the footer."""
    chunks, contexts = _chunks(page, tokenizer, max_tokens, minilm_dir, cl100k)
    assert sum(x.split("\n").count(CAPTION) for x in contexts) == 1, contexts
    footer = next(c for c in chunks if FOOTER in c.text)  # the plain cell, as a paragraph naming its table
    assert footer.text.endswith(FOOTER) and page.tables[0] in footer.meta.doc_items
    assert sum(x.count(FOOTER) for x in contexts) == 1


NAV = ["Home", "Fixtures", "Results", "Juniors", "Links", "Contact us"]
MEETS = "Our club meets every Wednesday evening at the community centre. New members are always welcome."


def club_page() -> DoclingDocument:
    """The tester's ``html_layout_table`` (round 2): a 3x2 layout table of rich cells.

    A banner row (one cell over both columns: the club's logo, captioned, and its name),
    then navigation | content (a title and two sections), then a plain footer row.
    """
    doc = DoclingDocument(name="club")
    footer = TableCell(text=FOOTER, start_row_offset_idx=2, end_row_offset_idx=3, start_col_offset_idx=0,
                       end_col_offset_idx=2, col_span=2)  # fmt: skip
    table = doc.add_table(data=TableData(num_rows=3, num_cols=2, table_cells=[footer]))
    banner = doc.add_group(label=GroupLabel.UNSPECIFIED, name="banner", parent=table)
    picture = doc.add_picture(parent=banner)
    doc.add_text(DocItemLabel.TEXT, f"{CAPTION} - since 1952", parent=banner)
    caption = doc.add_text(DocItemLabel.CAPTION, CAPTION)  # in the body, as docling's HTML converter puts it
    picture.captions.append(caption.get_ref())
    cells = [RichTableCell(text=f"{CAPTION} - since 1952", ref=banner.get_ref(), start_row_offset_idx=0,
                           end_row_offset_idx=1, start_col_offset_idx=0, end_col_offset_idx=2, col_span=2)]  # fmt: skip
    nav = doc.add_group(label=GroupLabel.UNSPECIFIED, name="nav", parent=table)
    links = doc.add_inline_group(parent=nav)
    for text in NAV:
        doc.add_text(DocItemLabel.TEXT, text, parent=links)
    content = doc.add_group(label=GroupLabel.UNSPECIFIED, name="content", parent=table)
    doc.add_title("Welcome", parent=content)
    for k in (1, 2):
        doc.add_heading(f"Section {k}", level=1, parent=content)
        doc.add_text(DocItemLabel.TEXT, f"{MEETS} {MEETS}", parent=content)
    for col, group, text in ((0, nav, "\n".join(NAV)), (1, content, f"WelcomeSection 1 {MEETS}")):
        cells.append(RichTableCell(text=text, ref=group.get_ref(), start_row_offset_idx=1, end_row_offset_idx=2,
                                   start_col_offset_idx=col, end_col_offset_idx=col + 1))  # fmt: skip
    for cell in cells:
        doc.add_table_cell(table, cell)
    return doc


@pytest.mark.parametrize(("tokenizer", "max_tokens"), CONFIGS)
def test_the_bench_reads_a_layout_table_of_rich_cells_as_content(tokenizer, max_tokens, minilm_dir, cl100k):
    """``bench/table_quality.py`` counted the banner row of ``html_layout_table`` as cut at every budget.

    It read every row of a table as a record to find whole in the chunks that name the
    table. A layout table's rich cells are walked as content: the banner is whole in a
    chunk that names its items, not the table, and a row of navigation and content has
    its headings in paths. Such rows are no records: the bench now measures only the
    plain cells' rows of such a table (the footer, a paragraph naming the table).
    """
    doc = club_page()
    assert read_table(doc.tables[0], doc).kind == "layout"  # the case of the finding
    tok = docchunk.get_tokenizer(f"hf:{minilm_dir}" if tokenizer == "minilm" else cl100k)
    chunker = docchunk.HybridChunker(tokenizer=tok, max_tokens=max_tokens)
    chunks = list(chunker.chunk(doc))
    holder = next(c for c in chunks if f"{CAPTION}\n{CAPTION} - since 1952" in c.text)  # the banner, whole
    assert doc.tables[0] not in holder.meta.doc_items
    assert not lost_texts(doc, chunks)
    with bench_script("table_quality") as bench:
        assert bench.half_rows(doc, chunks, chunker, "records") == (1, 0)  # the footer, whole
        assert bench.entry_cuts(doc, chunks, chunker, compat=False) == (1, 0)

