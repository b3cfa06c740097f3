"""A table cell that is one sentence of inline fragments is written as that sentence (issue 46, round-3 finding 3).

The tester's ``html_inline_punct``: docling's HTML converter makes a cell of text and inline
code (``Fetched with <code>urllib</code>; compressed files (<code>.gz</code>,
<code>.bz2</code>) ...``) a rich cell whose content is a group holding one inline group.
Records and triplets read the cell as the document serializer writes it, a space before
every fragment: ``urllib ;``, ``( .gz , .bz2 )``, ``Use tab , not comma .``; the same
fragments in a paragraph were ``(.gz,.bz2)``, the space after the comma lost before a word
that opens with a full stop. Both are now the sentence the cell's own text holds.
"""

from __future__ import annotations

import pytest
from docling_core.types.doc import DocItemLabel, DoclingDocument, GroupLabel, RichTableCell, TableItem

import docchunk
from docchunk.serialization.tables import table_rows
from tests.helpers import lost_texts, make_table

FRAGMENTS = [
    ("text", "Fetched with"),
    ("code", "urllib"),
    ("text", "; compressed files ("),
    ("code", ".gz"),
    ("text", ","),
    ("code", ".bz2"),
    ("text", ") are opened transparently."),
]
SENTENCE = "Fetched with urllib; compressed files (.gz, .bz2) are opened transparently."
TAB = [("text", "Use"), ("text", "tab"), ("text", ", not"), ("text", "comma"), ("text", ".")]


def _add(doc: DoclingDocument, fragments: list[tuple[str, str]], parent) -> None:
    group = doc.add_inline_group(parent=parent)
    for kind, text in fragments:
        if kind == "code":
            doc.add_code(text, parent=group)
        else:
            doc.add_text(DocItemLabel.TEXT, text, parent=group)


def api_options() -> tuple[DoclingDocument, TableItem]:
    """``Name | Description``: two rows whose description cell is a group holding one inline group."""
    doc = DoclingDocument(name="html_inline_punct")
    doc.add_heading("Options", level=1)
    table = doc.add_table(data=make_table([["Name", "Description"], ["path", ""], ["sep", ""]])[1].data)
    for row, (fragments, text) in enumerate(((FRAGMENTS, SENTENCE), (TAB, "Use tab, not comma.")), start=1):
        group = doc.add_group(label=GroupLabel.UNSPECIFIED, name="rich_cell", parent=table)
        _add(doc, fragments, group)
        cell = RichTableCell(text=text, ref=group.get_ref(), start_row_offset_idx=row, end_row_offset_idx=row + 1,
                             start_col_offset_idx=1, end_col_offset_idx=2)  # fmt: skip
        doc.add_table_cell(table, cell)
    _add(doc, FRAGMENTS, None)  # the same sentence as a paragraph
    return doc, table


@pytest.mark.parametrize("table_format", ["records", "triplets"])
def test_a_cell_of_inline_fragments_is_written_as_its_sentence(table_format):
    doc, table = api_options()
    text = table_rows(table, doc, table_format=table_format).text
    assert SENTENCE in text and "Use tab, not comma." in text, text


def test_a_word_opening_with_a_full_stop_keeps_its_space_in_a_paragraph():
    doc, _ = api_options()
    chunks = list(docchunk.HybridChunker().chunk(doc))
    text = "\n".join(c.text for c in chunks)
    assert text.count(SENTENCE) == 2, text  # the cell's record and the paragraph
    assert f"Description = {SENTENCE}" in text, text  # the cell as its own sentence
    assert lost_texts(doc, chunks) == []
