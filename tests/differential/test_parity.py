"""Differential tests: our document chunkers against docling-core's (the pinned release), chunk by chunk."""

from __future__ import annotations

import warnings

import pytest

from tests.helpers import DATA, captioned_doc, doc_params, load

docling_core = pytest.importorskip("docling_core")
pytest.importorskip("semchunk", reason="docling-core's HybridChunker needs semchunk (docling-core[chunking])")

from docling_core.transforms.chunker.hierarchical_chunker import HierarchicalChunker as DLHierarchical  # noqa: E402
from docling_core.transforms.chunker.hybrid_chunker import HybridChunker as DLHybrid  # noqa: E402

import docchunk  # noqa: E402


def signature(chunker, chunk) -> tuple:
    """What parity means: text, headings, captions, doc_item refs and the contextualized string."""
    meta = chunk.meta
    return (
        chunk.text,
        meta.headings,
        meta.__dict__.get("captions"),
        [item.self_ref for item in meta.doc_items],
        chunker.contextualize(chunk),
    )


def assert_same(theirs, ours, doc) -> None:
    """Equal chunk for chunk, except that docling-core's chunks without text (empty or
    whitespace only, e.g. a caption whose text went with its table) are not emitted by
    docchunk (docs/compat.md)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = [signature(theirs, c) for c in theirs.chunk(doc) if c.text.strip()]
    got = [signature(ours, c) for c in ours.chunk(doc)]
    for i, (e, g) in enumerate(zip(expected, got, strict=False)):
        assert g == e, f"chunk {i} differs"
    assert len(got) == len(expected)


def _without_docling_quirks(doc) -> bool:
    """Documents where docling-core's output breaks one of our invariants (see docs/compat.md)."""
    texts = [t for t in doc.texts if getattr(t, "text", "")]
    from docling_core.types.doc import SectionHeaderItem, TitleItem

    return any(not isinstance(t, (SectionHeaderItem, TitleItem)) for t in texts) or bool(doc.tables) or bool(
        doc.pictures
    )


@pytest.mark.parametrize("path", doc_params())
def test_hierarchical_defaults(path):
    doc = load(path)
    if not _without_docling_quirks(doc):
        pytest.skip("headings-only document: docling-core gives no chunk, we give one (docs/compat.md)")
    assert_same(DLHierarchical(), docchunk.HierarchicalChunker(docling_compat=True), doc)


HYBRID_CONFIGS = [
    pytest.param("minilm", 64, True, id="minilm-64-merge"),
    pytest.param("minilm", 64, False, id="minilm-64-nomerge"),
    pytest.param("minilm", 256, True, id="minilm-256-merge"),
    pytest.param("minilm", 256, False, id="minilm-256-nomerge"),
    pytest.param("cl100k", 128, True, id="cl100k-128-merge"),
]


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


@pytest.mark.parametrize(("kind", "max_tokens", "merge_peers"), HYBRID_CONFIGS)
@pytest.mark.parametrize("path", doc_params())
def test_hybrid(path, kind, max_tokens, merge_peers, request):
    doc = load(path)
    if not _without_docling_quirks(doc):
        pytest.skip("headings-only document: docling-core gives no chunk, we give one (docs/compat.md)")
    theirs_tok, ours_tok = _tokenizer_pair(kind, max_tokens, request)
    theirs = DLHybrid(tokenizer=theirs_tok, merge_peers=merge_peers)
    ours = docchunk.HybridChunker(tokenizer=ours_tok, merge_peers=merge_peers, docling_compat=True)
    assert_same(theirs, ours, doc)


@pytest.mark.parametrize("path", doc_params())
def test_docling_tokenizer_objects_are_accepted(path, transformers_minilm):
    """Passing docling-core's own tokenizer object gives the same chunks as docling-core."""
    from docling_core.transforms.chunker.tokenizer.huggingface import HuggingFaceTokenizer

    doc = load(path)
    if not _without_docling_quirks(doc):
        pytest.skip("headings-only document")
    tok = HuggingFaceTokenizer(tokenizer=transformers_minilm, max_tokens=128)
    assert_same(DLHybrid(tokenizer=tok), docchunk.HybridChunker(tokenizer=tok, docling_compat=True), doc)


def test_default_hybrid_matches_docling_default(transformers_minilm):
    """Our default (bundled all-MiniLM-L6-v2, 256) equals docling-core's default HybridChunker()."""
    from docling_core.transforms.chunker.tokenizer.huggingface import HuggingFaceTokenizer

    from tests.helpers import DATA

    doc = load(DATA / "docling_core__2_inp_dl_doc.json")
    theirs = DLHybrid(tokenizer=HuggingFaceTokenizer(tokenizer=transformers_minilm, max_tokens=256))
    ours = docchunk.HybridChunker(docling_compat=True)
    assert ours.max_tokens == 256
    assert_same(theirs, ours, doc)


def _markdown_tables_provider():
    """docling's "advanced chunking and serialization" example: tables as Markdown."""
    from docling_core.transforms.chunker.hierarchical_chunker import ChunkingDocSerializer, ChunkingSerializerProvider
    from docling_core.transforms.serializer.markdown import MarkdownTableSerializer

    class MDTableSerializerProvider(ChunkingSerializerProvider):
        def get_serializer(self, doc):
            return ChunkingDocSerializer(doc=doc, table_serializer=MarkdownTableSerializer())

    return MDTableSerializerProvider()


def _picture_text_provider():
    """docling's example of a picture serializer that writes what it knows of a picture."""
    from docling_core.transforms.chunker.hierarchical_chunker import ChunkingDocSerializer, ChunkingSerializerProvider
    from docling_core.transforms.serializer.common import create_ser_result
    from docling_core.transforms.serializer.markdown import MarkdownParams, MarkdownPictureSerializer

    class DescribedPictureSerializer(MarkdownPictureSerializer):
        def serialize(self, *, item, doc_serializer, doc, **kwargs):
            description = item.meta.description.text if item.meta and item.meta.description else None
            text = f"Picture {item.self_ref}: {description or 'no description'}"
            return create_ser_result(text=doc_serializer.post_process(text=text), span_source=item)

    class PictureTextProvider(ChunkingSerializerProvider):
        def get_serializer(self, doc):
            return ChunkingDocSerializer(
                doc=doc,
                picture_serializer=DescribedPictureSerializer(),
                params=MarkdownParams(image_placeholder="<!-- image -->"),
            )

    return PictureTextProvider()


def _docling_default_provider():
    from docling_core.transforms.chunker.hierarchical_chunker import ChunkingSerializerProvider

    return ChunkingSerializerProvider()


USER_PROVIDERS = {
    "markdown-tables": _markdown_tables_provider,
    "picture-text": _picture_text_provider,
    "docling-default": _docling_default_provider,
}


@pytest.mark.parametrize("provider", list(USER_PROVIDERS))
@pytest.mark.parametrize("path", doc_params())
def test_user_serializer_provider(path, provider, request):
    """A user's own docling-core serializer provider is used as given, with docling-core's output."""
    doc = load(path)
    if not _without_docling_quirks(doc):
        pytest.skip("headings-only document: docling-core gives no chunk, we give one (docs/compat.md)")
    theirs_tok, ours_tok = _tokenizer_pair("minilm", 64, request)
    make = USER_PROVIDERS[provider]
    theirs = DLHybrid(tokenizer=theirs_tok, serializer_provider=make())
    ours = docchunk.HybridChunker(tokenizer=ours_tok, serializer_provider=make(), docling_compat=True)
    assert_same(theirs, ours, doc)
    ours_hierarchical = docchunk.HierarchicalChunker(serializer_provider=make(), docling_compat=True)
    assert_same(DLHierarchical(serializer_provider=make()), ours_hierarchical, doc)


def test_user_serializer_provider_is_used_in_the_default_mode_too():
    """The default (structure-faithful) mode keeps a user's provider: Markdown tables stay Markdown."""
    doc = load(DATA / "docling_core__2_inp_dl_doc.json")
    default = docchunk.HybridChunker(max_tokens=256)
    markdown = docchunk.HybridChunker(max_tokens=256, serializer_provider=_markdown_tables_provider())
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
