"""A docchunk index as a LangChain or LlamaIndex retriever, with the same ranking modes as ``docchunk search``.

``langchain_retriever(db, ...)`` gives a LangChain ``BaseRetriever`` and
``llama_index_retriever(db, ...)`` a LlamaIndex ``BaseRetriever``, each over one open
:class:`docchunk.index.Searcher` (the model loads once). Each hit becomes a
document / node whose text is the chunk's ``contextualized`` string (as
:class:`~docchunk.integrations.langchain.DocchunkLoader` writes) and whose metadata
are the row's ``id``, ``source``, ``chunk_index``, ``headings``, ``page_numbers``,
``role`` and the ``score``. Needs the ``index`` extra and ``langchain`` or
``llama-index``.

Example:
    >>> from docchunk.integrations.index_retrievers import langchain_retriever
    >>> retriever = langchain_retriever("my-index", k=3, mode="hybrid")  # doctest: +SKIP
    >>> [d.metadata["source"] for d in retriever.invoke("How long is the warranty?")]  # doctest: +SKIP
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from docchunk._extras import require
from docchunk.index import Searcher, SearchHit
from docchunk.index.searcher import DEFAULT_MODE
from docchunk.index.store import CONTENT_ROLE, MODES
from docchunk.types.config import check_size

__all__ = ["hit_metadata", "langchain_retriever", "llama_index_retriever"]

_KEYS = ("id", "source", "chunk_index", "headings", "page_numbers", "role")


def hit_metadata(hit: SearchHit) -> dict[str, Any]:
    """The metadata of a hit's document or node: the row's ``id``, ``source``, ... and ``score``."""
    return {**{key: hit.row.get(key) for key in _KEYS}, "score": hit.score}


def _searcher(db: str | Path, k: int, mode: str, model: Any) -> Searcher:
    from docchunk.errors import ConfigError

    check_size("k", k, 1)
    if mode not in MODES:
        raise ConfigError(f"mode={mode!r} is not a ranking mode; choose one of {', '.join(MODES)}")
    return Searcher(db, model=model)


def langchain_retriever(db: str | Path, k: int = 5, mode: str = DEFAULT_MODE, all_roles: bool = False,
                        model: Any = None) -> Any:  # fmt: skip
    """A LangChain retriever over the index ``db``.

    Args:
        db: The index folder (``docchunk index --db``).
        k: Documents per question; >= 1.
        mode: ``hybrid`` (default), ``dense`` or ``lexical`` (see :meth:`docchunk.index.Searcher.search`).
        all_roles: Also return chunks marked as boilerplate (``meta.role``).
        model: The embedding model; default the index's.

    Returns:
        A ``langchain_core.retrievers.BaseRetriever``: ``invoke(question)`` gives
        ``Document`` s, best first.

    Raises:
        ConfigError: ``db`` is not an index, ``k`` < 1 or an unknown ``mode``.
        MissingDependencyError: langchain-core is missing (``pip install "docchunk[langchain]"``).
    """
    retrievers: Any = require("langchain_core.retrievers", "langchain", "langchain_retriever")
    documents: Any = require("langchain_core.documents", "langchain", "langchain_retriever")
    searcher = _searcher(db, k, mode, model)
    roles = None if all_roles else (CONTENT_ROLE,)

    class DocchunkIndexRetriever(retrievers.BaseRetriever):
        """Documents of a docchunk index, ranked as ``docchunk search --mode`` ranks them."""

        def _get_relevant_documents(self, query: str, *, run_manager: Any) -> list[Any]:
            hits = searcher.search(query, k=k, mode=mode, roles=roles)
            return [documents.Document(page_content=h.row["contextualized"], metadata=hit_metadata(h)) for h in hits]

    return DocchunkIndexRetriever()


def llama_index_retriever(db: str | Path, k: int = 5, mode: str = DEFAULT_MODE, all_roles: bool = False,
                          model: Any = None) -> Any:  # fmt: skip
    """A LlamaIndex retriever over the index ``db`` (arguments as :func:`langchain_retriever`).

    Returns:
        A ``llama_index.core.retrievers.BaseRetriever``: ``retrieve(question)`` gives
        ``NodeWithScore`` s (``TextNode`` with the row's ``id``), best first.

    Raises:
        ConfigError: ``db`` is not an index, ``k`` < 1 or an unknown ``mode``.
        MissingDependencyError: llama-index-core is missing (``pip install "docchunk[llama-index]"``).
    """
    retrievers: Any = require("llama_index.core.retrievers", "llama-index", "llama_index_retriever")
    schema: Any = require("llama_index.core.schema", "llama-index", "llama_index_retriever")
    searcher = _searcher(db, k, mode, model)
    roles = None if all_roles else (CONTENT_ROLE,)

    class DocchunkIndexRetriever(retrievers.BaseRetriever):
        """Nodes of a docchunk index, ranked as ``docchunk search --mode`` ranks them."""

        def _retrieve(self, query_bundle: Any) -> list[Any]:
            hits = searcher.search(query_bundle.query_str, k=k, mode=mode, roles=roles)
            return [schema.NodeWithScore(node=schema.TextNode(id_=h.row["id"], text=h.row["contextualized"],
                                                              metadata=hit_metadata(h)), score=h.score)
                    for h in hits]  # fmt: skip

    return DocchunkIndexRetriever()
