"""LlamaIndex: a node parser over docchunk's document and text chunkers, and embedded nodes for its vector stores.

Needs the ``llama-index`` extra (``pip install ".[llama-index]"``).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Any, cast

from pydantic import SkipValidation

from docchunk._extras import require
from docchunk.chunkers.text.base import TextChunker
from docchunk.report.views import describe_chunker
from docchunk.serialization.rows import (
    MetadataForm,
    Row,
    check_metadata_form,
    chunk_metadata,
    flat_page_boxes,
    flat_spans,
    flat_table_cols,
    store_metadata,
)
from docchunk.types import DocChunker

if TYPE_CHECKING:
    from docchunk.serialization._docling import DocChunk

_li_parser: Any = require("llama_index.core.node_parser", "llama-index", "docchunk.integrations.llama_index")
_li_schema: Any = require("llama_index.core.schema", "llama-index", "docchunk.integrations.llama_index")
_li_utils: Any = require("llama_index.core.node_parser.node_utils", "llama-index", "docchunk.integrations.llama_index")

__all__ = ["DocchunkNodeParser", "embedded_nodes", "stable_node_id"]

# the chunk's own metadata: bookkeeping the LLM needs not see (headings are in the node's text)
_CHUNK_KEYS = [
    "source", "chunk_index", "headings", "captions", "page_numbers", "token_count", "doc_items", "spans", "page_boxes",
    "table_cols", "heading", "first_page", "last_page",
]  # fmt: skip

_NODE_ID_NAMESPACE = uuid.UUID("5d0c4f1e-6a43-5b8e-9d1a-0c7d0cc4c001")
"""The uuid5 namespace of :func:`stable_node_id` (fixed: changing it changes every default id)."""


def stable_node_id(source_id: str, chunker_settings: str, index: int) -> str:
    """The default id of a node: the same source, settings and index give the same id.

    Args:
        source_id: The id of the LlamaIndex document the node comes from (``doc_id``).
        chunker_settings: The chunker's settings as ``describe_chunker`` writes them
            (class name, plain settings, tokenizer name).
        index: The chunk's position among its document's chunks (0-based).

    Returns:
        A uuid5 string of the three, in :data:`_NODE_ID_NAMESPACE`.
    """
    return str(uuid.uuid5(_NODE_ID_NAMESPACE, f"{source_id}\x1f{chunker_settings}\x1f{index}"))


class DocchunkNodeParser(_li_parser.NodeParser):
    """Turns LlamaIndex documents into ``TextNode``s with a docchunk chunker.

    With a document chunker (``HybridChunker``, ``HierarchicalChunker``, the default
    being ``HybridChunker()``), each input document's text must be DoclingDocument
    JSON (as ``DoclingReader`` with JSON export gives); a node's text is
    ``chunker.contextualize(chunk)`` (headings, captions, text), and the chunk's
    ``headings``, ``captions``, ``page_numbers``, ``token_count`` ... are metadata:
    by default in the flat form (``metadata="flat"``, scalars only, lists as JSON
    text, no empty values, plus ``heading``, ``first_page``, ``last_page``: see
    :func:`docchunk.serialization.rows.store_metadata`), which
    ``node_to_metadata_dict(flat_metadata=True)`` and so every LlamaIndex vector store
    takes; ``metadata="structured"`` keeps the lists. The document's own metadata is
    passed on as it is.
    With a text chunker, a node's text is the chunk and
    ``start_char_idx``/``end_char_idx`` are its exact offsets. Nodes have SOURCE,
    PREVIOUS and NEXT relationships.

    What is embedded (``node.get_content(metadata_mode=MetadataMode.EMBED)``) is the
    node's text alone, so it is exactly what the chunker sized: ``contextualize(chunk)``
    within ``max_tokens``, or the text chunk within ``chunk_size``. Every metadata key
    (the document's too, such as ``file_path``) is excluded from the embedding; the
    LLM sees the document's metadata and not the chunk's bookkeeping. To embed a
    metadata key as well, remove it from a node's ``excluded_embed_metadata_keys``
    (its tokens then count on top of the budget).

    Node ids: ``id_func(i, document)`` when given (``i`` the chunk's index in its
    document), as LlamaIndex's own splitters do. Without it the id is
    :func:`stable_node_id` of the document's ``doc_id``, the chunker's settings and
    ``i``: parsing the same document again with the same chunker gives the same ids,
    so docstores and vector stores replace nodes instead of duplicating them (give
    documents stable ids, e.g. ``SimpleDirectoryReader(filename_as_id=True)``).

    Attributes:
        chunker: The docchunk chunker.
        metadata: ``"flat"`` (default) or ``"structured"``, the form of the chunk's metadata.

    Raises:
        ConfigError: ``metadata`` is no metadata form.
    """

    # a document or text chunker, as given (pydantic does not check it; model_post_init defaults it)
    chunker: SkipValidation[DocChunker | TextChunker | None] = None
    # checked by __init__, so that a wrong value raises docchunk's ConfigError, not pydantic's error
    metadata: SkipValidation[MetadataForm] = "flat"

    def __init__(self, **data: Any) -> None:
        check_metadata_form(data.get("metadata", "flat"))
        super().__init__(**data)

    def model_post_init(self, __context: Any) -> None:
        """Default ``chunker`` to a :class:`docchunk.HybridChunker`."""
        if self.chunker is None:
            from docchunk import HybridChunker

            self.chunker = HybridChunker()

    def _postprocess_parsed_nodes(self, nodes: list[Any], parent_doc_map: dict[str, Any]) -> list[Any]:
        # LlamaIndex re-derives offsets by searching the text, which repeated passages
        # confuse; keep the offsets that came from the splitting
        exact = [(n.start_char_idx, n.end_char_idx) for n in nodes]
        nodes = super()._postprocess_parsed_nodes(nodes, parent_doc_map)
        for node, (start, end) in zip(nodes, exact, strict=False):
            node.start_char_idx, node.end_char_idx = start, end
        return nodes

    def _node_ids(self) -> Callable[[int, Any], str]:
        """``id_func`` when the user gave one, else :func:`stable_node_id`."""
        if self.id_func is not None and self.id_func is not _li_utils.default_id_func:
            return self.id_func
        settings = describe_chunker(cast("DocChunker | TextChunker", self.chunker))  # set by model_post_init
        return lambda index, document: stable_node_id(document.doc_id, settings, index)

    def _parse_nodes(self, nodes: Sequence[Any], show_progress: bool = False, **kwargs: Any) -> list[Any]:
        out: list[Any] = []
        ids = self._node_ids()
        for document in nodes:
            text = document.get_content()
            if hasattr(self.chunker, "contextualize"):
                made = self._document_nodes(document, text, ids)
            else:
                made = self._text_nodes(document, text, ids)
            for prev, nxt in pairwise(made):
                prev.relationships[_li_schema.NodeRelationship.NEXT] = nxt.as_related_node_info()
                nxt.relationships[_li_schema.NodeRelationship.PREVIOUS] = prev.as_related_node_info()
            out.extend(made)
        return out

    def _document_nodes(self, document: Any, text: str, ids: Callable[[int, Any], str]) -> list[Any]:
        from docchunk import DocumentError, load_document

        try:
            doc = load_document(text, format="json")
        except DocumentError as exc:
            raise DocumentError(
                f"document {document.doc_id!r}: {str(exc).removeprefix('<json>: ')}; a document chunker "
                "takes DoclingDocument JSON as each document's text (docling's reader, or DocchunkLoader); "
                "for plain text or Markdown give DocchunkNodeParser a text chunker, e.g. RecursiveChunker()"
            ) from exc
        source = str(document.metadata.get("file_path") or document.metadata.get("source") or document.doc_id)
        source_info = document.as_related_node_info()
        nodes = []
        chunker = cast("DocChunker", self.chunker)  # a document chunker: it has contextualize
        for index, chunk in enumerate(chunker.chunk(doc)):
            own = chunk_metadata(cast("DocChunk", chunk), source, index)
            metadata = {**document.metadata, **(store_metadata(own) if self.metadata == "flat" else own)}
            nodes.append(
                _li_schema.TextNode(
                    id_=ids(index, document),
                    text=chunker.contextualize(chunk),
                    metadata=metadata,
                    excluded_embed_metadata_keys=list(metadata),
                    excluded_llm_metadata_keys=_CHUNK_KEYS + list(document.excluded_llm_metadata_keys),
                    relationships={_li_schema.NodeRelationship.SOURCE: source_info},
                )
            )
        return nodes

    def _text_nodes(self, document: Any, text: str, ids: Callable[[int, Any], str]) -> list[Any]:
        source_info = document.as_related_node_info()
        nodes = []
        for index, chunk in enumerate(cast("TextChunker", self.chunker)(text)):
            nodes.append(
                _li_schema.TextNode(
                    id_=ids(index, document),
                    text=chunk.text,
                    metadata=dict(document.metadata),
                    start_char_idx=chunk.start_index,
                    end_char_idx=chunk.end_index,
                    excluded_embed_metadata_keys=list(document.metadata),
                    excluded_llm_metadata_keys=list(document.excluded_llm_metadata_keys),
                    relationships={_li_schema.NodeRelationship.SOURCE: source_info},
                )
            )
        return nodes


def embedded_nodes(rows: Iterable[Row], metadata: MetadataForm = "flat") -> list[Any]:
    """LlamaIndex ``TextNode`` s with their vectors, for any LlamaIndex vector store's ``add``.

    Args:
        rows: Rows with an ``embedding``: :func:`docchunk.index.embedded_rows`, or the
            lines of ``docchunk chunk --embed MODEL`` read back with ``json.loads``.
        metadata: ``"flat"`` (default, scalars only: see
            :func:`docchunk.serialization.rows.store_metadata`) or ``"structured"`` (lists kept).

    Returns:
        One node per row: ``id_`` is ``source#chunk_index``, ``text`` the chunk text,
        ``embedding`` the row's vector (the embedding of ``contextualized``), and
        metadata (``source``, ``chunk_index``, ``headings``, ``captions``,
        ``page_numbers``, ``token_count``, ``doc_items``, ``table_rows``, ``table_cols``, ``spans``,
        ``page_boxes``; in the flat form also ``heading``, ``first_page``, ``last_page``), hidden from
        the embedding and the LLM except ``headings`` and ``heading``. A text chunker's
        row (with ``start_index``/``end_index``) gives ``start_char_idx``/``end_char_idx``,
        its exact offsets in the source text, as :class:`DocchunkNodeParser`; a document
        chunk's are None.

    Raises:
        ConfigError: ``metadata`` is no metadata form.

    Example:
        >>> from llama_index.core.vector_stores import SimpleVectorStore  # doctest: +SKIP
        >>> store = SimpleVectorStore()  # doctest: +SKIP
        >>> store.add(embedded_nodes(embedded_rows(["docs/"])))  # doctest: +SKIP
    """
    form = check_metadata_form(metadata)
    nodes = []
    for row in rows:
        meta = row["meta"]
        structured = {
            "source": row["source"], "chunk_index": row["chunk_index"], "headings": list(meta.get("headings") or []),
            "captions": list(meta.get("captions") or []), "page_numbers": list(row["page_numbers"]),
            "token_count": row["token_count"], "doc_items": [item["self_ref"] for item in meta.get("doc_items") or []],
            "table_rows": list(meta["table_rows"]) if meta.get("table_rows") is not None else [],
            "spans": flat_spans(meta.get("spans")), "page_boxes": flat_page_boxes(meta.get("page_boxes")),
            "table_cols": flat_table_cols(meta.get("table_cols")),
        }  # fmt: skip
        hidden = [*(key for key in _CHUNK_KEYS if key not in ("headings", "heading")), "table_rows"]
        nodes.append(
            _li_schema.TextNode(
                id_=f"{row['source']}#{row['chunk_index']}", text=row["text"], embedding=list(row["embedding"]),
                metadata=store_metadata(structured) if form == "flat" else structured,
                excluded_embed_metadata_keys=hidden, excluded_llm_metadata_keys=hidden,
                start_char_idx=row.get("start_index"), end_char_idx=row.get("end_index"),
            )
        )  # fmt: skip
    return nodes
