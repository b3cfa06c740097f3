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


STRUCTURE_OPS = ["title", "heading", "heading", "text", "text", "list", "table", "long_heading", "caption",
                 "footnote", "captioned_table", "page_break"]  # fmt: skip


@st.composite
def structured_documents(draw, with_pages: bool = True):
    """Documents with the structures that docling-core's chunking loses text of.

    Consecutive, trailing and over-long headings, orphan captions and footnotes,
    tables of random shape with merged and empty cells (some with a caption and a
    footnote), and (``with_pages``) page provenance that changes between items, with
    some items spanning two pages.
    """
    from docling_core.types.doc import BoundingBox, DocItemLabel, DoclingDocument, ProvenanceItem, Size

    doc = DoclingDocument(name="structured")
    page = [1]

    def prov():
        if not with_pages:
            return None
        spans = draw(st.integers(0, 9)) == 0
        pages = [page[0], page[0] + 1] if spans else [page[0]]
        if spans:
            page[0] += 1
        for p in pages:
            if p not in doc.pages:
                doc.add_page(page_no=p, size=Size(width=600, height=800))
        box = BoundingBox(l=0, t=0, r=10, b=10)
        return [ProvenanceItem(page_no=p, bbox=box, charspan=(0, 1)) for p in pages]

    def add_text(label, text):
        item = doc.add_text(label=label, text=text)
        for p in prov() or []:
            item.prov.append(p)
        return item

    ops = draw(st.lists(st.sampled_from(STRUCTURE_OPS), max_size=12))
    for op in ops:
        if op == "page_break":
            page[0] += 1
        elif op == "title":
            doc.add_title(text=draw(texts(max_words=6)))
        elif op in ("heading", "long_heading"):
            words = (30, 80) if op == "long_heading" else (1, 6)
            text = draw(texts(min_words=words[0], max_words=words[1]))
            item = doc.add_heading(text=text, level=draw(st.integers(1, 4)))
            item.prov.extend(prov() or [])
        elif op == "text":
            add_text(DocItemLabel.TEXT, draw(texts(max_words=150)))
        elif op in ("caption", "footnote"):
            add_text(DocItemLabel.CAPTION if op == "caption" else DocItemLabel.FOOTNOTE, draw(texts(max_words=12)))
        elif op == "list":
            group = doc.add_list_group()
            for text in draw(st.lists(texts(max_words=20), min_size=1, max_size=5)):
                item = doc.add_list_item(text=text, parent=group)
                item.prov.extend(prov() or [])
        else:
            _add_table(draw, doc, prov, captioned=op == "captioned_table")
    return doc


def _add_table(draw, doc, prov, captioned: bool) -> None:
    """A table of random shape (:func:`table_specs`: merged and empty cells), maybe with caption and footnote."""
    from docling_core.types.doc import DocItemLabel

    from tests.helpers import make_table

    grid, header_rows, row_header_cols, spans = draw(table_specs())
    caption = draw(texts(max_words=10)) if captioned else None
    _, table = make_table(grid, header_rows, row_header_cols, spans, doc=doc, caption=caption)
    table.prov.extend(prov() or [])
    if captioned:
        note = doc.add_text(label=DocItemLabel.FOOTNOTE, text=draw(texts(max_words=10)), parent=table)
        table.footnotes.append(note.get_ref())


CELL_TEXT = st.one_of(
    st.just(""),
    st.sampled_from(["-", "|", ":", "a|b", "Region 11", "111.", "東京", "x" * 60, "3.14", "- -", "naïve"]),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=10),
    st.lists(st.sampled_from(["alpha", "beta", "gamma", "delta", "12", "%"]), min_size=20, max_size=90).map(" ".join),
)


@st.composite
def table_specs(draw):
    """``(grid, header_rows, row_header_cols, spans)`` of a random table for ``tests.helpers.make_table``.

    Random shape (1-7 rows, 1-5 columns), merged cells, empty cells, bare dashes and bars.
    """
    n_rows, n_cols = draw(st.integers(1, 7)), draw(st.integers(1, 5))
    grid: list[list[str | None]] = [[draw(CELL_TEXT) for _ in range(n_cols)] for _ in range(n_rows)]
    spans, taken = [], set()
    for _ in range(draw(st.integers(0, 3))):
        r, c = draw(st.integers(0, n_rows - 1)), draw(st.integers(0, n_cols - 1))
        rs, cs = draw(st.integers(1, n_rows - r)), draw(st.integers(1, n_cols - c))
        area = {(i, j) for i in range(r, r + rs) for j in range(c, c + cs)}
        if area & taken:
            continue
        taken |= area
        spans.append((r, c, rs, cs))
    for r, c, rs, cs in spans:
        for i in range(r, r + rs):
            for j in range(c, c + cs):
                if (i, j) != (r, c):
                    grid[i][j] = None
    return grid, draw(st.integers(0, min(2, n_rows))), draw(st.integers(0, 1)), spans
