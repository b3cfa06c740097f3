"""The bench/ scripts without a usable corpus: a clear message and a non-zero exit, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.helpers import ROOT

EMPTY_DOC = {"schema_name": "DoclingDocument", "version": "1.0.0", "name": "empty"}


def missing(tmp_path):
    return tmp_path / "no-such-corpus"


def without_text(tmp_path):
    (tmp_path / "empty.json").write_text(json.dumps(EMPTY_DOC))
    return tmp_path


def assert_exits_with_the_corpus_message(script: str, folder) -> None:
    """``bench/script --corpus folder`` exits 1 with a message naming the folder and ``--corpus``, no traceback."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), "--corpus", str(folder)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert str(folder) in done.stderr and "--corpus" in done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("make", [missing, without_text], ids=["corpus-absent", "documents-without-text"])
@pytest.mark.parametrize("script", ["run.py", "text_run.py", "semantic_run.py", "index_run.py"])
def test_bench_without_corpus_exits_with_a_message(tmp_path, script, make):
    assert_exits_with_the_corpus_message(script, make(tmp_path))


def test_instruction_count_without_corpus_exits_with_a_message(tmp_path):
    # (with documents it runs them under valgrind: only the absent corpus is checked here)
    assert_exits_with_the_corpus_message("instructions.py", missing(tmp_path))
