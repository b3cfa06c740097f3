"""The documentation builds as a site: ``mkdocs build --strict`` (no broken link, API pages from docstrings)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.helpers import ROOT


@pytest.mark.slow
def test_mkdocs_build_strict(tmp_path):
    reason = 'the docs extra is not installed: pip install -e ".[docs]"'
    pytest.importorskip("mkdocstrings_handlers.python", reason=reason)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"), "-d", str(tmp_path)],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    pages = {p.parent.name for p in tmp_path.glob("*/index.html")}
    chunkers = {"hybrid", "hierarchical", "recursive", "token", "sentence", "window", "semantic", "overlap", "inspect"}
    assert chunkers <= pages
    api = (tmp_path / "api" / "text" / "index.html").read_text(encoding="utf-8")
    assert 'id="docchunk.chunkers.text.recursive.RecursiveChunker"' in api  # rendered from the docstring
    assert (tmp_path / "img" / "inspect.png").stat().st_size > 10_000
