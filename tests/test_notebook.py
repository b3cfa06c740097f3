"""notebooks/quickstart.ipynb runs top to bottom (its code cells, in order, in one namespace)."""

from __future__ import annotations

import json
import os

import pytest

from docchunk.cli.main import main
from docchunk.serialization.rows import ROW_FIELDS
from tests.helpers import ROOT


@pytest.fixture(scope="module")
def notebook_namespace() -> dict:
    """The namespace after running every code cell, with the notebook's folder as working directory."""
    nb = json.loads((ROOT / "notebooks" / "quickstart.ipynb").read_text())
    namespace: dict = {}
    here = os.getcwd()
    os.chdir(ROOT / "notebooks")
    try:
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                exec(compile("".join(cell["source"]), "quickstart.ipynb", "exec"), namespace)
    finally:
        os.chdir(here)
    return namespace


def test_quickstart_notebook_runs(notebook_namespace):
    assert notebook_namespace["chunks"] and notebook_namespace["rows"][0]["token_count"] <= 256


def test_notebook_rows_are_the_cli_rows_with_source(notebook_namespace, capsys):
    rows = notebook_namespace["rows"]
    assert all(tuple(row) == ROW_FIELDS for row in rows)
    path = str(notebook_namespace["path"])
    assert all(row["source"] == path for row in rows)
    try:
        main(["chunk", path])
    except SystemExit as exc:
        assert not exc.code
    cli_rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert json.loads(json.dumps(rows)) == cli_rows
