"""s8 new-user findings 1 and 2 on ``docchunk index``, each pinned with a real LanceDB index.

1. The same file indexed under another spelling of its path (absolute after relative, from
   another working directory, through a symbolic link) was stored twice, and search gave
   every hit twice: rows are now keyed by ``source_key`` (the resolved path, relative to
   the folder that holds the index), and rows an older docchunk wrote under the path as
   given are taken over, not duplicated.
2. A re-run with every file unchanged imported sentence-transformers and torch and loaded
   the model (~10 s of CPU) to write nothing: the model now loads only for a file to embed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("lancedb")

import docchunk
from docchunk import EmbeddingsRefinery
from docchunk.batch.rows import chunk_rows
from docchunk.embeddings.models import DEFAULT_MODEL
from docchunk.index import IndexStore, content_hash, index_paths, search, table_rows
from docchunk.report.views import describe_chunker
from tests.helpers import DATA, ROOT, HashEmbeddings, docs_project

DOCS = ["pdf__multi_page.json", "docx__word_sample.docx.json"]


def _embedder(embed: HashEmbeddings | None = None) -> EmbeddingsRefinery:
    return EmbeddingsRefinery(embed or HashEmbeddings(), model_name="hash-8")


def _sources(db) -> list[str]:
    return sorted(IndexStore(db).table().to_arrow().column("source").to_pylist())


@pytest.fixture
def project(tmp_path, monkeypatch):
    """``tmp_path/proj`` holding ``docs/`` (two documents), the working directory; the index goes in ``proj/db``."""
    return docs_project(tmp_path, monkeypatch, DOCS)


def test_every_spelling_of_a_files_path_names_the_same_rows(project, tmp_path, monkeypatch):
    db = project / "db"
    first = index_paths(["docs"], "db", model=_embedder())
    total = first.total
    assert first.chunks == total > 0
    assert set(_sources(db)) == {f"docs/{n}" for n in DOCS}
    (tmp_path / "link").symlink_to(project / "docs")
    monkeypatch.chdir(tmp_path)  # another working directory, the index by its absolute path
    for spelling in [project / "docs", "proj/docs", "./proj/docs/../docs", "link", *(f"link/{n}" for n in DOCS)]:
        embed = HashEmbeddings()
        report = index_paths([spelling], project / "db", model=_embedder(embed))
        assert (report.chunks, report.total, embed.calls) == (0, total, 0), spelling
    assert set(_sources(db)) == {f"docs/{n}" for n in DOCS}
    hits = search(db, "word processor", k=6, mode="lexical")
    assert len({h.row["id"] for h in hits}) == len(hits) > 1


def test_a_changed_file_under_another_spelling_replaces_its_rows(project):
    index_paths(["docs"], "db", model=_embedder())
    before = IndexStore(project / "db").count_rows()
    target = project / "docs" / DOCS[0]
    shutil.copy(DATA / "html__html_rich_table_cells.html.json", target)
    report = index_paths([str(target)], project / "db", model=_embedder())
    expected = chunk_rows(docchunk.HybridChunker(), str(target), docchunk.load_document(target))
    assert report.indexed == [str(target)] and report.chunks == len(expected)
    rows = [r for r in IndexStore(project / "db").table().to_arrow().to_pylist() if r["source"] == f"docs/{DOCS[0]}"]
    assert [r["text"] for r in sorted(rows, key=lambda r: r["chunk_index"])] == [r["text"] for r in expected]
    assert report.total != before and set(_sources(project / "db")) == {f"docs/{n}" for n in DOCS}


def test_an_index_moved_with_its_documents_keeps_its_keys(project, tmp_path, monkeypatch):
    index_paths(["docs"], "db", model=_embedder())
    moved = tmp_path / "elsewhere" / "proj"
    shutil.copytree(project, moved)
    monkeypatch.chdir(tmp_path)
    embed = HashEmbeddings()
    report = index_paths([moved / "docs"], moved / "db", model=_embedder(embed))
    assert report.chunks == 0 and embed.calls == 0 and len(report.skipped) == len(DOCS)
    assert set(_sources(moved / "db")) == {f"docs/{n}" for n in DOCS}


def _write_as_given(db, paths: list[str]) -> int:
    """Rows keyed by the path as given, as docchunk wrote them before keys (the index of the bug's report)."""
    chunker = docchunk.HybridChunker()
    settings = json.dumps({"chunker": describe_chunker(chunker), "model": "hash-8"}, sort_keys=True)
    store, embed = IndexStore(db), HashEmbeddings()
    store.write_record("hash-8", embed.dim, describe_chunker(chunker))
    for path in paths:
        rows = chunk_rows(chunker, path, docchunk.load_document(path))
        vectors = embed([r["contextualized"] for r in rows])
        store.replace_files([path], table_rows(rows, vectors, describe_chunker(chunker), content_hash(path, settings)),
                            embed.dim)  # fmt: skip
    return store.count_rows()


def test_an_index_keyed_by_the_path_as_given_is_taken_over_without_embedding(project):
    """The bug's index: each file under its relative and its absolute path; a re-run keeps one set, keyed."""
    relative = [f"docs/{n}" for n in DOCS]
    absolute = [str(project / p) for p in relative]
    doubled = _write_as_given(project / "db", [*relative, "./" + relative[0], *absolute])
    embed = HashEmbeddings()
    report = index_paths(["docs"], "db", model=_embedder(embed))
    assert embed.calls == 0 and report.chunks == 0 and len(report.skipped) == len(DOCS)
    assert set(_sources(project / "db")) == set(relative)
    ids = IndexStore(project / "db").table().to_arrow().column("id").to_pylist()
    assert len(ids) == len(set(ids)) == report.total and 3 * report.total > doubled


def _no_op_run(db, doc) -> list[str]:
    """Heavy modules imported by a ``docchunk index`` and an ``index_paths`` run that have nothing to embed."""
    code = (
        "import sys, json\n"
        "from docchunk.cli.main import main\n"
        "try:\n"
        f"    main(['index', {str(doc)!r}, '--db', {str(db)!r}])\n"
        "except SystemExit as exc:\n"
        "    assert not exc.code, exc.code\n"
        "from docchunk.index import index_paths\n"
        f"report = index_paths([{str(doc)!r}], {str(db)!r})\n"
        "assert report.chunks == 0 and len(report.skipped) == 1, report\n"
        "print(json.dumps([m for m in ('torch', 'sentence_transformers', 'transformers') if m in sys.modules]))\n"
    )
    src = Path(docchunk.__file__).parents[1]  # the docchunk under test
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(src), str(ROOT)]), "HF_HUB_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.splitlines()[-1])


def test_a_rerun_with_every_file_unchanged_loads_no_model(tmp_path):
    doc = tmp_path / DOCS[0]
    shutil.copy(DATA / DOCS[0], doc)
    db = tmp_path / "db"  # built with the default model's name (vectors from a stand-in of its dimension)
    index_paths([doc], db, model=EmbeddingsRefinery(HashEmbeddings(dim=384), model_name=DEFAULT_MODEL))
    assert _no_op_run(db, doc) == []
