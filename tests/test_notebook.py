"""notebooks/quickstart.ipynb runs top to bottom (its code cells, in order, in one namespace)."""

from __future__ import annotations

import json
import os

from tests.conftest import ROOT


def test_quickstart_notebook_runs(monkeypatch):
    nb = json.loads((ROOT / "notebooks" / "quickstart.ipynb").read_text())
    monkeypatch.chdir(ROOT / "notebooks")
    namespace: dict = {}
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            exec(compile("".join(cell["source"]), "quickstart.ipynb", "exec"), namespace)
    assert namespace["chunks"] and namespace["rows"][0]["token_count"] <= 256
    assert os.getcwd() == str(ROOT / "notebooks")
