"""The rows ``docchunk chunk`` writes, and flat chunk metadata (shared by the CLI and the integrations).

Example:
    >>> import docchunk
    >>> from docchunk.serialization.rows import chunk_rows
    >>> doc = docchunk.load_document("examples/docling_paper.json")  # doctest: +SKIP
    >>> rows = chunk_rows(docchunk.HybridChunker(), "examples/docling_paper.json", doc)  # doctest: +SKIP
"""

from __future__ import annotations

import json
from typing import Any

from docchunk.errors import DocchunkError, DocumentError

__all__ = ["ROW_FIELDS", "chunk_metadata", "chunk_rows", "describe_failure", "json_line"]

ROW_FIELDS = ("text", "contextualized", "token_count", "page_numbers", "source", "chunk_index", "meta")
"""The keys of every row, in this order: the fields of each line of ``docchunk chunk``'s JSONL."""


def json_line(row: dict[str, Any]) -> str:
    r"""``row`` as one JSON line (with its newline), valid UTF-8 whatever it holds.

    Non-ASCII text is written as is; a string holding lone surrogates (a file name
    that is not valid UTF-8, read by Python with ``surrogateescape``) cannot be UTF-8,
    so its line is written with ``\u`` escapes instead: JSON readers then get the same
    string back (``os.fsencode`` of it gives the original file name's bytes).
    """
    line = json.dumps(row, ensure_ascii=False)
    if not line.isascii():
        try:
            line.encode("utf-8")
        except UnicodeEncodeError:
            line = json.dumps(row)
    return line + "\n"


def chunk_metadata(chunk: Any, source: str, index: int) -> dict[str, Any]:
    """A chunk's flat metadata: only strings, ints and lists of them.

    The keys: ``source``, ``chunk_index``, ``headings``, ``captions``, ``page_numbers``,
    ``token_count``, ``doc_items`` (refs).
    """
    meta = chunk.meta
    return {
        "source": source,
        "chunk_index": index,
        "headings": list(meta.headings or []),
        "captions": list(meta.__dict__.get("captions") or []),
        "page_numbers": list(getattr(meta, "page_numbers", None) or []),
        "token_count": getattr(meta, "token_count", None),
        "doc_items": [item.self_ref for item in meta.doc_items],
    }


def chunk_rows(chunker: Any, source: str, doc: Any) -> list[dict[str, Any]]:
    """The rows of ``docchunk chunk``'s JSONL for one document, one per chunk, in order.

    Args:
        chunker: A docchunk (or docling-core) document chunker.
        source: The document's name or path, copied into each row's ``source``.
        doc: The ``DoclingDocument`` to chunk.

    Returns:
        Dicts with the keys :data:`ROW_FIELDS`: ``text``, ``contextualized``
        (``chunker.contextualize(chunk)``), ``token_count`` (tokens of
        ``contextualized``), ``page_numbers`` (a list, empty without provenance),
        ``source``, ``chunk_index`` (0, 1, ...) and ``meta`` (docling-core's DocMeta JSON).

    Raises:
        DocumentError: The document gives no chunk (it holds no text): nothing to chunk.
    """
    rows = []
    for index, chunk in enumerate(chunker.chunk(doc)):
        contextualized = chunker.contextualize(chunk)
        rows.append(
            {
                "text": chunk.text,
                "contextualized": contextualized,
                "token_count": _token_count(chunker, chunk, contextualized),
                "page_numbers": list(getattr(chunk.meta, "page_numbers", None) or []),
                "source": source,
                "chunk_index": index,
                "meta": chunk.meta.export_json_dict(),
            }
        )
    if not rows:
        raise DocumentError(f"{source}: nothing to chunk: {_why_no_text(doc)}")
    return rows


def _why_no_text(doc: Any) -> str:
    """Why a document gave no chunk: no text at all, or items its tree does not reach."""
    items = [*getattr(doc, "texts", ()), *getattr(doc, "tables", ())]
    if not any(getattr(it, "text", None) or getattr(getattr(it, "data", None), "table_cells", None) for it in items):
        return "the document holds no text"
    if not getattr(getattr(doc, "body", None), "children", None):
        return (
            f"the document holds {len(items)} texts and tables, but its body has no children, so the chunkers "
            "reach none of them; the JSON's 'body' (or its 'children') is missing or empty: convert the "
            "source again, or repair the document's tree"
        )
    return "its text items are empty or outside the layers the chunker reads"


def _token_count(chunker: Any, chunk: Any, contextualized: str) -> int | None:
    """``meta.token_count``; counted for chunks without one (docling-core's code chunks)."""
    count = getattr(chunk.meta, "token_count", None)
    counter = getattr(chunker, "token_counter", None)
    if count is None and counter is not None:
        count = counter.count_tokens(contextualized)
    return count


def describe_failure(source: str, exc: BaseException) -> str:
    """One line naming the input and what went wrong (for the CLI and the Ray error rows)."""
    message = str(exc) if isinstance(exc, (DocchunkError, OSError)) else f"{type(exc).__name__}: {exc}"
    message = " ".join(message.split())[:500]
    return message if source in message else f"{source}: {message}"
