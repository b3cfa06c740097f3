"""Round-3 documents tester's finding 12: a table continued on the next page as a second ``TableItem``.

docling's PDF pipeline emits a page-broken table as two tables; the second repeats the header
row and has no caption. Its pieces said nothing of the table or its unit (``2026 = 632``, the
first part's caption saying ``EUR thousands``). The rule
(:func:`docchunk.serialization.tables.continued.continued_from`) gives them the first part's
caption. The document is built through docling-core's API, the tester's ``api_continued_table``.
"""

from __future__ import annotations

import pytest
from docling_core.types.doc import BoundingBox, DocItemLabel, DoclingDocument, ProvenanceItem, Size
from docling_core.types.doc.document import ContentLayer

import docchunk
from docchunk.serialization.tables.continued import continued_from
from tests.helpers import check_tables, lost_texts
from tests.helpers.documents import table_data

CAPTION = "Table 12.1: Carrying amounts (EUR thousands)"
HEADER = ["Asset class", "2026", "2025"]
FURNITURE = ContentLayer.FURNITURE


def _prov(page: int, y: float = 100) -> ProvenanceItem:
    return ProvenanceItem(page_no=page, bbox=BoundingBox(l=50, t=y, r=500, b=y + 20), charspan=(0, 1))


def _rows(first: int, last: int, kind: str) -> list[list[str]]:
    return [[f"Class {i}: {kind} {i}", f"{500 + i * 37:,}", f"{450 + i * 29:,}"] for i in range(first, last)]


def continued_table(between: str | None = None, header: list[str] = HEADER, own_caption: str | None = None):
    """Note 12's table on page 1 under its caption, its second part on page 2 with the header repeated.

    Only the page footer and header (furniture, in the body as ``add_text`` puts them) stand
    between the two parts, unless ``between`` names a ``"heading"`` or a ``"paragraph"`` there.
    """
    doc = DoclingDocument(name="continued")
    for page in (1, 2, 3):
        doc.add_page(page_no=page, size=Size(width=600, height=800))
    doc.add_heading("Note 12. Property, plant and equipment", level=1, prov=_prov(1))
    doc.add_text(DocItemLabel.TEXT, "The carrying amounts by asset class were as follows:", prov=_prov(1, 130))
    cap = doc.add_text(DocItemLabel.CAPTION, CAPTION, prov=_prov(1, 150))
    doc.add_table(table_data([HEADER, *_rows(0, 12, "Buildings in plant")]), caption=cap, prov=_prov(1, 170))
    doc.add_text(DocItemLabel.PAGE_FOOTER, "Page 1 of 3", prov=_prov(1, 780), content_layer=FURNITURE)
    doc.add_text(DocItemLabel.PAGE_HEADER, "ACME Corp, Annual Report 2026", prov=_prov(2, 10), content_layer=FURNITURE)
    if between == "heading":
        doc.add_heading("Note 12a. Assets held for sale", level=1, prov=_prov(2, 20))
    elif between == "paragraph":
        doc.add_text(DocItemLabel.TEXT, "Assets held for sale were as follows:", prov=_prov(2, 20))
    cap2 = doc.add_text(DocItemLabel.CAPTION, own_caption, prov=_prov(2, 30)) if own_caption else None
    rows = [header, *_rows(12, 20, "Vehicles in depot"), ["Total", "31,337", "28,101"]]
    doc.add_table(table_data(rows), caption=cap2, prov=_prov(2, 40))
    doc.add_heading("Note 13. Intangible assets", level=1, prov=_prov(3))
    doc.add_text(DocItemLabel.TEXT, "No intangible assets were impaired in 2026.", prov=_prov(3, 130))
    return doc


def test_the_rule_names_the_first_part_of_a_page_broken_table():
    doc = continued_table()
    assert continued_from(doc.tables[1], doc) is doc.tables[0]
    assert continued_from(doc.tables[0], doc) is None  # the first part continues nothing


@pytest.mark.parametrize(
    ("case", "kwargs"),
    [
        ("a heading between", {"between": "heading"}),
        ("a paragraph between", {"between": "paragraph"}),
        ("another header row", {"header": ["Asset class", "2024", "2023"]}),
        ("a caption of its own", {"own_caption": "Table 12.2: Assets held for sale"}),
    ],
)
def test_the_rule_does_not_fire_on_a_table_that_is_no_continuation(case, kwargs):
    doc = continued_table(**kwargs)
    assert continued_from(doc.tables[1], doc) is None, case


@pytest.mark.parametrize(("tokenizer", "max_tokens"), [("minilm", 64), ("minilm", 256), ("cl100k", 128)])
def test_every_piece_of_the_continuation_carries_the_first_parts_caption_before_its_rows(
    tokenizer, max_tokens, minilm_dir, cl100k
):
    """Fails on the code before: the continuation's pieces had no caption (``captions`` None)."""
    doc = continued_table()
    tok = docchunk.get_tokenizer(f"hf:{minilm_dir}" if tokenizer == "minilm" else cl100k)
    chunker = docchunk.HybridChunker(tokenizer=tok, max_tokens=max_tokens)
    chunks = list(chunker.chunk(doc))
    second = doc.tables[1].self_ref
    pieces = [c for c in chunks if any(it.self_ref == second for it in c.meta.doc_items)]
    assert pieces
    for piece in pieces:
        assert piece.meta.captions == [CAPTION]
        lines = chunker.contextualize(piece).split("\n")
        rows = [k for k, line in enumerate(lines) if line.startswith(("Class 1", "Total"))]
        assert rows and lines.index(CAPTION) < rows[0], lines  # the caption before the rows
        assert CAPTION not in piece.text  # in captions, not written into the text again
    assert all(c.meta.token_count <= max_tokens for c in chunks)
    assert lost_texts(doc, chunks) == []
    check_tables(chunker, doc, chunks)
