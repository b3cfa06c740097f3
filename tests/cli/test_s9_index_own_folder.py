"""s9 hostile findings 3 and 4 on ``docchunk index``, each pinned with a real LanceDB index.

3. ``docchunk index docs --db docs/idx`` run a second time walked into its own index
   folder and read ``docchunk-index.json`` and the LanceDB files as documents (2 failed,
   exit 1); hidden (``docs/.index``), ``.`` from inside the folder and ``--db`` equal to
   the input folder alike. The walk now leaves an index's own files out, for ``chunk``
   (and ``inspect``) too.
4. ``docchunk index`` on a missing input, with ``--db`` under a file or where no folder can
   be created printed a raw traceback (exit 1): now one ``docchunk: error:`` line naming
   the path and the fix, exit 2, and no folder left behind.

The indexes are built with :class:`tests.helpers.HashEmbeddings` recorded as ``hash-8``;
the command is run with ``--embed hash-8``, so a run whose files are all unchanged (or
refused) loads no model.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("lancedb")

from docchunk import EmbeddingsRefinery
from docchunk.index import IndexStore, index_paths
from tests.helpers import HashEmbeddings, docs_project, rows, run

DOCS = ["pdf__multi_page.json", "docx__word_sample.docx.json"]


def _embedder() -> EmbeddingsRefinery:
    return EmbeddingsRefinery(HashEmbeddings(), model_name="hash-8")


@pytest.fixture
def project(tmp_path, monkeypatch):
    """``tmp_path/proj`` holding ``docs/`` (two documents), the working directory."""
    return docs_project(tmp_path, monkeypatch, DOCS)


# (working directory under the project, the input path, --db): the index inside the folder it indexes
SPELLINGS = [(".", "docs", "docs/idx"), (".", "docs", "docs/.index"), ("docs", ".", "idx"), (".", "docs", "docs")]


@pytest.mark.parametrize(("cwd", "docs", "db"), SPELLINGS)
def test_regression_index_rerun_with_db_inside_the_input_skips_its_own_files(project, monkeypatch, capsys, cwd,
                                                                              docs, db):  # fmt: skip
    monkeypatch.chdir(project / cwd)
    first = index_paths([docs], db, model=_embedder())
    assert first.failed == [] and len(first.indexed) == len(DOCS) and first.total > 0
    assert (Path(db) / "docchunk-index.json").is_file()  # the index's own files are now inside the input
    again = index_paths([docs], db, model=_embedder())
    assert again.failed == [] and again.indexed == [] and len(again.skipped) == len(DOCS)
    assert again.ignored == []  # nothing of the index named as skipped input either
    code, _, err = run(capsys, "index", docs, "--db", db, "--embed", "hash-8")
    assert code == 0, err
    assert f"indexed 0 file(s) (0 chunks), skipped {len(DOCS)} unchanged, 0 failed" in err
    assert "error" not in err and "skipped" not in err.split("indexed")[0]
    assert IndexStore(db).count_rows() == first.total


def test_regression_chunk_of_a_folder_holding_an_index_reads_only_its_documents(project, capsys):
    index_paths(["docs"], "docs/idx", model=_embedder())
    code, out, err = run(capsys, "chunk", "docs")
    assert code == 0, err
    assert {row["source"] for row in rows(out)} == {f"docs/{name}" for name in DOCS}
    assert "idx" not in err


def test_an_index_file_given_by_name_is_still_read(project, capsys):
    """Only the walk of a folder leaves an index out; a file named on the command line is read (and refused)."""
    index_paths(["docs"], "docs/idx", model=_embedder())
    code, _, err = run(capsys, "chunk", "docs/idx/docchunk-index.json")
    assert code == 1 and "docs/idx/docchunk-index.json" in err and "not a DoclingDocument" in err


def _one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("docchunk: error: ") and "Traceback" not in err, err
    return lines[0]


def test_regression_index_of_a_missing_file_is_one_line_and_leaves_no_folder(project, capsys):
    code, _, err = run(capsys, "index", "docs/missing.json", "--db", "idx", "--embed", "hash-8")
    line = _one_error_line(err)
    assert code == 2 and "docs/missing.json: no such file or folder; check the path" in line
    assert not Path("idx").exists()


def test_regression_index_of_a_missing_file_into_an_index_keeps_it(project, capsys):
    built = index_paths(["docs"], "idx", model=_embedder())
    code, _, err = run(capsys, "index", "docs", "docs/missing.json", "--db", "idx", "--embed", "hash-8")
    line = _one_error_line(err)
    assert code == 2 and "docs/missing.json: no such file or folder" in line
    assert IndexStore("idx").count_rows() == built.total


def test_regression_index_with_db_under_a_file_is_one_line(project, capsys):
    db = f"docs/{DOCS[0]}/idx"
    code, _, err = run(capsys, "index", "docs", "--db", db, "--embed", "hash-8")
    line = _one_error_line(err)
    assert code == 2 and f"--db {db!r}" in line and f"'docs/{DOCS[0]}' is a file, not a folder" in line
    assert "give --db" in line


def test_regression_index_with_a_db_that_cannot_be_created_is_one_line(project, capsys):
    db = "x" * 300 + "/idx"  # a folder name longer than file systems allow (255 bytes)
    code, _, err = run(capsys, "index", "docs", "--db", db, "--embed", "hash-8")
    line = _one_error_line(err)
    assert code == 2 and f"--db {db!r}: cannot create the index folder" in line and "give --db" in line


def test_index_store_refuses_to_create_a_folder_under_a_file(tmp_path):
    from docchunk.errors import ConfigError

    (tmp_path / "a.md").write_text("text\n", encoding="utf-8")
    store = IndexStore(tmp_path / "a.md" / "deeper" / "idx")
    with pytest.raises(ConfigError, match=r"a\.md' is a file, not a folder"):
        store.make_folder()
    assert not (tmp_path / "a.md" / "deeper").exists()
