"""A caption too large to stand beside a table's largest row stays directly before the rows (issue 46 placement).

Stop 56's new-user tester (finding 16, a 4-page Korean report): the caption of a table
whose rows are long became a piece of its own, as documented, and ``merge_peers`` then
joined it to the end of the paragraph before: the caption stood at the end of an unrelated
chunk and no piece of the table carried it. It is now a chunk of its own before the rows,
or the first piece's text when it fits there.
"""

from __future__ import annotations

import pytest
from docling_core.types.doc import DocItemLabel, DoclingDocument

import docchunk
from tests.helpers import lost_texts, make_table

CAPTION = "Table 1: Classification of notifiable infectious diseases before and after the 2020 revision"
LONG = "diseases that spread through drinking water or food, that break out in groups, and that need measures at once"


def law() -> DoclingDocument:
    doc = DoclingDocument(name="law")
    doc.add_heading("Background", level=1)
    doc.add_text(DocItemLabel.TEXT, "The revised act took effect in 2020 and changed how diseases are grouped.")
    grid = [["Item", "Before", "After"], ["Class", "Group 1", "Grade 1"], ["Criteria", LONG, LONG]]
    make_table(grid, doc=doc, caption=CAPTION)
    doc.add_text(DocItemLabel.TEXT, "Insurers read the new grades in their policies.")
    return doc


@pytest.mark.parametrize("max_tokens", [64, 72, 80])
def test_regression_a_caption_stands_directly_before_its_rows(max_tokens):
    doc = law()
    chunks = list(docchunk.HybridChunker(max_tokens=max_tokens).chunk(doc))
    texts = [c.text for c in chunks]
    for k, chunk in enumerate(chunks):
        if CAPTION in chunk.text:  # as text: with its rows after it, or alone before them
            after = chunk.text.split(CAPTION, 1)[1]
            assert after.startswith("\nClass (Item)") or (
                chunk.text == CAPTION and chunks[k + 1].meta.table_rows == (1, 3)), texts  # fmt: skip
        elif chunk.meta.table_rows is not None:  # else each piece of rows carries it, or says it does not
            assert CAPTION in (chunk.meta.captions or []) or "caption" in (chunk.meta.table_context_dropped or ())
    assert sum(CAPTION in t for t in texts) <= 1
    assert lost_texts(doc, chunks) == []
