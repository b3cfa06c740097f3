"""A searchable index of chunks: documents in, a LanceDB folder out, and search over it.

Needs the ``index`` extra (lancedb, pyarrow) and, for the default model, ``semantic``
(sentence-transformers): ``pip install ".[index,semantic]"``.

Example:
    >>> from docchunk.index import index_paths, search
    >>> report = index_paths(["docs/"], db="my-index")  # doctest: +SKIP
    >>> for hit in search("my-index", "How are tables split?", k=5, mode="hybrid"):  # doctest: +SKIP
    ...     print(round(hit.score, 3), hit.row["source"], hit.row["headings"])
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docchunk.embeddings.models import DEFAULT_MODEL
from docchunk.errors import ConfigError
from docchunk.index.build import (
    Indexer,
    IndexReport,
    chunk_files,
    content_hash,
    embedded_rows,
    source_key,
    table_rows,
)
from docchunk.index.searcher import DEFAULT_MODE, Searcher
from docchunk.index.store import CONTENT_ROLE, MODES, IndexStore, SearchHit, row_schema

if TYPE_CHECKING:
    from docchunk.serialization._docling import BaseChunker

__all__ = [
    "MODES",
    "IndexReport",
    "IndexStore",
    "Indexer",
    "SearchHit",
    "Searcher",
    "chunk_files",
    "content_hash",
    "embedded_rows",
    "index_paths",
    "row_schema",
    "search",
    "source_key",
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
        An :class:`IndexReport` (files by their paths as given). Each file's rows,
        keyed by :func:`source_key` (its resolved path, relative to the folder that
        holds ``db``), replace its previous rows, also those written under another
        spelling of its path; a file whose content and settings are unchanged
        (content hash) is skipped, and when every file is, no model is loaded.

    Raises:
        ConfigError: ``db`` is an index of another model, cannot be created (a file
            on its path, no permission), or a bad model.
        DocumentError: A file of ``paths`` does not exist or cannot be read.
        MissingDependencyError: lancedb/pyarrow (``index``) or sentence-transformers
            (``semantic``) is missing.
    """
    from docchunk.batch.local import skip_reason
    from docchunk.integrations.embedding_refinery import EmbeddingsRefinery
    from docchunk.loading import input_files
    from docchunk.report.views import describe_chunker

    if chunker is None:
        from docchunk import HybridChunker

        chunker = HybridChunker()
    if model_name is None and not isinstance(model, (str, Path, EmbeddingsRefinery)):
        model_name = getattr(model, "model_name", None)
        if not isinstance(model_name, str):
            raise ConfigError(
                f"index_paths(model={type(model).__name__}) needs model_name='...': the name is recorded in the "
                "index, so that search embeds queries with the same model (pass search the same model= too)"
            )
    if isinstance(model, EmbeddingsRefinery):
        indexer = Indexer(db, model, describe_chunker(chunker))
    else:  # the model loads on the first file to embed: none when every file is unchanged
        name = model_name if model_name is not None else (model if isinstance(model, str) else None)
        load = functools.partial(EmbeddingsRefinery, model, model_name=name, cache_dir=cache_dir, device=device)
        indexer = Indexer(db, load, describe_chunker(chunker), model_name=name)
    files, ignored = input_files(map(Path, paths))
    todo, _ = indexer.plan(files)
    for path, digest, rows, problem in chunk_files(chunker, todo):
        if problem is not None:
            indexer.fail(str(path), problem)
        else:
            indexer.add(str(path), rows, digest)
    report = indexer.finish()
    report.ignored = [(str(path), skip_reason(path, text_chunkers=False)) for path in ignored]
    return report


def search(db: str | Path, query: str, k: int = 5, model: Any = None, device: str | None = None,
           mode: str = DEFAULT_MODE, roles: tuple[str, ...] | None = (CONTENT_ROLE,)) -> list[SearchHit]:  # fmt: skip
    """The ``k`` chunks of the index ``db`` best ranked for ``query``, best first.

    Opens the index and loads the model for one question: to ask many, open a
    :class:`Searcher` once and call its ``search`` in a loop.

    Args:
        db: The index folder.
        query: The question.
        k: How many hits; >= 1.
        model: The embedding model; default the one recorded in the index (by name).
            Give it when the index was built with a model object or callable.
        device: Torch device for a model name.
        mode: ``hybrid`` (default), ``dense`` or ``lexical`` (see :meth:`Searcher.search`).
        roles: Rank only chunks of these ``meta.role`` s (default: content); None: all.

    Returns:
        :class:`SearchHit` s, highest ``score`` first.

    Raises:
        ConfigError: ``db`` is not an index, ``k`` < 1, or an unknown ``mode``.
    """
    return Searcher(db, model=model, device=device).search(query, k=k, mode=mode, roles=roles)
