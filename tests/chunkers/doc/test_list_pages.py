"""A list whose items are on two pages is cut where the pages change with ``merge_across_pages=False``.

Round-3 documents tester, finding 15 (``api_list_tables``): a numbered list, items 1-2 on page 1 and
3-4 on page 2, was one chunk of pages 1 and 2 (hybrid.md: ``False`` never merges items of different
pages). Each part keeps the nesting its lines were written with (a nested list under an item that also
holds a picture, which docling-core's serializer writes flat, is written indented again).
"""

from __future__ import annotations

from docling_core.types.doc import BoundingBox, DocItemLabel, DoclingDocument, ProvenanceItem, Size

import docchunk
from tests.helpers import lost_texts, make_table


def _prov(page: int) -> ProvenanceItem:
    return ProvenanceItem(page_no=page, bbox=BoundingBox(l=0, t=0, r=1, b=1), charspan=(0, 1))


def _steps() -> DoclingDocument:
    doc = DoclingDocument(name="steps")
    for page in (1, 2):
        doc.add_page(page_no=page, size=Size(width=100, height=100))
    doc.add_heading("Install", prov=_prov(1))
    steps = doc.add_list_group()
    for k, page in ((1, 1), (2, 1), (3, 2), (4, 2)):
        item = doc.add_list_item(f"Step {k}: configure the options shown below", enumerated=True, parent=steps,
                                 prov=_prov(page))  # fmt: skip
        if k == 2:  # a table in the item: its rows are no item's text
            _, table = make_table([["Option", "Value"], ["--prefix", "/opt/app"], ["--port", "8443"]], doc=doc)
            table.prov = [_prov(page)]
            doc.body.children.remove(table.get_ref())
            item.children.append(table.get_ref())
            table.parent = item.get_ref()
        if k == 3:  # a picture with a caption of no page, and a nested list in the item
            caption = doc.add_text(DocItemLabel.CAPTION, "Figure 2: the options dialog")
            doc.add_picture(parent=item, prov=_prov(page), caption=caption)
            nested = doc.add_list_group(parent=item)
            for text in ("tick 'start on boot'", "untick 'send statistics'"):
                doc.add_list_item(text, parent=nested, prov=_prov(page))
    doc.add_text(DocItemLabel.TEXT, "If the service does not start, read the journal.", prov=_prov(2))
    return doc


def test_regression_list_over_two_pages_is_cut_at_the_page_change_its_nesting_kept(minilm_dir):
    doc = _steps()
    tok = docchunk.get_tokenizer(f"hf:{minilm_dir}")
    chunks = list(docchunk.HybridChunker(tokenizer=tok, max_tokens=256, merge_across_pages=False).chunk(doc))
    pages = [sorted({p.page_no for it in c.meta.doc_items for p in it.prov}) for c in chunks]
    assert all(len(p) == 1 for p in pages), pages
    listed = [c.text for c in chunks if "Step" in c.text]
    assert [text.count("Step") for text in listed] == [2, 2]
    nested = next(text for text in listed if "Step 3" in text).split("\n")
    indent = next(line for line in nested if "tick 'start" in line)
    assert indent.startswith(" ") and indent.strip() == "- tick 'start on boot'", nested
    assert "--port (Option): Value = 8443" in listed[0]
    assert lost_texts(doc, chunks) == []
