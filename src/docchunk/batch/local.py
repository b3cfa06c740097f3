"""The local engine (``docchunk chunk --engine local``): chunk inputs here or in worker processes, write rows.

Each input (a file, or the bytes of standard input) gives its rows or one problem
line; a bad input never stops the others. With ``workers`` N > 1 the inputs are
chunked by local processes and come back in input order, so the output is the same
as with one. A hook (``each``) sees each input's rows in the main process before
they are written: the CLI's ``--embed`` (:class:`docchunk.cli.embed.RowEmbedder`)
and its model-limit check run there.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docchunk.batch.library_logs import captured_records, replay

if TYPE_CHECKING:
    from typing import TypeAlias

    from docling_core.transforms.chunker.base import BaseChunker

    from docchunk.batch.text import TextChunking
    from docchunk.serialization.rows import Row

    Chunker: TypeAlias = BaseChunker | TextChunking
    """What the local engine runs: a document chunker, or a text chunker with its refineries."""

__all__ = ["STDIN", "Input", "collect_inputs", "run_local", "skip_reason"]

STDIN = "<stdin>"
"""The ``source`` of the rows of ``-`` (standard input)."""

Input = Path | bytes
"""One input: a file, or the bytes read from standard input (``-``)."""


Rows = list["Row"]
"""The rows of one input (:func:`docchunk.batch.rows.chunk_rows`, :func:`docchunk.batch.rows.text_rows`)."""


def collect_inputs(paths: tuple[Path, ...], is_text: bool) -> tuple[list[Input], list[str], list[Path]]:
    """The inputs to chunk, one problem per folder that holds none (nothing to chunk is an error), the files skipped.

    ``"-"`` reads standard input's bytes now; a folder gives its supported files,
    sorted (with ``is_text``, also :data:`docchunk.batch.text.TEXT_SUFFIXES` files);
    its other files (hidden ones aside) are the skipped ones, for the command to name
    (:func:`skip_reason` says why each was).
    """
    from docchunk.batch.text import TEXT_SUFFIXES

    inputs: list[Input] = []
    empty: list[str] = []
    skipped: list[Path] = []
    for path in paths:
        if str(path) == "-":
            inputs.append(sys.stdin.buffer.read())
            continue
        if not path.is_dir():
            inputs.append(path)
            continue
        from docchunk.loading import SUPPORTED_SUFFIXES, folder_files  # a folder: the loader is needed anyway

        suffixes = (*SUPPORTED_SUFFIXES, *(TEXT_SUFFIXES if is_text else ()))
        found, left = folder_files(path, suffixes)
        if not found:
            empty.append(f"{path}: nothing to chunk: the folder holds no supported file ({', '.join(suffixes)})")
        inputs.extend(found)
        skipped.extend(left)
    return inputs, empty, skipped


def skip_reason(path: Path, text_chunkers: bool = True) -> str:
    """Why a file in a folder was skipped: a text file (read by the text chunkers only), or an unknown format.

    Args:
        path: The skipped file.
        text_chunkers: Whether the command can take a text chunker (``chunk`` can, ``index``
            cannot), so that the hint names only what the user can run.
    """
    from docchunk.batch.text import TEXT_SUFFIXES

    if path.suffix.lower() in TEXT_SUFFIXES:
        if text_chunkers:
            return "plain text, read only by a text chunker: --chunker recursive, token, sentence ..."
        return (
            "plain text: the index takes documents only (save it as Markdown, .md, to index it; "
            "docchunk chunk --chunker recursive chunks it as text)"
        )
    return f"{path.suffix or 'no suffix'}: not a format docchunk reads"


def _no_phase(name: str) -> None:
    """The phase callback when no progress is drawn."""


def _results(
    inputs: list[Input], chunker: Chunker, workers: int, debug: bool, worker_chunker: Callable[[], Chunker],
    phase: Callable[[str], None] = _no_phase,
) -> Iterator[tuple[Rows, str | None]]:
    """``(rows, problem)`` per input, in input order; ``workers`` > 1 uses local processes.

    In this process, ``phase("load")`` and ``phase("chunk")`` are called as each input enters them.
    """
    if workers <= 1 or len(inputs) < 2:
        for item in inputs:
            yield _rows_or_problem(chunker, item, debug, phase)
        return
    from concurrent.futures import ProcessPoolExecutor

    global _WORKER_CHUNKER
    _WORKER_CHUNKER = chunker  # forked workers inherit it; spawned ones build their own
    try:
        with ProcessPoolExecutor(max_workers=workers, initializer=_worker_init,
                                 initargs=(workers, debug, worker_chunker)) as pool:  # fmt: skip
            # small batches: the last documents spread over the workers too
            for rows, problem, records in pool.map(
                _worker_chunk, inputs, chunksize=max(1, min(8, len(inputs) // (workers * 32)))
            ):
                replay(records)  # the worker's library warnings, counted or shown here as in one process
                yield rows, problem
    finally:
        _WORKER_CHUNKER = None


def _chunk_rows(chunker: Chunker, item: Input, phase: Callable[[str], None] = _no_phase) -> Rows:
    """The rows of one input: a document's chunks, or a text's (:class:`docchunk.batch.text.TextChunking`)."""
    from docchunk.batch.rows import chunk_rows, text_rows
    from docchunk.batch.text import TextChunking, decode_text, read_text

    source = STDIN if isinstance(item, bytes) else str(item)
    phase("load")
    if isinstance(chunker, TextChunking):
        text = decode_text(item, STDIN) if isinstance(item, bytes) else read_text(item)
        phase("chunk")
        return text_rows(chunker.chunk(text), source, chunker.tokenizer)
    from docchunk.loading import load_document

    doc = _stdin_document(item) if isinstance(item, bytes) else load_document(item)
    phase("chunk")
    return chunk_rows(chunker, source, doc)


def _stdin_document(data: bytes) -> Any:
    """The DoclingDocument JSON read from standard input.

    Raises:
        DocumentError: It is not JSON: plain text gets the advice a ``.txt`` file gets (a
            text chunker); JSON that is no DoclingDocument says what is wrong with it.
    """
    from docchunk.errors import DocumentError
    from docchunk.loading import load_document

    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if head and head not in b"{[":
        start = data.strip()[:20].decode("utf-8", "replace").lstrip("\ufeff")
        raise DocumentError(
            f"{STDIN}: not DoclingDocument JSON (it starts with {start!r}); plain text is read by a text "
            "chunker: docchunk chunk - --chunker recursive, token or sentence"
        )
    return load_document(data, format="json")


_WORKER_CHUNKER: Any = None  # the Chunker of this worker process, set by _worker_init
_WORKER_DEBUG = False  # --debug: a failed input stops the run with its traceback, as with one worker


def _share_cores(workers: int) -> None:
    """Give each worker process its share of the cores for the tokenizer's own threads.

    A Hugging Face tokenizer spreads each batch over all cores; ``workers`` processes
    doing so at once would fight over them. Called in each worker process before it
    tokenizes anything; a value the user set is kept.
    """
    threads = max(1, (os.cpu_count() or 1) // workers)
    if threads == 1:
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    else:
        os.environ.setdefault("RAYON_NUM_THREADS", str(threads))


def _worker_init(workers: int, debug: bool, worker_chunker: Callable[[], Chunker]) -> None:
    global _WORKER_CHUNKER, _WORKER_DEBUG
    _WORKER_DEBUG = debug
    _share_cores(workers)
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    if _WORKER_CHUNKER is None:
        _WORKER_CHUNKER = worker_chunker()


def _worker_chunk(item: Input) -> tuple[Rows, str | None, list[logging.LogRecord]]:
    """In a worker: ``(rows, problem)`` of one input, and the libraries' warnings it gave, for the main process."""
    with captured_records() as records:
        rows, problem = _rows_or_problem(_WORKER_CHUNKER, item, _WORKER_DEBUG)
    return rows, problem, records


def _rows_or_problem(
    chunker: Chunker, item: Input, debug: bool, phase: Callable[[str], None] = _no_phase
) -> tuple[Rows, str | None]:
    """``(rows, None)`` of one input, or ``([], problem)`` when it fails (raised with ``debug``)."""
    try:
        return _chunk_rows(chunker, item, phase), None
    except Exception as exc:  # one bad input never stops the others
        if debug:
            raise
        return [], _problem(item, exc)


def _problem(item: Input, exc: Exception) -> str:
    """One line naming the input and what went wrong."""
    from docchunk.batch.rows import describe_failure

    return describe_failure(STDIN if isinstance(item, bytes) else str(item), exc)


def _same(chunker: Chunker) -> Chunker:
    return chunker


def run_local(inputs: list[Input], chunker: Chunker, output: Path | None, out_format: str, workers: int = 1,
              show: bool = False, debug: bool = False, error: Callable[[str], None] | None = None,
              worker_chunker: Callable[[], Chunker] | None = None,
              each: Callable[[Rows], Rows] | None = None, forced: bool = False,
              each_phase: str | None = None) -> tuple[int, int]:  # fmt: skip
    """Chunk ``inputs`` and write their rows to ``output`` (None: stdout); returns (failed inputs, rows written).

    Args:
        inputs: Files, or bytes of standard input (:func:`collect_inputs`).
        chunker: A document chunker, or a :class:`docchunk.batch.text.TextChunking`.
        output: The file to write, or None for stdout (see :func:`docchunk.batch.output.open_rows`).
        out_format: A name of :data:`docchunk.batch.formats.FORMATS`.
        workers: Local processes (1: chunk in this one); the output is the same with any number.
        show: Draw a progress display on stderr (:class:`docchunk.batch.progress.Progress`):
            each input's phases (load, chunk, ``each_phase``, write) for a few inputs
            chunked here, else files; it appears after a few seconds unless ``forced``.
        debug: A failed input raises its exception (and stops the run) instead of giving a problem line.
        error: Prints one problem line per failed input; default: nothing is printed.
        worker_chunker: Builds the chunker in a worker process that was spawned (not
            forked); default: the worker gets ``chunker`` pickled.
        each: Called with each input's rows (in input order, in this process) before they
            are written; returns the rows to write.
        forced: Draw the progress display at once (``--progress``).
        each_phase: The name of ``each``'s phase in the display (``"embed"``); None: not a phase.

    Raises:
        BatchSetupError: The output cannot be written (:func:`docchunk.batch.output.open_rows`).
    """
    from docchunk.batch.output import open_rows
    from docchunk.batch.progress import Progress

    failures = 0
    build = worker_chunker if worker_chunker is not None else partial(_same, chunker)
    writer = open_rows(output, out_format)
    local = workers <= 1 or len(inputs) < 2
    phases = ("load", "chunk", *((each_phase,) if each_phase else ()), "write")
    names = [STDIN if isinstance(item, bytes) else str(item) for item in inputs]
    progress = Progress(names, phases if local else ("chunk",), show, forced)
    try:
        for rows, problem in _results(inputs, chunker, workers, debug, build, progress.phase):
            if problem is not None:
                failures += 1
                if error is not None:
                    error(problem)
                progress.done()
                continue
            if each is not None:
                if each_phase:
                    progress.phase(each_phase)
                rows = each(rows)
            progress.phase("write")
            writer.write(rows)
            progress.done()
    finally:
        progress.close()
        writer.close(keep=sys.exc_info()[0] is None)
    return failures, writer.count
