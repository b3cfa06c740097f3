"""PageChunker: docling-core parity in compat mode, docchunk's invariants by default."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import HealthCheck, given, settings

from docchunk import DocumentError, PageChunker
from tests.chunkers.doc.item_docs import prov
from tests.helpers import DATA, examples, live_docling_params, load
from tests.property.strategies import paged_documents


def _signature(chunk) -> tuple:
    return chunk.text, [item.self_ref for item in chunk.meta.doc_items], chunk.meta.headings


@pytest.mark.parametrize("path", live_docling_params())
def test_compat_equals_docling_core(path):
    from docling_core.transforms.chunker.page_chunker import PageChunker as DLPageChunker

    doc = load(path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = [_signature(c) for c in DLPageChunker().chunk(doc)]
    got = list(PageChunker(docling_compat=True).chunk(doc))
    assert [_signature(c) for c in got] == expected
    assert all(c.meta.token_count is not None for c in got)


def _texts_of(doc) -> list[str]:
    return [t.text for t in doc.texts if t.text.strip()]


def test_item_without_provenance_is_kept_on_the_previous_page():
    """Regression (docling-core loses it): an element without provenance in a paged document."""
    from docling_core.transforms.chunker.page_chunker import PageChunker as DLPageChunker
    from docling_core.types.doc import DocItemLabel

    doc = _two_pages("noprov")
    doc.add_text(label=DocItemLabel.TEXT, text="first page text", prov=prov(1))
    doc.add_text(label=DocItemLabel.TEXT, text="floating note without provenance")
    doc.add_text(label=DocItemLabel.TEXT, text="second page text", prov=prov(2))
    theirs = [c.text for c in DLPageChunker().chunk(doc)]
    assert not any("floating" in t for t in theirs)
    ours = list(PageChunker().chunk(doc))
    assert [c.text for c in ours] == ["first page text\n\nfloating note without provenance", "second page text"]
    assert [c.meta.page_numbers for c in ours] == [[1], [2]]


def _undeclared_pages_doc():
    """Pages 1 and 2 declared; texts on pages 1, 5 and 0 (neither declared) and 2."""
    from docling_core.types.doc import DocItemLabel

    doc = _two_pages("undeclared-pages")
    doc.add_text(label=DocItemLabel.TEXT, text="Text on page one.", prov=prov(1))
    doc.add_text(label=DocItemLabel.TEXT, text="Text on page five, which the document does not declare.", prov=prov(5))
    doc.add_text(label=DocItemLabel.TEXT, text="Text on page zero, before the first page.", prov=prov(0))
    doc.add_text(label=DocItemLabel.TEXT, text="Text on page two.", prov=prov(2))
    return doc


@pytest.mark.parametrize("max_tokens", [None, 256, 8])
def test_element_on_an_undeclared_page_is_a_page_of_its_own(max_tokens):
    """Regression (hostile finding 3): an element whose provenance names a page missing from ``doc.pages``
    was joined into the chunk of the page before it (``page_numbers == [1, 5]``) without a budget, and had
    chunks of its own with a small one. It is on its page, in page order, whatever ``max_tokens``."""
    doc = _undeclared_pages_doc()
    chunker = PageChunker(max_tokens=max_tokens)
    chunks = list(chunker.chunk(doc))
    assert all(len(c.meta.page_numbers) == 1 for c in chunks), [c.meta.page_numbers for c in chunks]
    pages = [c.meta.page_numbers[0] for c in chunks]
    assert pages == sorted(pages) and set(pages) == {0, 1, 2, 5}
    by_page: dict[int, list[str]] = {}
    for chunk, page in zip(chunks, pages, strict=True):
        by_page.setdefault(page, []).append(chunk.text)
        assert chunk.meta.token_count == chunker.token_counter.count_tokens(chunk.text)
        assert chunk.meta.token_count <= (max_tokens or chunk.meta.token_count) or chunk.meta.oversized
    expected = {item.prov[0].page_no: item.text for item in doc.texts}
    assert {page: "".join(texts) for page, texts in by_page.items()} == expected  # no text lost or moved


def test_page_expansion_of_an_element_on_an_undeclared_page():
    """Hostile finding 3, the expander: a chunk on an undeclared page expands to that page, not the one before."""
    from docchunk import PageChunkExpander

    doc = _undeclared_pages_doc()
    chunk = next(c for c in PageChunker(max_tokens=8).chunk(doc) if c.meta.page_numbers == [5])
    big = PageChunkExpander().expand(chunk, doc)
    assert big.meta.expanded is True
    assert big.meta.page_numbers == [5]
    assert big.text == "Text on page five, which the document does not declare."


@pytest.mark.parametrize("max_tokens", [None, 15])
def test_whitespace_note_gives_no_whitespace_chunk(max_tokens):
    """Regression (issue 45, found by the order-dependent fuzz runs): a note of one space in the
    furniture layer (body text of the default mode) was a part of its page: a chunk ``' '`` of its
    own when the page was split, else a page chunk opening with a space and a blank line."""
    from docling_core.types.doc import ContentLayer, DocItemLabel

    doc = _two_pages("blank-note")
    doc.add_text(label=DocItemLabel.FOOTNOTE, text=" ", content_layer=ContentLayer.FURNITURE, prov=prov(1))
    doc.add_text(label=DocItemLabel.TEXT, text="first page text", prov=prov(1))  # 15 characters
    doc.add_text(label=DocItemLabel.TEXT, text="second page", prov=prov(2))
    chunks = list(PageChunker(tokenizer="character", max_tokens=max_tokens).chunk(doc))
    assert [c.text for c in chunks] == ["first page text", "second page"]


def test_heading_child_without_provenance_is_kept():
    """Regression (issue 45, fuzz counterexample lost_control_character_page): a text without provenance
    under a heading of page 1 (a part of its own) was marked placed with its heading, and lost."""
    from docling_core.types.doc import DocItemLabel

    doc = _two_pages("heading-child")
    heading = doc.add_heading("Scope", level=1, prov=prov(1))
    doc.add_text(label=DocItemLabel.TEXT, text="unpaged child", parent=heading)
    doc.add_text(label=DocItemLabel.TEXT, text="second page text", prov=prov(2))
    chunks = list(PageChunker(tokenizer="word", max_tokens=None).chunk(doc))
    assert [c.text for c in chunks] == ["## Scope\n\nunpaged child", "second page text"]


def _two_pages(name: str):
    from docling_core.types.doc import DoclingDocument, Size

    doc = DoclingDocument(name=name)
    for page_no in (1, 2):
        doc.add_page(page_no=page_no, size=Size(width=600, height=800))
    return doc


def _noprov_children_doc():
    from docling_core.types.doc import DocItemLabel

    doc = _two_pages("picture-children")
    doc.add_text(label=DocItemLabel.TEXT, text="first page text", prov=prov(1))
    pic = doc.add_picture(prov=prov(2))
    doc.add_text(label=DocItemLabel.TEXT, text="chart label with provenance", parent=pic, prov=prov(2))
    doc.add_text(label=DocItemLabel.TEXT, text="chart label without provenance", parent=pic)
    doc.add_text(label=DocItemLabel.TEXT, text="after the chart", prov=prov(2))
    return doc


def test_picture_child_without_provenance_stays_inside_its_picture():
    """A picture's text item without provenance was lost: the page filter left it out of its picture's part."""
    chunks = list(PageChunker().chunk(_noprov_children_doc()))
    assert [c.text for c in chunks] == [
        "first page text",
        "chart label with provenance\n\nchart label without provenance\n\nafter the chart",
    ]
    assert [c.meta.page_numbers for c in chunks] == [[1], [2]]


def test_list_item_without_provenance_in_a_list_over_two_pages():
    """A list on two pages whose middle item has no provenance: the item goes after the item before it."""
    doc = _two_pages("list-two-pages")
    group = doc.add_list_group()
    doc.add_list_item(text="first item", parent=group, prov=prov(1))
    doc.add_list_item(text="unplaced item", parent=group)
    doc.add_list_item(text="last item", parent=group, prov=prov(2))
    chunks = list(PageChunker().chunk(doc))
    joined = "\n".join(c.text for c in chunks)
    assert joined.count("unplaced item") == 1
    assert "first item" in chunks[0].text and "unplaced item" in chunks[0].text
    assert chunks[0].text.index("first item") < chunks[0].text.index("unplaced item")
    assert "last item" in chunks[-1].text


@pytest.mark.parametrize("max_tokens", [16, 64])
def test_budget_splits_pages_at_element_boundaries(max_tokens):
    doc = load(DATA / "pdf__multi_page.json")
    whole = list(PageChunker().chunk(doc))
    chunks = list(PageChunker(max_tokens=max_tokens).chunk(doc))
    assert len(chunks) > len(whole)
    for chunk in chunks:
        assert chunk.text.strip()
        assert chunk.meta.token_count <= max_tokens or chunk.meta.oversized
        assert len(chunk.meta.page_numbers) == 1, "a chunk never joins two pages"
    whole_refs = [it.self_ref for c in whole for it in c.meta.doc_items]
    split_refs = {it.self_ref for c in chunks for it in c.meta.doc_items}
    assert set(whole_refs) == split_refs
    # every word of every page reaches a chunk, in order
    assert " ".join(c.text for c in chunks).split() == " ".join(c.text for c in whole).split()


def test_document_without_pages_is_one_chunk():
    doc = load(DATA / "docx__word_sample.docx.json")
    assert not doc.pages
    chunks = list(PageChunker().chunk(doc))
    assert len(chunks) == 1
    assert chunks[0].meta.page_numbers is None


def test_bad_input():
    with pytest.raises(DocumentError, match="DoclingDocument"):
        list(PageChunker().chunk("not a document"))
    with pytest.raises(ValueError, match="max_tokens"):
        PageChunker(max_tokens=0)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=paged_documents())
def test_no_text_lost_and_no_empty_chunk(doc):
    chunker = PageChunker(max_tokens=32)
    chunks = list(chunker.chunk(doc))
    again = [c.text for c in chunker.chunk(doc)]
    assert [c.text for c in chunks] == again, "deterministic"
    joined = "\n".join(c.text for c in chunks)
    for text in _texts_of(doc):
        for word in text.split():
            assert word in joined
    for chunk in chunks:
        assert chunk.text.strip()
        assert chunk.meta.token_count == chunker.token_counter.count_tokens(chunk.text)
        assert chunk.meta.token_count <= 32 or chunk.meta.oversized


def test_caption_on_another_page_than_its_code_item_in_a_list_over_two_pages():
    """A code item's caption on another page than the code (in a list over two pages) was lost: the page
    filter left it out of both pages, and a caption serialized alone writes nothing (issue 45's random run).
    A text of no page inside the list was written twice."""
    from docling_core.types.doc import DocItemLabel

    doc = _two_pages("caption-two-pages")
    group = doc.add_list_group()
    doc.add_list_item(text="first item", parent=group, prov=prov(1))
    last = doc.add_list_item(text="last item", parent=group, prov=prov(2))
    code = doc.add_code(text="print(1)", parent=last, prov=prov(2))
    code.captions.append(doc.add_text(label=DocItemLabel.CAPTION, text="the code's caption", parent=code,
                                      prov=prov(1)).get_ref())  # fmt: skip
    inline = doc.add_inline_group(parent=last)  # a text of no page: placed once (it was written twice)
    doc.add_text(label=DocItemLabel.TEXT, text="unplaced words", parent=inline)
    for max_tokens in (None, 16):
        texts = [c.text for c in PageChunker(max_tokens=max_tokens).chunk(doc)]
        assert "\n".join(texts).count("the code's caption") == 1, texts
        assert "\n".join(texts).count("unplaced words") == 1, texts
        assert sum(t.count("first item") for t in texts) == 1


def _unpaged_between_doc():
    """Pages 1 and 2: a long paragraph on page 1, a text without provenance, a text on page 1, one on page 2."""
    from docling_core.types.doc import DocItemLabel

    doc = _two_pages("unpaged-between")
    doc.add_text(label=DocItemLabel.TEXT, text="Page one opens with a paragraph about the warranty terms. " * 6,
                 prov=prov(1))  # fmt: skip
    doc.add_text(label=DocItemLabel.TEXT, text="A note converted without provenance.")
    doc.add_text(label=DocItemLabel.TEXT, text="Page one closes.", prov=prov(1))
    doc.add_text(label=DocItemLabel.TEXT, text="Page two text.", prov=prov(2))
    return doc


@pytest.mark.parametrize(("tokenizer", "max_tokens"), [(None, None), (None, 512), (None, 64), ("word", 3)])
def test_regression_element_without_provenance_keeps_its_page_whatever_the_budget(tokenizer, max_tokens):
    """Regression (s8 hostile finding 3): once ``max_tokens`` split its page, the element without
    provenance was a chunk with ``page_numbers`` None; and it was written after the page's later elements."""
    chunker = PageChunker(max_tokens=max_tokens) if tokenizer is None else PageChunker(tokenizer=tokenizer,
                                                                                       max_tokens=max_tokens)
    chunks = list(chunker.chunk(_unpaged_between_doc()))
    holders = [c for c in chunks if "without" in c.text]
    assert holders and all(c.meta.page_numbers == [1] for c in holders), [(c.text, c.meta.page_numbers) for c in chunks]
    assert all(c.meta.page_numbers is not None and len(c.meta.page_numbers) == 1 for c in chunks)
    words = " ".join(c.text for c in chunks).split()  # document order: the note before "Page one closes."
    assert words.index("provenance.") < words.index("closes.") < words.index("two")


@pytest.mark.parametrize("max_tokens", [None, 4])
def test_regression_a_first_element_without_provenance_opens_the_page_after_it(max_tokens):
    """Regression (s8 hostile finding 3): a first element without provenance (no element before it) was
    put after the first page's elements; it goes to the page of the element after it, first."""
    from docling_core.transforms.chunker.page_chunker import PageChunker as DLPageChunker
    from docling_core.types.doc import DocItemLabel

    doc = _two_pages("title-first")
    doc.add_text(label=DocItemLabel.TEXT, text="Title without provenance")
    doc.add_text(label=DocItemLabel.TEXT, text="Body on page one.", prov=prov(1))
    chunks = list(PageChunker(max_tokens=max_tokens).chunk(doc))
    assert " ".join(c.text for c in chunks).split() == "Title without provenance Body on page one.".split()
    assert [c.meta.page_numbers for c in chunks] == [[1]] * len(chunks)
    # page 1 declared but empty: the title opens page 2, the page of the element after it
    doc = _two_pages("title-before-page-two")
    doc.add_text(label=DocItemLabel.TEXT, text="Title without provenance")
    doc.add_text(label=DocItemLabel.TEXT, text="Body on page two.", prov=prov(2))
    chunks = list(PageChunker().chunk(doc))
    assert [(c.text, c.meta.page_numbers) for c in chunks] == [("Title without provenance\n\nBody on page two.", [2])]
    compat = [c.text for c in PageChunker(docling_compat=True).chunk(doc)]
    assert compat == [c.text for c in DLPageChunker().chunk(doc)] == ["Body on page two."]  # docling-core drops it
