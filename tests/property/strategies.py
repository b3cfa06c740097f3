"""Hypothesis strategies: texts with hard characters and DoclingDocuments built from them."""

from __future__ import annotations

from hypothesis import strategies as st

WORDS = [
    "the", "chunk", "Tokenizer", "naïve", "東京都", "emoji😀🎉", "e\u0301", "שלום", "مرحبا", "x" * 130, "a-b/c", "3.14",
]  # fmt: skip
SEPARATORS = [" ", " ", " ", "\n", "\n\n", ". ", ", ", "\t", "\r\n", "; ", "  "]

words = st.one_of(
    st.sampled_from(WORDS),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12),
)


@st.composite
def texts(draw, min_words: int = 1, max_words: int = 60) -> str:
    parts = draw(st.lists(words, min_size=min_words, max_size=max_words))
    out = []
    for i, w in enumerate(parts):
        if i:
            out.append(draw(st.sampled_from(SEPARATORS)))
        out.append(w)
    return "".join(out)


@st.composite
def documents(draw):
    """A DoclingDocument of titles, headings, paragraphs, lists and tables."""
    from docling_core.types.doc import DocItemLabel, DoclingDocument, TableCell, TableData

    doc = DoclingDocument(name="generated")
    ops = draw(
        st.lists(st.sampled_from(["title", "heading", "text", "text", "list", "table", "long_heading"]), max_size=10)
    )
    for op in ops:
        if op == "title":
            doc.add_title(text=draw(texts(max_words=6)))
        elif op == "heading":
            doc.add_heading(text=draw(texts(max_words=6)), level=draw(st.integers(1, 3)))
        elif op == "long_heading":
            doc.add_heading(text=draw(texts(min_words=30, max_words=80)), level=draw(st.integers(1, 3)))
        elif op == "text":
            doc.add_text(label=DocItemLabel.TEXT, text=draw(texts(max_words=150)))
        elif op == "list":
            group = doc.add_list_group()
            for item in draw(st.lists(texts(max_words=20), min_size=1, max_size=5)):
                doc.add_list_item(text=item, parent=group)
        else:
            rows, cols = draw(st.integers(1, 4)), draw(st.integers(1, 4))
            cells = [
                TableCell(
                    text=draw(texts(max_words=8)),
                    start_row_offset_idx=r,
                    end_row_offset_idx=r + 1,
                    start_col_offset_idx=c,
                    end_col_offset_idx=c + 1,
                    column_header=r == 0,
                )
                for r in range(rows)
                for c in range(cols)
            ]
            doc.add_table(data=TableData(num_rows=rows, num_cols=cols, table_cells=cells))
    return doc


@st.composite
def paged_documents(draw):
    """A DoclingDocument with pages: paragraphs, headings and tables on random pages, some without provenance."""
    from docling_core.types.doc import BoundingBox, DocItemLabel, DoclingDocument, ProvenanceItem, Size

    doc = DoclingDocument(name="paged")
    n_pages = draw(st.integers(1, 4))
    for page_no in range(1, n_pages + 1):
        doc.add_page(page_no=page_no, size=Size(width=600, height=800))
    page = 1
    for op in draw(st.lists(st.sampled_from(["heading", "text", "text", "noprov", "next_page"]), max_size=12)):
        if op == "next_page":
            page = min(page + 1, n_pages)
            continue
        text = draw(texts(max_words=6 if op == "heading" else 60))
        prov = None
        if op != "noprov":
            prov = ProvenanceItem(
                page_no=page, bbox=BoundingBox(l=0, t=0, r=10, b=10), charspan=(0, len(text))
            )
        if op == "heading":
            doc.add_heading(text=text, level=1, prov=prov)
        else:
            doc.add_text(label=DocItemLabel.TEXT, text=text, prov=prov)
    return doc
