"""One input's chunks as the rows ``docchunk chunk`` writes (shared by the CLI, Ray, the integrations and the index).

The row *format* (:data:`~docchunk.serialization.rows.ROW_FIELDS`, the Arrow schema,
JSON lines, flat metadata) is :mod:`docchunk.serialization.rows`; this module runs the
chunker and fills the rows.

Example:
    >>> import docchunk
    >>> from docchunk.batch.rows import chunk_rows
    >>> doc = docchunk.load_document("examples/docling_paper.json")  # doctest: +SKIP
    >>> rows = chunk_rows(docchunk.HybridChunker(), "examples/docling_paper.json", doc)  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from docchunk.errors import DocchunkError, DocumentError
from docchunk.roles import mark_roles

if TYPE_CHECKING:
    from docling_core.transforms.chunker.base import BaseChunk, BaseChunker
    from docling_core.types.doc import DoclingDocument

    from docchunk.chunkers.doc.expand import ExpandingChunker
    from docchunk.serialization.rows import Row
    from docchunk.tokenizers import Tokenizer
    from docchunk.types.chunk import Chunk

__all__ = ["chunk_rows", "describe_failure", "text_rows"]


def chunk_rows(chunker: BaseChunker, source: str, doc: DoclingDocument) -> list[Row]:
    """The rows of ``docchunk chunk``'s JSONL for one document, one per chunk, in order.

    Args:
        chunker: A docchunk (or docling-core) document chunker.
        source: The document's name or path, copied into each row's ``source``.
        doc: The ``DoclingDocument`` to chunk.

    Returns:
        Dicts with the keys :data:`~docchunk.serialization.rows.ROW_FIELDS`: ``text``, ``contextualized``
        (``chunker.contextualize(chunk)``), ``token_count`` (tokens of
        ``contextualized``), ``page_numbers`` (a list, empty without provenance),
        ``source``, ``chunk_index`` (0, 1, ...) and ``meta`` (docling-core's DocMeta JSON;
        ``meta.role`` names the boilerplate a rule of :mod:`docchunk.roles` marked).
        For an :class:`docchunk.ExpandingChunker` (small-to-big retrieval), these
        describe the small chunk that is matched (embed ``contextualized``), and
        :data:`~docchunk.serialization.rows.EXPANDED_FIELDS` its expansion (return ``expanded_text``):
        ``expanded_text``, ``expanded_token_count`` (tokens of the contextualized
        expansion) and ``expanded_page_numbers``; ``meta.expanded`` is False where
        the expansion was refused (over the expander's cap; ``expanded_text`` is
        then the chunk's own text).

    Raises:
        DocumentError: The document gives no chunk (it holds no text): nothing to chunk.
    """
    expander = getattr(chunker, "expander", None)  # an ExpandingChunker: write the matched chunk and its expansion
    inner = cast("ExpandingChunker", chunker).chunker if expander is not None else chunker
    chunks = list(inner.chunk(doc))
    mark_roles(chunks, doc)  # boilerplate marked in meta.role, never dropped
    rows: list[Row] = []
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


def text_rows(chunks: Sequence[Chunk], source: str, tokenizer: Tokenizer) -> list[Row]:
    """The rows of ``docchunk chunk``'s JSONL for the text chunks of one input, in order.

    Args:
        chunks: docchunk text chunks (:class:`docchunk.Chunk`) of one text, maybe refined.
        source: The input's name or path, copied into each row's ``source``.
        tokenizer: The chunker's tokenizer (a :class:`docchunk.Tokenizer`).

    Returns:
        Dicts with the keys :data:`~docchunk.serialization.rows.ROW_FIELDS` then
        :data:`~docchunk.serialization.rows.TEXT_FIELDS`: ``text``
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
    rows: list[Row] = []
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


def _why_no_text(doc: DoclingDocument) -> str:
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


def _token_count(chunker: BaseChunker, chunk: BaseChunk, contextualized: str) -> int | None:
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
