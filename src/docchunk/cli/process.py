"""What the ``docchunk`` process owns: one-line errors and a start-up without garbage collection.

Shared by the commands (:mod:`docchunk.cli.chunk` and the others) and the entry
point (:func:`docchunk.cli.main.run`, which calls :func:`own_process`).
"""

from __future__ import annotations

import gc
import logging
import os
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

__all__ = ["captured_library_logs", "error", "own_process", "report_skipped", "startup"]

_STATE = {"own": False}  # set by run(): docchunk is the program, not a library of another one


def own_process() -> None:
    """Say that docchunk owns this process (the console script): start-up may then freeze its objects."""
    _STATE["own"] = True


@contextmanager
def startup() -> Iterator[None]:
    """Import and build without garbage collection, then freeze what start-up made (own process only).

    Importing docling-core creates some 100k long-lived objects, and the collector
    walks them again and again meanwhile and later, while chunking: without it the
    start-up is about 0.2 s shorter, and later collections skip those objects. A
    program that calls :func:`docchunk.cli.main.main` keeps its own collector settings.
    """
    if not _STATE["own"] or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


def error(message: str) -> None:
    """Print ``docchunk: error: MESSAGE`` on stderr."""
    click.echo(f"docchunk: error: {message}", err=True)


SKIPPED_SHOWN = 5
"""How many skipped files :func:`report_skipped` names (the rest are counted)."""


def report_skipped(skipped: Sequence[Path], reason: Callable[[Path], str]) -> None:
    """One line on stderr naming the files of the input folders that were skipped, and why.

    ``docchunk: skipped 2 file(s) in the input folders: docs/a.txt (plain text: ...); docs/b.png (...)``;
    the first :data:`SKIPPED_SHOWN` are named, the rest counted. Nothing when none was skipped.
    """
    if not skipped:
        return
    named = "; ".join(f"{path} ({reason(path)})" for path in skipped[:SKIPPED_SHOWN])
    more = f"; and {len(skipped) - SKIPPED_SHOWN} more" if len(skipped) > SKIPPED_SHOWN else ""
    click.echo(f"docchunk: skipped {len(skipped)} file(s) in the input folders: {named}{more}", err=True)


LIBRARY_LOGGERS = ("docling", "docling_core", "docling_ibm_models", "docling_parse")
"""The loggers whose records the command captures: docling's converters warn through them."""


class _Collected(logging.Handler):
    """Keeps the records of the library loggers (warnings and worse), to count or show them."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


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


def _library_warnings_to_logs(shown: Callable[..., None]) -> Callable[..., None]:
    """A ``warnings.showwarning`` that logs the libraries' warnings to their loggers and shows the rest with ``shown``.

    docling warns through :func:`warnings.warn` too (a ragged CSV's "Inconsistent column
    lengths"): such a warning becomes a WARNING record of the logger named after its
    module (``docling.backend.csv_backend: UserWarning: ...``), counted or shown with the
    log records; a warning of any other code (docchunk's own, the user's) is shown as before.
    So is one raised in a forked ``--workers`` process: its count would never reach this
    process, and a warning is not to vanish.
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


@contextmanager
def captured_library_logs(debug: bool) -> Iterator[None]:
    """Catch docling's log records and Python warnings for the run; show them with ``debug``, else count them.

    Without ``debug`` the records (WARNING and above) go nowhere but a counter, and
    at the end one line says how many there were and that ``--debug`` shows them;
    with ``debug``, each is printed on stderr as ``docling: LEVEL: logger: message``
    when it happens. A :func:`warnings.warn` raised in a library's module is such a
    record too (``docling: WARNING: docling.backend.csv_backend: UserWarning: ...``),
    shown under the warnings filters as before (once per place by default). The
    loggers' own settings and ``warnings.showwarning`` come back afterwards.
    """
    loggers = [logging.getLogger(name) for name in LIBRARY_LOGGERS]
    saved = [(lg, lg.propagate, list(lg.handlers)) for lg in loggers]
    saved_show = warnings.showwarning
    warnings.showwarning = _library_warnings_to_logs(saved_show)
    collected = _Collected()
    if debug:
        shown = logging.StreamHandler(sys.stderr)
        shown.setFormatter(logging.Formatter("docling: %(levelname)s: %(name)s: %(message)s"))
        handler: logging.Handler = shown
    else:
        handler = collected
    for lg in loggers:
        lg.propagate = False
        lg.handlers = [handler]
    try:
        yield
    finally:
        warnings.showwarning = saved_show
        for lg, propagate, handlers in saved:
            lg.propagate, lg.handlers = propagate, handlers
        if collected.records:
            sources = sorted({r.name.split(".")[0] for r in collected.records})
            click.echo(
                f"docchunk: {len(collected.records)} warning(s) from {', '.join(sources)} while converting; "
                "--debug shows them",
                err=True,
            )
