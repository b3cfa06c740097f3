"""The warnings of the libraries that convert documents (docling), as log records: caught, counted, carried.

docling warns through its loggers and through :func:`warnings.warn`. The command
(:func:`docchunk.cli.process.captured_library_logs`) catches both for the run and prints
one line that counts them (or shows each with ``--debug``). A worker process of the
local engine (``--workers N``) catches its own for each input with
:func:`captured_records` and sends them back with the input's rows; the main process
hands them to its loggers (:func:`replay`), so that they are counted or shown there, as
when the input is chunked in the main process.
"""

from __future__ import annotations

import logging
import os
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = ["LIBRARY_LOGGERS", "KeptRecords", "captured_records", "library_warnings_to_logs", "replay", "routed_to"]

LIBRARY_LOGGERS = ("docling", "docling_core", "docling_ibm_models", "docling_parse")
"""The loggers whose records the command captures: docling's converters warn through them."""


def _library_module(filename: str) -> str | None:
    """The dotted name of the module of a library of :data:`LIBRARY_LOGGERS` that ``filename`` is, else None.

    Only libraries already imported can be the source of a warning, so the packages'
    folders are read from :data:`sys.modules` (no import, no guess from the path's words).
    """
    path = Path(filename).resolve()
    for name in LIBRARY_LOGGERS:
        package = sys.modules.get(name)
        for folder in getattr(package, "__path__", None) or []:
            root = Path(folder).resolve()
            if path.is_relative_to(root):
                return ".".join([name, *path.relative_to(root).with_suffix("").parts])
    return None


def library_warnings_to_logs(shown: Callable[..., None]) -> Callable[..., None]:
    """A ``warnings.showwarning`` that logs the libraries' warnings to their loggers and shows the rest with ``shown``.

    docling warns through :func:`warnings.warn` too (a ragged CSV's "Inconsistent column
    lengths"): such a warning becomes a WARNING record of the logger named after its
    module (``docling.backend.csv_backend: UserWarning: ...``), counted or shown with the
    log records; a warning of any other code (docchunk's own, the user's) is shown as before.
    So is a library's warning in another process forked from this one (a worker process
    installs its own, :func:`captured_records`): a record there would never reach this
    process's count.
    """
    pid = os.getpid()

    def show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
             file: Any = None, line: str | None = None) -> None:  # fmt: skip
        module = _library_module(filename) if os.getpid() == pid else None
        if module is None:
            shown(message, category, filename, lineno, file, line)
        else:
            logging.getLogger(module).warning("%s: %s", category.__name__, message)

    return show


class KeptRecords(logging.Handler):
    """A handler that keeps the records it is given (WARNING and above) in ``records``, to count or send them."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Keep ``record``."""
        self.records.append(record)


@contextmanager
def routed_to(handler: logging.Handler) -> Iterator[None]:
    """While it runs, the records of :data:`LIBRARY_LOGGERS` and the libraries' warnings go to ``handler`` alone.

    The loggers stop propagating and have ``handler`` as their only handler, and
    ``warnings.showwarning`` turns a library's warning into a record
    (:func:`library_warnings_to_logs`); on exit the loggers' settings and
    ``warnings.showwarning`` are as before.
    """
    loggers = [logging.getLogger(name) for name in LIBRARY_LOGGERS]
    saved = [(lg, lg.propagate, list(lg.handlers)) for lg in loggers]
    saved_show = warnings.showwarning
    warnings.showwarning = library_warnings_to_logs(saved_show)
    for lg in loggers:
        lg.propagate = False
        lg.handlers = [handler]
    try:
        yield
    finally:
        warnings.showwarning = saved_show
        for lg, propagate, handlers in saved:
            lg.propagate, lg.handlers = propagate, handlers


@contextmanager
def captured_records() -> Iterator[list[logging.LogRecord]]:
    """The records of :data:`LIBRARY_LOGGERS` (WARNING and above) and the libraries' warnings, kept while it runs.

    Yields the list the records are added to; on exit, the loggers and
    ``warnings.showwarning`` are as before (:func:`routed_to`), and each record is made
    picklable (its message formatted, an exception's traceback turned into text) for the
    trip back from a worker process. A library warning is a record as in
    :func:`library_warnings_to_logs`; it is shown under the warnings filters of this
    process (once per place by default).
    """
    handler = KeptRecords()
    records = handler.records
    try:
        with routed_to(handler):
            yield records
    finally:
        for record in records:
            record.msg, record.args = record.getMessage(), None
            if record.exc_info:
                record.exc_text = record.exc_text or logging.Formatter().formatException(record.exc_info)
                record.exc_info = None


def replay(records: Iterable[logging.LogRecord]) -> None:
    """Hand records caught elsewhere (:func:`captured_records` in a worker) to this process's loggers, in order."""
    for record in records:
        logging.getLogger(record.name).handle(record)
