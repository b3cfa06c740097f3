"""What each entry point imports: the document chunkers, load_document and the CLI stay light.

docling-core's chunker package ``__init__`` imports its line chunker, then
transformers and torch; docchunk loads only the two light modules it derives from
(see docchunk.serialization). Each check runs in a fresh interpreter.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.helpers import DATA, ROOT

DOC = ROOT / "examples" / "docling_paper.json"
# top-level packages, and docling-core's chunker package and its heavy modules, that no entry point may load
HEAVY = [
    "transformers",
    "torch",
    "tree_sitter",
    "semchunk",
    "huggingface_hub",
    "sentence_transformers",
    "lancedb",
    "docchunk.index",
    "docchunk.integrations.embedding_refinery",
    "docling_core.transforms.chunker",
    "docling_core.transforms.chunker.line_chunker",
    "docling_core.transforms.chunker.hierarchical_chunker",
    "docling_core.transforms.chunker.hybrid_chunker",
    "docling_core.transforms.chunker.tokenizer",
]


def _python(code: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)


def _loaded_after(code: str) -> tuple[list[str], str]:
    """Heavy modules in sys.modules after running ``code``, and what it wrote to stderr."""
    probe = f"{code}\nimport sys, json\nprint(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))"
    result = _python(probe)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1]), result.stderr


ENTRY_POINTS = {
    "HybridChunker": f"from docchunk import HybridChunker, load_document\n"
    f"chunks = list(HybridChunker().chunk(load_document({str(DOC)!r})))\nassert chunks",
    "HybridChunker-64": f"from docchunk import HybridChunker, load_document\n"
    f"chunks = list(HybridChunker(max_tokens=64).chunk(load_document({str(DATA / 'pdf__multi_page.json')!r})))\n"
    "assert chunks",
    "HierarchicalChunker": f"from docchunk import HierarchicalChunker, load_document\n"
    f"chunks = list(HierarchicalChunker().chunk(load_document({str(DOC)!r})))\nassert chunks",
    "PageChunker": f"from docchunk import PageChunker, load_document\n"
    f"chunks = list(PageChunker().chunk(load_document({str(DOC)!r})))\nassert chunks",
    "LineBasedTokenChunker": f"from docchunk import LineBasedTokenChunker, load_document\n"
    f"chunks = list(LineBasedTokenChunker(max_tokens=64).chunk(load_document({str(DOC)!r})))\nassert chunks",
    "TreeChunkExpander": f"from docchunk import HybridChunker, TreeChunkExpander, load_document\n"
    f"doc = load_document({str(DOC)!r})\n"
    "chunk = next(iter(HybridChunker(max_tokens=64).chunk(doc)))\n"
    "assert TreeChunkExpander().expand(chunk, doc).text",
    "load_document": f"from docchunk import load_document\nassert load_document({str(DOC)!r}).texts",
    "contextualize": f"from docchunk import HierarchicalChunker, contextualize, load_document\n"
    f"chunk = list(HierarchicalChunker().chunk(load_document({str(DOC)!r})))[3]\n"
    "assert contextualize(chunk).endswith(chunk.text) and chunk.meta.headings",
}


@pytest.mark.parametrize("name", list(ENTRY_POINTS))
def test_entry_point_imports_no_heavy_module(name):
    loaded, stderr = _loaded_after(ENTRY_POINTS[name])
    assert loaded == [], f"{name} imported {loaded}"
    assert "PyTorch" not in stderr and stderr == "", stderr


def test_cli_chunk_run_imports_no_heavy_module(tmp_path):
    """A real ``docchunk chunk`` run (``python -m docchunk``), then what it left in sys.modules."""
    out = tmp_path / "o.jsonl"
    run_cli = (
        "import runpy, sys\n"
        f"sys.argv = ['docchunk', 'chunk', {str(DOC)!r}, '-o', {str(out)!r}]\n"
        "try:\n    runpy.run_module('docchunk', run_name='__main__')\n"
        "except SystemExit as exc:\n    assert not exc.code\n"
        "assert 'docchunk.chunkers.doc.hybrid' in sys.modules"
    )
    loaded, stderr = _loaded_after(run_cli)
    assert loaded == [], f"docchunk chunk imported {loaded}"
    assert stderr.startswith(f"docchunk: wrote {out} (") and len(stderr.splitlines()) == 1, stderr
    assert out.read_text().count("\n") > 10


def test_docling_core_chunker_package_after_light_import_has_the_same_classes():
    """An ordinary import of docling-core's chunker package after ours runs its __init__ and
    gives the classes docchunk derives from; its submodules are attributes of the package."""
    code = """
import docchunk
from docchunk import DocChunk, DocMeta, HybridChunker
import docling_core.transforms.chunker as package
import docling_core.transforms.chunker.doc_chunk
import docling_core.transforms.chunker.base
from docling_core.transforms.chunker.hybrid_chunker import HybridChunker as DLHybrid
assert issubclass(HybridChunker, package.BaseChunker)
assert HybridChunker.__mro__[2] is package.BaseChunker
assert DocChunk.__mro__[1] is package.DocChunk is docling_core.transforms.chunker.doc_chunk.DocChunk
assert DocMeta.__mro__[1] is package.DocMeta
assert package.base.BaseChunker is package.BaseChunker
assert package.HybridChunker is DLHybrid and package.HierarchicalChunker.__name__ == "HierarchicalChunker"
assert isinstance(HybridChunker(max_tokens=64), package.BaseChunker)
print("ok")
"""
    result = _python(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_docling_core_chunker_package_imported_first_gives_the_same_classes():
    code = """
import docling_core.transforms.chunker as package
from docchunk import DocChunk, HybridChunker
assert HybridChunker.__mro__[2] is package.BaseChunker and DocChunk.__mro__[1] is package.DocChunk
print("ok")
"""
    result = _python(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
