"""What the ``docchunk`` process owns: one-line errors and a start-up without garbage collection.

Shared by the commands (:mod:`docchunk.cli.chunk` and the others) and the entry
point (:func:`docchunk.cli.main.run`, which calls :func:`own_process`).
"""

from __future__ import annotations

import gc
import logging
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

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


@contextmanager
def captured_library_logs(debug: bool) -> Iterator[None]:
    """Catch docling's log records and Python warnings for the run; show them with ``debug``, else count them.

    Without ``debug`` the records (WARNING and above) go nowhere but a counter, and
    at the end one line says how many there were and that ``--debug`` shows them;
    with ``debug``, each is printed on stderr as ``docling: LEVEL: logger: message``
    when it happens. A :func:`warnings.warn` raised in a library's module is such a
    record too (``docling: WARNING: docling.backend.csv_backend: UserWarning: ...``),
    shown under the warnings filters as before (once per place by default). The
    records of a ``--workers`` process come back with its input's rows and are counted
    or shown here alike (:mod:`docchunk.batch.library_logs`). The loggers' own
    settings and ``warnings.showwarning`` come back afterwards.
    """
    from docchunk.batch.library_logs import KeptRecords, routed_to

    collected = KeptRecords()
    if debug:
        shown = logging.StreamHandler(sys.stderr)
        shown.setFormatter(logging.Formatter("docling: %(levelname)s: %(name)s: %(message)s"))
        handler: logging.Handler = shown
    else:
        handler = collected
    try:
        with routed_to(handler):
            yield
    finally:
        if collected.records:
            sources = sorted({r.name.split(".")[0] for r in collected.records})
            click.echo(
                f"docchunk: {len(collected.records)} warning(s) from {', '.join(sources)} while converting; "
                "--debug shows them",
                err=True,
            )
