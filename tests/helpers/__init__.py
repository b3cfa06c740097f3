"""Helpers shared by the tests (fixtures live in conftest.py), one module per concern:

- ``documents``: the shipped and corpus documents, the shared loader, built documents;
- ``properties``: hypothesis example counts per profile, the cl100k spec;
- ``cli``: the command line run in-process;
- ``browser``: the inspect page's HTML parser and a headless Chromium;
- ``checks``: checks on chunks (lost text, debris lines, pages, tables);
- ``fakes``: stand-ins: a conversion backend, hand-cut text chunks, an embedding model.

Every public name is importable from ``tests.helpers`` as before.
"""

from __future__ import annotations

from tests.helpers.browser import CHROMIUM_FLAGS, Chromium, ReportPage
from tests.helpers.checks import (
    TINY_ROOM,
    captions,
    check_tables,
    collapse,
    debris_lines,
    is_subsequence,
    lost_tables,
    lost_texts,
    page_sets,
    span_faults,
    squash,
    table_chunks,
    walked_tables,
)
from tests.helpers.cli import docs_project, rows, run
from tests.helpers.documents import (
    CODE_EXT,
    CORPUS,
    CORPUS_REASON,
    DATA,
    ROOT,
    bench_script,
    captioned_doc,
    changed_documents,
    code_document,
    code_files,
    corpus_docs,
    doc_digest,
    doc_params,
    live_docling_params,
    load,
    make_table,
    shipped_docs,
    table_data,
)
from tests.helpers.fakes import HashEmbeddings, JsonConverter, letter_counts, line_chunks, sliced_chunks
from tests.helpers.properties import STANDARD_EXAMPLES, cl100k_spec, examples

__all__ = [
    "CHROMIUM_FLAGS",
    "CODE_EXT",
    "CORPUS",
    "CORPUS_REASON",
    "DATA",
    "ROOT",
    "STANDARD_EXAMPLES",
    "TINY_ROOM",
    "Chromium",
    "HashEmbeddings",
    "JsonConverter",
    "ReportPage",
    "bench_script",
    "captioned_doc",
    "captions",
    "changed_documents",
    "check_tables",
    "cl100k_spec",
    "code_document",
    "code_files",
    "collapse",
    "corpus_docs",
    "debris_lines",
    "doc_digest",
    "doc_params",
    "docs_project",
    "examples",
    "is_subsequence",
    "letter_counts",
    "line_chunks",
    "live_docling_params",
    "load",
    "lost_tables",
    "lost_texts",
    "make_table",
    "page_sets",
    "rows",
    "run",
    "shipped_docs",
    "sliced_chunks",
    "span_faults",
    "squash",
    "table_chunks",
    "table_data",
    "walked_tables",
]
