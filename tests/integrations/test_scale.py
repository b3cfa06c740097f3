"""Scale-out: --workers (local processes) and Ray Data, against the single-process rows."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.helpers import DATA, run

SOURCES = ["md_deepseek__deepseek_title.md.json", "pdf__multi_page.json", "docling_core__2_inp_dl_doc.json",
           "html__html_rich_table_cells.html.json"]  # fmt: skip


@pytest.fixture(scope="module")
def corpus_dir(tmp_path_factory):
    """200 documents (copies of the shipped ones) and one broken file."""
    folder = tmp_path_factory.mktemp("docs")
    for i in range(200):
        shutil.copy(DATA / SOURCES[i % len(SOURCES)], folder / f"doc{i:03d}.json")
    (folder / "zz_broken.json").write_text("{not json")
    return folder


def key(row: dict) -> str:
    row = dict(row)
    if isinstance(row.get("meta"), str):
        row["meta"] = json.loads(row["meta"])
    row.pop("error", None)
    return json.dumps(row, sort_keys=True)


@pytest.mark.fresh  # a process pool: fresh interpreters
def test_workers_give_the_same_output_in_the_same_order(capsys, corpus_dir, tmp_path):
    one, many = tmp_path / "one.jsonl", tmp_path / "many.jsonl"
    code1, _, err1 = run(capsys, "chunk", str(corpus_dir), "-o", str(one), "--no-progress")
    code2, _, err2 = run(capsys, "chunk", str(corpus_dir), "-o", str(many), "--workers", "2", "--no-progress")
    assert code1 == code2 == 1
    assert "zz_broken.json" in err1
    # the same messages; only the summary line names its own -o file
    assert err1.replace(str(one), "OUT") == err2.replace(str(many), "OUT")
    assert "from 200 of 201 inputs" in err1
    assert one.read_bytes() == many.read_bytes()
    assert len(one.read_text().splitlines()) > 200
