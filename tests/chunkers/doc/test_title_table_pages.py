"""With ``merge_across_pages=False`` a title on another page than its table does not head it.

Hostile tester s9, finding 5 (``repro_5.py``): a one-cell title table on page 1 was the
caption of the page-2 table after it, so that table's chunk listed the title table in
``meta.doc_items`` and had ``page_numbers=[1, 2]``, though docs/hybrid.md says that
setting never merges items of different pages. Now the title is a chunk on its own page
(merged with the page's other text); on one page, or with the default setting, it
still heads the table.
"""

from __future__ import annotations

import pytest
from docling_core.types.doc import BoundingBox, DocItemLabel, DoclingDocument, ProvenanceItem, Size

import docchunk
from tests.helpers import lost_tables
from tests.helpers.documents import table_data

TITLE = "Quarterly revenue"


def _prov(page: int) -> dict:
    return {"prov": ProvenanceItem(page_no=page, bbox=BoundingBox(l=0, t=0, r=1, b=1), charspan=(0, 1))}


def _doc(title_page: int, table_page: int = 2) -> DoclingDocument:
    doc = DoclingDocument(name="pages")
    for page in (1, 2):
        doc.add_page(page_no=page, size=Size(width=600, height=800))
    doc.add_text(label=DocItemLabel.TEXT, text="Intro paragraph.", **_prov(1))
    doc.add_table(data=table_data([[TITLE]], 0), **_prov(title_page))
    rows = [["Quarter", "Revenue"], ["Q1", "150"], ["Q2", "170"]]
    doc.add_table(data=table_data(rows), **_prov(table_page))
    return doc


def _item_pages(chunk) -> set[int]:
    return {p.page_no for it in chunk.meta.doc_items for p in it.prov}


@pytest.mark.parametrize("min_tokens", [None, 64])
def test_regression_title_table_on_another_page_stays_on_its_page(min_tokens):
    doc = _doc(title_page=1)
    chunker = docchunk.HybridChunker(merge_across_pages=False, min_tokens=min_tokens)
    chunks = list(chunker.chunk(doc))
    assert all(len(_item_pages(c)) == 1 for c in chunks), [(c.text, _item_pages(c)) for c in chunks]
    assert all(c.meta.page_numbers is not None and len(c.meta.page_numbers) == 1 for c in chunks)
    written = "\n".join(chunker.contextualize(c) for c in chunks)
    assert written.count(TITLE) == 1, written  # written once, on page 1
    (holder,) = [c for c in chunks if TITLE in chunker.contextualize(c)]
    assert holder.meta.page_numbers == [1]
    assert lost_tables(doc, chunks) == []


def test_title_table_on_the_tables_page_still_heads_it():
    doc = _doc(title_page=2)
    chunks = list(docchunk.HybridChunker(merge_across_pages=False).chunk(doc))
    (table_chunk,) = [c for c in chunks if "Q1" in c.text]
    assert table_chunk.meta.captions == [TITLE]
    assert TITLE not in "\n".join(c.text for c in chunks)
    assert table_chunk.meta.page_numbers == [2]


def test_default_setting_keeps_the_title_with_its_table_across_pages():
    chunks = list(docchunk.HybridChunker().chunk(_doc(title_page=1)))
    assert sum(TITLE in (c.text + "".join(c.meta.captions or [])) for c in chunks) == 1
