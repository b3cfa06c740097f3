"""bench/structure_kept.py runs and its counts are right on one tests/data document."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _bench():
    spec = importlib.util.spec_from_file_location("structure_kept", ROOT / "bench" / "structure_kept.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_structure_kept_bench_on_a_test_document(capsys):
    bench = _bench()
    assert bench.main([str(ROOT / "tests" / "data" / "docling_core__2_inp_dl_doc.json"), "--modes", "default"]) == 0
    rows = [
        line
        for line in capsys.readouterr().out.splitlines()
        if line.startswith("| MiniLM") or line.startswith("| cl100k")
    ]
    assert len(rows) == 3
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert int(cells[3]) > 0  # chunks
        assert cells[4:] == ["0", "0", "0", "0"], row  # nothing flattened, no sibling path, no split run or lead-in


def test_structure_kept_bench_counts_a_sibling_path_and_a_split_run():
    import docchunk
    from tests.chunkers.doc.test_structure_kept import contract, linked

    bench = _bench()
    compat = docchunk.HybridChunker(docling_compat=True)
    chunks = list(compat.chunk(linked()))
    assert bench.split_runs(linked(), chunks) == 1  # docling-core writes one fragment per line
    default = list(docchunk.HybridChunker().chunk(contract()))
    assert bench.sibling_paths(contract(), default) == 0


def test_split_runs_finds_fragments_in_order():
    """The count looked for a run's last fragment from the end of the chunk: a short last fragment
    (``.``) met again in a later line counted a run written on one line as split (``equations``)."""
    bench = _bench()
    assert bench._in_order("Area is A= r2.\n- Next item.", ["Area is", "A= r2", "."]) == (0, 13)
    assert bench._in_order("Area is\nA= r2.", ["Area is", "A= r2"]) == (0, 8)
    assert bench._in_order("A b", ["b", "A"]) is None


def test_sibling_paths_reads_a_heading_text_at_each_of_its_levels():
    """Headings sharing a text at two levels (``Summary`` at 1, then at 2 under ``Part one``) made a path count."""
    from docling_core.types.doc import DocItemLabel, DoclingDocument

    import docchunk

    bench = _bench()
    doc = DoclingDocument(name="summaries")
    doc.add_heading("Summary", level=1)  # first met at level 1
    doc.add_text(DocItemLabel.TEXT, "An early summary of the year.")
    doc.add_heading("Part one", level=1)
    doc.add_heading("Summary", level=2)
    doc.add_text(DocItemLabel.TEXT, "The summary of part one.")
    chunks = list(docchunk.HybridChunker(max_tokens=64, merge_peers=False).chunk(doc))
    assert any(c.meta.headings == ["Part one", "Summary"] for c in chunks)
    assert bench.sibling_paths(doc, chunks) == 0


def test_leads_apart_counts_a_trailing_note_in_the_next_tables_chunk():
    """A table's ``Source:`` note that opens the next table's chunk counts (issue 46 finding 13)."""
    from docling_core.transforms.chunker.hierarchical_chunker import DocChunk, DocMeta
    from docling_core.types.doc import DocItemLabel, DoclingDocument

    from tests.helpers import make_table

    bench = _bench()
    doc = DoclingDocument(name="surveys")
    doc, first = make_table([["Question", "Answer"], ["Q1", "yes"]], doc=doc)
    note = doc.add_text(DocItemLabel.TEXT, "Source: survey A, 2026.")
    doc, second = make_table([["Question", "Answer"], ["Q1", "no"]], doc=doc)
    right = [DocChunk(text="Q1: yes\nSource: survey A, 2026.", meta=DocMeta(doc_items=[first, note])),
             DocChunk(text="Q1: no", meta=DocMeta(doc_items=[second]))]  # fmt: skip
    wrong = [DocChunk(text="Q1: yes", meta=DocMeta(doc_items=[first])),
             DocChunk(text="Source: survey A, 2026.\nQ1: no", meta=DocMeta(doc_items=[note, second]))]  # fmt: skip
    assert bench.leads_apart(doc, right, [c.text for c in right]) == 0
    assert bench.leads_apart(doc, wrong, [c.text for c in wrong]) == 1


def test_leads_apart_counts_a_lead_in_sentence_before_a_caption_style_title_line():
    """Finding 22 (issue 46): the count read the title line (``**Table 2: ...**``) as the lead-in and missed the
    sentence before it (``The hardness results are given below.``) ending the previous table's chunk."""
    import docchunk
    from tests.chunkers.doc.test_table_lead_ins import _lab_report

    bench = _bench()
    doc = _lab_report()
    apart = docchunk.HierarchicalChunker()  # one chunk per element: each sentence and title line apart from its table
    chunks = list(apart.chunk(doc))
    assert bench.leads_apart(doc, chunks, [apart.contextualize(c) for c in chunks]) == 2
    together = docchunk.HybridChunker()
    chunks = list(together.chunk(doc))
    assert bench.leads_apart(doc, chunks, [together.contextualize(c) for c in chunks]) == 0
