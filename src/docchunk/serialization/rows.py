"""The format of the rows ``docchunk chunk`` writes, and flat chunk metadata (shared by the CLI and the integrations).

The fields, the Arrow schema, JSON lines and the flat metadata: pure functions of a
row or a chunk, which run no chunker. The rows themselves are made in the batch room,
:func:`docchunk.batch.rows.chunk_rows` and :func:`docchunk.batch.rows.text_rows`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from docchunk.serialization._docling import DocChunk as DoclingDocChunk
    from docchunk.serialization.chunk import ItemSpan, PageBox

__all__ = [
    "EXPANDED_FIELDS",
    "ROW_FIELDS",
    "TEXT_FIELDS",
    "Row",
    "arrow_schema",
    "chunk_metadata",
    "flat_page_boxes",
    "flat_spans",
    "flat_table_cols",
    "json_line",
]

FlatValue = str | int | list[str] | list[int] | None
"""A value of :func:`chunk_metadata`: what vector stores take as metadata (``token_count`` may be None)."""

Row = dict[str, Any]  # JSON values: str, int, lists of them, and the ``meta`` object (docling-core's DocMeta JSON)
"""One row: the keys :data:`ROW_FIELDS` (then :data:`TEXT_FIELDS` or :data:`EXPANDED_FIELDS`), JSON values."""

ROW_FIELDS = ("text", "contextualized", "token_count", "page_numbers", "source", "chunk_index", "meta")
"""The keys of every row, in this order: the fields of each line of ``docchunk chunk``'s JSONL."""

TEXT_FIELDS = ("start_index", "end_index")
"""The keys text chunks' rows have after :data:`ROW_FIELDS`: their offsets in the source text."""

EXPANDED_FIELDS = ("expanded_text", "expanded_token_count", "expanded_page_numbers")
"""The keys rows of expanded chunks (``--expand``) have after :data:`ROW_FIELDS`: the expansion."""

_ARROW_TYPES = {
    "text": "string", "contextualized": "string", "token_count": "int64", "page_numbers": "list",
    "source": "string", "chunk_index": "int64", "meta": "string", "start_index": "int64", "end_index": "int64",
    "expanded_text": "string", "expanded_token_count": "int64", "expanded_page_numbers": "list", "error": "string",
    "embedding": "vector",
}  # fmt: skip


def arrow_schema(names: Iterable[str]) -> Any:
    """The Arrow schema of rows with the keys ``names`` (in that order), the same for every shard.

    Strings for the texts, ``source``, ``meta`` (its JSON) and ``error``; int64 for
    counts and offsets; list<int64> for page numbers; list<float32> for ``embedding``
    (``docchunk chunk --embed``).

    Raises:
        MissingDependencyError: pyarrow is not installed (the ``parquet`` or ``ray`` extra).
        KeyError: A name that is no row field.
    """
    from docchunk._extras import require

    pa = require("pyarrow", "parquet", "Parquet output")
    types = {"string": pa.string(), "int64": pa.int64(), "list": pa.list_(pa.int64()), "vector": pa.list_(pa.float32())}
    return pa.schema([(name, types[_ARROW_TYPES[name]]) for name in names])


def json_line(row: Row) -> str:
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


def chunk_metadata(chunk: DoclingDocChunk, source: str, index: int) -> dict[str, FlatValue]:
    """A chunk's flat metadata: only strings, ints and lists of them.

    ``chunk`` is a docling-core ``DocChunk`` (docchunk's :class:`docchunk.DocChunk` is
    one); docchunk's own fields are read when present.

    The keys: ``source``, ``chunk_index``, ``headings``, ``captions``, ``page_numbers``,
    ``token_count``, ``doc_items`` (refs), ``spans``, ``page_boxes`` and ``table_cols``
    (flat strings, see :func:`flat_spans`, :func:`flat_page_boxes` and
    :func:`flat_table_cols`; ``table_cols`` is empty but for a chunk of a split table row).
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
        "spans": flat_spans(getattr(meta, "spans", None)),
        "page_boxes": flat_page_boxes(getattr(meta, "page_boxes", None)),
        "table_cols": flat_table_cols(getattr(meta, "table_cols", None)),
    }


def _get(obj: Any, key: str) -> Any:  # a model or its JSON object
    return obj[key] if isinstance(obj, dict) else getattr(obj, key)


def flat_spans(spans: Iterable[ItemSpan | Mapping[str, object]] | None) -> list[str]:
    """``meta.spans`` (models or their JSON) as flat strings ``"ref:start:end"``, e.g. ``"#/texts/5:0:120"``."""
    return [f"{_get(s, 'ref')}:{_get(s, 'start')}:{_get(s, 'end')}" for s in spans or ()]


def flat_table_cols(cols: Iterable[Sequence[int]] | None) -> list[str]:
    """``meta.table_cols`` (``[row, start, end]`` triples) as flat strings ``"row:start:end"``, e.g. ``"3:0:15"``."""
    return [f"{row}:{start}:{end}" for row, start, end in cols or ()]


def flat_page_boxes(boxes: Iterable[PageBox | Mapping[str, Any]] | None) -> list[str]:
    """``meta.page_boxes`` as flat strings ``"page_no:l,t,r,b:ORIGIN"`` (``"1:50.1,230.9,286.4,78.9:BOTTOMLEFT"``)."""
    out = []
    for box in boxes or ():
        bbox = _get(box, "bbox")
        edges = ",".join(str(bbox[k]) for k in ("l", "t", "r", "b"))
        out.append(f"{_get(box, 'page_no')}:{edges}:{bbox['coord_origin']}")
    return out
