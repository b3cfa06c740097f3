"""``--code-chunking`` on ``docchunk chunk`` and ``docchunk inspect``, and the missing ``[code]`` extra."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

import docchunk
from tests.helpers import DATA, ROOT, code_document, rows, run

INSTALL = 'pip install ".[code]" (from a docchunk checkout)'


@pytest.fixture(scope="module")
def code_json(tmp_path_factory):
    """A DoclingDocument JSON file holding the shipped C file as one code item."""
    path = tmp_path_factory.mktemp("code") / "ring_buffer.json"
    code_document(DATA / "code" / "ring_buffer.c").save_as_json(path)
    return path


def _code_rows(out: str) -> list[dict]:
    return [r for r in rows(out) if r["meta"]["schema_name"] == "docling_core.transforms.chunker.CodeDocMeta"]


@pytest.mark.parametrize("chunker", ["hybrid", "hierarchical"])
def test_code_chunking_splits_code_items_at_definitions(capsys, code_json, chunker):
    pytest.importorskip("tree_sitter", reason=f"needs the code extra: {INSTALL}")
    code, out, err = run(capsys, "chunk", str(code_json), "--chunker", chunker, "--code-chunking")
    assert code == 0, err
    data = _code_rows(out)
    assert data and len(data) == len(rows(out))
    text = (DATA / "code" / "ring_buffer.c").read_text(encoding="utf-8")
    assert "".join(r["text"] for r in data) == text
    assert {"ring_push", "ring_pop"} <= {r["meta"].get("part_name") for r in data}
    tok = docchunk.get_tokenizer()
    assert all(r["token_count"] == tok.count_tokens(r["contextualized"]) for r in data)


def test_without_code_chunking_code_is_one_text_chunk(capsys, code_json):
    code, out, err = run(capsys, "chunk", str(code_json), "--chunker", "hierarchical")
    assert code == 0, err
    assert not _code_rows(out) and len(rows(out)) == 1


@pytest.mark.slow
def test_docling_compat_code_chunking_gives_docling_cores_chunks(capsys, code_json, transformers_minilm):
    pytest.importorskip("tree_sitter", reason=f"needs the code extra: {INSTALL}")
    from docling_core.transforms.chunker.code_chunking.standard_code_chunking_strategy import (
        StandardCodeChunkingStrategy,
    )
    from docling_core.transforms.chunker.hierarchical_chunker import HierarchicalChunker
    from docling_core.transforms.chunker.tokenizer.huggingface import HuggingFaceTokenizer
    from docling_core.types.doc import DoclingDocument

    code, out, err = run(capsys, "chunk", str(code_json), "--chunker", "hierarchical", "--docling-compat",
                         "--code-chunking")  # fmt: skip
    assert code == 0, err
    tokenizer = HuggingFaceTokenizer(tokenizer=transformers_minilm, max_tokens=256)
    theirs = HierarchicalChunker(code_chunking_strategy=StandardCodeChunkingStrategy(tokenizer=tokenizer))
    expected = [c.export_json_dict() for c in theirs.chunk(DoclingDocument.load_from_json(code_json))]
    assert [r["meta"] for r in rows(out)] == [c["meta"] for c in expected]
    assert [r["text"] for r in rows(out)] == [c["text"] for c in expected]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--chunker", "page"], "--code-chunking applies to --chunker hybrid and hierarchical"),
        (["--chunker", "line", "--max-tokens", "64"], "--code-chunking applies to --chunker hybrid and hierarchical"),
        (["--docling-compat"], "HybridChunker has no code chunking"),
    ],
)
def test_code_chunking_where_it_does_not_apply_is_a_usage_error(capsys, code_json, args, message):
    code, out, err = run(capsys, "chunk", str(code_json), "--code-chunking", *args)
    assert code == 2 and not out
    assert message in err


def test_inspect_takes_code_chunking(capsys, code_json, tmp_path):
    pytest.importorskip("tree_sitter", reason=f"needs the code extra: {INSTALL}")
    page = tmp_path / "report.html"
    code, _, err = run(capsys, "inspect", str(code_json), "-o", str(page), "--code-chunking")
    assert code == 0, err
    assert "ring_push" in page.read_text(encoding="utf-8")
    code, _, err = run(capsys, "inspect", str(code_json), "-o", str(page), "--chunker", "recursive", "--code-chunking")
    assert code == 2 and "--code-chunking applies to --chunker hybrid and hierarchical" in err


# -- without the [code] extra ------------------------------------------------------
@pytest.mark.parametrize("compat", [[], ["--chunker", "hierarchical", "--docling-compat"]])
def test_cli_without_code_extra_names_the_install(capsys, monkeypatch, code_json, compat):
    monkeypatch.setitem(sys.modules, "tree_sitter", None)  # as on an install without tree-sitter
    code, out, err = run(capsys, "chunk", str(code_json), "--code-chunking", *compat)
    assert code != 0 and not out
    assert INSTALL in err and "Traceback" not in err
    with pytest.raises(docchunk.MissingDependencyError, match=re.escape(INSTALL)):
        run(capsys, "chunk", str(code_json), "--code-chunking", "--debug", *compat)


def test_api_without_code_extra_names_the_install(monkeypatch):
    doc = code_document(DATA / "code" / "ring_buffer.c")
    for name in [m for m in sys.modules if m == "tree_sitter" or m.startswith("tree_sitter_")]:
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(docchunk.MissingDependencyError, match=re.escape(INSTALL)) as raised:
        strategy = docchunk.CodeChunkingStrategy(max_tokens=64)
        list(docchunk.HybridChunker(code_chunking_strategy=strategy).chunk(doc))
    assert isinstance(raised.value, ImportError)


@pytest.mark.fresh  # runs Python in a fresh interpreter
@pytest.mark.slow
def test_fresh_interpreter_without_tree_sitter_names_the_install(code_json):
    """No tree-sitter at all (docling-core's chunker package cannot load either): one line naming the extra."""
    probe = (
        "import sys\nsys.modules['tree_sitter'] = None\nfrom docchunk.cli.main import main\n"
        f"main(['chunk', {str(code_json)!r}, '--code-chunking'])\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)]), "HF_HUB_OFFLINE": "1"}
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=600)
    assert result.returncode != 0 and not result.stdout
    assert INSTALL in result.stderr and "Traceback" not in result.stderr
