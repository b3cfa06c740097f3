"""A searchable index of chunks: documents in, a LanceDB folder out, and search over it.

Needs the ``index`` extra (lancedb, pyarrow) and, for the default model, ``semantic``
(sentence-transformers): ``pip install ".[index,semantic]"``.

Example:
    >>> from docchunk.index import index_paths, search
    >>> report = index_paths(["docs/"], db="my-index")  # doctest: +SKIP
    >>> for hit in search("my-index", "How are tables split?", k=5):  # doctest: +SKIP
    ...     print(round(hit.score, 3), hit.row["source"], hit.row["headings"])
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docchunk.embeddings.models import DEFAULT_MODEL
from docchunk.index.build import Indexer, IndexReport, chunk_files, content_hash, embedded_rows, table_rows
from docchunk.index.store import IndexStore, SearchHit, row_schema

if TYPE_CHECKING:
    from docchunk.serialization._docling import BaseChunker

__all__ = [
    "IndexReport",
    "IndexStore",
    "Indexer",
    "SearchHit",
    "chunk_files",
    "content_hash",
    "embedded_rows",
    "index_paths",
    "row_schema",
    "search",
    "table_rows",
]

def index_paths(
    paths: Iterable[str | Path],
    db: str | Path,
    chunker: BaseChunker | None = None,
    model: Any = DEFAULT_MODEL,
    model_name: str | None = None,
    cache_dir: str | Path | None = None,
    device: str | None = None,
) -> IndexReport:
    """Chunk, embed and write files into the index folder ``db`` (created when missing).

    Args:
        paths: Files and folders (their supported files, recursively) that
            :func:`docchunk.load_document` reads.
        db: The index folder.
        chunker: A document chunker; default ``HybridChunker()``.
        model: The embedding model: a name (default: the bundled all-MiniLM-L6-v2),
            a ``SentenceTransformer``, a callable, or an :class:`docchunk.EmbeddingsRefinery`.
        model_name: The model's name, recorded in the index (needed for a model object).
        cache_dir: Embedding cache folder, shared with ``docchunk eval``; None: no cache.
        device: Torch device for a model name.

    Returns:
        An :class:`IndexReport`. Each file's rows replace its previous rows; a file
        whose content and settings are unchanged (content hash) is skipped.

    Raises:
        ConfigError: ``db`` is an index of another model, or a bad model.
        MissingDependencyError: lancedb/pyarrow (``index``) or sentence-transformers
            (``semantic``) is missing.
    """
    from docchunk.integrations.embedding_refinery import EmbeddingsRefinery
    from docchunk.loading import iter_input_files
    from docchunk.report.views import describe_chunker

    if chunker is None:
        from docchunk import HybridChunker

        chunker = HybridChunker()
    embedder = model if isinstance(model, EmbeddingsRefinery) else EmbeddingsRefinery(
        model, model_name=model_name, cache_dir=cache_dir, device=device
    )  # fmt: skip
    indexer = Indexer(db, embedder, describe_chunker(chunker))
    files = [f for p in paths for f in iter_input_files(Path(p))]
    todo, _ = indexer.plan(files)
    for path, digest, rows, problem in chunk_files(chunker, todo):
        if problem is not None:
            indexer.fail(str(path), problem)
        else:
            indexer.add(str(path), rows, digest)
    return indexer.finish()


def search(db: str | Path, query: str, k: int = 5, model: Any = None, device: str | None = None) -> list[SearchHit]:
    """The ``k`` chunks of the index ``db`` nearest to ``query``, nearest first.

    Args:
        db: The index folder.
        query: The question.
        k: How many hits; >= 1.
        model: The embedding model; default the one recorded in the index (by name).
            Give it when the index was built with a model object or callable.
        device: Torch device for a model name.

    Returns:
        :class:`SearchHit` s, ``score`` the cosine similarity, highest first.

    Raises:
        ConfigError: ``db`` is not an index, or ``k`` < 1.
    """
    from docchunk.errors import ConfigError
    from docchunk.integrations.embedding_refinery import EmbeddingsRefinery
    from docchunk.types.config import check_size

    check_size("k", k, 1)
    store = IndexStore(db)
    record = store.record()
    if record is None:
        raise ConfigError(f"{str(db)!r} is not a docchunk index (no {db}/docchunk-index.json); build one with: "
                          "docchunk index PATH --db DIR")  # fmt: skip
    embedder = model if isinstance(model, EmbeddingsRefinery) else EmbeddingsRefinery(
        record["model"] if model is None else model, model_name=record["model"], device=device
    )  # fmt: skip
    vector = embedder.embed([query])[0]
    if len(vector) != record["dimension"]:
        raise ConfigError(f"the query vector has {len(vector)} dimensions, the index {record['dimension']}: "
                          f"search with the index's model {record['model']!r}")  # fmt: skip
    return store.search(vector, k)
