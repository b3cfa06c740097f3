"""LangChain: a document loader, a text splitter, and ``Embeddings`` for any LangChain vector store.

The loader chunks with docchunk, the splitter runs docchunk's text chunkers, and
:class:`DocchunkEmbeddings` embeds with an :class:`docchunk.EmbeddingsRefinery`.

Needs the ``langchain`` extra (``pip install ".[langchain]"``).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from docchunk._extras import require
from docchunk.embeddings.models import DEFAULT_MODEL
from docchunk.serialization.rows import MetadataForm, check_metadata_form, chunk_metadata, store_metadata

if TYPE_CHECKING:
    from docchunk.chunkers.text.base import TextChunker
    from docchunk.serialization._docling import BaseChunker, DocChunk

_lc_loaders: Any = require("langchain_core.document_loaders", "langchain", "docchunk.integrations.langchain")
_lc_documents: Any = require("langchain_core.documents", "langchain", "docchunk.integrations.langchain")
_lc_splitters: Any = require("langchain_text_splitters", "langchain", "docchunk.integrations.langchain")
_lc_embeddings: Any = require("langchain_core.embeddings", "langchain", "docchunk.integrations.langchain")

__all__ = ["DocchunkEmbeddings", "DocchunkLoader", "DocchunkTextSplitter"]


class DocchunkLoader(_lc_loaders.BaseLoader):
    """Loads files with :func:`docchunk.load_document` and yields one LangChain ``Document`` per chunk.

    Args:
        paths: A path or paths (str or Path) of anything ``load_document`` reads.
        chunker: A docchunk document chunker; default ``HybridChunker()``.
        metadata: ``"flat"`` (default): scalars only, what every vector store takes
            (Chroma, LanceDB ...), see :func:`docchunk.serialization.rows.store_metadata`;
            ``"structured"``: lists kept (``headings``, ``page_numbers`` ... as lists,
            possibly empty), for stores that take them (LangChain's in-memory store).

    Each ``Document`` has ``page_content = chunker.contextualize(chunk)``. Its
    structured metadata: ``source``, ``chunk_index``, ``headings``, ``captions``,
    ``page_numbers``, ``token_count``, ``doc_items`` (refs), ``spans`` (``"ref:start:end"``),
    ``page_boxes`` (``"page_no:l,t,r,b:ORIGIN"``) and ``table_cols`` (``"row:start:end"``,
    for a chunk of a split table row); the flat form writes each list as its JSON
    text, leaves empty ones out and adds ``heading``, ``first_page`` and ``last_page``
    to filter on. Each ``Document``'s metadata is its own: changing one changes no
    other, and ``chunk.meta`` is never changed.

    Raises:
        ConfigError: ``metadata`` is no metadata form.
        DocumentError: From ``lazy_load`` when a file cannot be read.

    Example:
        >>> docs = DocchunkLoader("report.json").load()  # doctest: +SKIP
        >>> docs[0].metadata["heading"], docs[0].metadata["first_page"]  # doctest: +SKIP
    """

    def __init__(
        self,
        paths: str | Path | Iterable[str | Path],
        chunker: BaseChunker | None = None,
        metadata: MetadataForm = "flat",
    ):
        self.metadata = check_metadata_form(metadata)
        self.paths = [paths] if isinstance(paths, (str, Path)) else list(paths)
        if chunker is None:
            from docchunk import HybridChunker

            chunker = HybridChunker()
        self.chunker = chunker

    def lazy_load(self) -> Iterator[Any]:
        """Yield one langchain ``Document`` per chunk of each path, in order."""
        from docchunk import load_document

        for path in self.paths:
            doc = load_document(Path(path))
            for index, chunk in enumerate(self.chunker.chunk(doc)):
                metadata = chunk_metadata(cast("DocChunk", chunk), str(path), index)
                yield _lc_documents.Document(
                    page_content=self.chunker.contextualize(chunk),
                    metadata=store_metadata(metadata) if self.metadata == "flat" else metadata,
                )


class DocchunkTextSplitter(_lc_splitters.TextSplitter):
    """A LangChain ``TextSplitter`` backed by a docchunk text chunker.

    Args:
        chunker: ``RecursiveChunker``, ``TokenChunker``, ``SentenceChunker``,
            ``WindowChunker``, ``SemanticChunker`` ... (its own sizes apply).
        add_start_index: Put each chunk's exact ``start_index`` (from the chunker's
            offsets, never searched) into the metadata.

    Example:
        >>> splitter = DocchunkTextSplitter(RecursiveChunker(chunk_size=500), add_start_index=True)  # doctest: +SKIP
        >>> docs = splitter.create_documents([text])  # doctest: +SKIP
    """

    def __init__(self, chunker: TextChunker, add_start_index: bool = False):
        size = getattr(chunker, "chunk_size", 4000)
        overlap = min(getattr(chunker, "chunk_overlap", 0), max(size - 1, 0))
        super().__init__(chunk_size=size, chunk_overlap=overlap, add_start_index=add_start_index)
        self.chunker = chunker

    def split_text(self, text: str) -> list[str]:
        """The texts of the chunks of ``text``."""
        return [c.text for c in self.chunker(text)]

    def create_documents(self, texts: list[str], metadatas: list[dict] | None = None) -> list[Any]:
        """One langchain ``Document`` per chunk of each text, with its metadata and offsets.

        Each ``Document`` gets its own deep copy of ``metadatas[i]`` (as LangChain's
        splitters do): changing one chunk's metadata, lists included, changes neither
        another chunk's nor the caller's dicts.
        """
        documents = []
        for i, text in enumerate(texts):
            base = metadatas[i] if metadatas else {}
            for chunk in self.chunker(text):
                metadata = copy.deepcopy(base)
                if self._add_start_index:
                    metadata["start_index"] = chunk.start_index
                documents.append(_lc_documents.Document(page_content=chunk.text, metadata=metadata))
        return documents


class DocchunkEmbeddings(_lc_embeddings.Embeddings):
    """A LangChain ``Embeddings`` that embeds with an :class:`docchunk.EmbeddingsRefinery`.

    With :class:`DocchunkLoader` (whose ``page_content`` is ``contextualize(chunk)``), a
    LangChain vector store holds the vectors ``docchunk index`` and the refinery give
    the same chunks; with the refinery's ``cache_dir`` they are read, not computed again.

    Args:
        embedder: An :class:`docchunk.EmbeddingsRefinery`, or what it takes as ``model``
            (a model name, a ``SentenceTransformer`` or a callable).

    Example:
        >>> from langchain_core.vectorstores import InMemoryVectorStore  # doctest: +SKIP
        >>> store = InMemoryVectorStore(DocchunkEmbeddings("all-MiniLM-L6-v2"))  # doctest: +SKIP
        >>> store.add_documents(DocchunkLoader(["docs/"]).load())  # doctest: +SKIP
        >>> store.similarity_search("How are tables split?", k=5)  # doctest: +SKIP
    """

    def __init__(self, embedder: Any = DEFAULT_MODEL):
        from docchunk.integrations.embedding_refinery import EmbeddingsRefinery

        self.embedder = embedder if isinstance(embedder, EmbeddingsRefinery) else EmbeddingsRefinery(embedder)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """One vector (``d`` floats) per text."""
        return [vector.tolist() for vector in self.embedder.embed(texts)]

    def embed_query(self, text: str) -> list[float]:
        """The vector of the query, embedded as the documents are (no query prefix)."""
        return self.embed_documents([text])[0]
