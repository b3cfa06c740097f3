"""Scale-out: --workers (local processes) and Ray Data, against the single-process rows."""

from __future__ import annotations

import json
import shutil
from collections import Counter

import pytest

from docchunk.cli.main import main
from tests.conftest import DATA

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


def run(capsys, *args):
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = exc.code or 0
    return code, *capsys.readouterr()


def key(row: dict) -> str:
    row = dict(row)
    if isinstance(row.get("meta"), str):
        row["meta"] = json.loads(row["meta"])
    row.pop("error", None)
    return json.dumps(row, sort_keys=True)


def test_workers_give_the_same_output_in_the_same_order(capsys, corpus_dir, tmp_path):
    one, many = tmp_path / "one.jsonl", tmp_path / "many.jsonl"
    code1, _, err1 = run(capsys, "chunk", str(corpus_dir), "-o", str(one), "--no-progress")
    code2, _, err2 = run(capsys, "chunk", str(corpus_dir), "-o", str(many), "--workers", "2", "--no-progress")
    assert code1 == code2 == 1
    assert "zz_broken.json" in err1 and err1 == err2
    assert one.read_bytes() == many.read_bytes()
    assert len(one.read_text().splitlines()) > 200


@pytest.mark.slow  # starts a local Ray cluster
def test_ray_rows_equal_single_process_rows(capsys, corpus_dir, tmp_path):
    ray = pytest.importorskip("ray", reason='needs Ray: pip install "docchunk[ray]"')
    from docchunk import HybridChunker
    from docchunk.integrations.ray import chunk_dataset

    single = tmp_path / "single.jsonl"
    run(capsys, "chunk", str(corpus_dir), "-o", str(single), "--no-progress")
    expected = Counter(key(json.loads(line)) for line in single.read_text().splitlines())

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    try:
        ray.data.DataContext.get_current().enable_progress_bars = False
        files = sorted(str(p) for p in corpus_dir.iterdir())
        rows = chunk_dataset(ray.data.from_items([{"path": f} for f in files]), HybridChunker()).take_all()
        errors = [r for r in rows if r["error"] is not None]
        assert len(errors) == 1 and "zz_broken.json" in errors[0]["error"]
        assert Counter(key(r) for r in rows if r["error"] is None) == expected

        out = tmp_path / "shards"
        code, _, err = run(capsys, "chunk", str(corpus_dir), "--engine", "ray", "-o", str(out))
        assert code == 1 and "zz_broken.json" in err
        written = [json.loads(line) for shard in sorted(out.iterdir()) for line in shard.read_text().splitlines()]
        assert Counter(key(r) for r in written) == expected

        parquet = tmp_path / "parquet"
        code, _, _ = run(capsys, "chunk", str(corpus_dir), "--engine", "ray", "--format", "parquet", "-o", str(parquet))
        import pyarrow.parquet as pq

        table = pq.read_table(sorted(str(p) for p in parquet.iterdir()))
        assert code == 1 and Counter(key(r) for r in table.to_pylist()) == expected
    finally:
        ray.shutdown()
