"""The batch room without click: the local engine, the row writer, and their setup errors."""

from __future__ import annotations

import json

import pytest

import docchunk
from docchunk.batch.local import run_local
from docchunk.batch.output import RowWriter, open_rows
from docchunk.batch.rows import chunk_rows
from docchunk.errors import BatchSetupError, ConfigError
from tests.helpers import DATA

DOC = DATA / "md_deepseek__deepseek_title.md.json"


def test_run_local_writes_the_rows_of_chunk_rows_and_one_problem_per_bad_input(tmp_path):
    chunker = docchunk.HybridChunker()
    out = tmp_path / "rows.jsonl"
    missing = tmp_path / "missing.json"
    problems: list[str] = []
    seen: list[int] = []

    def each(rows):
        seen.append(len(rows))
        return rows

    failures, count = run_local([DOC, missing], chunker, out, "jsonl", error=problems.append, each=each)
    expected = chunk_rows(chunker, str(DOC), docchunk.load_document(DOC))
    assert (failures, count) == (1, len(expected))
    assert [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()] == expected
    assert seen == [len(expected)]  # the hook saw the good input's rows, the bad one gave none
    assert len(problems) == 1 and str(missing) in problems[0]


def test_run_local_with_debug_raises_the_bad_inputs_error_and_writes_nothing(tmp_path):
    out = tmp_path / "rows.jsonl"
    with pytest.raises(docchunk.DocumentError):
        run_local([tmp_path / "missing.json"], docchunk.HybridChunker(), out, "jsonl", debug=True)
    assert not out.exists() and not list(tmp_path.iterdir())  # no partial file, no temporary left


def test_setup_problems_are_batch_setup_errors_not_click_errors(tmp_path):
    with pytest.raises(BatchSetupError, match="needs -o FILE"):
        open_rows(None, "parquet")
    with pytest.raises(BatchSetupError, match="cannot write"):
        RowWriter(tmp_path / "no_such_folder" / "rows.jsonl")
    assert issubclass(BatchSetupError, ConfigError) and issubclass(BatchSetupError, ValueError)
