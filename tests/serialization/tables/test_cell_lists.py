"""A nested list inside a table cell keeps its nesting (issue 45; s4/tdocs2 finding 23).

The tester's requirements matrix (``html_cell_nested_list``): docling's HTML converter
makes each ``Features`` cell a rich cell holding a list whose first item holds a
sub-list. Every table form of the default mode wrote it on one line, the sub-items as
siblings of their parent: ``Features = - Install - Install on Linux - Install on
Windows - Uninstall``. The table here is built through docling-core's API in the shape
docling converted that page to.
"""

from __future__ import annotations

import re

import pytest
from docling_core.types.doc import DoclingDocument, GroupLabel, RichTableCell, TableCell, TableData

import docchunk
from docchunk.serialization.tables import table_rows

FLAT = "- Install - Install on Linux - Install on Windows - Uninstall"
NESTED = "- Install\n    - Install on Linux\n    - Install on Windows\n- Uninstall"


def _cell(r: int, c: int, text: str, header: bool = False) -> TableCell:
    return TableCell(text=text, start_row_offset_idx=r, end_row_offset_idx=r + 1, start_col_offset_idx=c,
                     end_col_offset_idx=c + 1, column_header=header)  # fmt: skip


def requirements() -> DoclingDocument:
    """``ID | Features | Status``; each Features cell a list: an item with two sub-items, then a sibling."""
    doc = DoclingDocument(name="html_cell_nested_list")
    doc.add_heading("Requirements", level=1)
    table = doc.add_table(data=TableData(num_rows=3, num_cols=3))
    for j, text in enumerate(("ID", "Features", "Status")):
        doc.add_table_cell(table, _cell(0, j, text, header=True))
    for r, (ident, verb, status) in enumerate((("REQ-1", "Install", "Done"), ("REQ-2", "Login", "Open")), start=1):
        group = doc.add_group(label=GroupLabel.UNSPECIFIED, name="rich_cell", parent=table)
        outer = doc.add_list_group(parent=group)
        parent = doc.add_list_item(verb, parent=outer)
        inner = doc.add_list_group(parent=parent)
        for system in ("Linux", "Windows"):
            doc.add_list_item(f"{verb} on {system}", parent=inner)
        doc.add_list_item("Uninstall" if verb == "Install" else "Logout", parent=outer)
        doc.add_table_cell(table, _cell(r, 0, ident))
        rich = RichTableCell(text=verb, ref=group.get_ref(), start_row_offset_idx=r, end_row_offset_idx=r + 1,
                             start_col_offset_idx=1, end_col_offset_idx=2)  # fmt: skip
        doc.add_table_cell(table, rich)
        doc.add_table_cell(table, _cell(r, 2, status))
    return doc


@pytest.mark.parametrize(
    ("table_format", "expected"),
    [
        ("records", f"REQ-1 (ID): Features = {NESTED}; Status = Done"),
        ("triplets", f"REQ-1, Features = {NESTED}. REQ-1, Status = Done"),
    ],
)
def test_a_nested_list_in_a_cell_keeps_its_lines_and_indentation(table_format, expected):
    """Records and triplets write the cell's list as docling-core's triplets do: one item a line, sub-items indented."""
    doc = requirements()
    rows = table_rows(doc.tables[0], doc, table_format=table_format)
    assert FLAT not in rows.text
    assert expected in rows.rows[0].text


def test_a_markdown_row_keeps_a_nested_list_on_its_line_with_the_indentation():
    """A Markdown table line cannot break: the cell's lines are joined by a space, the sub-items' indentation kept."""
    doc = requirements()
    rows = table_rows(doc.tables[0], doc, table_format="markdown")
    cell = "- Install     - Install on Linux     - Install on Windows - Uninstall"
    assert rows.rows[0].text == f"| REQ-1 | {cell} | Done |"
    assert all("\n" not in row.text for row in rows.rows)


@pytest.mark.parametrize("table_format", ["records", "triplets", "markdown"])
@pytest.mark.parametrize("max_tokens", [64, 256])
def test_chunks_of_a_table_with_a_nested_list_in_a_cell_keep_the_nesting(minilm_dir, table_format, max_tokens):
    """Through the chunker (MiniLM): every sub-item is written deeper than its parent item, nothing is lost."""
    doc = requirements()
    tok = docchunk.get_tokenizer(f"hf:{minilm_dir}", max_tokens=max_tokens)
    chunker = docchunk.HybridChunker(tokenizer=tok, max_tokens=max_tokens, table_format=table_format)
    texts = [chunker.contextualize(c) for c in chunker.chunk(doc)]
    joined = "\n".join(texts)
    for parent, child in (("Install", "Install on Linux"), ("Login", "Login on Windows")):
        assert _indent(joined, child) > _indent(joined, parent), (parent, child, joined)
    for item in doc.texts:
        assert item.text in joined


def _indent(text: str, needle: str) -> int:
    """The whitespace before the ``- `` marker of ``needle`` (after a line break, or a run on the line)."""
    at = re.search(r"([ ]*)- " + re.escape(needle) + r"(?![^\s;.|])", text)
    assert at is not None, (needle, text)
    return len(at.group(1))
