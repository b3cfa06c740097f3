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

__all__ = [
    "EXPANDED_FIELDS",
    "ROW_FIELDS",
    "TEXT_FIELDS",
    "arrow_schema",
    "chunk_metadata",
    "chunk_rows",
    "describe_failure",
    "flat_page_boxes",
    "flat_spans",
    "flat_table_cols",
    "json_line",
    "text_rows",
]

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


def arrow_schema(names: Any) -> Any:
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


def _get(obj: Any, key: str) -> Any:
    return obj[key] if isinstance(obj, dict) else getattr(obj, key)


def flat_spans(spans: Any) -> list[str]:
    """``meta.spans`` (models or their JSON) as flat strings ``"ref:start:end"``, e.g. ``"#/texts/5:0:120"``."""
    return [f"{_get(s, 'ref')}:{_get(s, 'start')}:{_get(s, 'end')}" for s in spans or ()]


def flat_table_cols(cols: Any) -> list[str]:
    """``meta.table_cols`` (``[row, start, end]`` triples) as flat strings ``"row:start:end"``, e.g. ``"3:0:15"``."""
    return [f"{row}:{start}:{end}" for row, start, end in cols or ()]


def flat_page_boxes(boxes: Any) -> list[str]:
    """``meta.page_boxes`` as flat strings ``"page_no:l,t,r,b:ORIGIN"`` (``"1:50.1,230.9,286.4,78.9:BOTTOMLEFT"``)."""
    out = []
    for box in boxes or ():
        bbox = _get(box, "bbox")
        edges = ",".join(str(bbox[k]) for k in ("l", "t", "r", "b"))
        out.append(f"{_get(box, 'page_no')}:{edges}:{bbox['coord_origin']}")
    return out


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
        For an :class:`docchunk.ExpandingChunker` (small-to-big retrieval), these
        describe the small chunk that is matched (embed ``contextualized``), and
        :data:`EXPANDED_FIELDS` its expansion (return ``expanded_text``):
        ``expanded_text``, ``expanded_token_count`` (tokens of the contextualized
        expansion) and ``expanded_page_numbers``; ``meta.expanded`` is False where
        the expansion was refused (over the expander's cap; ``expanded_text`` is
        then the chunk's own text).

    Raises:
        DocumentError: The document gives no chunk (it holds no text): nothing to chunk.
    """
    expander = getattr(chunker, "expander", None)  # an ExpandingChunker: write the matched chunk and its expansion
    inner = chunker.chunker if expander is not None else chunker
    chunks = list(inner.chunk(doc))
    rows = []
    for index, chunk in enumerate(chunks):
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
    if expander is not None:
        for row, big in zip(rows, expander.expand_all(chunks, doc), strict=True):
            row["expanded_text"] = big.text
            row["expanded_token_count"] = getattr(big.meta, "token_count", None)
            row["expanded_page_numbers"] = list(getattr(big.meta, "page_numbers", None) or [])
            if getattr(big.meta, "expanded", None) is not None:  # docling-core's expansion (compat) has no flag
                row["meta"]["expanded"] = big.meta.expanded
    if not rows:
        raise DocumentError(f"{source}: nothing to chunk: {_why_no_text(doc)}")
    return rows


def text_rows(chunks: list[Any], source: str, tokenizer: Any) -> list[dict[str, Any]]:
    """The rows of ``docchunk chunk``'s JSONL for the text chunks of one input, in order.

    Args:
        chunks: docchunk text chunks (:class:`docchunk.Chunk`) of one text, maybe refined.
        source: The input's name or path, copied into each row's ``source``.
        tokenizer: The chunker's tokenizer (a :class:`docchunk.Tokenizer`).

    Returns:
        Dicts with the keys :data:`ROW_FIELDS` then :data:`TEXT_FIELDS`: ``text``
        (``text == source_text[start_index:end_index]``); ``contextualized``, what
        to embed: ``context_prefix + text + context_suffix``; ``token_count``, its
        tokens; ``page_numbers`` (empty); ``source``; ``chunk_index``; ``meta``,
        ``{"token_count": tokens of text, "oversized", "context_prefix",
        "context_suffix"}`` (and a window chunk's ``main_start_index`` and
        ``main_end_index``); ``start_index`` and ``end_index``, character offsets
        into the text that was chunked.

    Raises:
        DocumentError: No chunk (the text is empty): nothing to chunk.
    """
    rows = []
    for index, c in enumerate(chunks):
        contextualized = f"{c.context_prefix or ''}{c.text}{c.context_suffix or ''}"
        meta = {"token_count": c.token_count, "oversized": c.oversized, "context_prefix": c.context_prefix,
                "context_suffix": c.context_suffix}  # fmt: skip
        for extra in ("main_start_index", "main_end_index"):
            if hasattr(c, extra):
                meta[extra] = getattr(c, extra)
        count = c.token_count if contextualized == c.text else tokenizer.count_tokens(contextualized)
        rows.append({"text": c.text, "contextualized": contextualized, "token_count": count, "page_numbers": [],
                     "source": source, "chunk_index": index, "meta": meta, "start_index": c.start_index,
                     "end_index": c.end_index})  # fmt: skip
    if not rows:
        raise DocumentError(f"{source}: nothing to chunk: the text is empty")
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
