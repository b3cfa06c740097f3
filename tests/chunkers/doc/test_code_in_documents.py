"""Code items in documents: ``code_chunking_strategy`` on HierarchicalChunker and HybridChunker.

Compat mode against docling-core run live (its StandardCodeChunkingStrategy,
same chunks and the same JSON), on real code files and generated documents; the
default mode with docchunk's CodeChunkingStrategy against docchunk's invariants.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.helpers import DATA, code_document, code_files, examples, lost_texts

pytest.importorskip("tree_sitter", reason='code chunking needs tree-sitter: pip install ".[code]"')
pytest.importorskip("semchunk", reason="docling-core's chunkers need semchunk (docling-core[chunking])")

from docling_core.transforms.chunker.code_chunking.standard_code_chunking_strategy import (
    StandardCodeChunkingStrategy,
)
from docling_core.transforms.chunker.hierarchical_chunker import HierarchicalChunker as DLHierarchical
from docling_core.transforms.chunker.hybrid_chunker import HybridChunker as DLHybrid
from docling_core.transforms.chunker.tokenizer.huggingface import HuggingFaceTokenizer
from docling_core.types.doc import DocItemLabel, DoclingDocument
from docling_core.types.doc.labels import CodeLanguageLabel

import docchunk

NO_HEALTH = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]


@pytest.fixture(scope="module", autouse=True)
def _offline_docling_default_tokenizer(minilm_dir):
    """docling-core's JavaScript code chunker ignores the strategy's tokenizer and loads its default,
    all-MiniLM-L6-v2, from the Hugging Face Hub (docs/compat.md): serve the same model from the bundled copy."""
    real = HuggingFaceTokenizer.from_pretrained.__func__

    def from_pretrained(cls, model_name, **kwargs):
        if model_name == "sentence-transformers/all-MiniLM-L6-v2":
            model_name = str(minilm_dir)
            kwargs.setdefault("max_tokens", 256)  # its sentence_bert_config.json's max_seq_length
        return real(cls, model_name=model_name, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(HuggingFaceTokenizer, "from_pretrained", classmethod(from_pretrained))
        yield


@pytest.fixture(scope="module")
def dl_tokenizer(transformers_minilm):
    """docling-core's tokenizer of the bundled all-MiniLM-L6-v2 (what its strategy counts with)."""
    return HuggingFaceTokenizer(tokenizer=transformers_minilm, max_tokens=256)


def standard(dl_tokenizer, max_tokens: int) -> StandardCodeChunkingStrategy:
    return StandardCodeChunkingStrategy(max_tokens=max_tokens, tokenizer=dl_tokenizer)


def is_code(chunk) -> bool:
    return hasattr(chunk.meta, "chunk_type")


def signature(chunker, chunk) -> tuple:
    """Code chunks: their whole JSON; other chunks: what document parity means (tests/differential)."""
    if is_code(chunk):
        return ("code", chunk.export_json_dict(), chunker.contextualize(chunk))
    meta = chunk.meta
    refs = [item.self_ref for item in meta.doc_items]
    return ("doc", chunk.text, meta.headings, meta.__dict__.get("captions"), refs, chunker.contextualize(chunk))


def assert_same(theirs, ours, doc) -> None:
    """Chunk for chunk equal; docling-core's whitespace-only text chunks (other than heading-only
    chunks, whose text is empty) are not emitted by docchunk."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kept = [c for c in theirs.chunk(doc) if is_code(c) or c.text.strip() or (c.text == "" and c.meta.headings)]
        expected = [signature(theirs, c) for c in kept]
    got = [signature(ours, c) for c in ours.chunk(doc)]
    for i, (e, g) in enumerate(zip(expected, got, strict=False)):
        assert g == e, f"chunk {i} differs"
    assert len(got) == len(expected)


def headings_only(doc: DoclingDocument) -> bool:
    """docling-core gives no chunk for such a document, docchunk one (docs/compat.md)."""
    return all(item.label == DocItemLabel.SECTION_HEADER for item in doc.texts)


# -- compat mode on real code files -------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("max_tokens", [5000, 128])
@pytest.mark.parametrize("path", code_files())
def test_compat_hierarchical_equals_docling_core_on_code_files(path: Path, max_tokens: int, dl_tokenizer):
    doc = code_document(path)
    strategy = standard(dl_tokenizer, max_tokens)
    theirs = DLHierarchical(code_chunking_strategy=strategy)
    ours = docchunk.HierarchicalChunker(docling_compat=True, code_chunking_strategy=strategy)
    assert_same(theirs, ours, doc)


# -- generated documents: code of several languages between headings and text ------
def _python(names: list[str], note: str) -> str:
    defs = "".join(f"\n\ndef {n}(x):\n    # {note}\n    return os.path.join(x, {n!r})\n" for n in names)
    return f"import os\n{defs}\n\nclass Box:\n    def get(self):\n        return {names[0]}(self)\n"


def _c(names: list[str], note: str) -> str:
    return "#include <stdio.h>\n" + "".join(
        f"\n/* {note} */\nint {n}(int x)\n{{\n    printf(\"%d\", x);\n    return x + 1;\n}}\n" for n in names
    )


def _java(names: list[str], note: str) -> str:
    methods = "".join(f"\n    // {note}\n    public int {n}(int x) {{\n        return x + 1;\n    }}\n" for n in names)
    return f"package demo;\n\nimport java.util.List;\n\npublic class Box {{\n{methods}}}\n"


def _javascript(names: list[str], note: str) -> str:
    return "const base = 1;\n" + "".join(
        f"\n// {note}\nfunction {n}(x) {{\n  return x + base;\n}}\n" for n in names
    )


def _typescript(names: list[str], note: str) -> str:
    return "import { strict as assert } from 'node:assert';\n" + "".join(
        f"\n// {note}\nexport function {n}(x: number): number {{\n  assert(x > 0);\n  return x;\n}}\n" for n in names
    )


def _rust(names: list[str], note: str) -> str:
    return "".join(f"// {note}\nfn {n}(x: i32) -> i32 {{\n    x + 1\n}}\n\n" for n in names)


SNIPPETS = {
    CodeLanguageLabel.PYTHON: _python,
    CodeLanguageLabel.C: _c,
    CodeLanguageLabel.JAVA: _java,
    CodeLanguageLabel.JAVASCRIPT: _javascript,
    CodeLanguageLabel.TYPESCRIPT: _typescript,
    CodeLanguageLabel.RUST: _rust,  # no grammar: docling-core's one code block, docchunk's text splitter
}
WORDS = st.lists(st.sampled_from(["alpha", "beta", "code", "river", "été", "数据", "table", "run"]), min_size=1,
                 max_size=40).map(" ".join)  # fmt: skip


@st.composite
def documents(draw) -> DoclingDocument:
    """A document of headings, paragraphs and code items of random languages, in random order."""
    doc = DoclingDocument(name="generated")
    for _ in range(draw(st.integers(1, 7))):
        kind = draw(st.sampled_from(["heading", "text", "code", "code"]))
        if kind == "heading":
            doc.add_heading(text=draw(WORDS), level=draw(st.integers(1, 3)))
        elif kind == "text":
            doc.add_text(label=DocItemLabel.TEXT, text=draw(WORDS))
        else:
            language = draw(st.sampled_from(list(SNIPPETS)))
            names = draw(st.lists(st.from_regex(r"f_[a-z0-9]{1,6}", fullmatch=True), min_size=1, max_size=6,
                                  unique=True))  # fmt: skip
            doc.add_code(text=SNIPPETS[language](names, draw(WORDS)), code_language=language)
    return doc


@pytest.mark.slow
@settings(max_examples=examples(25), deadline=None, suppress_health_check=NO_HEALTH)
@given(doc=documents(), max_tokens=st.sampled_from([32, 100, 5000]), emit=st.booleans())
def test_compat_hierarchical_equals_docling_core_on_generated_documents(doc, max_tokens, emit, dl_tokenizer):
    assume(not headings_only(doc))
    strategy = standard(dl_tokenizer, max_tokens)
    theirs = DLHierarchical(code_chunking_strategy=strategy, always_emit_headings=emit)
    ours = docchunk.HierarchicalChunker(docling_compat=True, code_chunking_strategy=strategy, always_emit_headings=emit)
    assert_same(theirs, ours, doc)


@pytest.mark.slow
@settings(max_examples=examples(15), deadline=None, suppress_health_check=NO_HEALTH)
@given(doc=documents(), max_tokens=st.sampled_from([48, 256]))
def test_compat_hybrid_ignores_the_strategy_like_docling_core(doc, max_tokens, transformers_minilm, minilm_dir,
                                                             dl_tokenizer):
    """docling-core's HybridChunker has no code_chunking_strategy field: it drops it (code as text)."""
    assume(not headings_only(doc))
    strategy = standard(dl_tokenizer, 64)
    theirs = DLHybrid(tokenizer=HuggingFaceTokenizer(tokenizer=transformers_minilm, max_tokens=max_tokens),
                      code_chunking_strategy=strategy)  # fmt: skip
    with pytest.warns(UserWarning, match="ignores code_chunking_strategy"):
        ours = docchunk.HybridChunker(tokenizer=docchunk.get_tokenizer(f"hf:{minilm_dir}", max_tokens),
                                      docling_compat=True, code_chunking_strategy=strategy)  # fmt: skip
    assert_same(theirs, ours, doc)


# -- default mode: docchunk's strategy keeps the invariants --------------------------
def check_invariants(chunker, doc, max_tokens: int | None) -> list:
    chunks = list(chunker.chunk(doc))
    tok = chunker.token_counter
    for c in chunks:
        assert c.text.strip(), "no empty chunk"
        assert c.meta.token_count == tok.count_tokens(chunker.contextualize(c))
        if max_tokens is not None:
            assert c.meta.token_count <= max_tokens or c.meta.oversized
    for item in doc.texts:
        if item.label == DocItemLabel.CODE and item.text.strip():
            pieces = [c for c in chunks if is_code(c) and c.meta.doc_items[0].self_ref == item.self_ref]
            assert "".join(c.text for c in pieces) == item.text, "the code chunks give back the code item"
            assert [c.meta.start_index for c in pieces] == [0, *(c.meta.end_index for c in pieces[:-1])]
    assert not lost_texts(doc, chunks)
    again = [c.export_json_dict() for c in chunker.chunk(doc)]
    assert again == [c.export_json_dict() for c in chunks], "deterministic"
    return chunks


@pytest.mark.slow
@settings(max_examples=examples(30), deadline=None)
@given(doc=documents(), max_tokens=st.integers(8, 300), merge_peers=st.booleans())
def test_default_hybrid_invariants_on_generated_documents(doc, max_tokens, merge_peers):
    strategy = docchunk.CodeChunkingStrategy()
    chunker = docchunk.HybridChunker(max_tokens=max_tokens, merge_peers=merge_peers, code_chunking_strategy=strategy)
    chunks = check_invariants(chunker, doc, max_tokens)
    # the default mode's heading path of each code item is the one the same chunker gives it without
    # the strategy (consecutive headings stay in the path: see docs/compat.md), or its innermost part
    plain = list(docchunk.HybridChunker(max_tokens=max_tokens, merge_peers=merge_peers).chunk(doc))
    paths: dict[str, list[str]] = {}
    for c in plain:
        for item in c.meta.doc_items:
            if item.label == DocItemLabel.CODE and len(c.meta.headings or []) >= len(paths.get(item.self_ref, [])):
                paths[item.self_ref] = list(c.meta.headings or [])
    for c in chunks:
        if is_code(c) and c.meta.headings:
            full = paths[c.meta.doc_items[0].self_ref]
            assert full[len(full) - len(c.meta.headings) :] == c.meta.headings, (c.meta.headings, full)


def test_code_chunks_keep_consecutive_headings_like_text():
    # two headings of the same level in a row are siblings in the default mode: the first is a chunk
    # of its own, and text and code alike have the second one's path; the property test above checks the paths agree
    doc = DoclingDocument(name="g")
    doc.add_heading(text="alpha", level=1)
    doc.add_heading(text="beta", level=1)
    doc.add_text(label=DocItemLabel.TEXT, text="gamma")
    doc.add_code(text="import os\n\n\ndef f(x):\n    return x\n", code_language=CodeLanguageLabel.PYTHON)
    chunker = docchunk.HybridChunker(code_chunking_strategy=docchunk.CodeChunkingStrategy())
    chunks = list(chunker.chunk(doc))
    code = [c for c in chunks if isinstance(c, docchunk.CodeChunk)]
    assert code, "the code item gives code chunks"
    assert [c.meta.headings for c in code] == [["beta"]] * len(code)
    text = [(c.text, c.meta.headings) for c in chunks if not isinstance(c, docchunk.CodeChunk)]
    assert text == [("alpha", None), ("gamma", ["beta"])]


@pytest.mark.slow
@settings(max_examples=examples(30), deadline=None)
@given(doc=documents(), max_tokens=st.integers(8, 300))
def test_default_hierarchical_invariants_on_generated_documents(doc, max_tokens):
    chunker = docchunk.HierarchicalChunker(code_chunking_strategy=docchunk.CodeChunkingStrategy(max_tokens=max_tokens))
    check_invariants(chunker, doc, None)


# -- examples ---------------------------------------------------------------------
def _mixed_document() -> DoclingDocument:
    doc = DoclingDocument(name="mixed")
    doc.add_heading(text="Buffers", level=1)
    doc.add_text(label=DocItemLabel.TEXT, text="A ring buffer keeps the last items.")
    doc.add_code(text=(DATA / "code" / "ring_buffer.c").read_text(encoding="utf-8"), code_language=CodeLanguageLabel.C)
    doc.add_text(label=DocItemLabel.TEXT, text="Events come next.")
    doc.add_code(text=(DATA / "code" / "events.js").read_text(encoding="utf-8"),
                 code_language=CodeLanguageLabel.JAVASCRIPT)  # fmt: skip
    return doc


def test_default_hybrid_gives_named_definitions_with_headings_and_never_merges_text_into_code():
    doc = _mixed_document()
    chunker = docchunk.HybridChunker(max_tokens=128, code_chunking_strategy=docchunk.CodeChunkingStrategy())
    chunks = check_invariants(chunker, doc, 128)
    code = [c for c in chunks if is_code(c)]
    assert isinstance(code[0], docchunk.CodeChunk)
    assert {"ring_push", "ring_pop", "once"} <= {c.meta.part_name for c in code}
    assert all(c.meta.headings == ["Buffers"] for c in code)
    assert chunker.contextualize(code[0]) == "Buffers\n" + code[0].text, "the code meta is not embedded"
    texts = [c.text for c in chunks if not is_code(c)]
    assert texts == ["A ring buffer keeps the last items.", "Events come next."], "text is not merged across code"


def test_without_a_strategy_code_items_are_chunked_as_before():
    doc = _mixed_document()
    plain = [c.export_json_dict() for c in docchunk.HybridChunker(max_tokens=128).chunk(doc)]
    chunker = docchunk.HybridChunker(max_tokens=128, code_chunking_strategy=None)
    none = [c.export_json_dict() for c in chunker.chunk(doc)]
    assert plain == none
    assert not any("chunk_type" in c["meta"] for c in plain)


def test_strategy_can_be_assigned_after_construction():
    doc = _mixed_document()
    chunker = docchunk.HierarchicalChunker()
    chunker.code_chunking_strategy = docchunk.CodeChunkingStrategy(max_tokens=64)
    assert any(is_code(c) for c in chunker.chunk(doc))
    with pytest.raises(docchunk.ConfigError, match="code_chunking_strategy"):
        chunker.code_chunking_strategy = "python"


@pytest.mark.parametrize("kind", ["code", "title", "section_header"])
@pytest.mark.parametrize("in_list", [False, True])
def test_blank_code_block_or_heading_gives_no_bare_markup(kind, in_list):
    """Regression (issue 45): an empty code block was written as two bare fences, an empty heading as
    ``# ``; in a chunk of their own, or lines of markup among a list item's text. They write nothing."""
    from docling_core.types.doc import DocItemLabel, DoclingDocument

    doc = DoclingDocument(name="blank")
    parent = doc.add_list_item("item", parent=doc.add_list_group()) if in_list else None
    doc.add_text(label=DocItemLabel.TEXT, text="before", parent=parent)
    if kind == "code":
        doc.add_code("", parent=parent)
    elif kind == "title":
        doc.add_title("", parent=parent)
    else:
        doc.add_heading(" ", level=2, parent=parent)
    doc.add_text(label=DocItemLabel.TEXT, text="after", parent=parent)
    chunkers = [docchunk.HybridChunker(tokenizer="word", max_tokens=64), docchunk.HierarchicalChunker(),
                docchunk.PageChunker(tokenizer="word", max_tokens=64),
                docchunk.LineBasedTokenChunker(tokenizer="word", max_tokens=64)]  # fmt: skip
    for chunker in chunkers:
        lines = [line.strip() for c in chunker.chunk(doc) for line in c.text.splitlines()]
        assert [line for line in lines if line] == (["- item"] if in_list else []) + ["before", "after"], (
            type(chunker).__name__, lines)  # fmt: skip
