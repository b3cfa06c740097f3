"""The format of the rows ``docchunk chunk`` writes, and flat chunk metadata (shared by the CLI and the integrations).

The fields, the Arrow schema, JSON lines and the flat metadata: pure functions of a
row or a chunk, which run no chunker. The rows themselves are made in the batch room,
:func:`docchunk.batch.rows.chunk_rows` and :func:`docchunk.batch.rows.text_rows`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from docchunk.errors import ConfigError

if TYPE_CHECKING:
    from docchunk.serialization._docling import DocChunk as DoclingDocChunk
    from docchunk.serialization.chunk import ItemSpan, PageBox

__all__ = [
    "EXPANDED_FIELDS",
    "METADATA_FORMS",
    "ROW_FIELDS",
    "TEXT_FIELDS",
    "MetadataForm",
    "Row",
    "arrow_schema",
    "check_metadata_form",
    "chunk_metadata",
    "flat_page_boxes",
    "flat_spans",
    "flat_table_cols",
    "json_line",
    "store_metadata",
]

FlatValue = str | int | list[str] | list[int] | None
"""A value of :func:`chunk_metadata` (``token_count`` may be None)."""

StoreValue = str | int | float | bool
"""A value of :func:`store_metadata`: a scalar, what every vector store takes as metadata."""

MetadataForm = Literal["flat", "structured"]
"""The metadata form of the integrations: ``"flat"`` (:func:`store_metadata`) or ``"structured"``."""

METADATA_FORMS: tuple[MetadataForm, ...] = ("flat", "structured")

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
    """A chunk's structured metadata: strings, ints and lists of them (lists may be empty).

    Stores that take only scalars (Chroma, LlamaIndex's flat-metadata stores) refuse
    it; :func:`store_metadata` turns it into the flat form they take.

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


def store_metadata(metadata: Mapping[str, Any]) -> dict[str, StoreValue]:
    """The flat form of metadata: scalars only, no empty value, what every vector store takes.

    The rule, key by key: a str, int, float or bool stays as it is under its name; a
    list (or tuple) becomes its JSON text (``json.dumps``, non-ASCII kept) under the
    same name, so ``json.loads`` gives it back; ``None``, ``""`` and empty lists are
    left out. From :func:`chunk_metadata`'s keys, three scalars are added to filter on:

    - ``heading`` (str): the innermost heading, ``headings[-1]``;
    - ``first_page`` and ``last_page`` (int): ``min`` and ``max`` of ``page_numbers``
      (a chunk is on page ``p`` when ``first_page <= p <= last_page``).

    So a chunk's flat metadata has ``source``, ``chunk_index``, ``token_count`` and,
    when not empty, ``heading``, ``headings``, ``captions``, ``first_page``,
    ``last_page``, ``page_numbers``, ``doc_items``, ``spans``, ``page_boxes`` and
    ``table_cols`` (JSON arrays as text, for the lists). Chroma, LanceDB, LlamaIndex's
    ``node_to_metadata_dict(flat_metadata=True)`` and Haystack's stores take it.

    Args:
        metadata: Structured metadata, e.g. :func:`chunk_metadata` merged with a
            document's own (``file_path`` ...). Not changed.

    Returns:
        A new dict, its values str, int, float or bool (never None or empty).

    Raises:
        ConfigError: A value that is no scalar, list or None (a dict, say); its key is named.

    Example:
        >>> flat = store_metadata({"headings": ["Intro", "Scope"], "page_numbers": [2, 3], "captions": []})
        >>> flat["heading"], flat["headings"], flat["first_page"], flat["last_page"], "captions" in flat
        ('Scope', '["Intro", "Scope"]', 2, 3, False)
    """
    flat: dict[str, StoreValue] = {}
    for key, value in metadata.items():
        if value is None or value == "" or (isinstance(value, (list, tuple)) and not value):
            continue
        if key == "headings" and isinstance(value, (list, tuple)) and isinstance(value[-1], str) and value[-1]:
            flat["heading"] = value[-1]
        if key == "page_numbers" and isinstance(value, (list, tuple)):
            flat["first_page"], flat["last_page"] = min(value), max(value)
        if isinstance(value, (str, int, float, bool)):
            flat[key] = value
        elif isinstance(value, (list, tuple)):
            flat[key] = json.dumps(list(value), ensure_ascii=False)
        else:
            raise ConfigError(
                f"metadata key {key!r} holds {type(value).__name__} {value!r}: the flat metadata form takes only "
                "str, int, float, bool, lists of them and None; flatten it yourself or use metadata='structured'"
            )
    return flat


def check_metadata_form(metadata: object) -> MetadataForm:
    """``metadata`` when it is one of :data:`METADATA_FORMS`.

    Raises:
        ConfigError: Any other value, named with the allowed ones.
    """
    if metadata not in METADATA_FORMS:
        raise ConfigError(
            f"metadata={metadata!r} is no metadata form: use 'flat' (scalars only, what every vector store "
            "takes; the default) or 'structured' (lists kept, for stores that take them)"
        )
    return metadata
