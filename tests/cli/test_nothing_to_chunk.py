"""Nothing to chunk is an error: one line on stderr naming the input, exit status 1, other inputs still written."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from docchunk.cli.main import cli
from tests.helpers import DATA

GOOD = DATA / "pdf__multi_page.json"
EMPTY_DOC = {"schema_name": "DoclingDocument", "version": "1.0.0", "name": "empty"}


def empty_folder(tmp_path):
    (tmp_path / "empty").mkdir()
    return tmp_path / "empty"


def unsupported_only(tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "notes.txt").write_text("plain text is not a supported input")
    (folder / "data.yaml").write_text("a: 1\n")
    return folder


def empty_json_doc(tmp_path):
    (tmp_path / "empty.json").write_text(json.dumps(EMPTY_DOC))
    return tmp_path / "empty.json"


def markdown(content: str):
    def make(tmp_path):
        pytest.importorskip("docling.backend.md_backend", reason='Markdown needs pip install ".[convert]"')
        (tmp_path / "empty.md").write_text(content)
        return tmp_path / "empty.md"

    return make


CASES = [
    pytest.param(empty_folder, "holds no supported file", id="empty-folder"),
    pytest.param(unsupported_only, "holds no supported file", id="folder-without-supported-files"),
    pytest.param(empty_json_doc, "holds no text", id="docling-json-without-items"),
    pytest.param(markdown(""), "holds no text", id="empty-md"),
    pytest.param(markdown("\n  \n\t\n"), "holds no text", id="blank-md"),
]


@pytest.mark.parametrize(("make", "message"), CASES)
def test_nothing_to_chunk_exits_1_with_a_message(tmp_path, make, message):
    path = make(tmp_path)
    result = CliRunner().invoke(cli, ["chunk", str(path)])
    assert result.exit_code == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[0].startswith(f"docchunk: error: {path}: nothing to chunk") and message in lines[0]
    assert lines[-1] == "docchunk: error: 1 of 1 input(s) failed"


@pytest.mark.parametrize(("make", "message"), CASES[:3])
def test_nothing_to_chunk_beside_a_good_input_still_writes_it(tmp_path, make, message):
    path = make(tmp_path)
    shutil.copy(GOOD, tmp_path / "good.json")
    result = CliRunner().invoke(cli, ["chunk", str(path), str(tmp_path / "good.json")])
    assert result.exit_code == 1
    assert message in result.stderr and "1 of 2 input(s) failed; the others were written" in result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert rows and {r["source"] for r in rows} == {str(tmp_path / "good.json")}


def test_document_whose_body_reaches_nothing_says_so(tmp_path):
    """Without its "body", a document full of text was reported as holding no text."""
    data = json.loads((DATA / "pdf__multi_page.json").read_text())
    del data["body"]
    path = tmp_path / "no_body.json"
    path.write_text(json.dumps(data))
    result = CliRunner().invoke(cli, ["chunk", str(path)])
    assert result.exit_code == 1
    assert "holds no text" not in result.output
    # the chunker says why: every text item is outside the body tree
    with_text = sum(1 for t in data["texts"] if t.get("text", "").strip())
    assert f"all {with_text} text items are outside the document's body tree" in result.output
    assert "'body'" in result.output
    assert len(result.output.strip().splitlines()) == 2  # the error, then "1 of 1 input(s) failed"


def test_a_document_of_one_empty_table_holds_no_text():
    """An empty table's data counted as text, so the reason given was the wrong one."""
    from docling_core.types.doc import DoclingDocument, TableData

    import docchunk
    from docchunk.batch.rows import chunk_rows

    doc = DoclingDocument(name="x")
    doc.add_table(data=TableData(num_rows=0, num_cols=0, table_cells=[]))
    with pytest.raises(docchunk.DocumentError, match="nothing to chunk: the document holds no text"):
        chunk_rows(docchunk.HybridChunker(), "empty-table.json", doc)
