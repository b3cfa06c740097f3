"""bench/user_docs.py (issue 45's checks): its lost texts are the tests' reader, and its reasons for small chunks.

The bench counted 3 texts lost at MiniLM 64 on documents a user brings that were not
lost (a table cell's inline run in a row cut inside an entry, each piece repeating the
row's label and the entry's key), and with ``min_tokens`` texts cut by a nested list's
parent path merged into the text. It reads lost texts with ``tests.helpers.lost_texts``
now (one function), which reads both, and still reports a text lost when a piece is missing.
"""

from __future__ import annotations

from types import SimpleNamespace

import docchunk
from tests.helpers import DATA, bench_script, load, lost_texts


def _chunk(text: str, headings: list[str] | None = None, rows: tuple[int, int] | None = None, table: bool = False):
    items = [SimpleNamespace(self_ref="#/tables/0", label="table", prov=[])] if table else []
    return SimpleNamespace(text=text, meta=SimpleNamespace(headings=headings, doc_items=items, table_rows=rows))


def _item(text: str) -> SimpleNamespace:
    return SimpleNamespace(text=text, label="text")


def test_lost_texts_reads_a_row_cut_inside_an_entry():
    """readline's table: the pieces of a row cut inside its "Notes" entry repeat "label: Notes = " (the first, of
    another entry, does not hold it); the inline run cut between them is there, and lost without its piece."""
    item = _item("will do this action. In many terminals, for example")
    label = "`Ctrl` + `-` (Keybindings): "
    texts = ["Action = Undo", "Notes = Any keystroke will do this action.", "Notes = In many terminals, for example."]
    pieces = [_chunk(label + text, rows=(17, 18), table=True) for text in texts]
    assert lost_texts(None, pieces, [item]) == []
    assert lost_texts(None, pieces[:2], [item]) == [item.text]


def test_lost_texts_reads_a_parent_path_merged_between_two_parts_of_a_text():
    """The Basics (libffi): ``min_tokens`` merged a piece across a nested list's path, which went into the text,
    between the two parts of a split paragraph; the path is in the headings of the list's other chunks."""
    item = _item("is ignored. Note that while the return value must be register-sized")
    chunks = [
        _chunk("This calls the function fn. The return value is ignored.", ["2.1 The Basics", "Function: ffi_call"]),
        _chunk("Function: ffi_call\nNote that while the return value must be register-sized.", ["2.1 The Basics"]),
    ]
    assert lost_texts(None, chunks, [item]) == []
    assert lost_texts(None, chunks[1:], [item]) == [item.text]


def test_lost_texts_reads_each_caption_of_a_table_with_two():
    """The round-2 tester's html_figure_tfoot: a table's ``<caption>`` and its figure's ``<figcaption>`` are one
    ``meta.captions`` entry (docling-core's serialize_captions joins them), and each caption was counted lost."""
    items = [_item("Table 2: Satisfaction by age group"), _item("Figure 3: the same data as a table.")]
    chunk = _chunk("18-34 (Age): Satisfied = 71%", table=True)
    chunk.meta.captions = ["Table 2: Satisfaction by age group Figure 3: the same data as a table."]
    assert lost_texts(None, [chunk], items) == []
    chunk.meta.captions = ["Table 2: Satisfaction by age group"]
    assert lost_texts(None, [chunk], items) == [items[1].text]


def test_user_docs_counts_lost_texts_with_the_tests_reader_and_reports_a_real_loss():
    doc = load(DATA / "docling_core__2_inp_dl_doc.json")
    chunks = list(docchunk.HybridChunker(max_tokens=64).chunk(doc))
    with bench_script("user_docs") as bench:
        assert bench.lost_texts is lost_texts  # one reader, not a copy
        assert bench.lost(doc, chunks) == 0
        k = max(range(len(chunks)), key=lambda i: len(chunks[i].text))
        assert bench.lost(doc, chunks[:k] + chunks[k + 1 :]) > 0


def test_why_small_names_the_reason_of_each_small_chunk():
    with bench_script("user_docs") as bench:
        why = bench.why_small
        assert why([_chunk("alone")], 0) == "whole document"
        apart = [_chunk("a", ["A"]), _chunk("b", ["B"]), _chunk("c", ["C"])]
        assert why(apart, 1) == "heading boundary"
        table = [_chunk("a", ["A"]), _chunk("b", ["A"]), _chunk("rows", ["A"], (0, 3), table=True)]
        assert why(table, 1) == "next to a table"
        assert why([_chunk("a", ["A"]), _chunk("b", ["A"])], 1) == "other"
        paged = [_chunk("a", ["A"]), _chunk("b", ["A"])]
        paged[0].meta.doc_items = [SimpleNamespace(label="text", prov=[SimpleNamespace(page_no=1)])]
        paged[1].meta.doc_items = [SimpleNamespace(label="text", prov=[SimpleNamespace(page_no=2)])]
        assert why(paged, 1, split_pages=True) == "page boundary"
        assert why(paged, 1) == "other"  # merge_across_pages: a page forbids no merge


def test_heading_twice_allows_a_subsection_of_the_title_s_text_and_finds_a_real_repeat():
    """Node.js' BUILDING.md: the title "Building Node.js" heads the path, and a ``min_tokens`` merge wrote its
    subsection "Building Node.js" (a third heading of that text) as a line: two headings, each once.
    The same lines in a document with one such heading are a heading written twice."""
    from docling_core.types.doc import DoclingDocument

    doc = DoclingDocument(name="building")
    doc.add_title("Building Node.js")
    doc.add_heading("Unix and macOS", level=1)
    doc.add_heading("Building Node.js", level=2)
    chunk = _chunk("Building Node.js\nTo build Node.js:", ["Building Node.js", "Unix and macOS"])
    context = "Building Node.js\nUnix and macOS\nBuilding Node.js\nTo build Node.js:"
    with bench_script("user_docs") as bench:
        assert not bench.twice(doc, chunk, context)
        assert bench.heading_twice(chunk, context)  # without the document: over what the path holds
        once = DoclingDocument(name="once")
        once.add_title("Building Node.js")
        once.add_heading("Unix and macOS", level=1)
        assert bench.twice(once, chunk, context)


def test_cell_lists_flattened_counts_a_nested_list_in_a_table_cell_written_flat(minilm_dir):
    """Tester's finding 23: ``flattened`` read ``meta.doc_items``, which for a table chunk hold only the table."""
    from tests.serialization.tables.test_cell_lists import requirements

    doc = requirements()
    flat = "REQ-1 (ID): Features = - Install - Install on Linux - Install on Windows - Uninstall; Status = Done"
    chunker = docchunk.HybridChunker(tokenizer=f"hf:{minilm_dir}", max_tokens=256)
    chunks = list(chunker.chunk(doc))
    with bench_script("user_docs") as bench:
        assert bench.cell_lists_flattened(doc, [_chunk(flat)], [flat]) == 0  # no table item: nothing to read
        flat_chunk = SimpleNamespace(text=flat, meta=SimpleNamespace(doc_items=[doc.tables[0]]))
        assert bench.cell_lists_flattened(doc, [flat_chunk], [flat]) == 1
        assert bench.cell_lists_flattened(doc, chunks, [chunker.contextualize(c) for c in chunks]) == 0


def test_open_fences_pairs_fences_as_commonmark_and_counts_formula_delimiters():
    """The round-3 tester's notes on the checker: a paragraph that starts with backticks ("```not a fence``` but
    text") and a shorter fence-like line inside a ```` block are no fences; an unbalanced ``$$`` is open markup."""
    with bench_script("user_docs") as bench:
        open_fences = bench.open_fences
    assert not open_fences("```python\nx = 1\n```")
    assert open_fences("```python\nx = 1") and open_fences("x = 1\n```")  # an open, a lone closing fence
    assert not open_fences("```not a fence``` but text with backticks: ``` inline.")
    assert not open_fences("````\n```x\nstep_4 = 1\n````")
    assert open_fences("$$\\begin{equation}\nx +") and open_fences("y\n\\end{equation}$$")
    assert not open_fences("$$x + y$$ and\n```sh\necho $$\n```")
