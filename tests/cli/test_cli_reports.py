"""What the command line says (issue 48): skipped inputs named with the reason, index -o, progress, --debug."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.helpers import DATA, rows, run

GOOD = DATA / "pdf__multi_page.json"


def _mixed_folder(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    shutil.copy(GOOD, folder / "report.json")
    (folder / "notes.txt").write_text("Plain notes, a text file.\n")
    (folder / "scan.png").write_bytes(b"\x89PNG\r\n")
    (folder / ".DS_Store").write_bytes(b"\0")
    return folder


def test_chunk_names_the_files_it_skipped_in_a_folder_and_why(tmp_path, capsys):
    """Regression (issue 48): a .txt in a folder of documents was skipped without a word."""
    folder = _mixed_folder(tmp_path)
    code, _, err = run(capsys, "chunk", str(folder), "-o", str(tmp_path / "out.jsonl"))
    assert code == 0, err
    (line,) = [x for x in err.splitlines() if "skipped" in x]
    assert line.startswith("docchunk: skipped 2 file(s) in the input folders: ")
    assert f"{folder / 'notes.txt'} (plain text, read only by a text chunker: --chunker recursive" in line
    assert f"{folder / 'scan.png'} (.png: not a format docchunk reads)" in line
    assert ".DS_Store" not in line
    assert len(rows((tmp_path / "out.jsonl").read_text())) > 1


def test_a_text_chunker_takes_the_text_file_and_skips_the_rest(tmp_path, capsys):
    folder = _mixed_folder(tmp_path)
    code, out, err = run(capsys, "chunk", str(folder), "--chunker", "recursive")
    assert code == 0, err
    assert "docchunk: skipped 1 file(s)" in err and "scan.png" in err and "notes.txt" not in err
    assert {r["source"] for r in rows(out)} == {str(folder / "notes.txt"), str(folder / "report.json")}


def test_no_skipped_line_when_nothing_was_skipped(tmp_path, capsys):
    code, _, err = run(capsys, "chunk", str(GOOD), "-o", str(tmp_path / "out.jsonl"))
    assert code == 0 and "docchunk: skipped" not in err


@pytest.mark.model
def test_index_takes_o_as_db_and_names_what_it_skipped(tmp_path, capsys, minilm_dir):
    """Regression (issue 48): `docchunk index ... -o DIR` failed with "No such option '-o'"."""
    pytest.importorskip("lancedb")
    folder = _mixed_folder(tmp_path)
    db = tmp_path / "db"
    code, _, err = run(capsys, "index", str(folder), "-o", str(db), "--embed", str(minilm_dir))
    assert code == 0, err
    assert "docchunk: skipped 2 file(s)" in err and "indexed 1 file(s)" in err and str(db) in err
    from docchunk.index import IndexStore

    assert IndexStore(db).count_rows() > 1


@pytest.mark.model
def test_search_numbers_table_rows_as_inspect_does(tmp_path, capsys, minilm_dir):
    """Regression (issue 48): search printed a table's rows 1-3 where inspect printed the same rows 2-4."""
    pytest.importorskip("lancedb")
    import json
    import re

    from docchunk.report.views import rows_label

    doc = DATA / "html__html_rich_table_cells.html.json"
    db = tmp_path / "db"
    assert run(capsys, "index", str(doc), "--db", str(db), "--embed", str(minilm_dir))[0] == 0
    code, out, err = run(capsys, "search", str(db), "table", "-k", "30", "--json")
    assert code == 0, err
    labels = {rows_label(tuple(h["table_rows"])) for h in json.loads(out) if h["table_rows"]}
    assert labels
    code, text, err = run(capsys, "search", str(db), "table", "-k", "30")
    assert code == 0, err
    assert set(re.findall(r"table (rows? \d+(?:–\d+)?)", text)) == labels
    assert run(capsys, "inspect", str(doc), "-o", str(tmp_path / "page.html"))[0] == 0
    page = (tmp_path / "page.html").read_text()
    assert all(f'<span class="rows">{label}</span>' in page for label in labels)


@pytest.mark.corpus
@pytest.mark.parametrize("debug", [False, True])
def test_docling_warnings_are_counted_and_shown_with_debug(tmp_path, capsys, debug):
    """Regression (issue 48): docling's own log warnings leaked to stderr; now one line, or shown with --debug."""
    from tests.helpers import CORPUS, CORPUS_REASON

    source = CORPUS / "sources" / "equations.docx"  # its OMML holds a limit function docling does not know
    if not source.is_file():
        pytest.skip(CORPUS_REASON)
    pytest.importorskip("docling.backend.msword_backend", reason="needs the convert extra")
    code, _, err = run(capsys, "chunk", str(source), "-o", str(tmp_path / "out.jsonl"), *(["--debug"] if debug else []))
    assert code == 0, err
    lines = err.splitlines()
    shown = [x for x in lines if x.startswith("docling: WARNING: docling.backend.docx.latex.omml: ")]
    assert "LIM_FUNC" not in "".join(x for x in lines if not x.startswith("docling: WARNING"))
    if debug:
        assert shown and not any("--debug shows them" in x for x in lines)
    else:
        assert not shown and "docchunk: 1 warning(s) from docling while converting; --debug shows them" in lines



@pytest.mark.parametrize("debug", [False, True])
def test_docling_python_warnings_are_counted_and_shown_with_debug(tmp_path, capsys, debug):
    """Regression (hostile finding 5, s7): docling's ``warnings.warn`` (a ragged CSV) reached stderr raw.

    stderr held ``.../docling/backend/csv_backend.py:237: UserWarning: Inconsistent column
    lengths ...`` and ``  warnings.warn(`` before the summary line; now the warning is
    counted with docling's log records, or shown as one of them with ``--debug``.
    """
    pytest.importorskip("docling.backend.csv_backend", reason="needs the convert extra")
    source = tmp_path / "ragged.csv"
    source.write_text("a,b\n1,2\n3\n", encoding="utf-8")
    code, _, err = run(capsys, "chunk", str(source), "-o", str(tmp_path / "out.jsonl"), *(["--debug"] if debug else []))
    assert code == 0, err
    lines = err.splitlines()
    assert not [x for x in lines if "warnings.warn" in x or "csv_backend.py" in x], err
    shown = [x for x in lines if x.startswith("docling: WARNING: docling.backend.csv_backend: UserWarning: ")]
    assert lines[0].startswith("docling: WARNING: " if debug else "docchunk: wrote "), err
    if debug:
        assert len(shown) == 1 and "Inconsistent column lengths" in shown[0], err
        assert not any("--debug shows them" in x for x in lines)
    else:
        counted = "docchunk: 1 warning(s) from docling while converting; --debug shows them"
        assert not shown and lines == [lines[0], counted], err


def test_warnings_of_other_code_are_shown_as_before(capsys):
    """Only the libraries' warnings are captured: the caller's own still reach ``warnings.showwarning``."""
    import warnings

    from docchunk.cli.process import captured_library_logs

    with warnings.catch_warnings(record=True) as caught, captured_library_logs(debug=False):
        warnings.simplefilter("always")
        warnings.warn_explicit("the caller's own", UserWarning, __file__, 1)
    assert [str(w.message) for w in caught] == ["the caller's own"]
    assert "warning(s) from" not in capsys.readouterr().err


def _bar_states(err: str) -> list[str]:
    return [state.strip() for state in err.replace("\r", "\n").splitlines() if state.strip()]


def test_progress_shows_the_phases_of_one_file(tmp_path, capsys):
    """Regression (issue 48): a long single-file run printed nothing until its end."""
    code, _, err = run(capsys, "chunk", str(GOOD), "-o", str(tmp_path / "out.jsonl"), "--progress")
    assert code == 0, err
    states = _bar_states(err)
    for phase in ("load", "chunk", "write"):
        assert any(s.startswith(f"{GOOD.name}: {phase}:") for s in states), phase
    assert any("3/3" in s and "phase" in s for s in states)
    assert states[-1].startswith("docchunk: wrote")


def test_progress_counts_files_when_there_are_many(tmp_path, capsys):
    for i in range(12):
        shutil.copy(GOOD, tmp_path / f"doc{i:02d}.json")
    code, out, err = run(capsys, "chunk", str(tmp_path), "--progress")
    assert code == 0, err
    assert any("12/12" in s and "file" in s for s in _bar_states(err))
    assert len({r["source"] for r in rows(out)}) == 12


def test_no_progress_when_not_asked_and_not_on_a_terminal(tmp_path, capsys):
    code, _, err = run(capsys, "chunk", str(GOOD), "-o", str(tmp_path / "out.jsonl"))
    assert code == 0 and _bar_states(err) == [x for x in err.splitlines() if x.startswith("docchunk: ")]
    assert "phase" not in err


def _documents_warning_at_load(folder: Path, count: int) -> list[Path]:
    """Documents that docling-core warns about as it loads them (a bbox past its page's edge), each its own warning."""
    from docling_core.types.doc import BoundingBox, DocItemLabel, DoclingDocument, ProvenanceItem, Size

    paths = []
    for k in range(count):
        doc = DoclingDocument(name=f"off_page_{k}")
        doc.add_page(page_no=1, size=Size(width=100, height=100))
        prov = ProvenanceItem(page_no=1, bbox=BoundingBox(l=0, t=0, r=150 + k, b=10), charspan=(0, 4))
        doc.add_text(DocItemLabel.TEXT, f"The text of document {k}.", prov=prov)
        paths.append(folder / f"off_page_{k}.json")
        paths[-1].write_text(doc.model_dump_json(), encoding="utf-8")
    return paths


@pytest.mark.parametrize("debug", [False, True])
def test_regression_workers_count_the_libraries_warnings_as_one_process_does(tmp_path, capsys, debug):
    """With ``--workers 2``, docling-core's warnings in a worker were printed raw and left out of the count."""
    paths = _documents_warning_at_load(tmp_path, 4)
    errs = {}
    for workers in ("1", "2"):
        out = tmp_path / "out.jsonl"  # (the same in both runs: the lines name it)
        code, _, err = run(capsys, "chunk", *map(str, paths), "-o", str(out), "--workers", workers,
                           "--no-progress", *(["--debug"] if debug else []))  # fmt: skip
        assert code == 0, err
        assert "document.py" not in err and "warnings.warn" not in err, err  # nothing raw
        errs[workers] = err.splitlines()
    assert errs["2"] == errs["1"], errs
    shown = [x for x in errs["1"] if x.startswith("docling: WARNING: docling_core.types.doc.document: UserWarning: ")]
    if debug:  # each shown once, in input order
        assert [re.search(r"value=(\d+)", x)[1] for x in shown] == ["150", "151", "152", "153"], errs
    else:
        counted = "docchunk: 4 warning(s) from docling_core while converting; --debug shows them"
        assert not shown and counted in errs["1"], errs
