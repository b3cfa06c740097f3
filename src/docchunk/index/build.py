"""Building an index: chunk each file, embed its chunks, write its rows; skip files already indexed.

A file's rows are keyed by :func:`source_key`, its path resolved and made relative to
the folder that holds the index, so that every spelling of its path (relative, absolute,
through a symbolic link, from another working directory) names the same rows, and an
index moved with its documents keeps its keys. Rows written under another spelling by
older docchunk (keyed by the path as given) are taken over by the first run that indexes
their file (:meth:`Indexer.plan`).

A file is indexed whole in one write (see :mod:`docchunk.index.store`), so an
interrupted run loses nothing already written and the next run picks up the files
that were not. Its chunks are embedded in batches of their own (never mixed with
another file's), so a chunk's vector depends only on its file: an interrupted and
resumed run gives the same table as an uninterrupted one.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, cast

from docchunk.errors import ConfigError, DocumentError
from docchunk.index.store import CONTENT_ROLE, IndexRecord, IndexStore

if TYPE_CHECKING:
    import numpy as np

    from docchunk.integrations.embedding_refinery import EmbeddingsRefinery
    from docchunk.serialization._docling import BaseChunker
    from docchunk.serialization.rows import Row

__all__ = ["IndexReport", "Indexer", "chunk_files", "content_hash", "embedded_rows", "source_key", "table_rows"]

READ_BLOCK = 1 << 20


def content_hash(path: str | Path, settings: str) -> str:
    """SHA-256 (hex) of ``settings``, a NUL and the bytes of the file ``path``.

    ``settings`` names the chunker's settings and the model, so a file is indexed
    again when either changes, not only when its content does.

    Raises:
        DocumentError: ``path`` does not exist or cannot be read (the message names it and why).
    """
    digest = hashlib.sha256(settings.encode("utf-8", "surrogatepass") + b"\0")
    try:
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(READ_BLOCK), b""):
                digest.update(block)
    except FileNotFoundError:
        raise DocumentError(
            f"{path}: no such file or folder; check the path (a relative one is read from the working directory)"
        ) from None
    except OSError as exc:
        raise DocumentError(
            f"{path}: cannot be read: {exc.strerror or exc}; give a readable file or a folder of them"
        ) from exc
    return digest.hexdigest()


def source_key(path: str | Path, db: str | Path) -> str:
    """The key of the file ``path`` in the index folder ``db``: its rows' ``source`` (and ``id`` prefix).

    The path with symbolic links resolved, relative to the folder that holds ``db``
    (its parent) when the file lies under it (``docs/report.md`` for ``my-index/``
    beside ``docs/``), else absolute; ``/`` between parts. Every spelling of a file's
    path gives the same key, and an index moved with its documents (the folder that
    holds both) keeps its keys on another machine.

    Example:
        >>> source_key("docs/./report.md", "my-index") == source_key("docs/report.md", "./my-index")
        True
    """
    resolved = Path(path).resolve()
    try:
        return resolved.relative_to(Path(db).resolve().parent).as_posix()
    except ValueError:  # not under the folder that holds the index
        return resolved.as_posix()


def table_rows(
    rows: Sequence[Row], vectors: np.ndarray, chunker: str, digest: str, source: str | None = None
) -> list[Row]:
    """Table rows (:func:`docchunk.index.store.row_schema`) of one file's ``docchunk chunk`` rows.

    Args:
        rows: The file's rows as :func:`docchunk.batch.rows.chunk_rows` gives them
            (``meta`` a dict), or as parsed back from ``docchunk chunk``'s JSONL.
        vectors: Their embeddings, shape ``(len(rows), d)``.
        chunker: The chunker's settings, one string.
        digest: The file's :func:`content_hash`.
        source: The file's key in the index (:func:`source_key`), the rows' ``source``
            and ``id`` prefix; None: each row's own ``source``.
    """
    out = []
    for row, vector in zip(rows, vectors, strict=True):
        meta = row["meta"]
        spans = meta.get("spans")
        key = row["source"] if source is None else source
        out.append(
            {
                "id": f"{key}#{row['chunk_index']}", "vector": vector.tolist(), "text": row["text"],
                "contextualized": row["contextualized"], "source": key, "chunk_index": row["chunk_index"],
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
            in the index, so that search embeds queries with the same model), or a
            function of no argument that makes one: called on the first file to embed,
            so that a run whose files are all unchanged loads no model.
        chunker: The chunker's settings as one string (e.g.
            :func:`docchunk.report.views.describe_chunker` of it), stored in every row
            and part of every content hash.
        model_name: The model's name; required with a function, else the embedder's.

    Raises:
        ConfigError: No model name, the folder is an index of another model, or it
            cannot be created (a file on its path, no permission).
        MissingDependencyError: lancedb or pyarrow is missing (``pip install ".[index]"``).
    """

    def __init__(
        self,
        db: str | Path,
        embedder: EmbeddingsRefinery | Callable[[], EmbeddingsRefinery],
        chunker: str,
        model_name: str | None = None,
    ):
        loaded = hasattr(embedder, "embed")
        if model_name is None and loaded:
            model_name = cast("EmbeddingsRefinery", embedder).model_name
        if model_name is None:
            raise ConfigError("an index needs an EmbeddingsRefinery with model_name=..., recorded for search")
        self.store = IndexStore(db)
        self.model_name = model_name
        self._embedder = cast("EmbeddingsRefinery", embedder) if loaded else None
        self._load = cast("Callable[[], EmbeddingsRefinery]", embedder)
        self.chunker = chunker
        self.settings = json.dumps({"chunker": chunker, "model": model_name}, sort_keys=True)
        self._record = check_model(self.store, model_name)
        self._hashes = self.store.hashes()
        self._aliases = _aliases(self._hashes, Path(db))
        self.token_counts: list[int | None] = []
        self.report = IndexReport()
        self.moved = False  # plan moved rows written under another spelling of a path to its key

    @property
    def embedder(self) -> EmbeddingsRefinery:
        """The embedder, made on first use when a function was given.

        Raises:
            ConfigError: The model cannot be loaded.
        """
        if self._embedder is None:
            self._embedder = self._load()
        return self._embedder

    def key(self, path: str | Path) -> str:
        """The file's key in this index (:func:`source_key`)."""
        return source_key(path, self.store.folder)

    def plan(self, files: Iterable[str | Path]) -> tuple[list[tuple[Path, str]], list[str]]:
        """The ``(path, content_hash)`` of files to index, and the paths of those to skip (unchanged).

        A file is skipped when its key holds rows of its content hash, or when it was
        already given in this run (a link and its target). Rows of the file written
        under another spelling of its path (by older docchunk, keyed by the path as given) are
        moved to its key when they hold its content hash (no embedding), else
        replaced when it is indexed: either way the file has one set of rows.

        Raises:
            DocumentError: A file does not exist or cannot be read (:func:`content_hash`).
        """
        todo, skipped, seen = [], [], set()
        for path in files:
            key = self.key(path)
            if key in seen:
                skipped.append(str(path))
                continue
            seen.add(key)
            digest = content_hash(path, self.settings)
            aliases = self._aliases.get(key, [])
            current = [s for s in (key, *aliases) if self._hashes.get(s) == digest]
            if current and aliases:
                self._take_over(key, current[0], aliases, digest)
            if current:
                skipped.append(str(path))
            else:
                todo.append((Path(path), digest))
        self.report.skipped.extend(skipped)
        return todo, skipped

    def _take_over(self, key: str, holder: str, aliases: list[str], digest: str) -> None:
        """Make the rows of ``holder`` (one of ``key`` and ``aliases``) the rows of ``key``; drop the aliases' rows."""
        rows = self.store.rows_of(holder)
        for row in rows:
            row["source"], row["id"] = key, f"{key}#{row['chunk_index']}"
        if self._record is not None:
            self.store.replace_files([key, *aliases], rows, int(self._record["dimension"]))
        for alias in aliases:
            self._hashes.pop(alias, None)
        self._hashes[key] = digest
        self._aliases.pop(key, None)
        self.moved = True

    def add(self, source: str, rows: Sequence[Row], digest: str) -> int:
        """Embed one file's rows and make them its rows in the index (one write); returns their number.

        ``source`` is the file's path as given; its rows are keyed by :meth:`key`, and
        its rows under another spelling of its path are deleted in the same write.
        """
        vectors = self.embedder.embed([row["contextualized"] for row in rows])
        self.token_counts.extend(row["token_count"] for row in rows)
        dimension = int(vectors.shape[1])
        if self._record is None or self._record.get("chunker") != self.chunker:
            self.store.write_record(self.model_name, dimension, self.chunker)
            self._record = self.store.record()
        key = self.key(source)
        aliases = self._aliases.pop(key, [])
        self.store.replace_files([key, *aliases], table_rows(rows, vectors, self.chunker, digest, key), dimension)
        self._hashes[key] = digest
        self.report.indexed.append(source)
        self.report.chunks += len(rows)
        return len(rows)

    def fail(self, source: str, message: str) -> None:
        """Note a file that could not be indexed (its old rows stay)."""
        self.report.failed.append((source, message))

    def finish(self) -> IndexReport:
        """Warn about chunks over the model's input limit, build or update the full-text index, compact; the report."""
        if self._embedder is not None:
            self._embedder.check_limit(self.token_counts)
        if self.report.indexed or self.moved:
            self.store.ensure_fts()
            self.store.optimize()  # also adds the rows written since to the full-text index
        self.report.total = self.store.count_rows()
        return self.report


def _aliases(hashes: dict[str, str], db: Path) -> dict[str, list[str]]:
    """``key -> sources``: the sources of ``hashes`` that name an existing file under another spelling than its key.

    A relative source is read from the folder that holds the index (where keys are
    relative to), else from the working directory (older docchunk stored the path
    as given). A source whose file cannot be found is no alias: its rows stay.
    """
    root = db.resolve().parent
    found: dict[str, list[str]] = defaultdict(list)
    for source in hashes:
        path = Path(source)
        for candidate in [path] if path.is_absolute() else [root / path, path]:
            if candidate.is_file():
                key = source_key(candidate, db)
                if key != source:
                    found[key].append(source)
                break
    return dict(found)


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

    ``raise_errors`` raises a file's exception instead (``--debug``). A plain text file
    (``.txt``) given by name is a problem that says what the index takes (documents) and
    how to index it, as for one in a folder (:func:`docchunk.batch.local.skip_reason`).
    """
    from docchunk.batch.local import skip_reason
    from docchunk.batch.rows import chunk_rows, describe_failure
    from docchunk.batch.text import TEXT_SUFFIXES
    from docchunk.errors import DocumentError
    from docchunk.loading import SUPPORTED_SUFFIXES, load_document

    for path, digest in todo:
        if path.suffix.lower() in TEXT_SUFFIXES and path.suffix.lower() not in SUPPORTED_SUFFIXES:
            problem = f"{path}: {skip_reason(path, text_chunkers=False)}"  # not chunk's hint: --chunker recursive
            if raise_errors:
                raise DocumentError(problem)
            yield path, digest, [], problem
            continue
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
