"""notebooks/quickstart.ipynb runs top to bottom (its code cells, in order, in one namespace)."""

from __future__ import annotations

import json

from tests.helpers import ROOT


def test_quickstart_notebook_runs(monkeypatch):
    nb = json.loads((ROOT / "notebooks" / "quickstart.ipynb").read_text())
    monkeypatch.chdir(ROOT / "notebooks")
    namespace: dict = {}
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            exec(compile("".join(cell["source"]), "quickstart.ipynb", "exec"), namespace)
    chunks, rows, chunker = namespace["chunks"], namespace["rows"], namespace["chunker"]
    assert chunks and len(rows) == len(chunks)
    for row, chunk in zip(rows, chunks, strict=True):
        assert row["text"] == chunk.text and row["contextualized"] == chunker.contextualize(chunk)
        assert row["token_count"] == chunker.token_counter.count_tokens(row["contextualized"]) <= 256
