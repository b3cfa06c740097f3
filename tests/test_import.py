"""``import docchunk`` stays light: no docling-core, tokenizers, tiktoken or frameworks."""

from __future__ import annotations

import subprocess
import sys

HEAVY = [
    "docling_core", "tokenizers", "tiktoken", "transformers", "torch", "langchain_core", "llama_index", "ray", "pandas",
]  # fmt: skip


def test_import_is_light():
    code = f"import sys, docchunk; print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "", f"import docchunk loaded: {out}"


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
    import pytest

    import docchunk

    with pytest.raises(AttributeError):
        docchunk.NoSuchThing  # noqa: B018
