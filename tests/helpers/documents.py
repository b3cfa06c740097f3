"""Paths and documents: shipped and corpus documents as pytest params, the shared loader, built ones."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
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


def live_docling_params() -> list:
    """:func:`doc_params` for a test that runs docling-core live: its corpus documents are marked ``differential``.

    docling-core run live on the corpus is the outer ring (tests/conftest.py); the shipped
    documents stay in the inner loop.
    """
    return [
        pytest.param(*p.values, id=p.id, marks=[*p.marks, pytest.mark.differential]) if p.id.startswith("corpus") else p
        for p in doc_params()
    ]


_DOC_CACHE: dict[Path, tuple[Any, str]] = {}  # path: (document, its digest when loaded)
_HANDED_OUT: set[Path] = set()  # paths handed out by load() since the last changed_documents()


def load(path: Path):
    """The DoclingDocument of a JSON file, loaded once per session and shared by every test that asks for it.

    Tests and chunkers must leave it as it is: after each test, ``tests/conftest.py`` checks
    with :func:`changed_documents` that every document handed out during the test is unchanged.
    A test that needs to change one takes a copy (``doc.model_copy(deep=True)``).
    """
    from docling_core.types.doc import DoclingDocument

    key = Path(path).resolve()
    if key not in _DOC_CACHE:
        doc = DoclingDocument.load_from_json(key)
        _DOC_CACHE[key] = (doc, doc_digest(doc))
    _HANDED_OUT.add(key)
    return _DOC_CACHE[key][0]


def doc_digest(doc: Any) -> str:
    """The SHA-256 hex digest of a document's JSON (``model_dump_json``): equal digests, equal documents."""
    import hashlib

    return hashlib.sha256(doc.model_dump_json().encode("utf-8")).hexdigest()


def changed_documents() -> list[Path]:
    """The shared documents handed out by :func:`load` since the last call whose content has changed since loading.

    Clears the record of handed-out documents.
    """
    changed = [key for key in sorted(_HANDED_OUT) if doc_digest(_DOC_CACHE[key][0]) != _DOC_CACHE[key][1]]
    _HANDED_OUT.clear()
    return changed


def captioned_doc(kind: str, inline: bool) -> Any:
    """A table or picture captioned "Table x: results", in plain text or with ``x`` as an inline formula."""
    from docling_core.types.doc import DocItemLabel, DoclingDocument, TableCell, TableData

    doc = DoclingDocument(name=kind)
    if kind == "table":
        cells = [TableCell(text=t, start_row_offset_idx=r, end_row_offset_idx=r + 1, start_col_offset_idx=c,
                           end_col_offset_idx=c + 1, column_header=r == 0)
                 for r, row in enumerate([["Fruit", "Price"], ["apple", "3"]]) for c, t in enumerate(row)]  # fmt: skip
        owner = doc.add_table(data=TableData(num_rows=2, num_cols=2, table_cells=cells))
    else:
        owner = doc.add_picture()
    if inline:
        caption = doc.add_text(label=DocItemLabel.CAPTION, text="Table", parent=owner)
        doc.add_formula(text="x", parent=caption)
        doc.add_text(label=DocItemLabel.TEXT, text=": results", parent=caption)
    else:
        caption = doc.add_text(label=DocItemLabel.CAPTION, text="Table $x$ : results", parent=owner)
    owner.captions.append(caption.get_ref())
    doc.add_text(label=DocItemLabel.TEXT, text="after")
    return doc


def table_data(grid: list[list[str | None]], header_rows: int = 1, row_header_cols: int = 0, spans=()):
    """docling-core ``TableData`` of ``grid`` texts, as :func:`make_table` builds it (same arguments)."""
    from docling_core.types.doc import TableCell, TableData

    covered = {}
    for r, c, rs, cs in spans:
        for i in range(r, r + rs):
            for j in range(c, c + cs):
                covered[(i, j)] = (r, c, rs, cs)
    cells = []
    for r, row in enumerate(grid):
        for c, text in enumerate(row):
            r0, c0, rs, cs = covered.get((r, c), (r, c, 1, 1))
            if (r0, c0) != (r, c):
                continue
            cells.append(
                TableCell(
                    text=text or "",
                    row_span=rs,
                    col_span=cs,
                    start_row_offset_idx=r,
                    end_row_offset_idx=r + rs,
                    start_col_offset_idx=c,
                    end_col_offset_idx=c + cs,
                    column_header=r < header_rows,
                    row_header=r >= header_rows and c < row_header_cols,
                )
            )
    return TableData(num_rows=len(grid), num_cols=len(grid[0]), table_cells=cells)


def make_table(
    grid: list[list[str | None]], header_rows: int = 1, row_header_cols: int = 0, spans=(), doc=None, caption=None
):
    """A document with one table: ``grid`` texts, ``spans`` as (row, col, row_span, col_span) merges.

    A merged cell takes the text at its top-left position; positions it covers hold None.
    The first ``header_rows`` rows are flagged column headers, the first ``row_header_cols``
    columns of the other rows row headers. Adds the table (and its ``caption``) to ``doc``, or
    to a new document; returns ``(doc, table)``.
    """
    from docling_core.types.doc import DocItemLabel, DoclingDocument

    doc = doc if doc is not None else DoclingDocument(name="t")
    data = table_data(grid, header_rows, row_header_cols, spans)
    cap = doc.add_text(label=DocItemLabel.CAPTION, text=caption) if caption else None
    return doc, doc.add_table(data=data, caption=cap)


# -- code chunking -----------------------------------------------------------
CODE_EXT = {".py": "Python", ".c": "C", ".h": "C", ".java": "Java", ".js": "JavaScript", ".ts": "TypeScript"}


def code_files() -> list:
    """pytest params of code files: the shipped ones, then the corpus's (marked ``corpus``)."""
    shipped = sorted(p for p in (DATA / "code").iterdir() if p.suffix in CODE_EXT)
    params = [pytest.param(p, id=f"data/{p.name}") for p in shipped]
    repos = CORPUS / "docling-core-tests" / "code" / "repos"
    if not repos.is_dir():
        marks = [pytest.mark.corpus, pytest.mark.skip(reason=CORPUS_REASON)]
        return [*params, pytest.param(None, id="corpus", marks=marks)]
    corpus = sorted(p for p in repos.glob("*/*") if p.suffix in CODE_EXT)
    return params + [pytest.param(p, id=f"corpus/{p.parent.name}/{p.name}", marks=pytest.mark.corpus) for p in corpus]


def code_document(path: Path):
    """A DoclingDocument holding one code item with ``path``'s text, as docling-core's code tests build it.

    The origin is the file name, ``text/plain`` and the SHA-256 of the text
    (see ``docling-core-tests/README.md``).
    """
    import hashlib

    from docling_core.types.doc import DoclingDocument, DocumentOrigin
    from docling_core.types.doc.labels import CodeLanguageLabel

    text = path.read_text(encoding="utf-8")
    digest = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
    origin = DocumentOrigin(filename=path.name, mimetype="text/plain", binary_hash=digest)
    doc = DoclingDocument(name=path.stem, origin=origin)
    doc.add_code(text=text, code_language=CodeLanguageLabel(CODE_EXT[path.suffix]))
    return doc


@contextmanager
def bench_script(name: str) -> Iterator[ModuleType]:
    """``bench/<name>.py`` imported as a module, registered in ``sys.modules`` while in use.

    Registration lets dataclasses resolve their annotations; it is removed on exit.
    """
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[name]
