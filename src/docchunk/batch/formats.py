"""The output formats of ``docchunk chunk``: one table, read by the CLI, the local engine and the Ray engine.

Each :class:`OutputFormat` names its writer for one file (the local engine), its
writer of a folder of shards (the Ray engine; None when Ray cannot write it), its
schema, and what it needs. Adding a format is one entry of :data:`FORMATS` (and its
writers): ``--format`` offers it, ``-o`` checks follow its fields, both engines use it.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol

from docchunk._extras import extra_install
from docchunk.errors import BatchSetupError

if TYPE_CHECKING:
    from docchunk.serialization.rows import Row

__all__ = ["DEFAULT_FORMAT", "FORMATS", "OutputFormat", "RowSink", "output_format"]


class RowSink(Protocol):
    """Writes one output's rows in one format: :meth:`write` per input, then :meth:`close` once."""

    def write(self, rows: list[Row]) -> None:
        """Write the rows of one input (never empty)."""
        ...

    def close(self) -> None:
        """Finish the output (flush, write the file's footer); the sink is not used after."""
        ...


@dataclass(frozen=True)
class OutputFormat:
    """One output format of ``docchunk chunk``.

    Attributes:
        name: The ``--format`` value, also the suffix of the Ray engine's shards.
        schema: What a row is in this format (the ``--format`` help says it).
        open: The local writer: ``open(path)`` a sink writing the file ``path``, or,
            with ``path=None``, standard output (only when ``to_stdout``).
        to_stdout: Whether it can be written to standard output (text formats), and
            if not, why (said when ``-o`` is missing).
        needs: The package it needs and the docchunk extra that installs it, or None.
        ray_write: The Ray engine's writer, ``(dataset, folder) -> None``, or None when
            Ray cannot write the format.
    """

    name: str
    schema: str
    open: Callable[[Path | None], RowSink]
    to_stdout: bool | str
    needs: tuple[str, str] | None = None
    ray_write: Callable[[Any, Path], None] | None = None

    def check(self, output: Path | None) -> None:
        """Refuse standard output for a binary format, or a missing package, before anything is chunked.

        Raises:
            BatchSetupError: Saying what to give or install.
        """
        if output is None and self.to_stdout is not True:
            raise BatchSetupError(f"--format {self.name} needs -o FILE: {self.to_stdout}")
        if self.needs is not None and importlib.util.find_spec(self.needs[0]) is None:
            package, extra = self.needs
            raise BatchSetupError(f"--format {self.name} needs the package {package!r}; install it with: "
                                  f"{extra_install(extra)}")  # fmt: skip


class JsonlSink:
    """JSON Lines: one object per line, the fields of :data:`docchunk.serialization.rows.ROW_FIELDS`, valid UTF-8."""

    def __init__(self, path: Path | None):
        import sys

        self._handle: IO[str] = sys.stdout if path is None else path.open("w", encoding="utf-8")
        self._own = path is not None

    def write(self, rows: list[Row]) -> None:
        from docchunk.serialization.rows import json_line

        self._handle.writelines(json_line(row) for row in rows)
        self._handle.flush()

    def close(self) -> None:
        if self._own:
            self._handle.close()


class ParquetSink:
    """Parquet: :func:`docchunk.serialization.rows.arrow_schema`, ``meta`` as a JSON string (as the Ray shards)."""

    def __init__(self, path: Path | None):
        assert path is not None  # OutputFormat.check refused stdout
        self._path = path
        self._writer: Any = None  # a pyarrow.parquet.ParquetWriter (pyarrow is optional and untyped)
        self._schema: Any = None  # its pyarrow.Schema

    def write(self, rows: list[Row]) -> None:
        from docchunk._extras import require
        from docchunk.serialization.rows import arrow_schema

        pa = require("pyarrow", "parquet", "--format parquet")
        pq = require("pyarrow.parquet", "parquet", "--format parquet")
        table_rows = [{**row, "meta": json.dumps(row["meta"], ensure_ascii=False)} for row in rows]
        if self._writer is None:
            self._schema = arrow_schema(list(rows[0]))
            self._writer = pq.ParquetWriter(str(self._path), self._schema)
        self._writer.write_table(pa.Table.from_pylist(table_rows, schema=self._schema))

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()


def _ray_jsonl(rows: Any, folder: Path) -> None:
    from docchunk.integrations.ray import write_jsonl

    write_jsonl(rows, folder)


def _ray_parquet(rows: Any, folder: Path) -> None:
    from docchunk.integrations.ray import write_parquet

    write_parquet(rows, folder)


FORMATS: dict[str, OutputFormat] = {
    f.name: f
    for f in (
        OutputFormat("jsonl", "JSON Lines", JsonlSink, to_stdout=True, ray_write=_ray_jsonl),
        OutputFormat("parquet", "Parquet (needs -o; the JSONL fields as columns, meta as JSON)", ParquetSink,
                     to_stdout="Parquet is a binary file, not written to stdout", needs=("pyarrow", "parquet"),
                     ray_write=_ray_parquet),
    )
}  # fmt: skip
"""The output formats by ``--format`` name, the default first."""

DEFAULT_FORMAT = next(iter(FORMATS))


def output_format(name: str) -> OutputFormat:
    """The entry of :data:`FORMATS` named ``name``.

    Raises:
        BatchSetupError: No such format; the message lists them.
    """
    try:
        return FORMATS[name]
    except KeyError:
        raise BatchSetupError(f"unknown output format {name!r}; use one of {', '.join(FORMATS)}") from None
