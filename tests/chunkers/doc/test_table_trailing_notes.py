"""Regression: a table's trailing note went to the start of the next table's chunk (issue 46, finding 13).

Since "a paragraph between two tables goes with the table after it", a note after a
table ("Source: survey A, 2026.", "Signed by the clerk.") opened the *next* table's
chunk. A hostile tester's DOCX of two survey tables, each with a lead-in before and a
source note after, showed it; docling-core keeps each note with its own table.
"""

from __future__ import annotations

import pytest
from docling_core.types.doc import DocItemLabel, DoclingDocument

import docchunk
from tests.helpers import make_table


def _surveys(lead_ins: bool, note: str) -> DoclingDocument:
    """Two survey tables under one heading, each followed by ``note`` (and preceded by a lead-in)."""
    doc = DoclingDocument(name="surveys")
    doc.add_heading("Surveys", level=1)
    for k, name in ((1, "A"), (2, "B")):
        if lead_ins:
            doc.add_text(DocItemLabel.TEXT, f"Table {k} lists the answers of survey {name}.")
        grid = [["Question", "Answer"], *[[f"Question {i} of survey {name}", f"yes {i}"] for i in range(1, 4)]]
        doc, _ = make_table(grid, doc=doc)
        doc.add_text(DocItemLabel.TEXT, note.format(name=name))
    return doc


@pytest.mark.parametrize(("tokenizer", "max_tokens"), [("minilm", 64), ("minilm", 256), ("cl100k", 128)])
@pytest.mark.parametrize(
    ("lead_ins", "note"),
    [(True, "Source: survey {name}, 2026."), (False, "Source: survey {name}."), (True, "Signed by clerk {name}.")],
)
def test_a_tables_trailing_note_stays_with_its_own_table(lead_ins, note, tokenizer, max_tokens, minilm_dir, cl100k):
    doc = _surveys(lead_ins, note)
    tok = docchunk.get_tokenizer(f"hf:{minilm_dir}" if tokenizer == "minilm" else cl100k)
    chunker = docchunk.HybridChunker(tokenizer=tok, max_tokens=max_tokens)
    chunks = list(chunker.chunk(doc))
    first, second = doc.tables
    note_a = note.format(name="A")
    holders = [c for c in chunks if note_a in c.text.split("\n")]
    assert len(holders) == 1, [c.text for c in chunks]
    refs = {it.self_ref for it in holders[0].meta.doc_items}
    if max_tokens >= 128:  # the note fits with its table's rows: it ends their chunk
        assert first.self_ref in refs and second.self_ref not in refs, [c.text for c in chunks]
    assert second.self_ref not in refs or first.self_ref in refs  # never opens the second table's chunk alone
    assert all(c.meta.token_count <= max_tokens for c in chunks)


def test_trailing_note_rule():
    from docchunk.chunkers.doc.lead_in import is_trailing_note

    assert is_trailing_note("Source: survey A, 2026.")
    assert is_trailing_note("Sources - national statistics office.")
    assert is_trailing_note("Note: amounts are rounded.")
    assert is_trailing_note("Note that amounts are rounded.")
    assert is_trailing_note("* Unaudited.")
    assert is_trailing_note("\u00b9 Restated for the merger.")
    assert is_trailing_note("(1) Restated.")
    assert is_trailing_note("excluding the northern sites.")
    assert is_trailing_note("These figures exclude taxes.")
    assert is_trailing_note("The amounts above exclude taxes.")
    assert not is_trailing_note("Notes.")  # a one-word label titles what follows (tests/data/lead_ins.docx)
    assert not is_trailing_note("Costs.")
    assert not is_trailing_note("Open incidents at quarter end.")
    assert not is_trailing_note("Table 2 lists the answers of survey B.")
    assert not is_trailing_note("Note: the following table lists the sites:")  # a lead-in wins


# -- findings 11 and 12: a lead-in with a caption, a bold Caption-style lead-in ------------------


@pytest.mark.parametrize(("tokenizer", "max_tokens"), [("minilm", 64), ("minilm", 256), ("cl100k", 128)])
def test_the_caption_stands_directly_before_its_rows_after_the_lead_in(tokenizer, max_tokens, minilm_dir, cl100k):
    """A tester's HTML: lead-in, ``<caption>``, rows came out caption, lead-in, rows (finding 11)."""
    doc = DoclingDocument(name="revenue")
    doc.add_heading("Financial statements", level=1)
    lead = "The following table presents revenue:"
    doc.add_text(DocItemLabel.TEXT, lead)
    grid = [["Division", "2026"], *[[f"Segment {k}", str(k * 11)] for k in range(4)]]  # labels without their header
    doc, _ = make_table(grid, doc=doc, caption="Table 1. Revenue by segment")
    tok = docchunk.get_tokenizer(f"hf:{minilm_dir}" if tokenizer == "minilm" else cl100k)
    chunker = docchunk.HybridChunker(tokenizer=tok, max_tokens=max_tokens)
    chunks = list(chunker.chunk(doc))
    lines = chunker.contextualize(chunks[0]).split("\n")
    assert lines == ["Financial statements", lead, "Table 1. Revenue by segment", "Segment 0 (Division): 2026 = 0",
                     *[f"Segment {k} (Division): 2026 = {k * 11}" for k in range(1, 4)]], lines  # fmt: skip
    assert all(c.meta.token_count <= max_tokens for c in chunks)


@pytest.mark.parametrize("max_tokens", [64, 256])
def test_a_bold_caption_style_lead_in_after_a_paragraph_goes_with_its_table(max_tokens, minilm_dir):
    """Word's "Caption" style is bold: ``**Table 1: ...**`` did not read as naming a table (finding 12)."""
    from docling_core.types.doc import Formatting

    doc = DoclingDocument(name="experiments")
    doc.add_heading("Results", level=1)
    doc.add_text(DocItemLabel.TEXT, "Audit warranty alpha control gamma tax report annual gamma product report gamma.")
    for k in (1, 2):
        doc.add_text(DocItemLabel.TEXT, f"Table {k}: Results of experiment {k}", formatting=Formatting(bold=True))
        grid = [["Sample", "Mass", "Volume"], *[[f"S{k}{i}", str(i * 3), str(i * 7)] for i in range(1, 4)]]
        doc, _ = make_table(grid, doc=doc)
    chunker = docchunk.HybridChunker(tokenizer=docchunk.get_tokenizer(f"hf:{minilm_dir}"), max_tokens=max_tokens)
    chunks = list(chunker.chunk(doc))
    for k, table in enumerate(doc.tables, start=1):
        first = next(c for c in chunks if any(it.self_ref == table.self_ref for it in c.meta.doc_items))
        assert f"**Table {k}: Results of experiment {k}**" in first.text.split("\n"), [c.text for c in chunks]
    assert all(c.meta.token_count <= max_tokens for c in chunks)
