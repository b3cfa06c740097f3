"""The LanceDB table of an index: its schema, the record of how it was built, writes and search.

An index is a folder (``--db DIR``) holding a LanceDB database with one table,
``chunks``, one row per chunk, and ``docchunk-index.json``, the record of the
embedding model (name and dimension) that every query must use. Needs the ``index``
extra (``pip install ".[index]"``: lancedb and pyarrow).

Every write is one LanceDB transaction that replaces the rows of the files it holds
(``merge_insert`` keyed by ``id``, deleting the files' rows that are not in it): a
process killed during a write leaves the table at its previous version, and a file's
rows are always all of one indexing of it.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict, cast

from docchunk._extras import require
from docchunk._index_layout import RECORD_NAME, TABLE_NAME
from docchunk.errors import ConfigError
from docchunk.index.fusion import CANDIDATES, RRF_K, hybrid_fusion

if TYPE_CHECKING:
    import numpy as np

    from docchunk.serialization.rows import Row

__all__ = ["CONTENT_ROLE", "FTS_COLUMN", "MODES", "RECORD_NAME", "RRF_K", "TABLE_NAME", "IndexRecord", "IndexStore",
           "SearchHit", "row_schema"]  # fmt: skip

RECORD_VERSION = 2
MODES = ("dense", "lexical", "hybrid")
"""The ranking modes of :meth:`IndexStore.search`: vectors, the full-text index, or both fused."""
FTS_COLUMN = "contextualized"
"""The column of the full-text index: the embedded string (headings, captions, text)."""
CONTENT_ROLE = "content"
"""The ``role`` of a chunk that no boilerplate rule marked (:mod:`docchunk.roles`)."""

_PURPOSE = "A docchunk index (LanceDB)"


class _RecordModel(TypedDict):
    model: str
    dimension: int


class IndexRecord(_RecordModel, total=False):
    """``docchunk-index.json``: the embedding model (name and dimension), the chunker's settings, the version."""

    version: int
    chunker: str
    table: str


def _pa() -> Any:
    return require("pyarrow", "index", _PURPOSE)


def row_schema(dimension: int) -> Any:
    """The Arrow schema of the ``chunks`` table for vectors of ``dimension`` floats.

    Columns: ``id`` (``source#chunk_index``, unique), ``vector`` (fixed-size list of
    ``dimension`` float32), ``text``, ``contextualized`` (the embedded string),
    ``source`` (the file's key: :func:`docchunk.index.build.source_key`), ``chunk_index``, ``headings``, ``captions``,
    ``page_numbers``, ``doc_items`` (refs such as ``#/texts/3``), ``table_rows``
    (``[start, end)`` of the table's rows, or null), ``token_count`` (tokens of the
    chunker's tokenizer), ``spans`` (``meta.spans`` as JSON, or null), ``meta`` (the
    whole DocMeta JSON, as ``docchunk chunk`` writes it), ``chunker`` (its settings),
    ``content_hash`` (SHA-256 of the file's bytes and the index settings), ``role``
    (``meta.role``, or ``"content"`` for a chunk no boilerplate rule marked).
    """
    pa = _pa()
    return pa.schema(
        [
            ("id", pa.string()), ("vector", pa.list_(pa.float32(), dimension)), ("text", pa.string()),
            ("contextualized", pa.string()), ("source", pa.string()), ("chunk_index", pa.int32()),
            ("headings", pa.list_(pa.string())), ("captions", pa.list_(pa.string())),
            ("page_numbers", pa.list_(pa.int32())), ("doc_items", pa.list_(pa.string())),
            ("table_rows", pa.list_(pa.int32())), ("token_count", pa.int32()), ("spans", pa.string()),
            ("meta", pa.string()), ("chunker", pa.string()), ("content_hash", pa.string()), ("role", pa.string()),
        ]
    )  # fmt: skip


@dataclass(frozen=True)
class SearchHit:
    """One search result.

    Attributes:
        score: Higher is closer. ``dense``: the cosine similarity of the query's and
            the chunk's vectors, in [-1, 1]; ``lexical``: the chunk's BM25 score
            (>= 0); ``hybrid``: the weighted reciprocal rank fusion score of the two
            rankings, ``1 / (60 + dense rank) + 1.5 / (60 + lexical rank)`` over the
            rankings that hold the chunk (rank 1-based;
            :func:`docchunk.index.fusion.hybrid_fusion`), at most ``2.5 / 61``.
        row: The chunk's table row without ``vector`` (see :func:`row_schema`).
    """

    score: float
    row: Row


def _sql_string(value: str) -> str:
    """``value`` as an SQL string literal (quotes doubled)."""
    return "'" + value.replace("'", "''") + "'"


class IndexStore:
    """A docchunk index folder: open it, write files' rows, look up hashes, search.

    Args:
        folder: The index folder (created on the first write).

    Raises:
        MissingDependencyError: lancedb or pyarrow is missing (``pip install ".[index]"``).
    """

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        self._lancedb = require("lancedb", "index", _PURPOSE)
        _pa()
        self._db: Any = None
        self._table: Any = None

    # -- the record ----------------------------------------------------------------------
    def record(self) -> IndexRecord | None:
        """The index's record (``model``, ``dimension``, ``chunker``), or None for a new folder.

        Raises:
            ConfigError: The folder is not a docchunk index (unreadable record).
        """
        path = self.folder / RECORD_NAME
        if not os.path.isfile(path):  # os.path: False for a name the system refuses, as for a missing file
            return None
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
            record["model"], record["dimension"]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ConfigError(
                f"--db {str(self.folder)!r}: {RECORD_NAME} is not a docchunk index record: {exc}"
            ) from exc
        return cast("IndexRecord", dict(record))

    def write_record(self, model: str, dimension: int, chunker: str) -> None:
        """Write the record atomically (a temporary file renamed over the old one).

        Raises:
            ConfigError: The index folder cannot be created (:meth:`make_folder`).
        """
        self.make_folder()
        data = {"version": RECORD_VERSION, "model": model, "dimension": dimension, "chunker": chunker,
                "table": TABLE_NAME}  # fmt: skip
        tmp = self.folder / f".{RECORD_NAME}.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        os.replace(tmp, self.folder / RECORD_NAME)

    # -- the table -----------------------------------------------------------------------
    def make_folder(self) -> None:
        """Create the index folder (and the folders above it) when missing.

        Raises:
            ConfigError: It cannot be created: a folder on its path is a file, or the
                system refuses (no such place, no permission, read-only); the message
                names the path and the reason.
        """
        if os.path.isdir(self.folder):  # os.path: False, not an OSError, for a name the system refuses
            return
        above = next((p for p in self.folder.parents if os.path.exists(p)), None)  # the nearest existing path above
        if os.path.exists(self.folder) or (above is not None and not os.path.isdir(above)):
            blocker = self.folder if self.folder.exists() else above
            raise ConfigError(
                f"--db {str(self.folder)!r}: cannot create the index folder there: {str(blocker)!r} is a file, not a "
                "folder; give --db a new or existing folder (e.g. my-index beside the documents)"
            )
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            where = f" ({exc.filename})" if exc.filename and str(exc.filename) != str(self.folder) else ""
            raise ConfigError(
                f"--db {str(self.folder)!r}: cannot create the index folder: {reason}{where}; give --db a folder "
                "in a place you can write (e.g. my-index in the working directory)"
            ) from exc

    def _connect(self) -> Any:
        if self._db is None:
            self.make_folder()  # lancedb creates it too, with a raw OSError when it cannot
            self._db = self._lancedb.connect(str(self.folder))
        return self._db

    def table(self, dimension: int | None = None) -> Any:
        """The ``chunks`` table; created for ``dimension`` when missing (None: only open it)."""
        if self._table is not None:
            return self._table
        db = self._connect()
        if TABLE_NAME in db.list_tables().tables:
            self._table = db.open_table(TABLE_NAME)
        elif dimension is not None:
            self._table = db.create_table(TABLE_NAME, schema=row_schema(dimension), exist_ok=True)
        return self._table

    def hashes(self) -> dict[str, str]:
        """``source -> content_hash`` of every file in the table (empty for a new index)."""
        table = self.table()
        if table is None:
            return {}
        data = table.search().select(["source", "content_hash"]).limit(None).to_arrow()
        return dict(zip(data.column("source").to_pylist(), data.column("content_hash").to_pylist(), strict=True))

    def rows_of(self, source: str) -> list[Row]:
        """Every row of the file ``source``, ``vector`` included (``role`` ``"content"`` where the table has none)."""
        table = self.table()
        if table is None:
            return []
        rows = table.search().where(f"source = {_sql_string(source)}").limit(None).to_arrow().to_pylist()
        for row in rows:
            row.setdefault("role", CONTENT_ROLE)
        return cast("list[Row]", rows)

    def count_rows(self) -> int:
        """Rows (chunks) in the table; 0 without one."""
        table = self.table()
        return 0 if table is None else int(table.count_rows())

    def replace_files(self, sources: list[str], rows: list[Row], dimension: int) -> None:
        """Make ``rows`` the rows of ``sources``, in one transaction.

        Rows of ``sources`` already in the table and absent from ``rows`` are deleted,
        the others updated or inserted: after it, each of ``sources`` has exactly its
        rows in ``rows``. A process killed meanwhile leaves the table as it was.
        """
        pa = _pa()
        table = self.table(dimension)
        self._add_role_column()
        data = pa.Table.from_pylist(rows, schema=row_schema(dimension))
        condition = f"source IN ({', '.join(_sql_string(s) for s in sources)})"
        (
            table.merge_insert("id")
            .when_matched_update_all()
            .when_not_matched_insert_all()
            .when_not_matched_by_source_delete(condition)
            .execute(data)
        )

    def optimize(self) -> None:
        """Compact the table's small fragments (one per write) and drop old versions."""
        table = self.table()
        if table is not None:
            import warnings
            from datetime import timedelta

            with warnings.catch_warnings():  # lancedb warns that readers of older versions fail: none here
                warnings.simplefilter("ignore", UserWarning)
                table.optimize(cleanup_older_than=timedelta(seconds=0))

    def has_role(self) -> bool:
        """Whether the table has the ``role`` column (indexes built before it do not)."""
        table = self.table()
        return table is not None and "role" in table.schema.names

    def _add_role_column(self) -> None:
        """Give a table built before the ``role`` column one, ``"content"`` on every row (re-index to mark)."""
        table = self.table()
        if table is not None and not self.has_role():
            table.add_columns({"role": f"CAST({_sql_string(CONTENT_ROLE)} AS STRING)"})

    def has_fts(self) -> bool:
        """Whether the table has its full-text index over :data:`FTS_COLUMN`."""
        table = self.table()
        return table is not None and any(
            index.index_type == "FTS" and list(index.columns) == [FTS_COLUMN] for index in table.list_indices()
        )

    def ensure_fts(self) -> bool:
        """Build the full-text index over :data:`FTS_COLUMN` when it is missing; True when it built it.

        LanceDB's native full-text index (BM25; English stemming, stop words removed,
        lower case, ASCII folding), built offline. Rows written after it are indexed by
        :meth:`optimize`; until then, searches read them unindexed.
        """
        table = self.table()
        if table is None or self.has_fts():
            return False
        from lancedb.index import FTS

        table.create_index(FTS_COLUMN, config=FTS(), replace=True)
        return True

    def search(self, vector: np.ndarray | None, k: int, mode: str = "dense", text: str | None = None,
               roles: tuple[str, ...] | None = (CONTENT_ROLE,)) -> list[SearchHit]:  # fmt: skip
        """The ``k`` rows best ranked for the query, best first.

        Args:
            vector: The query's embedding (``dense``, ``hybrid``); None for ``lexical``.
            k: How many rows; >= 1.
            mode: ``dense`` (cosine distance of the vectors), ``lexical`` (BM25 over the
                full-text index of :data:`FTS_COLUMN`) or ``hybrid`` (the top
                ``max(k, CANDIDATES)`` of each, fused by weighted reciprocal rank:
                :func:`docchunk.index.fusion.hybrid_fusion`).
            text: The query's text (``lexical``, ``hybrid``).
            roles: Rank only the rows of these ``role`` s (default: content, leaving out
                the boilerplate the rules of :mod:`docchunk.roles` marked); None: all rows.
                An index without the ``role`` column ranks all its rows.

        Raises:
            ConfigError: The folder holds no index table, an unknown ``mode``, or a mode
                without its query (``vector`` or ``text``).
        """
        table = self.table()
        if table is None:
            raise ConfigError(
                f"{str(self.folder)!r} holds no docchunk index; build one with: docchunk index PATH --db DIR"
            )
        if mode not in MODES:
            raise ConfigError(f"mode={mode!r} is not a ranking mode; choose one of {', '.join(MODES)}")
        if mode != "lexical" and vector is None:
            raise ConfigError(f"mode={mode!r} ranks by vector: give the query's vector")
        if mode != "dense" and not text:
            raise ConfigError(f"mode={mode!r} ranks by words: give the query's text, got {text!r}")
        if mode != "dense":
            self.ensure_fts()  # an index built before the full-text index: build it on the first search
        names = set(table.schema.names)  # one schema read: each costs a round trip to LanceDB's loop
        columns = [name for name in row_schema(1).names if name != "vector" and name in names]
        where = None
        if roles is not None and "role" in names:
            where = f"role IN ({', '.join(_sql_string(r) for r in roles)})"

        limit = k if mode != "hybrid" else max(k, CANDIDATES)

        def ranked(query: Any, score: str) -> list[tuple[Row, float]]:
            if where is not None:
                query = query.where(where, prefilter=True)
            found = query.select([*columns, score]).limit(limit).to_list()
            return [(row, float(row.pop(score))) for row in found]

        def dense() -> list[tuple[Row, float]]:
            return ranked(table.search(vector).distance_type("cosine"), "_distance")

        def lexical() -> list[tuple[Row, float]]:
            return ranked(table.search(text, query_type="fts", fts_columns=FTS_COLUMN), "_score")

        if mode == "dense":
            return [SearchHit(score=1.0 - distance, row=row) for row, distance in dense()]
        if mode == "lexical":
            return [SearchHit(score=score, row=row) for row, score in lexical()]
        by_vector, by_words = dense(), lexical()
        rows = {row["id"]: row for row, _ in by_words + by_vector}
        fused = hybrid_fusion([row["id"] for row, _ in by_vector], [row["id"] for row, _ in by_words])
        return [SearchHit(score=score, row=rows[i]) for i, score in fused[:k]]
