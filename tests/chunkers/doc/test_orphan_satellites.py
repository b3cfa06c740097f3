"""A body caption or footnote of a furniture table or picture reaches a chunk of every default chunker.

Hostile tester s9, finding 2 (``repro_1.py``): ``PageChunker`` and
``LineBasedTokenChunker`` dropped it (the serializer writes a caption only with its
item, and a furniture item is not written); ``HybridChunker`` and ``HierarchicalChunker``
keep it as an orphan caption after the rest (docs/compat.md). Now all four keep it, after
the body's other text (on its own page for ``PageChunker``).
"""

from __future__ import annotations

import pytest
from docling_core.types.doc import (
    BoundingBox,
    ContentLayer,
    DocItemLabel,
    DoclingDocument,
    ProvenanceItem,
    Size,
)

import docchunk
from tests.helpers import table_data

NOTE = "Table 1: revenue by quarter"


def _prov(page: int) -> dict:
    return {"prov": ProvenanceItem(page_no=page, bbox=BoundingBox(l=0, t=0, r=1, b=1), charspan=(0, 1))}


def _doc(kind: str) -> DoclingDocument:
    """Page 1: text, a furniture table or picture with a body caption or footnote, text; page 2: text."""
    doc = DoclingDocument(name="orphans")
    for page in (1, 2):
        doc.add_page(page_no=page, size=Size(width=600, height=800))
    doc.add_text(label=DocItemLabel.TEXT, text="Body paragraph.", **_prov(1))
    data = table_data([["a", "b"], ["c", "d"]], header_rows=0)
    if kind == "table caption":
        cap = doc.add_text(label=DocItemLabel.CAPTION, text=NOTE, **_prov(1))
        doc.add_table(data=data, caption=cap, content_layer=ContentLayer.FURNITURE, **_prov(1))
    elif kind == "table footnote":
        table = doc.add_table(data=data, content_layer=ContentLayer.FURNITURE, **_prov(1))
        table.footnotes.append(doc.add_text(label=DocItemLabel.FOOTNOTE, text=NOTE, **_prov(1)).get_ref())
    else:
        cap = doc.add_text(label=DocItemLabel.CAPTION, text=NOTE, **_prov(1))
        doc.add_picture(caption=cap, content_layer=ContentLayer.FURNITURE, **_prov(1))
    doc.add_text(label=DocItemLabel.TEXT, text="Closing paragraph.", **_prov(1))
    doc.add_text(label=DocItemLabel.TEXT, text="Second page.", **_prov(2))
    return doc


KINDS = ["table caption", "table footnote", "picture caption"]
CHUNKERS = [
    pytest.param(lambda: docchunk.PageChunker(), id="page"),
    pytest.param(lambda: docchunk.PageChunker(max_tokens=8), id="page-8"),
    pytest.param(lambda: docchunk.LineBasedTokenChunker(max_tokens=64), id="line"),
    pytest.param(lambda: docchunk.HybridChunker(), id="hybrid"),
    pytest.param(lambda: docchunk.HierarchicalChunker(), id="hierarchical"),
]


@pytest.mark.parametrize("make", CHUNKERS)
@pytest.mark.parametrize("kind", KINDS)
def test_regression_body_satellite_of_a_furniture_item_is_kept(kind, make):
    chunks = list(make().chunk(_doc(kind)))
    holding = [c for c in chunks if NOTE in c.text]
    assert len(holding) == 1, [c.text for c in chunks]  # once, whole
    (chunk,) = holding
    assert any(getattr(it, "text", None) == NOTE for it in chunk.meta.doc_items)
    everything = "\n".join(c.text for c in chunks)
    assert everything.index("Closing paragraph.") < everything.index(NOTE)  # after the body, as an orphan


@pytest.mark.parametrize("kind", KINDS)
def test_page_chunker_keeps_the_orphan_on_its_own_page(kind):
    chunks = list(docchunk.PageChunker().chunk(_doc(kind)))
    assert [c.text for c in chunks] == ["Body paragraph.\n\nClosing paragraph.\n\n" + NOTE, "Second page."]
    assert [c.meta.page_numbers for c in chunks] == [[1], [2]]


def test_include_furniture_writes_the_caption_with_its_table_once():
    chunks = list(docchunk.PageChunker(include_furniture=True).chunk(_doc("table caption")))
    assert sum(c.text.count(NOTE) for c in chunks) == 1


@pytest.mark.parametrize("kind", [docchunk.PageChunker, docchunk.LineBasedTokenChunker])
def test_docling_compat_keeps_docling_cores_output(kind):
    chunker = kind(docling_compat=True) if kind is docchunk.PageChunker else kind(max_tokens=64, docling_compat=True)
    assert not any(NOTE in c.text for c in chunker.chunk(_doc("table caption")))  # docling-core drops it
