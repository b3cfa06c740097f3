"""``meta.spans`` and ``meta.page_boxes``: computed while chunking, checked against the items.

Invariants, on generated documents (hypothesis) and on the shared corpus:

- for every span, ``normalize(item.text[start:end])`` is in ``normalize(chunk.text)``
  (``normalize``: every run of whitespace as one space; see
  :mod:`docchunk.chunkers.doc.provenance` for the escaping it stands for);
- the spans of a document's chunks tile the text of every chunked text item: sorted, they
  start at 0, end at ``len(item.text)`` and each starts where the previous one ends
  (so each character is covered exactly once); a heading written into the text as a heading
  path may be written again for a later section (as ``meta.headings`` repeats it): its
  repeated spans are counted once;
- ``page_boxes`` is the union of the chunk's items' boxes on each page.
"""

from __future__ import annotations

from collections import defaultdict

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import docchunk
from docchunk.chunkers.doc.provenance import align, join_anchors, slice_anchors, spans_of
from tests.helpers import CORPUS, CORPUS_REASON, corpus_docs, examples, load, span_faults
from tests.property.strategies import documents, paged_documents

CHUNKERS = {
    "hybrid": lambda **kw: docchunk.HybridChunker(**kw),
    "hybrid-compat": lambda **kw: docchunk.HybridChunker(docling_compat=True, **kw),
    "hierarchical": lambda **kw: docchunk.HierarchicalChunker(),
    "hierarchical-compat": lambda **kw: docchunk.HierarchicalChunker(docling_compat=True),
}


def box_faults(doc, chunks) -> list[str]:
    faults = []
    for k, chunk in enumerate(chunks):
        by_page = defaultdict(list)
        for item in chunk.meta.doc_items:
            for prov in getattr(item, "prov", None) or ():
                by_page[prov.page_no].append(prov.bbox)
        boxes = {b.page_no: b.bbox for b in chunk.meta.page_boxes or []}
        if sorted(boxes) != sorted(by_page):
            faults.append(f"chunk {k}: pages {sorted(boxes)} != {sorted(by_page)}")
            continue
        for page, own in by_page.items():
            box = boxes[page]
            top_left = box["coord_origin"] == "TOPLEFT"
            want = (min(b.l for b in own), max(b.r for b in own))
            vertical = (
                (min(b.t for b in own), max(b.b for b in own))
                if top_left
                else (max(b.t for b in own), min(b.b for b in own))
            )
            if (box["l"], box["r"]) != want or (box["t"], box["b"]) != vertical:
                faults.append(f"chunk {k} page {page}: {box} is not the union of {own}")
    return faults


@pytest.mark.parametrize("name", list(CHUNKERS))
@settings(
    deadline=None,
    max_examples=examples(60),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(doc=documents(), max_tokens=st.sampled_from([16, 48, 160]), merge_peers=st.booleans())
def test_spans_invariants_on_generated_documents(name, doc, max_tokens, merge_peers):
    kwargs = {"max_tokens": max_tokens, "merge_peers": merge_peers} if name.startswith("hybrid") else {}
    chunks = list(CHUNKERS[name](**kwargs).chunk(doc))
    assert span_faults(doc, chunks) == []


@settings(deadline=None, max_examples=examples(40), suppress_health_check=[HealthCheck.too_slow])
@given(doc=paged_documents(), min_tokens=st.sampled_from([None, 24]))
def test_page_boxes_are_the_union_of_the_items_boxes(doc, min_tokens):
    chunks = list(docchunk.HybridChunker(max_tokens=48, min_tokens=min_tokens).chunk(doc))
    assert box_faults(doc, chunks) == []
    assert span_faults(doc, chunks) == []


@pytest.mark.corpus
@pytest.mark.slow  # a corpus-wide check (the inner loop leaves it to CI)
@pytest.mark.skipif(not corpus_docs(), reason=CORPUS_REASON)
@pytest.mark.parametrize("name", list(CHUNKERS))
def test_spans_and_boxes_on_the_corpus(name):
    paths = corpus_docs()
    core = CORPUS / "docling-core-tests"
    paths += sorted(p for p in core.rglob("*.json") if '"schema_name": "DoclingDocument"' in p.read_text()[:400])
    faults = []
    for path in paths:
        doc = load(path)
        chunks = list(CHUNKERS[name]().chunk(doc))
        faults += [f"{path.name}: {f}" for f in span_faults(doc, chunks) + box_faults(doc, chunks)]
    assert faults == []


def test_a_split_paragraph_gives_each_chunk_its_range():
    """Hand-checked: three sentences at a budget of one sentence each."""
    from docling_core.types.doc import DocItemLabel, DoclingDocument

    doc = DoclingDocument(name="t")
    text = "Alpha beta gamma delta. Epsilon zeta eta theta. Iota kappa lambda mu."
    doc.add_text(label=DocItemLabel.TEXT, text=text)
    chunks = list(docchunk.HybridChunker(tokenizer="word", max_tokens=4, merge_peers=False).chunk(doc))
    assert [c.text for c in chunks] == ["Alpha beta gamma delta.", "Epsilon zeta eta theta.", "Iota kappa lambda mu."]
    # the space dropped at each cut belongs to the span before it
    assert [(s.ref, s.start, s.end) for c in chunks for s in c.meta.spans] == [
        ("#/texts/0", 0, 24), ("#/texts/0", 24, 48), ("#/texts/0", 48, len(text))]  # fmt: skip


def test_list_markers_and_line_breaks_are_not_in_the_spans():
    from docling_core.types.doc import DoclingDocument

    doc = DoclingDocument(name="t")
    group = doc.add_list_group()
    doc.add_list_item(text="first line\nsecond line", parent=group)
    doc.add_list_item(text="1", parent=group)
    (chunk,) = docchunk.HybridChunker().chunk(doc)
    assert chunk.text == "- first line  \nsecond line\n- 1"
    assert [(s.ref, s.start, s.end) for s in chunk.meta.spans] == [("#/texts/0", 0, 22), ("#/texts/1", 0, 1)]


def test_parts_of_an_item_written_apart_stay_two_spans():
    """Hand-checked: compat splits ``a-b/c`` at ``/`` and merges the parts with a newline.

    The characters ``/`` and ``c`` are adjacent in the item but not in the chunk
    (``"/\\nc"``): one span ``(3, 5)`` would name ``"/c"``, which the chunk does not hold.
    """
    from docling_core.types.doc import DoclingDocument

    doc = DoclingDocument(name="t")
    doc.add_title(text="the 3.14 3.14 0:0:0:")
    doc.add_list_item(text="a-b/c", parent=doc.add_list_group(), marker="", enumerated=False)
    chunks = list(docchunk.HybridChunker(docling_compat=True, max_tokens=16).chunk(doc))
    assert [c.text for c in chunks] == ["-", "a-b", "/\nc"]
    assert [[(s.ref, s.start, s.end) for s in c.meta.spans] for c in chunks] == [
        [], [("#/texts/1", 0, 3)], [("#/texts/1", 3, 4), ("#/texts/1", 4, 5)]]  # fmt: skip
    assert span_faults(doc, chunks) == []


def test_anchor_arithmetic():
    """Hand-checked: anchors moved by a join and a slice still name the same characters."""

    class Item:
        def __init__(self, ref, text):
            self.self_ref, self.text = ref, text

    a, b = Item("#/texts/0", "one two"), Item("#/texts/1", "three")
    joined = join_anchors([("- one two", align("- one two", [a])), ("three", align("three", [b]))], "\n")
    assert joined == ((2, "#/texts/0", 0, 7), (10, "#/texts/1", 0, 5))
    text = "- one two\nthree"
    assert all(text[p : p + n] == {"#/texts/0": a, "#/texts/1": b}[r].text[s : s + n] for p, r, s, n in joined)
    assert slice_anchors(joined, 6, 13) == ((0, "#/texts/0", 4, 3), (4, "#/texts/1", 0, 3))
    assert spans_of(slice_anchors(joined, 6, 13), {a.self_ref: a.text, b.self_ref: b.text}) == [
        {"ref": "#/texts/0", "start": 4, "end": 7}, {"ref": "#/texts/1", "start": 0, "end": 3}]  # fmt: skip


def test_export_and_flat_metadata_carry_spans_and_boxes():
    from docchunk.batch.rows import chunk_rows
    from docchunk.serialization.rows import chunk_metadata

    doc = load(sorted(p for p in corpus_docs() if p.name.startswith("pdf"))[0]) if corpus_docs() else None
    if doc is None:
        pytest.skip(CORPUS_REASON)
    chunker = docchunk.HybridChunker()
    chunk = next(iter(chunker.chunk(doc)))
    meta = chunk.export_json_dict()["meta"]
    assert meta["spans"] and meta["page_boxes"][0]["bbox"]["coord_origin"] in ("BOTTOMLEFT", "TOPLEFT")
    flat = chunk_metadata(chunk, "x", 0)
    assert flat["spans"][0].startswith("#/texts/") and flat["spans"][0].count(":") == 2
    assert flat["page_boxes"][0].split(":")[0] == str(meta["page_boxes"][0]["page_no"])
    row = chunk_rows(chunker, "x", doc)[0]
    assert row["meta"]["spans"] == meta["spans"]
