"""Helpers shared by the tests (fixtures live in conftest.py): paths, test documents, loading."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
CORPUS = Path(os.environ.get("DOCCHUNK_CORPUS", ROOT.parent / "shared" / "corpus"))
CORPUS_REASON = f"the shared corpus is not at {CORPUS} (set DOCCHUNK_CORPUS); corpus-wide tests need it"


def shipped_docs() -> list[Path]:
    """DoclingDocument JSON files carried in tests/data."""
    return sorted(DATA.glob("*.json"))


def corpus_docs() -> list[Path]:
    """Every DoclingDocument of the shared corpus, or [] when it is absent."""
    if not CORPUS.is_dir():
        return []
    tests = CORPUS / "docling-core-tests"
    return (
        sorted((CORPUS / "docling").glob("*.json"))
        + sorted((tests / "chunker").glob("*_inp_dl_doc.json"))
        + sorted((tests / "chunker" / "_generated_fixtures").glob("*.json"))
        + [p for p in [tests / "doc" / "cross_page_lists.json"] if p.is_file()]
    )


def doc_params() -> list:
    """Shipped docs always; corpus docs when present, else one skipped placeholder."""
    params = [pytest.param(p, id=f"data/{p.name}") for p in shipped_docs()]
    corpus = corpus_docs()
    if corpus:
        params += [pytest.param(p, id=f"corpus/{p.name}", marks=pytest.mark.corpus) for p in corpus]
    else:
        marks = [pytest.mark.corpus, pytest.mark.skip(reason=CORPUS_REASON)]
        params.append(pytest.param(None, id="corpus", marks=marks))
    return params


_DOC_CACHE: dict[Path, object] = {}


def load(path: Path):
    """Load (and cache) a DoclingDocument from JSON."""
    from docling_core.types.doc import DoclingDocument

    if path not in _DOC_CACHE:
        _DOC_CACHE[path] = DoclingDocument.load_from_json(path)
    return _DOC_CACHE[path]


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
