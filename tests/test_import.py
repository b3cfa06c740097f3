"""``import docchunk`` stays light: no docling-core, tokenizers, tiktoken or frameworks."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = [
    "docling_core", "tokenizers", "tiktoken", "transformers", "torch", "langchain_core", "llama_index", "ray", "pandas",
]  # fmt: skip


def test_import_is_light():
    code = f"import sys, docchunk; print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "", f"import docchunk loaded: {out}"


def imported_by(statement: str) -> set[str]:
    """The modules that ``statement`` leaves in ``sys.modules`` of a fresh interpreter, beyond a bare start."""
    code = f"import sys; before = set(sys.modules); {statement}; print('\\n'.join(sorted(set(sys.modules) - before)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return set(out.split())


def test_text_chunker_import_loads_no_docling():
    loaded = imported_by("from docchunk import RecursiveChunker")
    assert "docchunk.chunkers.text.recursive" in loaded  # the statement did import the chunker
    heavy = {m for m in loaded if m.split(".")[0] in {"transformers", "torch", "tree_sitter", "semchunk", "numpy"}}
    assert not heavy, sorted(heavy)
    assert not {m for m in loaded if m.startswith("docling")}, "a text chunker needs nothing of docling"


def test_hybrid_chunker_import_loads_no_model_libraries_and_no_docling_core_chunker_package():
    loaded = imported_by("from docchunk import HybridChunker")
    assert "docchunk.chunkers.doc.hybrid" in loaded
    heavy = {m for m in loaded if m.split(".")[0] in {"transformers", "torch", "tree_sitter", "semchunk"}}
    assert not heavy, sorted(heavy)
    assert "docling_core.transforms.chunker" not in loaded, "the package __init__ of docling-core's chunkers ran"


def test_lazy_names_resolve_and_errors_subclass_builtins():
    import docchunk

    assert docchunk.HybridChunker.__name__ == "HybridChunker"
    assert issubclass(docchunk.ConfigError, ValueError)
    assert issubclass(docchunk.DocumentError, ValueError)
    assert issubclass(docchunk.TokenizerError, ValueError)
    assert issubclass(docchunk.MissingDependencyError, ImportError)
    assert all(issubclass(e, docchunk.DocchunkError) for e in (docchunk.ConfigError, docchunk.DocumentError))
    assert set(docchunk.__all__) <= set(dir(docchunk))


def test_unknown_attribute():
    import docchunk

    with pytest.raises(AttributeError):
        docchunk.NoSuchThing  # noqa: B018
