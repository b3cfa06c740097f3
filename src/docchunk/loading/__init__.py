"""Turn files, JSON and markup into ``DoclingDocument`` objects.

DoclingDocument JSON needs only docling-core. Markdown, HTML, DOCX, PPTX, XLSX and
CSV go through docling's per-format backends (the ``convert`` extra; no models, no
network); PDF needs docling's full PDF pipeline (the ``pdf`` extra).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from docling_core.types.doc import DoclingDocument
from pydantic import ValidationError

from docchunk._index_layout import RECORD_NAME, TABLE_FOLDER
from docchunk.errors import DocumentError
from docchunk.loading.convert import CONVERTIBLE, PDF_SUFFIXES, convert_bytes, convert_file
from docchunk.types.json_value import JSONObject

__all__ = ["SUPPORTED_SUFFIXES", "folder_files", "input_files", "iter_input_files", "load_document"]

SUPPORTED_SUFFIXES = (".json", *CONVERTIBLE, *PDF_SUFFIXES)
"""File name endings :func:`load_document` reads (case-insensitive)."""

_FORMATS = {"json", "md", "markdown", "html", "htm", "docx", "pptx", "xlsx", "csv", "pdf"}


def load_document(
    source: DoclingDocument | str | Path | bytes | bytearray | JSONObject, format: str | None = None
) -> DoclingDocument:
    r"""Load a ``DoclingDocument`` from a path, JSON, a dict or markup text.

    Args:
        source: One of: a ``DoclingDocument`` (returned as is); a path (``str`` or
            ``Path``) of a ``.json`` DoclingDocument or of a ``.md``, ``.html``,
            ``.docx``, ``.pptx``, ``.xlsx``, ``.csv`` or ``.pdf`` file; a ``dict`` of
            DoclingDocument JSON; DoclingDocument JSON as ``str`` or ``bytes``;
            Markdown, HTML or CSV text (``str`` or ``bytes``) with ``format=``.
        format: ``"json"``, ``"md"``, ``"html"``, ``"csv"``, ``"docx"``, ``"pptx"``
            or ``"xlsx"`` to say what a ``str``/``bytes`` source holds; for paths
            the extension decides and ``format`` overrides it.

    Returns:
        The document.

    Raises:
        DocumentError: The file is missing or unreadable, the JSON is invalid or
            not a DoclingDocument, or the format is unsupported.
        MissingDependencyError: Converting needs the ``convert`` extra (or docling's
            PDF pipeline, the ``pdf`` extra, for PDF).

    Example:
        >>> doc = load_document("# Title\n\nSome text.", format="md")  # doctest: +SKIP
    """
    if isinstance(source, DoclingDocument):
        return source
    if format is not None and format.lower().lstrip(".") not in _FORMATS:
        raise DocumentError(f"unknown format {format!r}; use one of {sorted(_FORMATS)}")
    fmt = format.lower().lstrip(".") if format else None
    if isinstance(source, dict):
        return _from_dict(source, "<dict>")
    if isinstance(source, Path) or (isinstance(source, str) and fmt is None and _looks_like_path(source)):
        return _from_path(Path(source), fmt)
    if isinstance(source, (str, bytes, bytearray)):
        data = bytes(source) if not isinstance(source, str) else source.encode("utf-8")
        if isinstance(source, str) and fmt in ("html", "htm") and not source.startswith("\ufeff"):
            # a str is already Unicode: the byte order mark tells docling's HTML parser (which guesses the
            # encoding of bytes without a <meta charset>) that it is UTF-8 (tester's finding 18 of issue 45)
            data = b"\xef\xbb\xbf" + data
        if fmt in (None, "json"):
            return _from_json_bytes(data, "<json>")
        return convert_bytes(data, fmt, "<text>")
    raise DocumentError(
        f"cannot load a document from {type(source).__name__}; "
        "pass a path, DoclingDocument JSON (str, bytes or dict), or markup with format="
    )


def _looks_like_path(text: str) -> bool:
    stripped = text.lstrip()
    return bool(stripped) and not stripped.startswith(("{", "[")) and "\n" not in text and len(text) < 4096


def _from_path(path: Path, fmt: str | None) -> DoclingDocument:
    if not path.exists():
        raise DocumentError(f"{path}: no such file")
    if path.is_dir():
        raise DocumentError(f"{path}: is a directory; pass its files, or use the CLI, which walks folders")
    suffix = f".{fmt}" if fmt else path.suffix.lower()
    if suffix == ".json":
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise DocumentError(f"{path}: cannot read: {exc.strerror or exc}") from exc
        return _from_json_bytes(data, str(path))
    if suffix in CONVERTIBLE or suffix in PDF_SUFFIXES:
        return convert_file(path, suffix)
    plain = (
        "; plain text is read by a text chunker (docchunk chunk --chunker recursive, token or sentence; "
        "RecursiveChunker in Python), or save it as .md to chunk it as a document"
        if suffix in (".txt", ".text")
        else ""
    )
    raise DocumentError(
        f"{path}: unsupported file type {path.suffix or '(no extension)'!r}; "
        f"supported: {', '.join(SUPPORTED_SUFFIXES)}{plain}"
    )


def _from_json_bytes(data: bytes, where: str) -> DoclingDocument:
    """Parse and validate in one pass (pydantic's JSON parser, as ``DoclingDocument.load_from_json``).

    On failure the JSON is parsed again with ``json``, to say precisely what is wrong.
    """
    if b'"schema_name"' not in data and b'"body"' not in data:  # every field has a default: any object validates
        return _diagnose_json(data, where)
    try:
        return DoclingDocument.model_validate_json(data)
    except (ValidationError, RecursionError, LookupError, AttributeError, TypeError, ValueError):
        return _diagnose_json(data, where)


def _diagnose_json(data: bytes, where: str) -> DoclingDocument:
    try:
        obj = json.loads(data)
    except RecursionError as exc:
        raise DocumentError(f"{where}: JSON nested too deeply to be a DoclingDocument") from exc
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise DocumentError(f"{where}: invalid JSON: {exc}") from exc
    if not isinstance(obj, dict):
        raise DocumentError(f"{where}: JSON is a {type(obj).__name__}, not a DoclingDocument object")
    return _from_dict(obj, where)


def _telling_error(errors: list[Any]) -> Any:
    """The validation error to report: the first one outside the union branches the item is not.

    An item of ``texts`` is validated against each text class in turn; every class
    whose ``label`` does not match the item's fails on it, and those errors say
    nothing about what is wrong (``texts.0.TitleItem.label: Input should be 'title'``
    for a paragraph that lacks its ``text``).
    """
    wrong = {
        tuple(loc[:-1])
        for e in errors
        if e.get("type") == "literal_error" and len(loc := e.get("loc", ())) >= 2 and loc[-1] == "label"
        and isinstance(loc[-2], str) and loc[-2][:1].isupper()
    }  # fmt: skip
    telling = [e for e in errors if not any(tuple(e.get("loc", ()))[: len(w)] == w for w in wrong)]
    return (telling or errors)[0]


def _from_dict(obj: dict, where: str) -> DoclingDocument:
    if obj.get("schema_name") != "DoclingDocument":
        legacy = " (it has docling 1's \"main-text\": a legacy export)" if "main-text" in obj else ""
        raise DocumentError(
            f"{where}: JSON is not a DoclingDocument{legacy} (schema_name is {obj.get('schema_name')!r}, "
            "expected 'DoclingDocument'); convert the source with docling 2 first"
        )
    try:
        return DoclingDocument.model_validate(obj)
    except ValidationError as exc:
        first = _telling_error(exc.errors())
        loc = ".".join(str(p) for p in first.get("loc", ()))
        raise DocumentError(
            f"{where}: invalid DoclingDocument ({exc.error_count()} errors; first at {loc or '<root>'}: {first['msg']})"
        ) from exc
    except (RecursionError, LookupError, AttributeError, TypeError, ValueError) as exc:
        # docling-core resolves references while validating: a dangling "$ref" raises these
        raise DocumentError(
            f"{where}: invalid DoclingDocument ({type(exc).__name__}: {exc}); check its \"$ref\" references"
        ) from exc


def iter_input_files(path: Path) -> list[Path]:
    """The files a CLI path stands for: the file itself, or a folder's supported files, sorted."""
    return input_files([path])[0]


def input_files(paths: Iterable[Path]) -> tuple[list[Path], list[Path]]:
    """``(taken, skipped)`` over ``paths``: each file itself; a folder's supported files, and the others it holds."""
    taken: list[Path] = []
    skipped: list[Path] = []
    for path in paths:
        files, left = folder_files(path) if path.is_dir() else ([path], [])
        taken += files
        skipped += left
    return taken, skipped


def _index_file(path: Path, indexes: set[Path], tables: set[Path]) -> bool:
    """Whether ``path`` is the record of one of the index folders ``indexes`` or a file of one of their ``tables``."""
    return (path.name == RECORD_NAME and path.parent in indexes) or not tables.isdisjoint(path.parents)


def folder_files(folder: Path, suffixes: tuple[str, ...] = SUPPORTED_SUFFIXES) -> tuple[list[Path], list[Path]]:
    """The files under ``folder`` (recursively, sorted): ``(taken, skipped)``.

    ``taken`` end in one of ``suffixes`` (case-insensitive); ``skipped`` are the
    others, so that a command can say what it left out. Hidden files (a name
    starting with ``.``, such as ``.DS_Store``) are in neither, nor are the own
    files of a docchunk index under ``folder`` (a folder holding
    ``docchunk-index.json``: that record and its LanceDB table ``chunks.lance/``),
    wherever it is (``--db`` inside the folder being indexed, hidden or not, or
    ``folder`` itself), so that indexing a folder again never reads its index.
    """
    paths = sorted(folder.rglob("*"))
    indexes = {path.parent for path in paths if path.name == RECORD_NAME and path.is_file()}
    tables = {index / TABLE_FOLDER for index in indexes}
    taken: list[Path] = []
    skipped: list[Path] = []
    for path in paths:
        if not path.is_file() or path.name.startswith("."):
            continue
        if indexes and _index_file(path, indexes, tables):
            continue
        (taken if path.suffix.lower() in suffixes else skipped).append(path)
    return taken, skipped
