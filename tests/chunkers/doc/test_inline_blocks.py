"""A block nested in an inline group (a list, a section, a table) reaches a chunk, in document order.

Hostile tester s9, finding 1 (``repro_4.py``): the default mode wrote an inline group
as one plain sentence of its text fragments, so a list, a section (text and code) or
a table nested in it was in no chunk of ``HybridChunker`` or ``HierarchicalChunker``.
Now the fragments before the block, the block, and the fragments after it come in
document order: each run of fragments one line, the block as any other block.
"""

from __future__ import annotations

import pytest
from docling_core.types.doc import DocItemLabel, DoclingDocument, GroupLabel
from docling_core.types.doc.document import Formatting

import docchunk
from tests.helpers import table_data

CHUNKERS = [
    pytest.param(lambda: docchunk.HybridChunker(), id="hybrid"),
    pytest.param(lambda: docchunk.HybridChunker(max_tokens=16), id="hybrid-16"),
    pytest.param(lambda: docchunk.HierarchicalChunker(), id="hierarchical"),
]


def _doc(kind: str) -> DoclingDocument:
    """An inline group: ``Before`` **words** ``.``, then a block of ``kind``, then ``After words.``."""
    doc = DoclingDocument(name="inline-block")
    group = doc.add_group(label=GroupLabel.INLINE)
    doc.add_text(label=DocItemLabel.TEXT, text="Before", parent=group)
    doc.add_text(label=DocItemLabel.TEXT, text="words", parent=group, formatting=Formatting(bold=True))
    doc.add_text(label=DocItemLabel.TEXT, text=".", parent=group)
    if kind == "list":
        items = doc.add_list_group(parent=group)
        doc.add_list_item(text="The warranty lasts two years.", parent=items)
    elif kind == "section":
        section = doc.add_group(label=GroupLabel.SECTION, parent=group)
        doc.add_text(label=DocItemLabel.TEXT, text="The warranty lasts two years.", parent=section)
        doc.add_code(text="renew(warranty)", parent=section)
    else:
        texts = ["Plan", "Warranty", "Gold", "two years"]
        doc.add_table(data=table_data([texts[:2], texts[2:]], header_rows=0), parent=group)
    doc.add_text(label=DocItemLabel.TEXT, text="After words.", parent=group)
    return doc


@pytest.mark.parametrize("make", CHUNKERS)
@pytest.mark.parametrize("kind", ["list", "section", "table"])
def test_regression_block_inside_inline_group_is_not_lost(kind, make):
    doc = _doc(kind)
    chunks = list(make().chunk(doc))
    text = "\n".join(c.text for c in chunks)
    warranty = "The warranty lasts two years."
    nested = {"list": [warranty], "section": [warranty, "renew(warranty)"], "table": ["Warranty", "two years"]}[kind]
    words = ["Before words.", *nested, "After words."]
    places = [text.find(w) for w in words]
    assert -1 not in places, (words, text)
    assert places == sorted(places), text  # document order
    written = {it.self_ref for c in chunks for it in c.meta.doc_items}
    wanted = {it.self_ref for it in [*doc.texts, *doc.tables] if getattr(it, "text", "x")}
    assert wanted <= written


@pytest.mark.parametrize("make", CHUNKERS)
def test_inline_group_without_blocks_is_still_one_line(make):
    doc = DoclingDocument(name="inline")
    group = doc.add_group(label=GroupLabel.INLINE)
    doc.add_text(label=DocItemLabel.TEXT, text="Before", parent=group)
    doc.add_text(label=DocItemLabel.TEXT, text="words", parent=group, formatting=Formatting(bold=True))
    doc.add_code(text="x = 1", parent=group)  # inline code: a fragment, not a block
    doc.add_text(label=DocItemLabel.TEXT, text=".", parent=group)
    assert [c.text for c in make().chunk(doc)] == ["Before words x = 1."]


@pytest.mark.parametrize("kind", ["list", "section", "table"])
def test_runs_and_block_are_pieces_of_their_own_in_the_hierarchical_default(kind):
    chunks = list(docchunk.HierarchicalChunker().chunk(_doc(kind)))
    assert chunks[0].text == "Before words."  # the run as one line, no Markdown marks
    assert chunks[-1].text == "After words."
    for chunk in chunks:
        for span in chunk.meta.spans or []:  # offsets of each item in its chunk's text are exact
            assert 0 <= span.start <= span.end <= len(chunk.text)


@pytest.mark.parametrize("kind", [docchunk.HybridChunker, docchunk.HierarchicalChunker])
def test_docling_compat_still_writes_the_inline_group_as_docling_core(kind):
    texts = [c.text for c in kind(docling_compat=True).chunk(_doc("list"))]
    assert len(texts) == 1 and "The warranty lasts two years." in texts[0]
