"""Nested lists of documents users bring: a picture, a table or a code block among the items (issue 45).

docling's DOCX and Markdown converters put a picture, a table or a fenced code block of a
nested item beside the items of its list (a child of the list group, not of the item).
Such a list was split at element boundaries and written flat at every budget
(tester's findings 3 and 15). Documents built with docling-core's API; each test
fails on the code before the fix.
"""

from __future__ import annotations

import pytest
from docling_core.types.doc import DoclingDocument

import docchunk
from tests.helpers import make_table


def checklist(extra: str) -> DoclingDocument:
    """A two-level list whose first sub-list holds ``extra`` (picture, table, code) after its first item."""
    doc = DoclingDocument(name=f"checklist-{extra}")
    doc.add_heading("Checklist", level=1)
    top = doc.add_list_group()
    a = doc.add_list_item("Top item A", parent=top)
    sub = doc.add_list_group(parent=a)
    doc.add_list_item("Sub item A.1", parent=sub)
    if extra == "picture":
        doc.add_picture(parent=sub)
    elif extra == "table":
        doc.add_table(data=make_table([["Tool", "Owner"], ["Laptop", "IT"]])[1].data, parent=sub)
    elif extra == "code":
        doc.add_code("sha256sum file.tar.gz\nls -l", parent=sub)
    doc.add_list_item("Sub item A.2", parent=sub)
    b = doc.add_list_item("Top item B", parent=top)
    doc.add_list_item("Sub item B.1", parent=doc.add_list_group(parent=b))
    return doc


BLOCKS = {
    "picture": "",
    "table": "    Laptop (Tool): Owner = IT\n",
    "code": "    ```\n    sha256sum file.tar.gz\n    ls -l\n    ```\n",
}


@pytest.mark.parametrize("extra", sorted(BLOCKS))
def test_block_beside_nested_items_keeps_the_list_nested(extra):
    chunks = list(docchunk.HybridChunker().chunk(checklist(extra)))
    expected = f"- Top item A\n    - Sub item A.1\n{BLOCKS[extra]}    - Sub item A.2\n- Top item B\n    - Sub item B.1"
    assert [c.text for c in chunks] == [expected]


def test_code_block_in_a_split_nested_list_keeps_nesting_and_spans(minilm_dir):
    doc = checklist("code")
    chunker = docchunk.HybridChunker(tokenizer=docchunk.get_tokenizer(f"hf:{minilm_dir}", max_tokens=24), max_tokens=24)
    chunks = list(chunker.chunk(doc))
    assert all(c.meta.token_count <= 24 for c in chunks)
    for c in chunks:
        for span in c.meta.spans:  # each line of the code block is still found in the chunk
            own = doc.texts[int(span.ref.rsplit("/", 1)[1])].text[span.start : span.end]
            assert all(line.strip() in c.text for line in own.split("\n"))
        lines = c.text.split("\n")
        if "Sub item A.2" in c.text and "Top item A" not in c.text:
            assert "Top item A" in (c.meta.headings or [])  # a window inside item A carries its path
        if "Top item A" in c.text and "Sub item A.1" in c.text:
            assert lines[lines.index("- Top item A") + 1] == "    - Sub item A.1"


def test_list_with_an_item_that_writes_no_line_is_split_nested(minilm_dir):
    """An item of zero-width spaces only (docling's HTML converter gives it empty text) among nested items."""
    doc = DoclingDocument(name="odd")
    doc.add_heading("Odd heading two", level=1)
    top = doc.add_list_group()
    for text in ["first", "", "second " * 6, "third " * 6]:
        item = doc.add_list_item(text, parent=top)
        doc.add_list_item(f"child of {text}", parent=doc.add_list_group(parent=item))
    chunker = docchunk.HybridChunker(tokenizer=docchunk.get_tokenizer(f"hf:{minilm_dir}", max_tokens=32), max_tokens=32)
    chunks = list(chunker.chunk(doc))
    assert len(chunks) > 1
    for c in chunks:
        for line in c.text.split("\n"):
            if "child of" in line:
                assert line.startswith("    - ") or c.text.startswith(line)  # a sub-item is indented under its parent


DEEP = """# Lists

- Level 0 item 0: Quality audit control quarter audit audit warranty audit.
  - Level 1 item 0.0: Report customer audit quarter report market report revenue supplier gamma.
    1. Level 2 item 0.0.1: Period service shipment gamma shipment delta period tax quality delivery period service \
service shipment region market control quarter annual alpha.
       - Level 3 item 0.0.1.a: Beta tax audit period report region service product shipment quality growth invoice \
revenue annual region product tax tax alpha product market region period product shipment.
"""


def test_windows_of_a_deep_list_keep_the_section_heading_that_fits(minilm_dir):
    """Tester's finding 10: at 64 tokens the windows dropped "Lists" (one token) with 14 to 28 tokens to spare."""
    doc = docchunk.load_document(DEEP, format="md")
    chunker = docchunk.HybridChunker(tokenizer=docchunk.get_tokenizer(f"hf:{minilm_dir}", max_tokens=64), max_tokens=64)
    chunks = list(chunker.chunk(doc))
    assert len(chunks) >= 3  # the first window holds item 0 with its first sub-item (issue 46)

    def named(p: str) -> bool:  # a parent long for the budget is named by its first clause or words, then " …"
        return any(h == p or (h.endswith(" …") and p.startswith(h[:-2])) for h in chunk.meta.headings)

    parents = [it.text for it in doc.texts if it.label == "list_item"][:3]
    for chunk in chunks:
        assert chunk.meta.headings[0] == "Lists", chunk.meta.headings
        deepest = max((k for k, p in enumerate(parents) if named(p)), default=-1)
        missing = [p for p in parents[: max(deepest, 0)] if not named(p)]
        assert missing == [p for p in chunk.meta.headings_dropped or [] if p in parents]  # named when left out


@pytest.mark.parametrize("run", ["with **bold** word", "with image ![alt](img.png)"])
def test_list_item_of_an_inline_run_holding_a_table_stays_one_item(run):
    """Tester's finding 14: the marker was alone, the run broken over lines (``**`` left), the table outside."""
    md = f"# Steps\n\n1. First\n2. Second step {run}\n\n   | a | b |\n   |---|---|\n   | 1 | 2 |\n\n3. Third\n"
    chunks = list(docchunk.HybridChunker().chunk(docchunk.load_document(md, format="md")))
    assert len(chunks) == 1
    lines = chunks[0].text.split("\n")
    assert lines[0] == "1. First"
    assert lines[1].startswith("2. Second step with ") and "**" not in lines[1]
    assert lines[2].startswith("    ") and "b = 2" in lines[2]  # the table's record, indented under its item
    assert lines[3:] == ["3. Third"]
