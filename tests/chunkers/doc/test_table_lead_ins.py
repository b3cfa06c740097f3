"""Regression: a table's lead-in went to the end of the previous table's chunk (issue 46).

``tests/data/lead_ins.docx`` (written by ``tests/data/lead_ins_docx.py``, converted with
docling) has a short sentence before each of its five tables. ``merge_peers`` let each
table piece take the text piece after it as its notes, so "Costs.", "Open incidents at
quarter end." and "Notes." ended the chunk of the table *before* the one they introduce.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from docling_core.types.doc import DocItemLabel, DoclingDocument, Formatting, TableItem, TextItem

import docchunk
from tests.helpers import make_table

DOCX = Path(__file__).parents[2] / "data" / "lead_ins.docx"


@pytest.fixture(scope="module")
def lead_ins_doc() -> DoclingDocument:
    pytest.importorskip("docling", reason="converting a DOCX needs docling (the convert extra)")
    return docchunk.load_document(DOCX)


def _lead_ins(doc: DoclingDocument) -> list[tuple[TextItem, TableItem]]:
    """(the paragraph directly before each table in reading order, the table)."""
    items = [it for it, _ in doc.iterate_items()]
    return [(items[k - 1], it) for k, it in enumerate(items) if isinstance(it, TableItem)]


@pytest.mark.parametrize(("tokenizer", "max_tokens"), [("minilm", 64), ("minilm", 256), ("cl100k", 128)])
@pytest.mark.parametrize(("merge_peers", "min_tokens"), [(True, None), (True, 32), (False, 32)])
def test_each_lead_in_opens_the_first_chunk_of_its_own_table(
    lead_ins_doc, tokenizer, max_tokens, merge_peers, min_tokens, minilm_dir, cl100k
):
    tok = docchunk.get_tokenizer(f"hf:{minilm_dir}" if tokenizer == "minilm" else cl100k)
    chunker = docchunk.HybridChunker(tokenizer=tok, max_tokens=max_tokens, merge_peers=merge_peers,
                                     min_tokens=min_tokens)  # fmt: skip
    chunks = list(chunker.chunk(lead_ins_doc))
    pairs = _lead_ins(lead_ins_doc)
    assert len(pairs) == 5 and all(isinstance(lead, TextItem) for lead, _ in pairs)
    for lead, table in pairs:
        first = next(c for c in chunks if any(it is table or it.self_ref == table.self_ref for it in c.meta.doc_items))
        assert lead.text + "\n" in first.text, (lead.text, [c.text for c in chunks])
        holders = [c for c in chunks if lead.text in c.text.split("\n")]
        assert holders == [first]  # once, and with its own table
    for chunk in chunks:  # no chunk ends with the lead-in of a table it does not hold
        last = chunk.text.split("\n")[-1]
        assert all(last != lead.text for lead, _ in pairs), [c.text for c in chunks]
    assert all(c.meta.token_count <= max_tokens for c in chunks)


def test_a_small_lead_in_that_fits_with_no_row_of_its_table_stays_apart_under_min_tokens(minilm_dir):
    """``min_tokens`` merged a lead-in its own table had no room for into the previous table's piece."""
    doc = DoclingDocument(name="t")
    doc.add_heading("Costs")
    doc, _ = make_table([["Cost", "2025"], ["Staff", "400"], ["Rent", "120"]], doc=doc)
    lead = "Energy is bought from the regional grid at a tariff fixed for three years."
    doc.add_text(DocItemLabel.TEXT, lead)
    wide = " ".join(f"site {k} uses grid power" for k in range(9))  # each row fits 64 tokens, not with the lead-in
    doc, _ = make_table([["Item", "Detail"], ["Energy", wide], ["Water", wide]], doc=doc)
    tok = docchunk.get_tokenizer(f"hf:{minilm_dir}")
    chunks = list(docchunk.HybridChunker(tokenizer=tok, max_tokens=64, min_tokens=32).chunk(doc))
    assert [c.text for c in chunks][:2] == ["Staff (Cost): 2025 = 400\nRent (Cost): 2025 = 120", lead]
    assert all(c.meta.token_count <= 64 for c in chunks)


def inline_lead_in_doc() -> DoclingDocument:
    """A Node.js API page's lead-in: one sentence of fragments (text, inline code, ``:``) before a table."""
    doc = DoclingDocument(name="dns")
    doc.add_heading("dnsPromises.resolve(hostname[, rrtype])", level=2)
    group = doc.add_inline_group()
    doc.add_text(label=DocItemLabel.TEXT, text="The type of the results varies based on", parent=group)
    doc.add_code(text="rrtype", parent=group)
    doc.add_text(label=DocItemLabel.TEXT, text=":", parent=group)
    make_table([["rrtype", "Result type"]] + [[f"'T{i}'", "{Object}"] for i in range(12)], doc=doc)
    return doc


@pytest.mark.parametrize("max_tokens", [64, 256])
def test_a_lead_in_of_inline_fragments_goes_whole_not_as_its_last_colon(max_tokens, minilm_dir):
    """The lead-in was read as the paragraph's last fragment, ``:``: written as the table's caption
    (a ``:`` line before the rows at 256 tokens, ``captions == [":"]`` at 64). It is the whole sentence."""
    chunker = docchunk.HybridChunker(tokenizer=docchunk.get_tokenizer(f"hf:{minilm_dir}"), max_tokens=max_tokens)
    chunks = list(chunker.chunk(inline_lead_in_doc()))
    sentence = "The type of the results varies based on rrtype:"
    first = next(c for c in chunks if any(isinstance(it, TableItem) for it in c.meta.doc_items))
    assert sentence in chunker.contextualize(first)
    for chunk in chunks:
        assert ":" not in chunk.text.split("\n")
        assert ":" not in (chunk.meta.__dict__.get("captions") or [])


def _lab_report() -> DoclingDocument:
    """A DOCX lab report's shape: a sentence, a Word "Caption"-style title line (bold), the table, a note; twice."""
    doc = DoclingDocument(name="lab")
    doc.add_heading("Laboratory report", level=1)
    for k, what in ((1, "tensile strength"), (2, "hardness")):
        doc.add_text(DocItemLabel.TEXT, f"The {what} results are given below.")
        doc.add_text(DocItemLabel.TEXT, f"**Table {k}: {what.capitalize()} by alloy**")
        grid = [["Alloy", "Mean", "Std. dev."], *[[f"AA{k}0{i}", str(400 + 37 * i), str(10 + i)] for i in range(6)]]
        make_table(grid, doc=doc)
        doc.add_text(DocItemLabel.TEXT, "Values are the mean of five specimens.")
    return doc


@pytest.mark.parametrize(("tokenizer", "max_tokens"), [("minilm", 64), ("minilm", 256), ("cl100k", 128)])
@pytest.mark.parametrize("min_tokens", [None, 64])
def test_a_lead_in_before_a_caption_style_title_line_goes_with_its_table(
    tokenizer, max_tokens, min_tokens, minilm_dir, cl100k
):
    """Finding 22 (issue 46): only the title line went into the table's piece; the sentence before it ended the
    previous table's chunk (``... Values are the mean of five specimens.`` / ``The hardness results are given
    below.``). The sentence, then the title line, then the table's first rows."""
    tok = docchunk.get_tokenizer(f"hf:{minilm_dir}" if tokenizer == "minilm" else cl100k)
    chunker = docchunk.HybridChunker(tokenizer=tok, max_tokens=max_tokens, min_tokens=min_tokens)
    doc = _lab_report()
    chunks = list(chunker.chunk(doc))
    leads = [t.text for t in doc.texts if t.text.endswith("given below.")]
    for k, (table, lead) in enumerate(zip(doc.tables, leads, strict=True), 1):
        first = next(c for c in chunks if any(it is table for it in c.meta.doc_items))
        assert f"{lead}\n**Table {k}:" in first.text and "(Alloy)" in first.text, first.text
        if min_tokens is None:  # the earlier table's note stays out of it (min_tokens may join it to either side)
            assert first.text.startswith(lead), first.text
        assert [c for c in chunks if lead in c.text] == [first]
    assert all(c.meta.token_count <= max_tokens for c in chunks)


def test_a_lead_in_before_a_row_split_by_columns_is_written_once(minilm_dir):
    """Finding 1 (issue 46): a wide table's first row, split between its entries, took the lead-in sentence as the
    first piece's caption while the paragraph stayed apart; ``merge_peers`` then joined the paragraph to that piece,
    and ``contextualize()`` held ``Key figures (USD millions unless stated):`` twice. Now it is written once, in the
    text, directly before the row (a tester's 15-column HTML table)."""
    lead = "Key figures (USD millions unless stated):"
    doc = DoclingDocument(name="wide")
    doc.add_title("Ten-quarter summary")
    doc.add_text(DocItemLabel.TEXT, lead)
    years = [f"FY{y}" if q == 0 else None for y in (2023, 2024, 2025) for q in range(4)]  # over Q1-Q4 each
    grid = [["Metric", *years, "CAGR", "Notes"], ["Metric", *[f"Q{q}" for q in range(1, 5)] * 3, "CAGR", "Notes"]]
    grid += [[m, *(str(100 + 37 * k % 900) for k in range(12)), "10%", "restated"] for m in ("Revenue", "Gross profit")]
    make_table(grid, doc=doc, header_rows=2, spans=[(0, c, 1, 4) for c in (1, 5, 9)])
    chunker = docchunk.HybridChunker(tokenizer=docchunk.get_tokenizer(f"hf:{minilm_dir}"), max_tokens=64)
    chunks = list(chunker.chunk(doc))
    contexts = [chunker.contextualize(c) for c in chunks]
    assert contexts[0].count(lead) == 1 and all(x.count(lead) <= 1 for x in contexts), contexts
    first = next(c for c in chunks if c.meta.table_rows is not None)
    assert first.meta.table_cols is not None  # the row is split by columns, the case of the finding
    assert first.text.startswith(lead + "\nRevenue (Metric):"), first.text
    assert all(c.meta.token_count <= 64 for c in chunks)


@pytest.mark.parametrize(("tokenizer", "max_tokens"), [("minilm", 64), ("minilm", 256), ("cl100k", 128)])
def test_the_lead_in_of_an_empty_table_does_not_end_the_previous_tables_chunk(
    tokenizer, max_tokens, minilm_dir, cl100k
):
    """Finding 16 (issue 46): a table with no cell text gives no piece, so its lead-in ``All empty:`` joined the
    previous table's chunk as if it were that table's note. It is the chunk of the empty table (holding its item)."""
    doc = DoclingDocument(name="odd")
    doc.add_title("Odd tables")
    doc.add_text(DocItemLabel.TEXT, "Header only:")
    make_table([["A", "B", "C"]], doc=doc)
    doc.add_text(DocItemLabel.TEXT, "All empty:")
    make_table([["", ""], ["", ""]], doc=doc)
    doc.add_text(DocItemLabel.TEXT, "One row, no header:")
    make_table([["alpha", "beta", "gamma"]], doc=doc, header_rows=0)
    tok = docchunk.get_tokenizer(f"hf:{minilm_dir}" if tokenizer == "minilm" else cl100k)
    chunks = list(docchunk.HybridChunker(tokenizer=tok, max_tokens=max_tokens).chunk(doc))
    holder = next(c for c in chunks if "All empty:" in c.text.split("\n"))
    assert [t.self_ref for t in holder.meta.doc_items if isinstance(t, TableItem)] == [doc.tables[1].self_ref]
    assert holder.text.startswith("All empty:")


def _lab_notes() -> DoclingDocument:
    """A tester's DOCX lab notes (round 3, ``docx_labnotes``): a sentence, a table, its Word "Caption" below; 4 times.

    docling converts the caption (bold) as a text item under the section heading, after its table.
    """
    doc = DoclingDocument(name="docx_labnotes")
    doc.add_title("Lab notebook")
    section = doc.add_heading("Run 7", level=4)
    for k in range(4):
        doc.add_text(DocItemLabel.TEXT, f"Measurements of batch {k} follow.", parent=section)
        grid = [
            ["Sample", "pH", "Temp (°C)"],
            *[[f"S{k}-{j}", f"{6.5 + j * 0.1:.1f}", f"{20 + j}"] for j in range(6 + k * 3)],
        ]
        doc.add_table(data=make_table(grid)[1].data, parent=section)
        doc.add_text(
            DocItemLabel.TEXT, f"Table {k + 1}: batch {k} readings.", parent=section, formatting=Formatting(bold=True)
        )
    doc.add_text(DocItemLabel.TEXT, "All batches stayed within range.", parent=doc.add_heading("Summary", level=1))
    return doc


@pytest.mark.parametrize(("tokenizer", "max_tokens"), [("minilm", 64), ("minilm", 256), ("cl100k", 128)])
@pytest.mark.parametrize("min_tokens", [None, 64])
def test_a_caption_below_its_table_stays_with_it_and_the_next_lead_in_goes_with_the_next_table(
    tokenizer, max_tokens, min_tokens, minilm_dir, cl100k
):
    """Round-3 finding 2 (issue 46): ``Table 1: batch 0 readings.`` (below table 0) was written before table 1's
    rows, and at cl100k 128 each ``Measurements of batch k follow.`` sat in a 26-token chunk without table k's rows.
    """
    tok = docchunk.get_tokenizer(f"hf:{minilm_dir}" if tokenizer == "minilm" else cl100k)
    chunker = docchunk.HybridChunker(tokenizer=tok, max_tokens=max_tokens, min_tokens=min_tokens)
    doc = _lab_notes()
    chunks = list(chunker.chunk(doc))
    for k, table in enumerate(doc.tables):
        lead, caption = f"Measurements of batch {k} follow.", f"Table {k + 1}: batch {k} readings."
        tables = [[t for t in doc.tables if any(it is t for it in c.meta.doc_items)] for c in chunks]
        with_lead = [held for c, held in zip(chunks, tables, strict=True) if lead in c.text]
        assert with_lead == [[table]] or (min_tokens and len(with_lead) == 1 and table in with_lead[0]), with_lead
        with_caption = [held for c, held in zip(chunks, tables, strict=True) if caption in c.text]
        assert with_caption in ([[]], [[table]]), with_caption  # alone, or with its own table's rows
    assert all(c.meta.token_count <= max_tokens for c in chunks)


def _fleet_costs() -> DoclingDocument:
    """A tester's HTML fleet report (round 3, ``html_multi_tables``): a sentence, then a captioned table, five times;
    tables 1 and 3 followed by ``Note: depot k figures are provisional.``."""
    doc = DoclingDocument(name="html_multi_tables")
    doc.add_title("Fleet costs")
    for k, rows in enumerate((3, 9, 2, 12, 4)):
        doc.add_text(DocItemLabel.TEXT, f"Costs of depot {k} follow.")
        caption = doc.add_text(DocItemLabel.CAPTION, f"Table {k + 1}. Depot {k} vehicle costs (EUR)")
        grid = [["Vehicle", "Fuel", "Repairs", "Insurance"]]
        grid += [[f"Van {k}-{j}", str(1200 + 37 * j), str(300 + 11 * j), str(800 + j)] for j in range(rows)]
        doc.add_table(data=make_table(grid)[1].data, caption=caption)
        if k in (1, 3):
            doc.add_text(DocItemLabel.TEXT, f"Note: depot {k} figures are provisional.")
    return doc


@pytest.mark.parametrize(("tokenizer", "max_tokens"), [("minilm", 64), ("minilm", 256), ("cl100k", 128)])
@pytest.mark.parametrize("min_tokens", [None, 64])
def test_a_lead_in_after_the_previous_tables_note_goes_with_its_own_table(
    tokenizer, max_tokens, min_tokens, minilm_dir, cl100k
):
    """Round-3 finding 16 (issue 46): after a table with a trailing note, the next table's lead-in was left with the
    note in a chunk without rows (``Note: depot 1 figures are provisional.`` / ``Costs of depot 2 follow.``)."""
    tok = docchunk.get_tokenizer(f"hf:{minilm_dir}" if tokenizer == "minilm" else cl100k)
    chunker = docchunk.HybridChunker(tokenizer=tok, max_tokens=max_tokens, min_tokens=min_tokens)
    doc = _fleet_costs()
    chunks = list(chunker.chunk(doc))
    for k, table in enumerate(doc.tables):
        holders = [c for c in chunks if f"Costs of depot {k} follow." in c.text]
        assert len(holders) == 1 and any(it is table for it in holders[0].meta.doc_items), [c.text for c in holders]
    for k in (1, 3):  # the note never stands with another table's rows
        note = f"Note: depot {k} figures are provisional."
        held = [[t for t in doc.tables if any(it is t for it in c.meta.doc_items)] for c in chunks if note in c.text]
        assert held in ([[]], [[doc.tables[k]]]), held
    assert all(c.meta.token_count <= max_tokens for c in chunks)


@pytest.mark.parametrize("between", [DocItemLabel.CAPTION, DocItemLabel.FOOTNOTE])
def test_a_lead_in_then_a_loose_caption_or_footnote_goes_with_its_table(between, minilm_dir):
    """Round-3 finding 17 (issue 46): ``The readings of station k are:``, then a caption item no table links (or a
    footnote item), then the table: the lead-in and the item were a 13-token chunk without rows at MiniLM 64."""
    doc = DoclingDocument(name="stations")
    doc.add_heading("Report", level=1)
    for k in range(3):
        doc.add_text(DocItemLabel.TEXT, f"The readings of station {k} are:")
        doc.add_text(between, f"Table {k}: station {k}" if between == DocItemLabel.CAPTION else f"{k}) moved in 2020")
        grid = [["Hour", "Temp", "Wind"], *[[f"{h:02d}:00", f"{10 + h}", f"{h * 2} km/h"] for h in range(6 + 3 * k)]]
        doc.add_table(data=make_table(grid)[1].data)
    tok = docchunk.get_tokenizer(f"hf:{minilm_dir}", max_tokens=64)
    chunks = list(docchunk.HybridChunker(tokenizer=tok, max_tokens=64).chunk(doc))
    for k, table in enumerate(doc.tables):
        holders = [c for c in chunks if f"The readings of station {k} are:" in c.text]
        assert len(holders) == 1 and any(it is table for it in holders[0].meta.doc_items), [c.text for c in chunks]
        lines = holders[0].text.split("\n")  # the lead-in, the item, then the table's first row
        assert lines[0] == f"The readings of station {k} are:" and lines[2].startswith("00:00 (Hour)"), lines
    assert all(c.meta.token_count <= 64 for c in chunks)
