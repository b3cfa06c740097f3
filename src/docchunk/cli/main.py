"""``docchunk chunk``: documents in, one JSON line per chunk out.

Thin by design: parses arguments, calls the public API, reports progress and
errors. Bad input never prints a traceback (unless ``--debug``): one line on
stderr per problem; usage errors exit 2, failed inputs exit 1 after every other
input has been chunked and written. Nothing to chunk (a folder without supported
files, a document without text) is a failed input.
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from docchunk.cli.embed import embed_options
from docchunk.cli.eval import eval_command
from docchunk.cli.eval_docs import eval_docs_command
from docchunk.cli.index import index_command, search_command
from docchunk.cli.inspect import inspect_command
from docchunk.cli.local_engine import collect_inputs, run_local
from docchunk.cli.options import (
    DOC_CHUNKERS,
    SEMANTIC_CHUNKERS,
    TEXT_CHUNKERS,
    chunker_option,
    doc_chunker_options,
    expand_option,
    make_chunker,
    refinery_options,
    semantic_options,
    stderr_is_terminal,
    structure_options,
    text_chunker_options,
)
from docchunk.cli.settings import ChunkSettings, check_chunk_usage

PROGRESS_MIN_FILES = 10


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="docchunk")
def cli() -> None:
    """docchunk: chunk documents for retrieval, embedding and search."""


for _command in (eval_command, eval_docs_command, inspect_command, index_command, search_command):
    cli.add_command(_command)


@cli.command("chunk")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(path_type=Path),
              help="Output file (default: stdout); with --engine ray, the folder for the shards.")  # fmt: skip
@chunker_option({**DOC_CHUNKERS, **TEXT_CHUNKERS, **SEMANTIC_CHUNKERS})
@doc_chunker_options
@expand_option
@structure_options
@text_chunker_options
@semantic_options
@refinery_options
@click.option("--progress/--no-progress", default=None,
              help=f"Progress bar on stderr (default: for {PROGRESS_MIN_FILES}+ files when stderr is a terminal).")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Local worker processes (no Ray); output order is the same as with one.")  # fmt: skip
@click.option("--engine", type=click.Choice(["local", "ray"]), default="local", show_default=True,
              help="ray: chunk on Ray Data and write shards into the folder -o (document chunkers).")  # fmt: skip
@click.option("--address", default=None, help="Ray cluster address (--engine ray); default: start a local Ray.")
@click.option("--num-workers", type=click.IntRange(min=1), default=2, show_default=True,
              help="CPUs of the local Ray instance (--engine ray).")  # fmt: skip
@click.option("--format", "out_format", type=click.Choice(["jsonl", "parquet"]), default="jsonl", show_default=True,
              help="JSON Lines, or Parquet (needs -o; the JSONL fields as columns, meta as JSON).")  # fmt: skip
@embed_options
@click.option("--debug", is_flag=True, help="Show tracebacks (and, with --engine ray, Ray's log lines).")
@click.pass_context
def chunk_command(ctx: click.Context, paths: tuple[Path, ...], output: Path | None, progress: bool | None,
                  workers: int, engine: str, address: str | None, num_workers: int, out_format: str, debug: bool,
                  **options: Any) -> None:  # fmt: skip
    """Chunk PATHS into JSON lines (or Parquet rows).

    PATHS are DoclingDocument JSON files, folders of them, or Markdown, HTML, DOCX,
    PPTX, XLSX, CSV files with the convert extra; with a text chunker (recursive,
    token, sentence, window, semantic, sdpm) also .txt and .md files, read as text.
    "-" reads standard input (DoclingDocument JSON, or text for a text chunker).

    Each line holds text, contextualized (what to embed), token_count, page_numbers,
    source, chunk_index and meta; text chunks also start_index and end_index, the
    offsets of text in the input's text; with --embed MODEL, embedding (the vector
    of contextualized). With --expand, text and contextualized are
    the small chunk (embed it) and expanded_text its expansion (return it). With
    -o FILE, one summary line goes to stderr ("docchunk: wrote FILE (N chunks from
    i of n inputs)"); stdout output is JSONL only.
    """
    settings = ChunkSettings.from_params(options)
    check_chunk_usage(ctx, settings, paths, output)
    with _startup():
        chunker_obj = make_chunker(settings, debug)
    inputs, empty = collect_inputs(paths, settings.is_text)
    for problem in empty:
        _error(problem)
    total = len(inputs) + len(empty)
    if engine == "ray":
        from docchunk.cli.ray_engine import run_ray

        assert output is not None
        files = [p for p in inputs if isinstance(p, Path)]
        embed = (settings.embed, settings.embed_device) if settings.embed else None
        failures, count = run_ray(chunker_obj, files, output, address, num_workers, out_format, debug, _error,
                                  embed) if files else (0, 0)  # fmt: skip
        _summary(output, count, total - failures - len(empty), total)
        _finish(failures + len(empty), total)
        return
    # by default only for a person watching: a log file or pipe gets no carriage-return updates
    show = progress if progress is not None else len(inputs) >= PROGRESS_MIN_FILES and stderr_is_terminal()
    failures, count = run_local(inputs, chunker_obj, settings, output, out_format, workers, show, debug, _error)
    failures += len(empty)
    if output is not None:  # stdout stays pure JSONL and stderr quiet for pipes; a file gets a summary
        _summary(output, count, total - failures, total)
    _finish(failures, total)


def _summary(output: Path, count: int, done: int, total: int) -> None:
    if count:
        click.echo(f"docchunk: wrote {output} ({count} chunks from {done} of {total} inputs)", err=True)
    else:
        click.echo(f"docchunk: wrote nothing: no chunks from {total} inputs; {output} was not written", err=True)


def _finish(failures: int, total: int) -> None:
    if failures:
        rest = "; the others were written" if failures < total else ""
        _error(f"{failures} of {total} input(s) failed{rest}")
        sys.exit(1)


def _error(message: str) -> None:
    click.echo(f"docchunk: error: {message}", err=True)


def _collect_once_at_exit() -> None:
    """Collect garbage once, then keep the collector off the live objects for shutdown."""
    gc.collect()
    gc.freeze()


_OWN_PROCESS = False  # set by run(): docchunk is the program, not a library of another one


@contextmanager
def _startup() -> Iterator[None]:
    """Import and build without garbage collection, then freeze what start-up made (own process only).

    Importing docling-core creates some 100k long-lived objects, and the collector
    walks them again and again meanwhile and later, while chunking: without it the
    start-up is about 0.2 s shorter, and later collections skip those objects. A
    program that calls :func:`main` keeps its own collector settings.
    """
    if not _OWN_PROCESS or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


def run() -> None:
    """Entry point of the ``docchunk`` console script and ``python -m docchunk``: :func:`main`, then a quick exit.

    Interpreter shutdown collects again and again while it tears modules down,
    walking every object docling-core, pydantic and pandas created at import: about
    0.5 s, a fifth of a short run. At exit this process collects once (garbage in
    reference cycles is still finalized, its files flushed) and freezes what is still
    alive, out of the collector's reach (the command closes its own outputs itself);
    exit handlers still run and the operating system takes the memory back. Only
    here, where docchunk owns the process: a program that calls :func:`main` keeps
    its own shutdown as it was.
    """
    global _OWN_PROCESS
    _OWN_PROCESS = True
    atexit.register(_collect_once_at_exit)
    main()


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``docchunk`` command; usage errors print one line and exit 2."""
    # docling-core imports transformers when it is installed; keep its notices off stderr
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    try:
        cli.main(args=argv, prog_name="docchunk", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as exc:  # pragma: no cover - depends on click version
        click.echo(exc.ctx.get_help() if exc.ctx else str(exc), err=True)
        sys.exit(2)
    except click.UsageError as exc:
        _error(exc.format_message().replace("\n", " "))
        sys.exit(2)
    except click.Abort:
        _error("aborted")
        sys.exit(130)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        _error("interrupted")
        sys.exit(130)


if __name__ == "__main__":  # pragma: no cover
    run()
