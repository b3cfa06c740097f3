"""LlamaIndex: a node parser over docchunk's document and text chunkers, and embedded nodes for its vector stores.

Needs the ``llama-index`` extra (``pip install ".[llama-index]"``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import Any

from docchunk.errors import require
from docchunk.serialization.rows import chunk_metadata

_li_parser: Any = require("llama_index.core.node_parser", "llama-index", "docchunk.integrations.llama_index")
_li_schema: Any = require("llama_index.core.schema", "llama-index", "docchunk.integrations.llama_index")

__all__ = ["DocchunkNodeParser", "embedded_nodes"]

# shown to neither the embedding nor the LLM: bookkeeping, not content
_HIDDEN = ["source", "chunk_index", "captions", "page_numbers", "token_count", "doc_items"]


class DocchunkNodeParser(_li_parser.NodeParser):
    """Turns LlamaIndex documents into ``TextNode``s with a docchunk chunker.

    With a document chunker (``HybridChunker``, ``HierarchicalChunker``, the default
    being ``HybridChunker()``), each input document's text must be DoclingDocument
    JSON (as ``DoclingReader`` with JSON export gives); node text is the chunk text
    and ``headings`` is metadata the embedding sees once (metadata + text). With a
    text chunker, node text is the chunk and ``start_char_idx``/``end_char_idx`` are
    its exact offsets. Nodes have SOURCE, PREVIOUS and NEXT relationships.

    Attributes:
        chunker: The docchunk chunker.
    """

    chunker: Any = None

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

    def _parse_nodes(self, nodes: Sequence[Any], show_progress: bool = False, **kwargs: Any) -> list[Any]:
        out: list[Any] = []
        for document in nodes:
            text = document.get_content()
            if hasattr(self.chunker, "contextualize"):
                made = self._document_nodes(document, text)
            else:
                made = self._text_nodes(document, text)
            for prev, nxt in pairwise(made):
                prev.relationships[_li_schema.NodeRelationship.NEXT] = nxt.as_related_node_info()
                nxt.relationships[_li_schema.NodeRelationship.PREVIOUS] = prev.as_related_node_info()
            out.extend(made)
        return out

    def _document_nodes(self, document: Any, text: str) -> list[Any]:
        from docchunk import load_document

        doc = load_document(text, format="json")
        source = str(document.metadata.get("file_path") or document.metadata.get("source") or document.doc_id)
        nodes = []
        for index, chunk in enumerate(self.chunker.chunk(doc)):
            metadata = {**document.metadata, **chunk_metadata(chunk, source, index)}
            hidden = [k for k in _HIDDEN if k in metadata] + list(document.excluded_embed_metadata_keys)
            nodes.append(
                _li_schema.TextNode(
                    text=chunk.text,
                    metadata=metadata,
                    excluded_embed_metadata_keys=hidden,
                    excluded_llm_metadata_keys=[k for k in _HIDDEN if k in metadata]
                    + list(document.excluded_llm_metadata_keys),
                    relationships={_li_schema.NodeRelationship.SOURCE: document.as_related_node_info()},
                )
            )
        return nodes

    def _text_nodes(self, document: Any, text: str) -> list[Any]:
        nodes = []
        for chunk in self.chunker(text):
            nodes.append(
                _li_schema.TextNode(
                    text=chunk.text,
                    metadata=dict(document.metadata),
                    start_char_idx=chunk.start_index,
                    end_char_idx=chunk.end_index,
                    excluded_embed_metadata_keys=list(document.excluded_embed_metadata_keys),
                    excluded_llm_metadata_keys=list(document.excluded_llm_metadata_keys),
                    relationships={_li_schema.NodeRelationship.SOURCE: document.as_related_node_info()},
                )
            )
        return nodes


def embedded_nodes(rows: Iterable[dict[str, Any]]) -> list[Any]:
    """LlamaIndex ``TextNode`` s with their vectors, for any LlamaIndex vector store's ``add``.

    Args:
        rows: Rows with an ``embedding``: :func:`docchunk.index.embedded_rows`, or the
            lines of ``docchunk chunk --embed MODEL`` read back with ``json.loads``.

    Returns:
        One node per row: ``id_`` is ``source#chunk_index``, ``text`` the chunk text,
        ``embedding`` the row's vector (the embedding of ``contextualized``), and flat
        metadata (``source``, ``chunk_index``, ``headings``, ``captions``,
        ``page_numbers``, ``token_count``, ``doc_items``, ``table_rows``), hidden from
        the embedding and the LLM except ``headings``.

    Example:
        >>> from llama_index.core.vector_stores import SimpleVectorStore  # doctest: +SKIP
        >>> store = SimpleVectorStore()  # doctest: +SKIP
        >>> store.add(embedded_nodes(embedded_rows(["docs/"])))  # doctest: +SKIP
    """
    nodes = []
    for row in rows:
        meta = row["meta"]
        metadata = {
            "source": row["source"], "chunk_index": row["chunk_index"], "headings": list(meta.get("headings") or []),
            "captions": list(meta.get("captions") or []), "page_numbers": list(row["page_numbers"]),
            "token_count": row["token_count"], "doc_items": [item["self_ref"] for item in meta.get("doc_items") or []],
            "table_rows": list(meta["table_rows"]) if meta.get("table_rows") is not None else [],
        }  # fmt: skip
        hidden = [*_HIDDEN, "table_rows"]
        nodes.append(
            _li_schema.TextNode(
                id_=f"{row['source']}#{row['chunk_index']}", text=row["text"], embedding=list(row["embedding"]),
                metadata=metadata, excluded_embed_metadata_keys=hidden, excluded_llm_metadata_keys=hidden,
            )
        )  # fmt: skip
    return nodes
