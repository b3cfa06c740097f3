"""The ``docchunk`` command line run in-process, and its JSONL rows."""

from __future__ import annotations

import json
import shutil
from pathlib import Path


def run(capsys, *args: str) -> tuple[int, str, str]:
    """Run the ``docchunk`` command line in-process: (exit code, stdout, stderr)."""
    from docchunk.cli.main import main

    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = exc.code or 0
    out, err = capsys.readouterr()
    return code, out, err


def rows(text: str) -> list[dict]:
    """The records of JSON lines output."""
    return [json.loads(line) for line in text.splitlines()]


def docs_project(tmp_path: Path, monkeypatch, names: list[str]) -> Path:
    """``tmp_path/proj`` holding ``docs/``, copies of the shipped documents ``names``; the working directory."""
    from tests.helpers.documents import DATA

    root = tmp_path / "proj"
    (root / "docs").mkdir(parents=True)
    for name in names:
        shutil.copy(DATA / name, root / "docs" / name)
    monkeypatch.chdir(root)
    return root
