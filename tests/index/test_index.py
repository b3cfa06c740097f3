"""docchunk.index: one row per chunk with its metadata, idempotent re-indexing, replaced rows, interrupted runs."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

pytest.importorskip("lancedb")

import docchunk
from docchunk import ConfigError, EmbeddingsRefinery
from docchunk.batch.rows import chunk_rows
from docchunk.index import IndexStore, index_paths
from docchunk.index.store import RECORD_NAME
from tests.helpers import DATA, ROOT, HashEmbeddings

DOCS = ["pdf__multi_page.json", "docx__word_sample.docx.json", "html__html_rich_table_cells.html.json"]


def _embedder(**kwargs):
    return EmbeddingsRefinery(HashEmbeddings(**kwargs), model_name="hash-8")


def _table(db) -> list[dict]:
    table = IndexStore(db).table()
    return sorted(table.to_arrow().to_pylist(), key=lambda r: r["id"])


@pytest.fixture
def folder(tmp_path):
    src = tmp_path / "docs"
    src.mkdir()
    for name in DOCS:
        shutil.copy(DATA / name, src / name)
    return src


def test_one_row_per_chunk_with_the_chunks_metadata_and_vector(folder, tmp_path):
    db = tmp_path / "db"
    report = index_paths([folder], db, model=_embedder())
    assert sorted(report.indexed) == sorted(str(folder / n) for n in DOCS) and not report.failed
    table = _table(db)
    chunker = docchunk.HybridChunker()
    paths = [folder / name for name in sorted(DOCS)]
    expected = [r for p in paths for r in chunk_rows(chunker, str(p), docchunk.load_document(p))]
    assert report.total == report.chunks == len(table) == len(expected)
    by_id = {r["id"]: r for r in table}
    assert len(by_id) == len(table)  # ids unique
    embed = HashEmbeddings()
    for want in expected:
        key = f"docs/{os.path.basename(want['source'])}"  # source_key: relative to the folder holding the index
        row = by_id[f"{key}#{want['chunk_index']}"]
        assert row["source"] == key
        meta = want["meta"]
        assert (row["text"], row["contextualized"], row["token_count"]) == (
            want["text"], want["contextualized"], want["token_count"])  # fmt: skip
        assert row["headings"] == (meta.get("headings") or []) and row["page_numbers"] == want["page_numbers"]
        assert row["doc_items"] == [item["self_ref"] for item in meta["doc_items"]]
        assert row["table_rows"] == meta.get("table_rows")
        assert row["chunker"].startswith("HybridChunker(") and "max_tokens=256" in row["chunker"]
        assert np.array_equal(np.asarray(row["vector"], dtype=np.float32), embed([want["contextualized"]])[0])
    assert any(r["table_rows"] for r in table) and any(r["page_numbers"] for r in table)
    record = IndexStore(db).record()
    assert record is not None and (record["model"], record["dimension"]) == ("hash-8", 8)


def test_reindexing_unchanged_files_skips_them_and_keeps_the_table(folder, tmp_path):
    db = tmp_path / "db"
    index_paths([folder], db, model=_embedder())
    before = _table(db)
    embed = HashEmbeddings()
    report = index_paths([folder], db, model=EmbeddingsRefinery(embed, model_name="hash-8"))
    assert report.indexed == [] and len(report.skipped) == len(DOCS) and embed.calls == 0
    after = _table(db)
    assert after == before and len({r["id"] for r in after}) == len(after)


def test_a_changed_file_gets_exactly_its_new_rows(tmp_path):
    src = tmp_path / "notes.md"
    long = "\n\n".join(f"## Part {i}\n\n" + f"Sentence {i} about the topic of part {i}. " * 30 for i in range(6))
    src.write_text("# Notes\n\n" + long, encoding="utf-8")
    db = tmp_path / "db"
    first = index_paths([src], db, model=_embedder())
    src.write_text("# Notes\n\nOnly one short paragraph is left.\n", encoding="utf-8")
    second = index_paths([src], db, model=_embedder())
    assert first.chunks > 1 and second.indexed == [str(src)] and second.chunks == 1 == second.total
    (row,) = _table(db)
    assert row["text"] == "Only one short paragraph is left." and row["chunk_index"] == 0


def test_changed_chunker_settings_reindex_every_file(folder, tmp_path):
    db = tmp_path / "db"
    index_paths([folder], db, model=_embedder())
    report = index_paths([folder], db, chunker=docchunk.HybridChunker(max_tokens=64), model=_embedder())
    assert len(report.indexed) == len(DOCS)
    assert all("max_tokens=64" in r["chunker"] for r in _table(db))


def test_an_index_of_another_model_is_refused(folder, tmp_path):
    db = tmp_path / "db"
    index_paths([folder / DOCS[0]], db, model=_embedder())
    with pytest.raises(ConfigError, match="built with the model 'hash-8'"):
        index_paths([folder], db, model=EmbeddingsRefinery(HashEmbeddings(), model_name="other"))


def test_a_file_that_fails_is_reported_and_keeps_its_old_rows(folder, tmp_path):
    db = tmp_path / "db"
    index_paths([folder], db, model=_embedder())
    before = _table(db)
    (folder / DOCS[0]).write_text("{ not json", encoding="utf-8")
    report = index_paths([folder], db, model=_embedder())
    assert [s for s, _ in report.failed] == [str(folder / DOCS[0])] and _table(db) == before


_INDEX_SCRIPT = """
import sys
from docchunk import EmbeddingsRefinery
from docchunk.index import index_paths
from tests.helpers import HashEmbeddings
embedder = EmbeddingsRefinery(HashEmbeddings(delay=float(sys.argv[3])), model_name="hash-8")
index_paths([sys.argv[1]], sys.argv[2], model=embedder)
"""


def _index_process(folder, db, delay: float) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    args = [sys.executable, "-c", _INDEX_SCRIPT, str(folder), str(db), str(delay)]
    return subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


@pytest.mark.slow
def test_killed_run_then_rerun_gives_the_table_of_an_uninterrupted_run(tmp_path):
    """SIGKILL while indexing, after some files were written: they stay, and a rerun completes the same table."""
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(4):
        for name in DOCS:
            shutil.copy(DATA / name, folder / f"{i}-{name}")
    killed_db, whole_db = tmp_path / "killed", tmp_path / "whole"
    process = _index_process(folder, killed_db, delay=1.5)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and process.poll() is None:
        if (killed_db / RECORD_NAME).is_file() and IndexStore(killed_db).count_rows() > 0:
            break
        time.sleep(0.2)
    assert process.poll() is None, process.communicate()[1].decode()[-2000:]
    process.send_signal(signal.SIGKILL)
    process.wait()
    partial = IndexStore(killed_db)
    written = set(partial.hashes())
    assert 0 < len(written) < len(DOCS) * 4  # killed mid-run
    assert not list(killed_db.glob(".*.tmp"))  # no half-written record
    report = index_paths([folder], killed_db, model=_embedder())
    assert {f"docs/{os.path.basename(s)}" for s in report.skipped} == written
    assert len(report.indexed) == len(DOCS) * 4 - len(written)
    index_paths([folder], whole_db, model=_embedder())
    assert _table(killed_db) == _table(whole_db)


def test_a_callable_model_names_model_name_and_search_names_the_recorded_model(folder, tmp_path):
    """Regression (stop 56's new-user tester, finding 7): index_paths(model=callable) said "an index needs
    an EmbeddingsRefinery with model_name=...", not its own model_name=; a callable's own model_name
    attribute is taken; and a search that loads the recorded name says it is the index's model."""
    db = tmp_path / "db"
    with pytest.raises(ConfigError, match=r"index_paths\(model=HashEmbeddings\) needs model_name="):
        index_paths([folder], db, model=HashEmbeddings())
    embed = HashEmbeddings()
    embed.model_name = "hash-8"  # the callable names itself
    report = index_paths([folder], db, model=embed)
    assert len(report.indexed) == len(DOCS) and IndexStore(db).record()["model"] == "hash-8"
    with pytest.raises((ConfigError, ImportError)) as info:  # "hash-8" is loaded by name: no such model
        docchunk.index.search(db, "ducks", mode="dense")
    assert "the index was built with the model 'hash-8'" in str(info.value) and "pass model=" in str(info.value)
    hits = docchunk.index.search(db, "ducks", mode="dense", model=EmbeddingsRefinery(embed, model_name="hash-8"))
    assert hits


def test_files_of_a_folder_the_index_does_not_read_are_in_the_report(folder, tmp_path):
    """Regression (stop 56's new-user tester, finding 15): a folder's .txt notes were in no list of
    index_paths' report (not indexed, skipped or failed), where docchunk index names them."""
    (folder / "notes.txt").write_text("The warranty lasts two years.\n")
    (folder / "photo.png").write_bytes(b"\x89PNG")
    report = index_paths([folder], tmp_path / "db", model=_embedder())
    assert len(report.indexed) == len(DOCS)
    reasons = {os.path.basename(source): reason for source, reason in report.ignored}
    assert set(reasons) == {"notes.txt", "photo.png"}, report.ignored
    assert reasons["notes.txt"].startswith("plain text: the index takes documents only"), reasons
