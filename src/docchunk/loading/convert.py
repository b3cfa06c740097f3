"""Conversion of Markdown, HTML, Office and CSV files through docling's format backends, and of PDF.

Calls the per-format backends directly instead of ``docling.document_converter``,
which (docling-slim 2.143) fails to import without torch once transformers is
installed; the backends need no models and no network. PDF goes through docling's
``DocumentConverter`` and its PDF pipeline (the ``pdf`` extra: layout and table
models, torch), which downloads its models on first use unless
``DOCLING_ARTIFACTS_PATH`` (docling's ``artifacts_path``) names a folder holding them.
"""

from __future__ import annotations

import os
from io import BytesIO
from pathlib import Path
from typing import Any

from docling_core.types.doc import DoclingDocument

from docchunk._extras import extra_install, require
from docchunk.errors import DocumentError, MissingDependencyError

__all__ = ["CONVERTIBLE", "PDF_SUFFIXES", "convert_bytes", "convert_file", "pdf_converter"]

# suffix -> (InputFormat member, backend module, backend class)
_BACKENDS = {
    ".md": ("MD", "docling.backend.md_backend", "MarkdownDocumentBackend"),
    ".markdown": ("MD", "docling.backend.md_backend", "MarkdownDocumentBackend"),
    ".html": ("HTML", "docling.backend.html_backend", "HTMLDocumentBackend"),
    ".htm": ("HTML", "docling.backend.html_backend", "HTMLDocumentBackend"),
    ".docx": ("DOCX", "docling.backend.msword_backend", "MsWordDocumentBackend"),
    ".pptx": ("PPTX", "docling.backend.mspowerpoint_backend", "MsPowerpointDocumentBackend"),
    ".xlsx": ("XLSX", "docling.backend.msexcel_backend", "MsExcelDocumentBackend"),
    ".csv": ("CSV", "docling.backend.csv_backend", "CsvDocumentBackend"),
}
CONVERTIBLE = tuple(_BACKENDS)
PDF_SUFFIXES = (".pdf",)


def convert_file(path: Path, suffix: str) -> DoclingDocument:
    """Convert one file; see :func:`docchunk.load_document`."""
    if suffix in PDF_SUFFIXES:
        return _convert_pdf(path)
    return _convert(path, suffix, str(path))


def convert_bytes(data: bytes, fmt: str, where: str) -> DoclingDocument:
    """Convert in-memory content of the given format (``md``, ``html``, ``csv`` ...)."""
    suffix = {"markdown": ".md", "htm": ".html"}.get(fmt, f".{fmt}")
    if suffix not in _BACKENDS:
        raise DocumentError(f"{where}: cannot convert format {fmt!r}; supported: {sorted(_BACKENDS)}")
    return _convert(BytesIO(data), suffix, where, name=f"document{suffix}")


def _convert(source: Path | BytesIO, suffix: str, where: str, name: str | None = None) -> DoclingDocument:
    fmt_name, module, cls = _BACKENDS[suffix]
    purpose = f"Converting {suffix} files"
    require("docling", "convert", purpose)
    base_models = require("docling.datamodel.base_models", "convert", purpose)
    document = require("docling.datamodel.document", "convert", purpose)
    try:
        backend = getattr(require(module, "convert", purpose), cls)
    except MissingDependencyError:
        raise
    fmt = getattr(base_models.InputFormat, fmt_name)
    try:
        if isinstance(source, Path):
            in_doc = document.InputDocument(path_or_stream=source, format=fmt, backend=backend)
        else:
            in_doc = document.InputDocument(path_or_stream=source, format=fmt, backend=backend, filename=name)
        if not in_doc.valid:
            raise DocumentError(f"{where}: not a valid {suffix} file (docling could not open it)")
        doc = in_doc._backend.convert()
    except DocumentError:
        raise
    except ImportError as exc:
        raise MissingDependencyError(
            f"{purpose} needs docling's format backends: {extra_install('convert')} ({exc})"
        ) from exc
    except Exception as exc:
        raise DocumentError(f"{where}: cannot convert {suffix} file: {type(exc).__name__}: {exc}") from exc
    return doc


def _convert_pdf(path: Path) -> DoclingDocument:
    converter = pdf_converter(str(path))
    try:
        return converter.convert(path).document
    except Exception as exc:
        raise DocumentError(
            f"{path}: cannot convert PDF: {type(exc).__name__}: {' '.join(str(exc).split())[:300]}. docling's PDF "
            "pipeline downloads its layout models on first use; offline, download them once with "
            "`docling-tools models download -o DIR` and set DOCLING_ARTIFACTS_PATH=DIR"
        ) from exc


def pdf_converter(where: str = "PDF") -> Any:
    """The ``DocumentConverter`` of docling for PDF (its default PDF pipeline and options).

    docling reads ``DOCLING_ARTIFACTS_PATH`` (its ``artifacts_path`` setting) for a
    folder of pre-downloaded models; without it the models are downloaded from the
    Hugging Face Hub on first use.

    Args:
        where: The input, named in error messages.

    Raises:
        MissingDependencyError: docling's PDF pipeline is not installed (the ``pdf`` extra).
        DocumentError: ``DOCLING_ARTIFACTS_PATH`` is set but is not a directory.
    """
    artifacts = os.environ.get("DOCLING_ARTIFACTS_PATH")
    if artifacts and not Path(artifacts).expanduser().is_dir():
        raise DocumentError(
            f"{where}: DOCLING_ARTIFACTS_PATH={artifacts!r} is not a directory; set it to the folder that "
            "`docling-tools models download -o DIR` filled, or unset it to let docling download its models"
        )
    try:
        from docling.document_converter import DocumentConverter  # type: ignore[import-not-found, unused-ignore]
    except ImportError as exc:
        raise MissingDependencyError(
            f"{where}: converting PDF needs docling's PDF pipeline (layout models, torch), which is not installed "
            f"or does not import ({type(exc).__name__}: {exc}); install it with: {extra_install('pdf')}, "
            "or convert the PDF to DoclingDocument JSON with docling first"
        ) from exc
    return DocumentConverter()
