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
