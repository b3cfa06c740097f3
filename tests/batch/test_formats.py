"""The table of output formats: the CLI, the local engine and the Ray engine read it; a new format is one entry."""

from __future__ import annotations

import ast
import dataclasses
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import docchunk
from docchunk.batch.formats import DEFAULT_FORMAT, FORMATS, OutputFormat, output_format
from docchunk.batch.local import run_local
from docchunk.batch.rows import chunk_rows
from docchunk.cli.main import cli
from docchunk.errors import BatchSetupError
from tests.helpers import DATA

DOC = DATA / "md_deepseek__deepseek_title.md.json"
SRC = Path(docchunk.__file__).resolve().parent


class TsvSink:
    """A format made up for the test: text and token count, tab-separated."""

    def __init__(self, path: Path | None):
        assert path is not None
        self.handle = path.open("w", encoding="utf-8")

    def write(self, rows):
        self.handle.writelines(f"{json.dumps(r['text'])}\t{r['token_count']}\n" for r in rows)

    def close(self):
        self.handle.close()


def test_a_new_format_is_one_entry(tmp_path, monkeypatch):
    monkeypatch.setitem(FORMATS, "tsv", OutputFormat("tsv", "text and token count", TsvSink, to_stdout="a test"))
    out = tmp_path / "rows.tsv"
    chunker = docchunk.HybridChunker()
    failures, count = run_local([DOC], chunker, out, "tsv")
    expected = chunk_rows(chunker, str(DOC), docchunk.load_document(DOC))
    assert (failures, count) == (0, len(expected))
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines == [f"{json.dumps(r['text'])}\t{r['token_count']}" for r in expected]
    with pytest.raises(BatchSetupError, match="--format tsv needs -o FILE: a test"):
        run_local([DOC], chunker, None, "tsv")


def test_the_command_offers_the_tables_formats():
    option = next(p for p in cli.commands["chunk"].params if p.name == "out_format")
    assert list(option.type.choices) == list(FORMATS) and option.default == DEFAULT_FORMAT


def test_an_unknown_format_names_the_known_ones():
    with pytest.raises(BatchSetupError, match=r"unknown output format 'csv'; use one of jsonl, parquet"):
        output_format("csv")


def test_a_format_ray_cannot_write_is_refused_before_ray_starts(tmp_path, monkeypatch):
    monkeypatch.setitem(FORMATS, "jsonl", dataclasses.replace(FORMATS["jsonl"], ray_write=None))
    result = CliRunner().invoke(cli, ["chunk", str(DOC), "--engine", "ray", "-o", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "--engine ray cannot write --format jsonl" in result.output and "parquet" in result.output


def test_no_code_compares_a_format_name():
    """Format names were compared as strings at 7 points in 5 files; the table's fields decide now."""
    names = set(FORMATS)
    found = []
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare) and any(
                isinstance(side, ast.Constant) and side.value in names for side in [node.left, *node.comparators]
            ):
                found.append(f"{path.relative_to(SRC)}:{node.lineno}")
    assert not found
