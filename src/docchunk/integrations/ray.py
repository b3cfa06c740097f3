"""Ray Data: chunk a Dataset of documents into a Dataset of chunk rows, and write them as shards.

Needs the ``ray`` extra (``pip install ".[ray]"`` from a checkout).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docchunk._extras import require
from docchunk.batch.rows import chunk_rows, describe_failure
from docchunk.embeddings.models import DEFAULT_MODEL
from docchunk.errors import ConfigError, DocchunkError
from docchunk.serialization.rows import EXPANDED_FIELDS, TEXT_FIELDS, arrow_schema, json_line
from docchunk.serialization.rows import ROW_FIELDS as _CHUNK_FIELDS

if TYPE_CHECKING:
    from docling_core.transforms.chunker.base import BaseChunker
    from ray.data import Dataset

    from docchunk.serialization.rows import Row

__all__ = [
    "ROW_FIELDS", "check_output_folder", "chunk_dataset", "embed_dataset", "row_schema", "write_jsonl", "write_parquet",
]  # fmt: skip

ROW_FIELDS = (*_CHUNK_FIELDS, "error")
"""Columns of the output rows: the CLI's JSONL fields, plus ``error``."""


def row_schema(error: bool = True, extra: tuple[str, ...] = ()) -> Any:
    """The Arrow schema of :func:`chunk_dataset`'s rows, the same for every block and shard.

    ``text``, ``contextualized``, ``source``, ``meta`` (DocMeta as a JSON string) and
    ``error`` are strings; ``token_count`` and ``chunk_index`` int64; ``page_numbers``
    list<int64> (empty when the document has no page provenance). ``error=False``
    leaves the ``error`` column out; ``extra`` adds columns after the chunk fields
    (:data:`docchunk.serialization.rows.EXPANDED_FIELDS` of expanded chunks,
    ``embedding`` of :func:`embed_dataset`, list<float32>). The
    same as :func:`docchunk.serialization.rows.arrow_schema`, which the local
    ``docchunk chunk --format parquet`` writes.
    """
    require("pyarrow", "ray", "The Ray integration")
    return arrow_schema([*_CHUNK_FIELDS, *extra, *(("error",) if error else ())])


def _without_nones(value: Any) -> Any:
    """A DoclingDocument dict as it was before Arrow's round trip.

    Arrow stores a list of dicts as structs with the union of their keys, so each item
    comes back with the keys of its siblings set to None (a ``TitleItem`` with
    ``level: None``); dropping None-valued keys restores the original items.
    """
    if isinstance(value, dict):
        return {k: _without_nones(v) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)) or type(value).__name__ == "ndarray":
        return [_without_nones(v) for v in value]
    return value


def _load_json_row(data: Any) -> Any:
    from docchunk.loading import load_document

    if not isinstance(data, dict):
        return load_document(data, format="json")
    try:
        return load_document(data, format="json")
    except DocchunkError:  # a dict that went through Arrow: retry with the keys Arrow added removed
        return load_document(_without_nones(data), format="json")


class _ChunkRows:
    """The per-row function; the chunker is built once per Ray worker."""

    def __init__(self, chunker: BaseChunker):
        self.chunker = chunker

    def __call__(self, row: dict[str, Any]) -> list[Row]:
        from docchunk.loading import load_document

        source = str(row.get("path") or row.get("source") or "<row>")
        try:
            if row.get("json") is not None:
                doc = _load_json_row(row["json"])
            elif row.get("bytes") is not None:
                fmt = Path(source).suffix.lstrip(".").lower() or "json"
                doc = load_document(bytes(row["bytes"]), format=fmt)
            else:
                doc = load_document(Path(source))
            rows = chunk_rows(self.chunker, source, doc)
        except (DocchunkError, OSError, ValueError) as exc:
            row = _error_row(source, exc)
            if getattr(self.chunker, "expander", None) is not None:  # the columns of the other rows
                row.update(expanded_text=None, expanded_token_count=None, expanded_page_numbers=[])
            return [row]
        for r in rows:
            r["meta"] = json.dumps(r["meta"], ensure_ascii=False)  # one column type across all documents
            r["error"] = None
        return rows


def _error_row(source: str, exc: Exception) -> Row:
    return {
        "text": None, "contextualized": None, "token_count": None, "page_numbers": [], "source": source,
        "chunk_index": None, "meta": None, "error": describe_failure(source, exc),
    }  # fmt: skip


def _conform(table: Any) -> Any:
    """A block with the columns and types of :func:`row_schema` (Arrow infers ``list<null>`` otherwise)."""
    pa = require("pyarrow", "ray", "The Ray integration")
    extra = tuple(name for name in (*TEXT_FIELDS, *EXPANDED_FIELDS, "embedding") if name in table.column_names)
    schema = row_schema(error="error" in table.column_names, extra=extra)
    return pa.Table.from_pylist(table.to_pylist(), schema=schema)


def chunk_dataset(ds: Dataset, chunker: BaseChunker | None = None) -> Dataset:
    """Chunk every document of a Ray Dataset.

    Args:
        ds: A ``ray.data.Dataset`` whose rows have ``path`` (a file
            :func:`docchunk.load_document` reads), or ``bytes`` (with ``path`` naming
            the format by its extension), or ``json`` (DoclingDocument JSON: a string,
            bytes, or a dict, also one that went through Arrow).
        chunker: A docchunk document chunker; default ``HybridChunker()``.

    Returns:
        A Dataset with one row per chunk and the columns :data:`ROW_FIELDS`, typed by
        :func:`row_schema` in every block (the CLI's JSONL fields; ``meta`` is the
        DocMeta as a JSON string). A document that fails, or has nothing to chunk,
        gives one row with ``error`` set (naming its path) and does not stop the others.

    Raises:
        MissingDependencyError: Ray Data is not installed (``pip install ".[ray]"``).
    """
    require("ray.data", "ray", "docchunk.integrations.ray")
    if chunker is None:
        from docchunk import HybridChunker

        chunker = HybridChunker()
    return ds.flat_map(_ChunkRows(chunker)).map_batches(_conform, batch_format="pyarrow")


class _EmbedBatch:
    """The embedding stage: one model per Ray actor, loaded once."""

    def __init__(self, model: str, device: str | None, batch_size: int):
        from docchunk.integrations.embedding_refinery import EmbeddingsRefinery

        self.embedder = EmbeddingsRefinery(model, device=device, batch_size=batch_size)

    def __call__(self, table: Any) -> Any:
        pa = require("pyarrow", "ray", "The Ray integration")
        vectors = self.embedder.embed(table.column("contextualized").to_pylist())
        return _conform(table.append_column("embedding", pa.array(list(vectors), type=pa.list_(pa.float32()))))


def embed_dataset(rows: Dataset, model: str = DEFAULT_MODEL, device: str | None = None, actors: int = 1,
                  batch_size: int = 64) -> Dataset:  # fmt: skip
    """Add an ``embedding`` column to chunk rows: the vector of ``contextualized``, in an actor pool.

    Args:
        rows: Chunk rows without errors (:func:`chunk_dataset`'s, ``error`` dropped).
        model: A sentence-transformers model name or folder every worker can read
            (``all-MiniLM-L6-v2`` is the bundled copy), as :class:`docchunk.EmbeddingsRefinery` takes it.
        device: Torch device of each actor; ``"cuda"`` (or ``"cuda:N"``) gives each
            actor one GPU of the cluster.
        actors: Size of the actor pool (``map_batches`` with ``concurrency``); >= 1.
        batch_size: Rows per batch, the texts of one model call; >= 1.

    Returns:
        The rows with ``embedding`` (list<float32>, :func:`row_schema` with
        ``extra=("embedding",)``). Vectors equal the model's on the same texts up to float
        rounding (a batch's padding differs from a local run's by about 1e-7).

    Raises:
        MissingDependencyError: Ray Data is not installed (``pip install ".[ray]"``).
    """
    data = require("ray.data", "ray", "docchunk.integrations.ray")
    gpus = 1 if device is not None and device.startswith("cuda") else None

    class EmbedBatch(_EmbedBatch):  # the settings in the class, not as constructor arguments in the object store
        def __init__(self) -> None:
            super().__init__(model, device, batch_size)

    return rows.map_batches(EmbedBatch, batch_size=batch_size, batch_format="pyarrow",
                            compute=data.ActorPoolStrategy(size=actors), num_gpus=gpus)  # fmt: skip


def check_output_folder(path: str | Path, fmt: str) -> str:
    """``path`` as a string when it can take ``fmt`` shards (``"jsonl"`` or ``"parquet"``).

    A new folder, or an existing one without ``*.{fmt}`` files, so that reading the
    folder back gives one run's rows.

    Raises:
        ConfigError: ``path`` is a file, or a folder that already holds ``*.{fmt}`` files.
    """
    suffix = f".{fmt}"
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise ConfigError(f"the output {str(folder)!r} is a file; give a folder for the shards (it may exist)")
    if folder.is_dir() and any(folder.glob(f"*{suffix}")):
        raise ConfigError(
            f"the output folder {str(folder)!r} already holds {suffix} shards; remove them or give another folder, "
            "so that reading the folder back gives this run's rows only"
        )
    return str(folder)


def write_parquet(rows: Dataset, path: str | Path) -> None:
    """Write chunk rows as Parquet shards into the folder ``path`` (created, or existing without Parquet files).

    Every shard has :func:`row_schema`'s types, so ``pandas.read_parquet(path)`` reads
    the folder as one table.

    Raises:
        ConfigError: ``path`` is a file, or a folder that already holds ``.parquet`` files.
    """
    rows.map_batches(_conform, batch_format="pyarrow").write_parquet(check_output_folder(path, "parquet"))


def write_jsonl(rows: Dataset, path: str | Path) -> None:
    """Write chunk rows as JSONL shards (``*.jsonl``) into the folder ``path``.

    Each line is the line ``docchunk chunk`` writes for that chunk: the same keys in
    the same order, ``meta`` as a JSON object.

    Raises:
        ConfigError: ``path`` is a file, or a folder that already holds ``.jsonl`` files.
    """
    datasource = require("ray.data.datasource", "ray", "docchunk.integrations.ray")
    base: Any = datasource.BlockBasedFileDatasink

    class JsonlDatasink(base):
        def __init__(self, folder: str):
            super().__init__(folder, file_format="jsonl")

        def write_block_to_file(self, block: Any, file: Any) -> None:
            lines = []
            for row in block.to_arrow().to_pylist():
                if isinstance(row.get("meta"), str):
                    row["meta"] = json.loads(row["meta"])
                lines.append(json_line(row))
            file.write("".join(lines).encode("utf-8"))

    rows.write_datasink(JsonlDatasink(check_output_folder(path, "jsonl")))
