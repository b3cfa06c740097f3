"""Where a batch run (``docchunk chunk``) writes its rows: JSON Lines to stdout or a file, or a Parquet file.

A file is written under a temporary name in its own folder and renamed to the
output's name only when the run wrote at least one chunk, so a failed run never
leaves an empty or partial file behind (nor replaces an older output with one).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from docchunk.errors import BatchSetupError

if TYPE_CHECKING:
    from docchunk.serialization.rows import Row

__all__ = ["RowWriter", "check_parquet", "open_rows"]


class RowWriter:
    """Writes rows (dicts with :data:`docchunk.serialization.rows.ROW_FIELDS`, ...) as JSONL or Parquet.

    Args:
        output: The file to write, or None for stdout (JSONL only).
        fmt: ``"jsonl"`` or ``"parquet"`` (the schema of
            :func:`docchunk.serialization.rows.arrow_schema`, ``meta`` as a JSON
            string, as ``--engine ray`` writes its shards).

    Raises:
        BatchSetupError: The temporary file cannot be made next to ``output``.
    """

    def __init__(self, output: Path | None, fmt: str = "jsonl"):
        self.output = output
        self.fmt = fmt
        self.count = 0
        self._temp: Path | None = None
        self._handle: IO[str] | None = None
        self._parquet: Any = None  # a pyarrow.parquet.ParquetWriter (pyarrow is optional and untyped)
        self._schema: Any = None  # its pyarrow.Schema
        if output is None:
            self._handle = sys.stdout
            return
        try:
            fd, name = tempfile.mkstemp(dir=output.parent if str(output.parent) else ".", prefix=f".{output.name}.",
                                        suffix=".part")  # fmt: skip
        except OSError as exc:
            raise BatchSetupError(f"cannot write {output}: {exc.strerror or exc}") from exc
        self._temp = Path(name)
        _chmod_as_new_file(fd)
        if fmt == "jsonl":  # every line is valid UTF-8 (serialization.rows.json_line)
            self._handle = os.fdopen(fd, "w", encoding="utf-8")
        else:
            os.close(fd)

    def write(self, rows: list[Row]) -> None:
        """Write the rows of one input."""
        if not rows:
            return
        if self.fmt == "parquet":
            self._write_parquet(rows)
        else:
            from docchunk.serialization.rows import json_line

            assert self._handle is not None
            self._handle.writelines(json_line(row) for row in rows)
            self._handle.flush()
        self.count += len(rows)

    def _write_parquet(self, rows: list[Row]) -> None:
        from docchunk._extras import require
        from docchunk.serialization.rows import arrow_schema

        pa = require("pyarrow", "parquet", "--format parquet")
        pq = require("pyarrow.parquet", "parquet", "--format parquet")
        table_rows = [{**row, "meta": json.dumps(row["meta"], ensure_ascii=False)} for row in rows]
        if self._parquet is None:
            self._schema = arrow_schema(list(rows[0]))
            self._parquet = pq.ParquetWriter(str(self._temp), self._schema)
        self._parquet.write_table(pa.Table.from_pylist(table_rows, schema=self._schema))

    def close(self, keep: bool) -> None:
        """Finish: with ``keep`` (some chunk was written), the file takes the output's name; else it is removed."""
        if self._handle is not None and self._handle is not sys.stdout:
            self._handle.close()
        if self._parquet is not None:
            self._parquet.close()
        if self._temp is None:
            return
        if keep and self.count:
            assert self.output is not None
            os.replace(self._temp, self.output)
        else:
            self._temp.unlink(missing_ok=True)
        self._temp = None


def open_rows(output: Path | None, fmt: str) -> RowWriter:
    """A :class:`RowWriter` for ``-o`` (None: stdout); ``--format parquet`` needs a file and pyarrow.

    Raises:
        BatchSetupError: See :func:`check_parquet` and :class:`RowWriter`.
    """
    if fmt == "parquet":
        check_parquet(output)
    return RowWriter(output, fmt)


def check_parquet(output: Path | None) -> None:
    """Refuse ``--format parquet`` to stdout, or without pyarrow, before anything is chunked.

    Raises:
        BatchSetupError: Saying what to give or install.
    """
    import importlib.util

    from docchunk._extras import extra_install

    if output is None:
        raise BatchSetupError("--format parquet needs -o FILE: Parquet is a binary file, not written to stdout")
    if importlib.util.find_spec("pyarrow") is None:
        raise BatchSetupError(
            f"--format parquet needs the package 'pyarrow'; install it with: {extra_install('parquet')}"
        )


def _chmod_as_new_file(fd: int) -> None:
    """Give the temporary file the mode a new file gets (mkstemp makes it private to the user)."""
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.fchmod(fd, 0o666 & ~umask)
    except (AttributeError, OSError):  # pragma: no cover - no fchmod (Windows)
        pass
