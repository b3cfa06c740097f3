"""Every ```python block of README.md and docs/*.md runs offline, as written, from the repository root.

Each block runs alone in a fresh interpreter (cwd = the repository root) with
HF_HUB_OFFLINE=1, an empty Hugging Face cache and tiktoken cache, and every HTTP(S)
proxy pointed at a closed port on this machine, so a block that would download
anything fails here instead of passing on a machine that happens to have a cache.
A block whose previous non-blank line is ``<!-- no-test -->`` is skipped: keep that
for the rare block that truly needs a network (a remote cluster, a hub download).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT

NO_TEST = "<!-- no-test -->"
# blocks that start Ray, torch or docling's converter take more than a few seconds
SLOW = re.compile(
    r"\b(ray|langchain_docling|llama_index|sentence_transformers|docchunk\.integrations\.embeddings"
    r"|EmbeddingsRefinery|DocchunkEmbeddings|docchunk\.index|chromadb|haystack)\b"
)
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")


def doc_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def python_blocks(path: Path) -> list[tuple[int, str, bool]]:
    """``(line, code, skipped)`` for each fenced block tagged python (or py) in ``path``."""
    blocks = []
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        indent, fence, lang = match.groups()
        start, body = i, []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append(lines[i][len(indent) :] if lines[i].startswith(indent) else lines[i])
            i += 1
        i += 1
        if lang.lower() in ("python", "py", "python3"):
            before = [line.strip() for line in lines[:start] if line.strip()]
            blocks.append((start + 1, "\n".join(body) + "\n", bool(before) and before[-1] == NO_TEST))
    return blocks


def block_params() -> list:
    params = []
    for path in doc_files():
        for line, code, skipped in python_blocks(path):
            marks = [pytest.mark.slow] if SLOW.search(code) else []
            if skipped:
                marks.append(pytest.mark.skip(reason=f"marked {NO_TEST} (needs a network)"))
            params.append(pytest.param(code, id=f"{path.relative_to(ROOT)}:{line}", marks=marks))
    return params


def offline_env(tmp_path: Path) -> dict[str, str]:
    proxy = "http://127.0.0.1:9"  # a closed port: any download fails at once, nothing leaves the machine
    env = dict(os.environ)
    env.update(
        HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", HF_HOME=str(tmp_path / "hf"), HF_HUB_CACHE=str(tmp_path / "hf"),
        TIKTOKEN_CACHE_DIR=str(tmp_path / "tiktoken"), HTTP_PROXY=proxy, HTTPS_PROXY=proxy, http_proxy=proxy,
        https_proxy=proxy, NO_PROXY="localhost,127.0.0.1,::1", no_proxy="localhost,127.0.0.1,::1",
        TRANSFORMERS_VERBOSITY="error", PYTHONWARNINGS="ignore",
    )  # fmt: skip
    return env


def test_docs_have_python_examples():
    assert len(block_params()) >= 10
    assert any(python_blocks(ROOT / "docs" / "integrations.md"))


@pytest.mark.parametrize("code", block_params())
def test_docs_example_runs_offline(code, tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=offline_env(tmp_path), capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, f"the example failed:\n{code}\n--- stderr ---\n{done.stderr[-3000:]}"


@pytest.mark.parametrize("path", doc_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_install_hints_name_the_checkout_not_the_index(path):
    """docchunk is not on the package index: extras install from a checkout, pip install ".[extra]"."""
    text = path.read_text(encoding="utf-8")
    assert not re.search(r"pip install [\"']?docchunk\[", text)
    assert not re.search(r"pip install [\"']?docchunk\b", text)


_NO_TREE_SITTER = "import sys\nsys.modules['tree_sitter'] = None  # as if docling-chunking were not installed\n"


def test_the_docling_node_parser_example_names_the_docling_chunking_extra(tmp_path):
    """Regression (s8 new user, finding 4): integrations.md's install line for llama-index's
    ``DoclingNodeParser`` left out ``.[docling-chunking]``, and its example then failed with
    ``No module named 'tree_sitter'``: the package's own import needs docling-core's chunker
    package, docchunk's chunkers do not (checked here with tree_sitter made unimportable)."""
    page = (ROOT / "docs" / "integrations.md").read_text(encoding="utf-8")
    installs = [line for line in page.splitlines() if line.startswith("pip install") and "node-parser-docling" in line]
    assert installs and all('".[docling-chunking]"' in line for line in installs), installs
    ours = _NO_TREE_SITTER + (
        "import docchunk\n"
        "chunks = list(docchunk.HybridChunker().chunk(docchunk.load_document('examples/docling_paper.json')))\n"
        "assert chunks and 'tree_sitter' not in [m for m in sys.modules if sys.modules[m] is not None]\n"
    )
    done = subprocess.run([sys.executable, "-c", ours], cwd=ROOT, env=offline_env(tmp_path), capture_output=True,
                          text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    pytest.importorskip("llama_index.node_parser.docling", reason="llama-index-node-parser-docling not installed")
    theirs = _NO_TREE_SITTER + "import llama_index.node_parser.docling\n"
    done = subprocess.run([sys.executable, "-c", theirs], cwd=ROOT, env=offline_env(tmp_path), capture_output=True,
                          text=True, timeout=600)  # fmt: skip
    assert done.returncode != 0 and "tree_sitter" in done.stderr, done.stderr[-2000:]
