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
from typing import IO, Any

import click

from docchunk.cli.embed import LineEmbedder, embed_options
from docchunk.cli.eval import eval_command
from docchunk.cli.index import index_command, search_command
from docchunk.cli.inspect import inspect_command
from docchunk.cli.options import (
    DOC_CHUNKERS,
    ModelLimitCheck,
    chunker_option,
    doc_chunker_options,
    expand_option,
    make_doc_chunker,
    stderr_is_terminal,
    structure_options,
)
from docchunk.errors import DocchunkError

PROGRESS_MIN_FILES = 10


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="docchunk")
def cli() -> None:
    """docchunk: chunk documents for retrieval, embedding and search."""


cli.add_command(eval_command)
cli.add_command(inspect_command)
cli.add_command(index_command)
cli.add_command(search_command)


@cli.command("chunk")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(path_type=Path),
              help="JSONL file (default: stdout); with --engine ray, the folder for the shards.")  # fmt: skip
@chunker_option(DOC_CHUNKERS)
@doc_chunker_options
@expand_option
@structure_options
@click.option(
    "--progress/--no-progress", default=None,
    help=f"Progress bar on stderr (default: for {PROGRESS_MIN_FILES}+ files when stderr is a terminal).",
)
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Local worker processes (no Ray); output order is the same as with one.")  # fmt: skip
@click.option("--engine", type=click.Choice(["local", "ray"]), default="local", show_default=True,
              help="ray: chunk on Ray Data and write shards into the folder -o.")  # fmt: skip
@click.option("--address", default=None, help="Ray cluster address (--engine ray); default: start a local Ray.")
@click.option("--num-workers", type=click.IntRange(min=1), default=2, show_default=True,
              help="CPUs of the local Ray instance (--engine ray).")  # fmt: skip
@click.option("--format", "out_format", type=click.Choice(["jsonl", "parquet"]), default="jsonl", show_default=True,
              help="Shard format for --engine ray.")  # fmt: skip
@embed_options
@click.option("--debug", is_flag=True, help="Show tracebacks.")
def chunk_command(
    paths: tuple[Path, ...],
    output: Path | None,
    chunker: str,
    tokenizer_spec: str | None,
    max_tokens: int | None,
    no_merge_peers: bool,
    no_merge_across_pages: bool,
    min_tokens: int | None,
    docling_compat: bool,
    code_chunking: bool,
    progress: bool | None,
    workers: int,
    engine: str,
    address: str | None,
    num_workers: int,
    out_format: str,
    debug: bool,
    expand: str | None = None,
    expand_max_tokens: int | None = None,
    embed: str | None = None,
    embed_device: str | None = None,
) -> None:
    """Chunk PATHS into JSON lines.

    PATHS are DoclingDocument JSON files, folders of them, or Markdown, HTML, DOCX,
    PPTX, XLSX, CSV files with the convert extra.

    Each line holds text, contextualized, token_count, meta, source, chunk_index
    and page_numbers (and embedding with --embed). With -o FILE, one summary line goes to stderr
    ("docchunk: wrote FILE (N chunks from i of n inputs)"); stdout output is JSONL only.
    """
    settings = (
        chunker, tokenizer_spec, max_tokens, not no_merge_peers, expand, docling_compat, min_tokens,
        not no_merge_across_pages, code_chunking, expand_max_tokens,
    )  # fmt: skip
    with _startup():
        chunker_obj = _make(settings, debug)
    files, empty = _input_files(paths)
    for problem in empty:
        _error(problem)
    total = len(files) + len(empty)
    if engine == "ray":
        embedding = (embed, embed_device)
        failures = _run_ray(chunker_obj, files, output, address, num_workers, out_format, embedding) if files else 0
        _finish(failures + len(empty), total)
        return
    # by default only for a person watching: a log file or pipe gets no carriage-return updates
    show = progress if progress is not None else len(files) >= PROGRESS_MIN_FILES and stderr_is_terminal()
    failures, count = len(empty), 0
    limit_check = ModelLimitCheck(chunker, max_tokens, chunker_obj)
    embedder = LineEmbedder(embed, embed_device, debug) if embed else None
    with _open_output(output) as out:
        for lines, problem in _progress(_results(files, chunker_obj, settings, workers, debug), show, len(files)):
            if problem is not None:
                failures += 1
                _error(problem)
                continue
            out.writelines(embedder.lines(lines) if embedder is not None else lines)
            out.flush()
            count += len(lines)
            limit_check.add(lines)
    limit_check.warn()
    if embedder is not None:
        embedder.finish()
    if output is not None:  # stdout stays pure JSONL and stderr quiet for pipes; a file gets a summary
        click.echo(f"docchunk: wrote {output} ({count} chunks from {total - failures} of {total} inputs)", err=True)
    _finish(failures, total)


def _input_files(paths: tuple[Path, ...]) -> tuple[list[Path], list[str]]:
    """The files to chunk, and one problem per folder that holds none (nothing to chunk is an error)."""
    from docchunk.loading import SUPPORTED_SUFFIXES, iter_input_files

    files: list[Path] = []
    empty: list[str] = []
    for path in paths:
        found = iter_input_files(path)
        if not found:
            kinds = ", ".join(SUPPORTED_SUFFIXES)
            empty.append(f"{path}: nothing to chunk: the folder holds no supported file ({kinds})")
        files.extend(found)
    return files, empty


def _results(
    files: list[Path], chunker: Any, settings: tuple, workers: int, debug: bool
) -> Iterator[tuple[list[str], str | None]]:
    """``(lines, problem)`` per file, in input order; ``workers`` > 1 uses local processes."""
    if workers <= 1 or len(files) < 2:
        for path in files:
            try:
                yield _chunk_lines(chunker, path), None
            except Exception as exc:  # one bad input never stops the others
                if debug:
                    raise
                yield [], _problem(path, exc)
        return
    from concurrent.futures import ProcessPoolExecutor

    global _WORKER_CHUNKER
    _WORKER_CHUNKER = chunker  # forked workers inherit it; spawned ones build their own
    try:
        init = (workers, debug, *settings)
        with ProcessPoolExecutor(max_workers=workers, initializer=_worker_init, initargs=init) as pool:
            # small batches: the last documents spread over the workers too
            yield from pool.map(_worker_chunk, files, chunksize=max(1, min(8, len(files) // (workers * 32))))
    finally:
        _WORKER_CHUNKER = None


def _run_ray(chunker: Any, files: list[Path], output: Path | None, address: str | None, num_workers: int,
             out_format: str, embedding: tuple[str | None, str | None] = (None, None)) -> int:  # fmt: skip
    """Chunk on Ray Data and write JSONL (or Parquet) shards into the folder ``output``; returns failures."""
    if output is None:
        raise click.UsageError("--engine ray needs -o OUT_DIR, the folder for the output shards")
    ray = _import_ray(address)
    from docchunk.integrations.ray import check_output_folder, chunk_dataset, write_jsonl, write_parquet

    try:
        check_output_folder(output, out_format)
    except DocchunkError as exc:
        raise click.UsageError(f"-o: {exc}") from exc

    _start_ray(ray, address, num_workers)
    blocks = max(1, min(len(files), num_workers * 4))
    ds = ray.data.from_items([{"path": str(p)} for p in files], override_num_blocks=blocks)
    rows = chunk_dataset(ds, chunker).materialize()
    errors = rows.filter(lambda r: r["error"] is not None).take_all()
    for row in errors:
        _error(row["error"])
    good = rows.filter(lambda r: r["error"] is None).drop_columns(["error"])
    model, device = embedding
    if model is not None:
        from docchunk.cli.embed import ray_embed

        good = ray_embed(ray, good, model, device)
    (write_parquet if out_format == "parquet" else write_jsonl)(good, output)
    return len(errors)


def _import_ray(address: str | None) -> Any:
    """Ray, or one line saying what to install (Ray Data; Ray Client for ``ray://`` addresses)."""
    import importlib.util

    from docchunk.errors import MissingDependencyError, require

    try:
        ray = require("ray", "ray", "--engine ray")
        require("ray.data", "ray", "--engine ray")
        if address and address.startswith("ray://") and importlib.util.find_spec("grpc") is None:
            raise MissingDependencyError(
                f"--address {address} connects through Ray Client, which needs the package 'grpcio' (ray[client]); "
                'install it from a docchunk checkout with: pip install ".[ray]"'
            )
    except MissingDependencyError as exc:
        raise click.UsageError(str(exc)) from exc
    return ray


def _start_ray(ray: Any, address: str | None, num_workers: int) -> None:
    """Connect to ``address`` or start a local Ray; a failure is one line and exit 1."""
    import logging

    logging.getLogger("ray").setLevel(logging.WARNING)
    logging.getLogger("ray.data").setLevel(logging.WARNING)
    if not ray.is_initialized():
        try:
            ray.init(address=address, num_cpus=None if address else num_workers, include_dashboard=False,
                     log_to_driver=False, logging_level=logging.WARNING)  # fmt: skip
        except Exception as exc:  # connection refused, no cluster at the address, ...
            where = f"connect to the Ray cluster at {address}" if address else "start a local Ray instance"
            _error(f"could not {where}: {type(exc).__name__}: {' '.join(str(exc).split())[:300]}")
            sys.exit(1)
    context = ray.data.DataContext.get_current()
    context.enable_progress_bars = False
    context.print_on_execution_start = False


def _finish(failures: int, total: int) -> None:
    if failures:
        rest = "; the others were written" if failures < total else ""
        _error(f"{failures} of {total} input(s) failed{rest}")
        sys.exit(1)


def _make(settings: tuple, debug: bool, warn: bool = True) -> Any:
    """The chunker of the ``chunk`` command's settings tuple (also sent to worker processes)."""
    kind, spec, max_tokens, merge_peers, expand, docling_compat, min_tokens, merge_across_pages, code, cap = settings
    return make_doc_chunker(
        kind, spec, max_tokens, merge_peers, debug, warn=warn, expand=expand, docling_compat=docling_compat,
        min_tokens=min_tokens, merge_across_pages=merge_across_pages, code_chunking=code, expand_max_tokens=cap,
    )  # fmt: skip


def _chunk_lines(chunker: Any, path: Path) -> list[str]:
    from docchunk.loading import load_document
    from docchunk.serialization.rows import chunk_rows, json_line

    return [json_line(row) for row in chunk_rows(chunker, str(path), load_document(path))]


_WORKER_CHUNKER: Any = None
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


def _worker_init(workers: int, debug: bool, *settings: Any) -> None:
    global _WORKER_CHUNKER, _WORKER_DEBUG
    _WORKER_DEBUG = debug
    _share_cores(workers)
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    if _WORKER_CHUNKER is None:
        _WORKER_CHUNKER = _make(settings, debug=False, warn=False)


def _worker_chunk(path: Path) -> tuple[list[str], str | None]:
    try:
        return _chunk_lines(_WORKER_CHUNKER, path), None
    except Exception as exc:  # one bad input never stops the others
        if _WORKER_DEBUG:
            raise
        return [], _problem(path, exc)


def _problem(path: Path, exc: Exception) -> str:
    """One line naming the file and what went wrong."""
    from docchunk.serialization.rows import describe_failure

    return describe_failure(str(path), exc)


@contextmanager
def _open_output(output: Path | None) -> Iterator[IO[str]]:
    if output is None:
        yield sys.stdout
        return
    if output.is_dir():
        raise click.UsageError(f"-o {output}: is a folder; give the JSONL file to write (a folder is for --engine ray)")
    try:
        handle = output.open("w", encoding="utf-8")  # every line is valid UTF-8 (serialization.rows.json_line)
    except OSError as exc:
        raise click.UsageError(f"cannot write {output}: {exc.strerror or exc}") from exc
    with handle:
        yield handle


def _progress(items: Any, show: bool, total: int) -> Any:
    if not show:
        return items
    from tqdm import tqdm

    return tqdm(items, desc="chunking", unit="file", total=total, file=sys.stderr)


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
