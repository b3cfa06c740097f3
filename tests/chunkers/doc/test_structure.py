"""The default (structure-faithful) mode of the document chunkers: regression tests named after
the docling-core defects they pin, and the new options."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from docling_core.types.doc import BoundingBox, DocItemLabel, DoclingDocument, GroupLabel, ProvenanceItem, Size

import docchunk
from tests.helpers import (
    CORPUS,
    CORPUS_REASON,
    captioned_doc,
    corpus_docs,
    debris_lines,
    load,
    lost_texts,
    page_sets,
    squash,
)


def _doc(*ops) -> DoclingDocument:
    """A document from ("h", level, text) headings and ("t", text) paragraphs."""
    doc = DoclingDocument(name="d")
    for op in ops:
        if op[0] == "h":
            doc.add_heading(text=op[2], level=op[1])
        else:
            doc.add_text(label=DocItemLabel.TEXT, text=op[1])
    return doc


def _both(doc, **kwargs):
    """(compat chunks, default chunks) of the hybrid chunker with the word tokenizer."""
    kwargs.setdefault("tokenizer", "word")
    kwargs.setdefault("max_tokens", 64)
    compat = list(docchunk.HybridChunker(docling_compat=True, **kwargs).chunk(doc))
    default = list(docchunk.HybridChunker(**kwargs).chunk(doc))
    return compat, default


def test_consecutive_headings_of_one_level_were_lost():
    # the first heading is kept as a chunk of its own: same-level headings are siblings, not a path
    doc = _doc(("h", 1, "EXAMPLE 1"), ("h", 1, "(A) Inactivation of the enzyme"), ("t", "The enzyme was heated."))
    compat, default = _both(doc)
    assert [c.meta.headings for c in compat] == [["(A) Inactivation of the enzyme"]]
    assert [(c.text, c.meta.headings) for c in default] == [
        ("EXAMPLE 1", None),
        ("The enzyme was heated.", ["(A) Inactivation of the enzyme"]),
    ]
    assert not lost_texts(doc, default)


def test_trailing_heading_was_lost():
    doc = _doc(("h", 1, "Intro"), ("t", "Body text."), ("h", 1, "Appendix"))
    compat, default = _both(doc)
    assert [c.text for c in compat] == ["Body text."]
    assert [(c.text, c.meta.headings) for c in default] == [("Body text.", ["Intro"]), ("Appendix", None)]


def test_empty_subsection_heading_before_next_section_was_lost():
    doc = _doc(("h", 1, "One"), ("t", "first"), ("h", 2, "One.A"), ("h", 1, "Two"), ("t", "second"))
    _, default = _both(doc, merge_peers=False)
    assert [(c.text, c.meta.headings) for c in default] == [("first", ["One"]), ("One.A", ["One"]), ("second", ["Two"])]


def test_heading_longer_than_the_budget_was_lost():
    long = "a very long heading " * 20  # 80 words
    doc = _doc(("h", 1, long), ("t", "The body."))
    compat, default = _both(doc, max_tokens=30)
    assert all(c.meta.headings is None for c in compat) and "very" not in "".join(c.text for c in compat)
    assert not lost_texts(doc, default)
    assert all(c.meta.token_count <= 30 for c in default)
    assert " ".join(c.text for c in default).split() == [*long.split(), "The", "body."]


def test_heading_path_longer_than_the_budget_was_lost():
    doc = DoclingDocument(name="deep")
    headings = [f"Section {i} with a rather long descriptive title of fourteen tokens" for i in range(7)]
    for level, text in enumerate(headings, start=1):
        doc.add_heading(text=text, level=level)
    doc.add_text(label=DocItemLabel.TEXT, text="The content of the innermost section.")
    tok = docchunk.get_tokenizer()
    compat = list(docchunk.HybridChunker(tokenizer=tok, max_tokens=64, docling_compat=True).chunk(doc))
    assert all(c.meta.headings is None for c in compat)
    chunks = list(docchunk.HybridChunker(tokenizer=tok, max_tokens=64).chunk(doc))
    assert not lost_texts(doc, chunks)
    content = chunks[-1]
    assert content.text.startswith("The content") and content.meta.headings == headings[-len(content.meta.headings) :]
    assert all(c.meta.token_count <= 64 for c in chunks)


def test_table_footnote_was_lost():
    from docling_core.types.doc import TableCell, TableData

    doc = DoclingDocument(name="t")
    cells = [TableCell(text=t, start_row_offset_idx=r, end_row_offset_idx=r + 1, start_col_offset_idx=0,
                       end_col_offset_idx=1, column_header=r == 0) for r, t in enumerate(["Year", "2020"])]  # fmt: skip
    table = doc.add_table(data=TableData(num_rows=2, num_cols=1, table_cells=cells))
    note = doc.add_text(label=DocItemLabel.FOOTNOTE, text="Source: the survey office.", parent=table)
    table.footnotes.append(note.get_ref())
    compat, default = _both(doc)
    assert "survey" not in "".join(c.text for c in compat)
    assert not lost_texts(doc, default)
    assert not lost_texts(doc, list(docchunk.HierarchicalChunker().chunk(doc)))


@pytest.mark.parametrize("inline", [False, True], ids=["plain", "inline"])
def test_table_caption_with_inline_formatting_was_written_twice(inline):
    """A caption with a formula in it: its parts were written again, each on a line of its own.

    Now the caption is ``meta.captions`` once, as one line, as a plain caption is, in both chunkers.
    """
    doc = captioned_doc("table", inline)
    hybrid = docchunk.HybridChunker(tokenizer="word", max_tokens=64, merge_peers=False)
    chunkers = [hybrid, docchunk.HierarchicalChunker()]
    for chunker in chunkers:
        chunks = list(chunker.chunk(doc))
        assert [(c.text, c.meta.captions) for c in chunks] == [
            ("apple (Fruit): Price = 3", ["Table $x$ : results"]),
            ("after", None),
        ]
        assert sum(chunker.contextualize(c).count("results") for c in chunks) == 1


@pytest.mark.parametrize("inline", [False, True], ids=["plain", "inline"])
@pytest.mark.parametrize("merge_peers", [True, False])
def test_picture_caption_with_inline_formatting_lost_its_text(inline, merge_peers):
    """A picture is written as its captions; of one with a formula in it, "Table" was lost and the parts
    were written one per line (docling-core does the same, so docling_compat=True keeps it)."""
    doc = captioned_doc("picture", inline)
    chunker = docchunk.HybridChunker(tokenizer="word", max_tokens=64, merge_peers=merge_peers)
    texts = [c.text for c in chunker.chunk(doc)]
    assert texts == (["Table $x$ : results\nafter"] if merge_peers else ["Table $x$ : results", "after"])
    assert [c.text for c in docchunk.HierarchicalChunker().chunk(doc)] == ["Table $x$ : results", "after"]


def test_headings_only_document_keeps_its_headings():
    doc = _doc(("h", 1, "Annual report"), ("h", 2, "Summary"))
    assert [(c.text, c.meta.headings) for c in docchunk.HierarchicalChunker().chunk(doc)] == [
        ("Annual report\nSummary", None)
    ]


def test_always_emit_headings_gives_heading_only_chunks():
    doc = _doc(("h", 1, "A"), ("h", 1, "B"), ("t", "text"))
    chunks = list(docchunk.HybridChunker(tokenizer="word", max_tokens=20, always_emit_headings=True).chunk(doc))
    assert [(c.text, c.meta.headings) for c in chunks] == [("", ["A"]), ("text", ["B"])]


@pytest.mark.parametrize("merge_peers", [True, False])
def test_always_emit_headings_keeps_heading_only_chunks_of_several_headings(merge_peers):
    """A section and sub-section without content: one heading-only chunk with both headings.

    The hybrid chunker dropped it: the split at element boundaries (two heading items) lost its mark.
    """
    doc = _doc(("h", 1, "Section 1"), ("h", 2, "Section 1.1"), ("h", 1, "Section 2"), ("t", "Foo"))
    expected = [("", ["Section 1", "Section 1.1"]), ("Foo", ["Section 2"])]
    for compat in (True, False):
        chunker = docchunk.HybridChunker(
            tokenizer="word", max_tokens=20, always_emit_headings=True, merge_peers=merge_peers, docling_compat=compat
        )
        chunks = list(chunker.chunk(doc))
        assert [(c.text, c.meta.headings) for c in chunks] == expected
        assert [len(c.meta.doc_items) for c in chunks] == [2, 1]
        hierarchical = docchunk.HierarchicalChunker(always_emit_headings=True, docling_compat=compat)
        assert [(c.text, c.meta.headings) for c in hierarchical.chunk(doc)] == expected


def test_sheet_names_reach_the_chunks():
    from docling_core.types.doc import TableCell, TableData

    doc = DoclingDocument(name="x")
    for name in ["Prices", "Stock"]:
        sheet = doc.add_group(label=GroupLabel.SHEET, name=name)
        cells = [TableCell(text=f"{name} cell", start_row_offset_idx=0, end_row_offset_idx=1, start_col_offset_idx=0,
                           end_col_offset_idx=1)]  # fmt: skip
        doc.add_table(data=TableData(num_rows=1, num_cols=1, table_cells=cells), parent=sheet)
    doc.add_text(label=DocItemLabel.TEXT, text="after the sheets")
    chunks = list(docchunk.HybridChunker(tokenizer="word", max_tokens=64, merge_peers=False).chunk(doc))
    assert [c.meta.headings for c in chunks] == [["Prices"], ["Stock"], None]


def _paged_doc() -> DoclingDocument:
    doc = DoclingDocument(name="slides")
    for page in (1, 2):
        doc.add_page(page_no=page, size=Size(width=100, height=100))
        for k in range(2):
            prov = ProvenanceItem(page_no=page, bbox=BoundingBox(l=0, t=0, r=1, b=1), charspan=(0, 1))
            doc.add_text(label=DocItemLabel.TEXT, text=f"slide {page} point {k}", prov=prov)
    return doc


def test_merge_peers_joined_slides():
    doc = _paged_doc()
    compat, default = _both(doc)
    assert len(compat) == 1 and len(default) == 1 and default[0].meta.page_numbers == [1, 2]
    apart = list(docchunk.HybridChunker(tokenizer="word", max_tokens=64, merge_across_pages=False).chunk(doc))
    assert [c.text for c in apart] == ["slide 1 point 0\nslide 1 point 1", "slide 2 point 0\nslide 2 point 1"]
    assert all(len(page_sets(c)) == 1 for c in apart)


def test_min_tokens_merges_within_the_section_first():
    doc = _doc(("h", 1, "A"), ("t", "one two three four five six"), ("t", "tiny"), ("h", 1, "B"), ("t", "b text"))
    chunker = docchunk.HybridChunker(tokenizer="word", max_tokens=9, min_tokens=4, merge_peers=False)
    chunks = list(chunker.chunk(doc))
    assert [(c.text, c.meta.headings) for c in chunks] == [
        ("one two three four five six\ntiny", ["A"]),
        ("b text", ["B"]),  # merging it would exceed max_tokens
    ]


def test_min_tokens_merges_across_a_heading_boundary_with_the_common_path():
    doc = _doc(("h", 1, "Doc"), ("h", 2, "A"), ("t", "alpha beta"), ("h", 2, "B"), ("t", "gamma"))
    chunks = list(docchunk.HybridChunker(tokenizer="word", max_tokens=20, min_tokens=5).chunk(doc))
    assert [(c.text, c.meta.headings) for c in chunks] == [("A\nalpha beta\nB\ngamma", ["Doc"])]
    assert chunks[0].meta.token_count == 6


def test_min_tokens_is_checked():
    with pytest.raises(docchunk.ConfigError, match="min_tokens"):
        docchunk.HybridChunker(tokenizer="word", max_tokens=10, min_tokens=11)
    with pytest.raises(docchunk.ConfigError, match="docling_compat"):
        docchunk.HybridChunker(tokenizer="word", max_tokens=10, min_tokens=2, docling_compat=True)
    with pytest.raises(docchunk.ConfigError, match="docling_compat"):
        docchunk.HybridChunker(tokenizer="word", max_tokens=10, merge_across_pages=False, docling_compat=True)


def test_oversized_paragraph_is_split_at_sentence_ends():
    text = " ".join(f"Sentence number {i} has exactly seven words." for i in range(6))
    doc = _doc(("t", text))
    chunks = list(docchunk.HybridChunker(tokenizer="word", max_tokens=16).chunk(doc))
    assert [c.text for c in chunks] == [
        "Sentence number 0 has exactly seven words. Sentence number 1 has exactly seven words.",
        "Sentence number 2 has exactly seven words. Sentence number 3 has exactly seven words.",
        "Sentence number 4 has exactly seven words. Sentence number 5 has exactly seven words.",
    ]


@pytest.mark.slow
@pytest.mark.corpus
@pytest.mark.skipif(not corpus_docs(), reason=CORPUS_REASON)
@pytest.mark.parametrize(("max_tokens", "across"), [(64, True), (256, False)])
def test_corpus_keeps_every_heading_and_caption(max_tokens, across):
    tok = docchunk.get_tokenizer()
    chunker = docchunk.HybridChunker(tokenizer=tok, max_tokens=max_tokens, merge_across_pages=across)
    for path in sorted((CORPUS / "docling").glob("*.json")):
        doc = load(path)
        chunks = list(chunker.chunk(doc))
        lost = lost_texts(doc, chunks)  # rich table cells' text items included
        assert not lost, (path.name, lost[:3])
        for chunk in chunks:
            assert chunk.text.strip()
            assert chunk.meta.token_count <= max_tokens or chunk.meta.oversized
            assert across or len(page_sets(chunk)) <= 1, path.name


@pytest.mark.parametrize("max_tokens", [8, 12, 16])
def test_list_marker_is_not_cut_from_a_long_first_word(max_tokens):
    """A list item whose first word is longer than the budget gave a chunk ``-`` (a debris line).

    The sentence split put the marker ``-`` of ``- Pneumonoultramicroscopic...`` in a
    segment of its own; a marks-only segment now goes with the text after it.
    """
    doc = DoclingDocument(name="word")
    text = "Pneumonoultramicroscopicsilicovolcanoconiosis is a word."
    doc.add_list_item(text=text, parent=doc.add_list_group())
    chunker = docchunk.HybridChunker(max_tokens=max_tokens)
    chunks = list(chunker.chunk(doc))
    assert chunks[0].text.startswith("- Pneumono")
    for chunk in chunks:
        assert not debris_lines(chunker.contextualize(chunk)), chunk.text
        assert chunk.meta.token_count <= max_tokens or chunk.meta.oversized
    assert squash("".join(c.text for c in chunks)) == squash("- " + text)


@pytest.mark.parametrize("line_break", ["\f", "\v", "\x1e", "\u2028"])
@pytest.mark.parametrize("name", ["hybrid", "hierarchical"])
def test_list_item_starting_with_a_form_feed_left_a_marker_debris_line(name, line_break):
    """A list item whose text starts with a form feed gave the line ``- `` (a debris line).

    ``str.splitlines`` ends a line at a form feed (and ``\\v``, ``\\x1e``, ``\\u2028`` ...),
    so ``- \\f=abc`` read as the marker alone, then the text; empty markers were removed
    only before ``\\n``.
    """
    doc = DoclingDocument(name="list")
    group = doc.add_list_group()
    doc.add_list_item(text=f"{line_break}=abc def\nghi", parent=group)
    doc.add_list_item(text="second item", parent=group)
    chunker = (
        docchunk.HybridChunker(tokenizer="word", max_tokens=6, merge_peers=False)
        if name == "hybrid"
        else docchunk.HierarchicalChunker()
    )
    chunks = list(chunker.chunk(doc))
    for chunk in chunks:
        assert not debris_lines(chunker.contextualize(chunk)), chunk.text
    assert not lost_texts(doc, chunks)
    assert "- second item" in "\n".join(c.text for c in chunks)


def _chunked_list(first: str, name: str, max_tokens: int) -> tuple[DoclingDocument, list]:
    """A list of an item ``first``, an empty item and ``second item``, chunked by ``name``."""
    doc = DoclingDocument(name="list")
    group = doc.add_list_group()
    doc.add_list_item(text=first, parent=group)
    doc.add_list_item(text="", parent=group)
    doc.add_list_item(text="second item", parent=group)
    chunker = (
        docchunk.HybridChunker(tokenizer="word", max_tokens=max_tokens, merge_peers=False)
        if name == "hybrid"
        else docchunk.HierarchicalChunker(tokenizer="character")
    )
    return doc, list(chunker.chunk(doc))


@pytest.mark.parametrize("mark", [":", "-", "|", "- :"])
@pytest.mark.parametrize("name", ["hybrid", "hierarchical"])
def test_list_item_whose_text_is_marks_is_kept(name, mark):
    """A list item whose whole text is marks (``:``) was removed as a debris line (``- :``) and lost.

    Found by the structure property test: only the bare ``- `` marker of an empty item is debris.
    """
    doc, chunks = _chunked_list(mark, name, max_tokens=6)
    assert not lost_texts(doc, chunks)
    assert any(line.strip() == f"- {mark}" for c in chunks for line in c.text.splitlines())
    assert not any(line.strip() == "-" for c in chunks for line in c.text.splitlines())


@pytest.mark.parametrize("text", ["\x85-", "a\x85-", "a\n-"])
@pytest.mark.parametrize("name", ["hybrid", "hierarchical"])
def test_list_item_line_of_a_dash_after_a_line_break_is_kept(name, text):
    """A line ``-`` of an item's own text, after a line break in it, was removed as a bare marker.

    Found by the structure property test: ``"\\x85-"`` gave no chunk at all. docling-core
    writes a space after a marker, so a bare marker line is ``- ``, and there are only as
    many of them as items with an empty first line.
    """
    doc, chunks = _chunked_list(text, name, max_tokens=64)
    assert not lost_texts(doc, chunks)
    lines = [line for c in chunks for line in c.text.splitlines()]
    assert lines.count("-") == text.count("-") and "- " not in lines  # the empty item's marker went
    for chunk in chunks:
        assert not debris_lines(chunk.text, doc), chunk.text


def test_min_tokens_counts_two_headings_that_read_the_same_twice():
    # a title "the" over a heading "the": both head the merged chunk, so the footnote's two pieces
    # (6 and 3 tokens at 6) stay apart; a check that counted the heading once thought they fit
    doc = DoclingDocument(name="same-headings")
    doc.add_title(text="the")
    doc.add_heading(text="the", level=1)
    doc.add_text(label=DocItemLabel.TEXT, text="the the the the the")
    chunker = docchunk.HybridChunker(tokenizer="word", max_tokens=6, min_tokens=4, merge_peers=False)
    chunks = list(chunker.chunk(doc))
    assert [c.meta.headings for c in chunks] == [["the", "the"]] * 2
    merged = chunker.delim.join(["the", "the", *(c.text for c in chunks)])
    assert chunker.token_counter.count_tokens(merged) > 6


def test_lost_texts_reads_a_heading_of_two_lines_put_into_the_text():
    # min_tokens puts a heading that differs into the text, between two parts of a split paragraph
    doc = DoclingDocument(name="two-line-heading")
    doc.add_heading(text="the the\nchunk", level=1)
    doc.add_text(label=DocItemLabel.TEXT, text="a b c")
    chunk = SimpleNamespace(text="a b\nthe the\nchunk\nc", meta=SimpleNamespace(headings=None))
    assert lost_texts(doc, [chunk]) == []


def test_lost_texts_reads_backticks_cut_from_a_link_text_as_text():
    # issue 45's random runs: a link text ending in ``` cut before its backticks gave a chunk line
    # "```](url)", which the check read as a fence line a split code block adds, and the text as lost
    doc = DoclingDocument(name="backticks")
    doc.add_text(label=DocItemLabel.TEXT, text="alpha ```", hyperlink="https://example.com/a")
    chunks = [SimpleNamespace(text=t, meta=SimpleNamespace(headings=None, doc_items=doc.texts))
              for t in ("[alpha", "```](https://example.com/a)")]  # fmt: skip
    assert lost_texts(doc, chunks) == []
    cut = [SimpleNamespace(text="[alpha", meta=SimpleNamespace(headings=None, doc_items=doc.texts))]
    assert lost_texts(doc, cut) == ["alpha ```"]


def test_too_long_heading_path_over_headings_of_two_pages_joined_the_pages():
    # a path too long for max_tokens=6 (a title of 4 words) over two headings without content, on
    # pages 1 and 2: the path went out as text with the two headings as its items, and the
    # piece, not its items' texts, stayed whole, one chunk of pages 1 and 2
    doc = DoclingDocument(name="long-path-over-pages")
    for page in (1, 2):
        doc.add_page(page_no=page, size=Size(width=100, height=100))
    doc.add_title(text="one two three four")
    for level, page, text in ((1, 1, "alpha"), (2, 2, "beta"), (1, 2, "gamma")):
        prov = ProvenanceItem(page_no=page, bbox=BoundingBox(l=0, t=0, r=1, b=1), charspan=(0, 1))
        doc.add_heading(text=text, level=level, prov=prov)
    chunker = docchunk.HybridChunker(tokenizer="word", max_tokens=6, merge_peers=False, merge_across_pages=False)
    chunks = list(chunker.chunk(doc))
    assert all(len(page_sets(c)) <= 1 for c in chunks), [(c.text, c.meta.page_numbers) for c in chunks]
    assert not lost_texts(doc, chunks)
    texts = [line for c in chunks for line in c.text.splitlines()]
    assert sorted(texts) == sorted(["one two three four", "alpha", "beta", "gamma"])  # each heading once
    title = next(c for c in chunks if c.text == "one two three four")
    assert [it.self_ref for it in title.meta.doc_items] == [doc.texts[0].self_ref]
