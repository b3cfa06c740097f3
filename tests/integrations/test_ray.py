"""Ray Data: chunk_dataset rows and `docchunk chunk --engine ray` shards against the local command's output."""

from __future__ import annotations

import json
import shutil
from collections import Counter

import pytest
from click.testing import CliRunner

from docchunk.cli.main import cli
from tests.helpers import DATA, shipped_docs

pytestmark = pytest.mark.slow
ray = pytest.importorskip("ray", reason='needs Ray: pip install ".[ray]"')

EMPTY_DOC = {"schema_name": "DoclingDocument", "version": "1.0.0", "name": "empty"}


@pytest.fixture(scope="module")
def ray_session():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    ray.data.DataContext.get_current().enable_progress_bars = False
    yield ray
    ray.shutdown()


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """The shipped documents (with and without page numbers), a broken file and a document without text."""
    folder = tmp_path_factory.mktemp("inputs")
    for path in shipped_docs():
        shutil.copy(path, folder / path.name)
    (folder / "zz_broken.json").write_text("{not json")
    (folder / "zz_empty.json").write_text(json.dumps(EMPTY_DOC))
    return folder


@pytest.fixture(scope="module")
def local_rows(inputs, tmp_path_factory):
    out = tmp_path_factory.mktemp("local") / "out.jsonl"
    result = CliRunner().invoke(cli, ["chunk", str(inputs), "-o", str(out), "--no-progress"])
    assert result.exit_code == 1 and "zz_broken.json" in result.stderr and "zz_empty.json" in result.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert any(r["page_numbers"] for r in rows) and any(not r["page_numbers"] for r in rows)
    return rows


def ordered(rows: list[dict]) -> list[dict]:
    return sorted(rows, key=lambda r: (r["source"], r["chunk_index"]))


def run_ray(inputs, out, *extra):
    args = ["chunk", str(inputs), "--engine", "ray", "--num-workers", "2", "-o", str(out), *extra]
    return CliRunner().invoke(cli, args)


def test_ray_jsonl_shards_equal_local_jsonl_in_an_existing_folder(ray_session, inputs, local_rows, tmp_path):
    out = tmp_path / "existing"
    out.mkdir()
    result = run_ray(inputs, out)
    assert result.exit_code == 1
    assert "zz_broken.json" in result.stderr and "zz_empty.json: nothing to chunk" in result.stderr
    shards = sorted(out.iterdir())
    assert shards and all(p.suffix == ".jsonl" for p in shards)
    written = [json.loads(line) for shard in shards for line in shard.read_text().splitlines()]
    assert all(isinstance(r["meta"], dict) and list(r) == list(local_rows[0]) for r in written)
    assert ordered(written) == ordered(local_rows)

    again = run_ray(inputs, out)  # earlier shards would mix two runs' rows
    assert again.exit_code == 2 and "already holds .jsonl shards" in again.stderr


def test_ray_parquet_shards_read_back_with_pandas(ray_session, inputs, local_rows, tmp_path):
    pandas = pytest.importorskip("pandas")
    out = tmp_path / "existing"
    out.mkdir()
    result = run_ray(inputs, out, "--format", "parquet")
    assert result.exit_code == 1
    table = pandas.read_parquet(out)
    assert list(table.columns) == list(local_rows[0])
    rows = table.to_dict("records")
    for row in rows:
        row["meta"] = json.loads(row["meta"])
        row["page_numbers"] = [int(p) for p in row["page_numbers"]]
    assert ordered(rows) == ordered(local_rows)


def test_chunk_dataset_dict_json_rows_after_arrow_round_trip(ray_session, local_rows):
    from docchunk.integrations.ray import chunk_dataset

    docs = [(str(p), json.loads(p.read_text())) for p in shipped_docs()]
    ds = ray.data.from_items([{"json": doc, "path": path} for path, doc in docs], override_num_blocks=2)
    rows = chunk_dataset(ds).take_all()
    assert [r["error"] for r in rows if r["error"]] == []
    for row in rows:
        row.pop("error")
        row["meta"] = json.loads(row["meta"])
    expected = Counter(
        json.dumps({**r, "source": str(DATA / r["source"].rsplit("/", 1)[-1])}, sort_keys=True)
        for r in local_rows
    )
    assert Counter(json.dumps(r, sort_keys=True) for r in rows) == expected


def test_ray_embed_parquet_rows_equal_local_embed_rows(ray_session, tmp_path, minilm_dir):
    """--embed under --engine ray: the embedding runs in the Ray pipeline (actor pool); same rows as local."""
    import numpy as np
    import pandas as pd

    pytest.importorskip("sentence_transformers")
    docs = [DATA / "pdf__multi_page.json", DATA / "docx__word_sample.docx.json"]
    local = tmp_path / "local.jsonl"
    result = CliRunner().invoke(cli, ["chunk", *map(str, docs), "--embed", "all-MiniLM-L6-v2", "-o", str(local)])
    assert result.exit_code == 0, result.stderr
    want = ordered([json.loads(line) for line in local.read_text().splitlines()])
    args = ["chunk", *map(str, docs), "--engine", "ray", "--num-workers", "2", "--format", "parquet",
            "--embed", "all-MiniLM-L6-v2", "-o", str(tmp_path / "shards")]  # fmt: skip
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.stderr
    got = ordered(pd.read_parquet(tmp_path / "shards").to_dict("records"))
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert json.loads(g["meta"]) == w["meta"] and g["text"] == w["text"]
        assert list(g["page_numbers"]) == w["page_numbers"] and g["contextualized"] == w["contextualized"]
        # batches across files pad differently from the local run's per-file batches: equal up to float rounding
        np.testing.assert_allclose(np.asarray(g["embedding"]), np.asarray(w["embedding"]), atol=1e-6)


def test_ray_run_prints_one_summary_line_and_no_foreign_log_lines(inputs, local_rows, tmp_path):
    """With --engine ray, Ray's own log lines and warnings spilled onto stderr, and no line said what was written.

    A fresh process, as a user runs it: Ray starts here, so its start-up lines are written too.
    """
    import subprocess
    import sys

    out = tmp_path / "shards"
    result = subprocess.run([sys.executable, "-m", "docchunk", "chunk", str(inputs), "--engine", "ray", "-o", str(out)],
                            capture_output=True, text=True, timeout=900)  # fmt: skip
    assert result.returncode == 1  # the broken and the empty document
    lines = result.stderr.splitlines()
    assert all(line.startswith("docchunk: ") for line in lines), result.stderr
    count = len(local_rows)
    total = len(list(inputs.iterdir()))
    assert f"docchunk: wrote {out} ({count} chunks from {total - 2} of {total} inputs)" in lines
    assert len(lines) == 4 and lines[-1] == f"docchunk: error: 2 of {total} input(s) failed; the others were written"
    written = [json.loads(line) for shard in sorted(out.glob("*.jsonl")) for line in shard.read_text().splitlines()]
    assert ordered(written) == ordered(local_rows)
    log = out.with_name(out.name + ".ray.log")
    assert log.is_file() and not any(p.suffix != ".jsonl" for p in out.iterdir())


def test_ray_run_with_debug_keeps_ray_logs_on_stderr(ray_session, inputs, tmp_path):
    out = tmp_path / "shards"
    result = run_ray(inputs, out, "--debug")
    assert result.exit_code == 1 and "docchunk: wrote" in result.stderr
    assert not out.with_name(out.name + ".ray.log").exists()
