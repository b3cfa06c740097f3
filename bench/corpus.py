"""The benchmarks' input: the DoclingDocument JSON files of a corpus folder, or a clear exit."""

from __future__ import annotations

import sys
from pathlib import Path

HOW = "pass --corpus DIR, a folder of DoclingDocument JSON files (the shared corpus is ../shared/corpus/docling)"


def corpus_files(folder: Path) -> list[Path]:
    """The ``*.json`` files of ``folder``, sorted; exits with a message when there are none."""
    if not folder.is_dir():
        sys.exit(f"no corpus at {folder}: the folder does not exist; {HOW}")
    files = sorted(folder.glob("*.json"))
    if not files:
        sys.exit(f"no DoclingDocument JSON in {folder}; {HOW}")
    return files


def corpus_markdown(folder: Path, max_chars: int | None = None) -> list[str]:
    """The Markdown export of each corpus document (up to about ``max_chars`` in all); exits when it is empty."""
    from docling_core.types.doc import DoclingDocument

    parts: list[str] = []
    for path in corpus_files(folder):
        parts.append(DoclingDocument.load_from_json(path).export_to_markdown())
        if max_chars is not None and sum(map(len, parts)) > max_chars:
            break
    if not "".join(parts).strip():
        sys.exit(f"the documents in {folder} hold no text to benchmark; {HOW}")
    return parts


def corpus_docs(folder: Path) -> list:
    """The corpus documents, loaded; exits when there are none or none holds text."""
    from docling_core.types.doc import DoclingDocument

    docs = [DoclingDocument.load_from_json(path) for path in corpus_files(folder)]
    if not any(doc.export_to_markdown().strip() for doc in docs):
        sys.exit(f"the documents in {folder} hold no text to benchmark; {HOW}")
    return docs
