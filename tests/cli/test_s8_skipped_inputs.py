"""s8 new-user findings 5 and 6: what ``inspect`` and ``index`` say about files they do not read.

5. ``docchunk inspect FOLDER`` left a folder's unreadable files out silently, where ``chunk``
   and ``index`` print ``skipped ...``: it prints the same line, and the page lists them.
6. ``docchunk index notes.txt`` advised ``docchunk chunk --chunker recursive`` (``chunk``'s
   hint, which ``index`` does not take): it now gives the advice it gives for a ``.txt`` in a
   folder (save it as Markdown to index it).
"""

from __future__ import annotations

import shutil

import pytest

from tests.helpers import DATA, ReportPage, run


@pytest.fixture
def folder(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(DATA / "wiki.md", docs / "wiki.md")
    (docs / "notes.txt").write_text("The warranty lasts two years.\n", encoding="utf-8")
    (docs / "chart.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    return docs


def test_inspect_of_a_folder_names_the_files_it_skips_as_chunk_does(capsys, folder, tmp_path):
    report = tmp_path / "report.html"
    code, _, err = run(capsys, "inspect", str(folder), "-o", str(report))
    assert code == 0, err
    skipped_line = next(line for line in err.splitlines() if "skipped" in line)
    _, _, chunk_err = run(capsys, "chunk", str(folder), "-o", str(tmp_path / "chunks.jsonl"))
    assert skipped_line in chunk_err.splitlines()  # the same line as chunk's
    assert "chart.png (.png: not a format docchunk reads)" in skipped_line and "notes.txt (plain text" in skipped_line
    html = report.read_text(encoding="utf-8")
    assert len(ReportPage(html).chunks) > 0
    assert 'class="skipped"' in html and str(folder / "notes.txt") in html and str(folder / "chart.png") in html


def test_inspect_with_a_text_chunker_reads_the_text_file_and_skips_only_the_picture(capsys, folder, tmp_path):
    report = tmp_path / "report.html"
    code, _, err = run(capsys, "inspect", str(folder), "-o", str(report), "--chunker", "recursive")
    assert code == 0, err
    assert "skipped 1 file(s)" in err and "chart.png" in err and "notes.txt" not in err
    html = report.read_text(encoding="utf-8")
    assert str(folder / "chart.png") in html and "lasts two years" in html


def test_inspect_of_a_folder_with_nothing_to_skip_shows_no_skipped_list(capsys, tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(DATA / "wiki.md", docs / "wiki.md")
    report = tmp_path / "report.html"
    code, _, err = run(capsys, "inspect", str(docs), "-o", str(report))
    assert code == 0 and "skipped" not in err and 'class="skipped"' not in report.read_text(encoding="utf-8")


def test_index_of_a_text_file_by_name_gives_the_advice_index_takes(capsys, folder, tmp_path):
    pytest.importorskip("lancedb")
    db = tmp_path / "db"
    code, _, err = run(capsys, "index", str(folder / "notes.txt"), "--db", str(db))
    assert code == 1 and "the index takes documents only" in err and "save it as Markdown" in err
    assert "--chunker recursive, token" not in err and "chunk --chunker recursive chunks it as text" in err
    assert not db.exists()
