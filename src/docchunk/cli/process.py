"""What the ``docchunk`` process owns: one-line errors and a start-up without garbage collection.

Shared by the commands (:mod:`docchunk.cli.chunk` and the others) and the entry
point (:func:`docchunk.cli.main.run`, which calls :func:`own_process`).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

import click

__all__ = ["error", "own_process", "startup"]

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
