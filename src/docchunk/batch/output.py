"""Where a batch run (``docchunk chunk``) writes its rows: stdout or a file, in a :mod:`~docchunk.batch.formats` format.

A file is written under a temporary name in its own folder and renamed to the
output's name only when the run wrote at least one chunk, so a failed run never
leaves an empty or partial file behind (nor replaces an older output with one).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from docchunk.batch.formats import DEFAULT_FORMAT, RowSink, output_format
from docchunk.errors import BatchSetupError

if TYPE_CHECKING:
    from docchunk.serialization.rows import Row

__all__ = ["RowWriter", "open_rows"]


class RowWriter:
    """Writes rows (dicts with :data:`docchunk.serialization.rows.ROW_FIELDS`, ...) in an output format.

    Args:
        output: The file to write, or None for stdout (a format that can be written there).
        fmt: A name of :data:`docchunk.batch.formats.FORMATS` (``"jsonl"``, ``"parquet"``:
            the schema of :func:`docchunk.serialization.rows.arrow_schema`, ``meta`` as a
            JSON string, as ``--engine ray`` writes its shards).

    Raises:
        BatchSetupError: The temporary file cannot be made next to ``output``; an unknown ``fmt``.
    """

    def __init__(self, output: Path | None, fmt: str = DEFAULT_FORMAT):
        self.output = output
        self.format = output_format(fmt)
        self.count = 0
        self._temp: Path | None = None
        if output is not None:
            try:
                fd, name = tempfile.mkstemp(dir=output.parent if str(output.parent) else ".",
                                            prefix=f".{output.name}.", suffix=".part")  # fmt: skip
            except OSError as exc:
                raise BatchSetupError(f"cannot write {output}: {exc.strerror or exc}") from exc
            self._temp = Path(name)
            _chmod_as_new_file(fd)
            os.close(fd)
        self._sink: RowSink = self.format.open(self._temp)

    def write(self, rows: list[Row]) -> None:
        """Write the rows of one input."""
        if rows:
            self._sink.write(rows)
            self.count += len(rows)

    def close(self, keep: bool) -> None:
        """Finish: with ``keep`` (some chunk was written), the file takes the output's name; else it is removed."""
        self._sink.close()
        if self._temp is None:
            return
        if keep and self.count:
            assert self.output is not None
            os.replace(self._temp, self.output)
        else:
            self._temp.unlink(missing_ok=True)
        self._temp = None


def open_rows(output: Path | None, fmt: str) -> RowWriter:
    """A :class:`RowWriter` for ``-o`` (None: stdout), after the format's checks (:meth:`OutputFormat.check`).

    Raises:
        BatchSetupError: See :meth:`docchunk.batch.formats.OutputFormat.check` and :class:`RowWriter`.
    """
    output_format(fmt).check(output)
    return RowWriter(output, fmt)


def _chmod_as_new_file(fd: int) -> None:
    """Give the temporary file the mode a new file gets (mkstemp makes it private to the user)."""
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.fchmod(fd, 0o666 & ~umask)
    except (AttributeError, OSError):  # pragma: no cover - no fchmod (Windows)
        pass
