"""Code chunking: definitions as chunks, exact slices that give back the code, the budget."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import CORPUS, DATA, examples

pytest.importorskip("tree_sitter", reason='code chunking needs tree-sitter: pip install ".[code]"')

from docchunk.chunkers.doc.code import CodeChunkingStrategy, CodeChunkType

EXT = {".py": "python", ".c": "c", ".h": "c", ".java": "java", ".js": "javascript", ".ts": "typescript"}


def _files() -> list:
    shipped = sorted((DATA / "code").iterdir())
    repos = CORPUS / "docling-core-tests" / "code" / "repos"
    corpus = sorted(p for p in repos.glob("*/*") if p.suffix in EXT) if repos.is_dir() else []
    return [pytest.param(p, id=p.name) for p in shipped] + [
        pytest.param(p, id=f"corpus/{p.name}", marks=pytest.mark.corpus) for p in corpus
    ]


def _check(chunks, code: str, max_tokens: int) -> None:
    assert "".join(c.text for c in chunks) == code, "the chunks give back the code"
    pos = 0
    for c in chunks:
        assert c.text.strip(), "no empty or whitespace-only chunk"
        assert c.meta.start_index == pos and code[c.meta.start_index : c.meta.end_index] == c.text
        pos = c.meta.end_index
        assert c.meta.token_count <= max_tokens or c.meta.oversized
        assert c.meta.start_line == code.count("\n", 0, c.meta.start_index) + 1


@pytest.mark.parametrize("max_tokens", [64, 512])
@pytest.mark.parametrize("path", _files())
def test_real_code_files(path: Path, max_tokens: int):
    code = path.read_text(encoding="utf-8")
    strategy = CodeChunkingStrategy(max_tokens=max_tokens)
    chunks = strategy.chunk_code(code, EXT[path.suffix])
    _check(chunks, code, max_tokens)
    assert any(c.meta.chunk_type in (CodeChunkType.FUNCTION, CodeChunkType.METHOD, CodeChunkType.CLASS) for c in chunks)
    assert all(c.meta.fallback is None for c in chunks)


def test_python_definitions_are_whole_chunks_with_names():
    code = (DATA / "code" / "export.py").read_text(encoding="utf-8")
    chunks = CodeChunkingStrategy(max_tokens=2000).chunk_code(code, "python")
    functions = [c for c in chunks if c.meta.chunk_type == CodeChunkType.FUNCTION]
    assert [c.meta.part_name for c in functions] == ["generate_multimodal_pages"]
    assert functions[0].text.lstrip().startswith("def generate_multimodal_pages(")
    assert chunks[0].meta.chunk_type == CodeChunkType.PREAMBLE and "import" in chunks[0].text


def test_a_large_class_is_split_into_header_and_methods():
    code = (DATA / "code" / "FlightLoader.java").read_text(encoding="utf-8")
    chunks = CodeChunkingStrategy(max_tokens=400).chunk_code(code, "java")
    kinds = [c.meta.chunk_type for c in chunks]
    assert CodeChunkType.CLASS in kinds and CodeChunkType.METHOD in kinds
    header = chunks[kinds.index(CodeChunkType.CLASS)]
    assert header.meta.part_name == "FlightLoader" and "class FlightLoader" in header.text


def test_unsupported_language_falls_back_to_the_text_splitter_and_says_so():
    code = "IDENTIFICATION DIVISION.\nPROGRAM-ID. HELLO.\n" * 40
    chunks = CodeChunkingStrategy(max_tokens=32).chunk_code(code, "cobol")
    _check(chunks, code, 32)
    assert all(c.meta.chunk_type == CodeChunkType.CODE_BLOCK for c in chunks)
    assert all("not supported" in c.meta.fallback for c in chunks)


def test_code_item_of_a_document():
    from docling_core.types.doc import DoclingDocument
    from docling_core.types.doc.labels import CodeLanguageLabel

    doc = DoclingDocument(name="snippet")
    code = "import os\n\n\ndef a():\n    return 1\n\n\nclass B:\n    def c(self):\n        return os.sep\n"
    item = doc.add_code(text=code, code_language=CodeLanguageLabel.PYTHON)
    chunks = list(CodeChunkingStrategy(max_tokens=64).chunk_code_item(item=item, doc=doc))
    assert [c.meta.part_name for c in chunks] == [None, "a", "B"]
    assert all(c.meta.doc_items == [item] for c in chunks)


@settings(max_examples=examples(60), deadline=None)
@given(
    names=st.lists(st.from_regex(r"[a-z]{1,8}", fullmatch=True), min_size=0, max_size=6),
    body=st.text(alphabet=st.sampled_from("abc xyz=+1()\n#'é東"), max_size=80),
    max_tokens=st.integers(2, 64),
)
def test_invariants_on_generated_python(names, body, max_tokens):
    code = "import os\n" + "".join(f"\n# about {n}\ndef {n}(x):\n    {body!r}\n    return x\n" for n in names)
    _check(CodeChunkingStrategy(max_tokens=max_tokens).chunk_code(code, "python"), code, max_tokens)


def test_bad_budget():
    from docchunk import ConfigError

    with pytest.raises(ConfigError, match="max_tokens"):
        CodeChunkingStrategy(max_tokens=0)
    with pytest.raises(ConfigError, match="max_tokens is required"):
        CodeChunkingStrategy(tokenizer="word")
