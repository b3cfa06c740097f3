"""Inline marks in the default mode: a list's inline runs and link items are plain text in both chunkers.

A new user's finding 12 (stop 57) asked whether ``**bold**``, ``*italic*`` and
``[link](url)`` stay in default-mode chunk text. docs/compat.md says the default
``HierarchicalChunker`` writes "inline runs as one plain line", as ``HybridChunker``
does; in a list it wrote them with Markdown marks and URLs (``- This is my
[Homepage](/home.html)``). A paragraph that is one formatted or linked item keeps
docling-core's marks in both modes (docs/compat.md says so).
"""

from __future__ import annotations

import pytest
from docling_core.types.doc import DocItemLabel, DoclingDocument
from docling_core.types.doc.document import Formatting

import docchunk

MARKS = ("**", "](", "~~", "*bold*", "](/")


def _list_with_inline_runs() -> DoclingDocument:
    """A list whose first item is an inline run (text, bold, link), its second a link item, with a nested item."""
    doc = DoclingDocument(name="marks")
    doc.add_heading(text="Links", level=1)
    items = doc.add_list_group()
    first = doc.add_list_item(text="", parent=items)
    run = doc.add_inline_group(parent=first)
    doc.add_text(label=DocItemLabel.TEXT, text="Read the", parent=run)
    doc.add_text(label=DocItemLabel.TEXT, text="bold", parent=run, formatting=Formatting(bold=True))
    doc.add_text(label=DocItemLabel.TEXT, text="manual", parent=run, hyperlink="https://example.com/manual")
    doc.add_text(label=DocItemLabel.TEXT, text=".", parent=run)
    doc.add_list_item(text="Homepage", parent=items, hyperlink="/home.html")
    nested = doc.add_list_group(parent=first)
    doc.add_list_item(text="Nested item", parent=nested)
    return doc


@pytest.mark.parametrize("kind", [docchunk.HierarchicalChunker, docchunk.HybridChunker])
def test_regression_list_inline_runs_and_links_are_plain_in_the_default_mode(kind):
    doc = _list_with_inline_runs()
    (chunk,) = kind().chunk(doc)
    assert chunk.text == "- Read the bold manual.\n    - Nested item\n- Homepage", chunk.text
    assert not any(mark in chunk.text for mark in MARKS)
    assert {str(it.hyperlink) for it in chunk.meta.doc_items if getattr(it, "hyperlink", None)} == {
        "https://example.com/manual", "/home.html"}  # fmt: skip # the URLs stay on the items
    spans = {s.ref: (s.start, s.end) for s in chunk.meta.spans}
    refs = {it.self_ref: it.text for it in doc.texts if it.text}
    assert all(spans[ref] == (0, len(text)) for ref, text in refs.items() if ref != "#/texts/0")  # every item whole


def test_hierarchical_default_writes_a_list_as_the_hybrid_default_does():
    doc = _list_with_inline_runs()
    hierarchical = [c.text for c in docchunk.HierarchicalChunker().chunk(doc)]
    hybrid = [c.text for c in docchunk.HybridChunker().chunk(doc)]
    assert hierarchical == hybrid


@pytest.mark.parametrize("kind", [docchunk.HierarchicalChunker, docchunk.HybridChunker])
def test_docling_compat_keeps_docling_cores_marks(kind):
    text = "\n".join(c.text for c in kind(docling_compat=True).chunk(_list_with_inline_runs()))
    assert "**bold**" in text and "[manual](https://example.com/manual)" in text and "[Homepage](/home.html)" in text
