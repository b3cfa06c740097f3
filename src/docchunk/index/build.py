"""Building an index: chunk each file, embed its chunks, write its rows; skip files already indexed.

A file is indexed whole in one write (see :mod:`docchunk.index.store`), so an
interrupted run loses nothing already written and the next run picks up the files
that were not. Its chunks are embedded in batches of their own (never mixed with
another file's), so a chunk's vector depends only on its file: an interrupted and
resumed run gives the same table as an uninterrupted one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, cast

from docchunk.errors import ConfigError
from docchunk.index.store import CONTENT_ROLE, IndexRecord, IndexStore

if TYPE_CHECKING:
    import numpy as np

    from docchunk.integrations.embedding_refinery import EmbeddingsRefinery
    from docchunk.serialization._docling import BaseChunker
    from docchunk.serialization.rows import Row

__all__ = ["IndexReport", "Indexer", "chunk_files", "content_hash", "embedded_rows", "table_rows"]

READ_BLOCK = 1 << 20


def content_hash(path: str | Path, settings: str) -> str:
    """SHA-256 (hex) of ``settings``, a NUL and the bytes of the file ``path``.

    ``settings`` names the chunker's settings and the model, so a file is indexed
    again when either changes, not only when its content does.
    """
    digest = hashlib.sha256(settings.encode("utf-8", "surrogatepass") + b"\0")
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(READ_BLOCK), b""):
            digest.update(block)
    return digest.hexdigest()


def table_rows(rows: Sequence[Row], vectors: np.ndarray, chunker: str, digest: str) -> list[Row]:
    """Table rows (:func:`docchunk.index.store.row_schema`) of one file's ``docchunk chunk`` rows.

    Args:
        rows: The file's rows as :func:`docchunk.batch.rows.chunk_rows` gives them
            (``meta`` a dict), or as parsed back from ``docchunk chunk``'s JSONL.
        vectors: Their embeddings, shape ``(len(rows), d)``.
        chunker: The chunker's settings, one string.
        digest: The file's :func:`content_hash`.
    """
    out = []
    for row, vector in zip(rows, vectors, strict=True):
        meta = row["meta"]
        spans = meta.get("spans")
        out.append(
            {
                "id": f"{row['source']}#{row['chunk_index']}", "vector": vector.tolist(), "text": row["text"],
                "contextualized": row["contextualized"], "source": row["source"], "chunk_index": row["chunk_index"],
                "headings": list(meta.get("headings") or []), "captions": list(meta.get("captions") or []),
                "page_numbers": list(row["page_numbers"]),
                "doc_items": [item.get("self_ref") for item in meta.get("doc_items") or []],
                "table_rows": list(meta["table_rows"]) if meta.get("table_rows") is not None else None,
                "token_count": row["token_count"], "spans": json.dumps(spans) if spans is not None else None,
                "meta": json.dumps(meta, ensure_ascii=False), "chunker": chunker, "content_hash": digest,
                "role": meta.get("role") or CONTENT_ROLE,
            }
        )  # fmt: skip
    return out


@dataclass
class IndexReport:
    """What one indexing run did.

    Attributes:
        indexed: Files chunked, embedded and written (new or changed).
        skipped: Files whose content hash was already in the index (unchanged).
        failed: ``(source, message)`` of files that could not be indexed; their old
            rows, if any, are kept.
        chunks: Rows written by this run.
        total: Rows in the index after the run.
        ignored: ``(source, reason)`` of the files of a given folder that are no format
            the index reads (plain ``.txt`` text, other types): not indexed, as
            ``docchunk index`` names them in its ``skipped`` line.
    """

    indexed: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    chunks: int = 0
    total: int = 0
    ignored: list[tuple[str, str]] = field(default_factory=list)


class Indexer:
    """Writes files' chunks into an index folder with one embedding model.

    Args:
        db: The index folder.
        embedder: An :class:`docchunk.EmbeddingsRefinery` with a ``model_name`` (recorded
            in the index, so that search embeds queries with the same model).
        chunker: The chunker's settings as one string (e.g.
            :func:`docchunk.report.views.describe_chunker` of it), stored in every row
            and part of every content hash.

    Raises:
        ConfigError: The embedder has no ``model_name``, or the folder is an index of
            another model.
        MissingDependencyError: lancedb or pyarrow is missing (``pip install ".[index]"``).
    """

    def __init__(self, db: str | Path, embedder: EmbeddingsRefinery, chunker: str):
        if embedder.model_name is None:
            raise ConfigError("an index needs an EmbeddingsRefinery with model_name=..., recorded for search")
        self.store = IndexStore(db)
        self.embedder = embedder
        self.chunker = chunker
        self.settings = json.dumps({"chunker": chunker, "model": embedder.model_name}, sort_keys=True)
        self._record = check_model(self.store, embedder.model_name)
        self._hashes = self.store.hashes()
        self.token_counts: list[int | None] = []
        self.report = IndexReport()

    def plan(self, files: Iterable[str | Path]) -> tuple[list[tuple[Path, str]], list[str]]:
        """The ``(path, content_hash)`` of files to index, and the sources of those to skip (unchanged)."""
        todo, skipped = [], []
        for path in files:
            digest = content_hash(path, self.settings)
            if self._hashes.get(str(path)) == digest:
                skipped.append(str(path))
            else:
                todo.append((Path(path), digest))
        self.report.skipped.extend(skipped)
        return todo, skipped

    def add(self, source: str, rows: Sequence[Row], digest: str) -> int:
        """Embed one file's rows and make them its rows in the index (one write); returns their number."""
        vectors = self.embedder.embed([row["contextualized"] for row in rows])
        self.token_counts.extend(row["token_count"] for row in rows)
        dimension = int(vectors.shape[1])
        if self._record is None or self._record.get("chunker") != self.chunker:
            model_name = cast(str, self.embedder.model_name)  # not None: checked by __init__
            self.store.write_record(model_name, dimension, self.chunker)
            self._record = self.store.record()
        self.store.replace_files([source], table_rows(rows, vectors, self.chunker, digest), dimension)
        self._hashes[source] = digest
        self.report.indexed.append(source)
        self.report.chunks += len(rows)
        return len(rows)

    def fail(self, source: str, message: str) -> None:
        """Note a file that could not be indexed (its old rows stay)."""
        self.report.failed.append((source, message))

    def finish(self) -> IndexReport:
        """Warn about chunks over the model's input limit, build or update the full-text index, compact; the report."""
        self.embedder.check_limit(self.token_counts)
        if self.report.indexed:
            self.store.ensure_fts()
            self.store.optimize()  # also adds the rows written since to the full-text index
        self.report.total = self.store.count_rows()
        return self.report


def check_model(store: IndexStore, model_name: str) -> IndexRecord | None:
    """The index's record, after checking that it was built with ``model_name`` (None for a new index).

    Raises:
        ConfigError: The index was built with another model.
    """
    record = store.record()
    if record is not None and record["model"] != model_name:
        raise ConfigError(
            f"the index {str(store.folder)!r} was built with the model {record['model']!r}, not {model_name!r}; "
            f"index with --embed {record['model']} (the model its vectors come from), or give a new --db folder"
        )
    return record


def chunk_files(
    chunker: BaseChunker, todo: Iterable[tuple[Path, str]], raise_errors: bool = False
) -> Iterator[tuple[Path, str, list[Row], str | None]]:
    """``(path, digest, rows, problem)`` per file: the rows of ``docchunk chunk``, or the problem.

    ``raise_errors`` raises a file's exception instead (``--debug``).
    """
    from docchunk.batch.rows import chunk_rows, describe_failure
    from docchunk.loading import load_document

    for path, digest in todo:
        try:
            yield path, digest, chunk_rows(chunker, str(path), load_document(path)), None
        except Exception as exc:  # one bad input never stops the others
            if raise_errors:
                raise
            yield path, digest, [], describe_failure(str(path), exc)


def embedded_rows(
    paths: Iterable[str | Path], chunker: BaseChunker | None = None, embedder: EmbeddingsRefinery | None = None
) -> Iterator[Row]:
    """The rows of ``docchunk chunk --embed`` for files and folders, one per chunk, file by file.

    Args:
        paths: Files and folders (their supported files, recursively).
        chunker: A document chunker; default ``HybridChunker()``.
        embedder: An :class:`docchunk.EmbeddingsRefinery`; default the bundled all-MiniLM-L6-v2.

    Yields:
        :func:`docchunk.batch.rows.chunk_rows` rows with ``embedding`` (``d``
        floats, the vector of ``contextualized``; each file's chunks in batches of their own).

    Raises:
        DocumentError: A file cannot be read or holds no text.
    """
    from docchunk.batch.rows import chunk_rows
    from docchunk.loading import iter_input_files, load_document

    if chunker is None:
        from docchunk import HybridChunker

        chunker = HybridChunker()
    if embedder is None:
        from docchunk.integrations.embedding_refinery import EmbeddingsRefinery

        embedder = EmbeddingsRefinery()
    for path in (f for p in paths for f in iter_input_files(Path(p))):
        rows = chunk_rows(chunker, str(path), load_document(path))
        for row, vector in zip(rows, embedder.embed([r["contextualized"] for r in rows]), strict=True):
            row["embedding"] = vector.tolist()
            yield row
