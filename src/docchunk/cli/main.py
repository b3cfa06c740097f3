"""``docchunk chunk``: documents in, one JSON line per chunk out.

Thin by design: parses arguments, calls the public API, reports progress and
errors. Bad input never prints a traceback (unless ``--debug``): one line on
stderr per problem; usage errors exit 2, failed inputs exit 1 after every other
input has been chunked and written.
"""

from __future__ import annotations

import json
import os
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import click

from docchunk.errors import DocchunkError, ModelLimitWarning

PROGRESS_MIN_FILES = 10


def _positive(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    if value is not None and value < 1:
        raise click.BadParameter(f"{value!r}: must be a positive number of tokens (>= 1)")
    return value


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="docchunk")
def cli() -> None:
    """docchunk: chunk documents for retrieval, embedding and search."""


@cli.command("chunk")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="JSONL file (default: stdout).")
@click.option(
    "--chunker", type=click.Choice(["hybrid", "hierarchical", "page", "line"]), default="hybrid", show_default=True,
    help="hybrid: structure + token limit; hierarchical: one chunk per element; page: one chunk per page "
    "(split with --max-tokens); line: whole lines up to --max-tokens.",
)  # fmt: skip
@click.option("--expand", type=click.Choice(["tree", "page"]), default=None,
              help="Expand each chunk to its whole top-level item (tree) or its pages (page).")  # fmt: skip
@click.option(
    "--tokenizer", "tokenizer_spec", default=None, metavar="SPEC",
    help='"character", "word", "hf:<name|dir|tokenizer.json>" or "tiktoken:<encoding|model>" '
    "(default: bundled all-MiniLM-L6-v2, offline).",
)  # fmt: skip
@click.option("--max-tokens", type=int, default=None, callback=_positive, help="Tokens per chunk (hybrid).")
@click.option("--no-merge-peers", is_flag=True, help="Do not merge undersized chunks with equal headings (hybrid).")
@click.option(
    "--progress/--no-progress", default=None, help=f"Progress bar on stderr (default: {PROGRESS_MIN_FILES}+ files)."
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
@click.option("--debug", is_flag=True, help="Show tracebacks.")
def chunk_command(
    paths: tuple[Path, ...],
    output: Path | None,
    chunker: str,
    tokenizer_spec: str | None,
    max_tokens: int | None,
    no_merge_peers: bool,
    progress: bool | None,
    workers: int,
    engine: str,
    address: str | None,
    num_workers: int,
    out_format: str,
    debug: bool,
    expand: str | None = None,
) -> None:
    """Chunk PATHS into JSON lines.

    PATHS are DoclingDocument JSON files, folders of them, or Markdown, HTML, DOCX,
    PPTX, XLSX, CSV files with the convert extra.

    Each line holds text, contextualized, token_count, meta, source, chunk_index
    and page_numbers.
    """
    settings = (chunker, tokenizer_spec, max_tokens, not no_merge_peers, expand)
    chunker_obj = _make_chunker(*settings, debug)
    from docchunk.loading import iter_input_files

    files = [f for p in paths for f in iter_input_files(p)]
    if engine == "ray":
        failures = _run_ray(chunker_obj, files, output, address, num_workers, out_format)
        _finish(failures, len(files))
        return
    show = progress if progress is not None else len(files) >= PROGRESS_MIN_FILES
    failures = 0
    with _open_output(output) as out:
        for lines, problem in _progress(_results(files, chunker_obj, settings, workers, debug), show, len(files)):
            if problem is not None:
                failures += 1
                _error(problem)
                continue
            out.writelines(lines)
            out.flush()
    _finish(failures, len(files))


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

    with ProcessPoolExecutor(max_workers=workers, initializer=_worker_init, initargs=settings) as pool:
        yield from pool.map(_worker_chunk, files, chunksize=max(1, len(files) // (workers * 8)))


def _run_ray(chunker: Any, files: list[Path], output: Path | None, address: str | None, num_workers: int,
             out_format: str) -> int:  # fmt: skip
    """Chunk on Ray Data and write JSONL (or Parquet) shards into the folder ``output``; returns failures."""
    if output is None:
        raise click.UsageError("--engine ray needs -o OUT_DIR, the folder for the output shards")
    from docchunk.errors import require

    ray = require("ray", "ray", "--engine ray")
    import logging

    from docchunk.integrations.ray import chunk_dataset

    logging.getLogger("ray").setLevel(logging.WARNING)
    logging.getLogger("ray.data").setLevel(logging.WARNING)
    if not ray.is_initialized():
        ray.init(address=address, num_cpus=None if address else num_workers, include_dashboard=False,
                 log_to_driver=False, logging_level=logging.WARNING)  # fmt: skip
    context = ray.data.DataContext.get_current()
    context.enable_progress_bars = False
    context.print_on_execution_start = False
    blocks = max(1, min(len(files), num_workers * 4))
    ds = ray.data.from_items([{"path": str(p)} for p in files], override_num_blocks=blocks)
    rows = chunk_dataset(ds, chunker).materialize()
    errors = rows.filter(lambda r: r["error"] is not None).take_all()
    for row in errors:
        _error(row["error"])
    good = rows.filter(lambda r: r["error"] is None).drop_columns(["error"])
    if out_format == "parquet":
        good.write_parquet(str(output))
    else:
        good.write_json(str(output))
    return len(errors)


def _finish(failures: int, total: int) -> None:
    if failures:
        rest = "; the others were written" if failures < total else ""
        _error(f"{failures} of {total} input(s) failed{rest}")
        sys.exit(1)


def _make_chunker(
    kind: str,
    spec: str | None,
    max_tokens: int | None,
    merge_peers: bool,
    expand: str | None,
    debug: bool,
    warn: bool = True,
) -> Any:
    if kind != "hybrid" and not merge_peers:
        raise click.UsageError("--no-merge-peers applies to --chunker hybrid only")
    if kind == "hierarchical" and max_tokens is not None:
        raise click.UsageError("--max-tokens applies to --chunker hybrid, page and line only")
    try:
        chunker = _build_chunker(kind, spec, max_tokens, merge_peers, warn)
        if expand is None:
            return chunker
        from docchunk.chunkers.doc.expand import ExpandingChunker, get_expander

        expander = get_expander(expand, tokenizer=chunker.token_counter)  # type: ignore[arg-type]
        return ExpandingChunker(chunker=chunker, expander=expander)
    except DocchunkError as exc:
        if debug:
            raise
        raise click.UsageError(str(exc)) from exc


def _build_chunker(kind: str, spec: str | None, max_tokens: int | None, merge_peers: bool, warn: bool) -> Any:
    from docchunk import HierarchicalChunker, HybridChunker, LineBasedTokenChunker, PageChunker, get_tokenizer

    tokenizer = get_tokenizer(spec)
    if kind == "hierarchical":
        return HierarchicalChunker(tokenizer=tokenizer)
    if kind == "page":
        return PageChunker(tokenizer=tokenizer, max_tokens=max_tokens)
    if max_tokens is None and tokenizer.max_tokens is None:
        raise click.UsageError(
            f"--tokenizer {spec} has no token limit of its own; give --max-tokens N (tokens per chunk)"
        )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ModelLimitWarning)
        chunker: Any
        if kind == "line":
            chunker = LineBasedTokenChunker(tokenizer=tokenizer, max_tokens=max_tokens)
        else:
            chunker = HybridChunker(tokenizer=tokenizer, max_tokens=max_tokens, merge_peers=merge_peers)
    for warning in caught:  # ours as one plain line (once, not per worker); others as Python shows them
        if not issubclass(warning.category, ModelLimitWarning):
            warnings.showwarning(warning.message, warning.category, warning.filename, warning.lineno)
        elif warn:
            click.echo(f"docchunk: warning: {warning.message}", err=True)
    return chunker


def _chunk_lines(chunker: Any, path: Path) -> list[str]:
    from docchunk.integrations._rows import chunk_rows
    from docchunk.loading import load_document

    return [json.dumps(row, ensure_ascii=False) + "\n" for row in chunk_rows(chunker, str(path), load_document(path))]


_WORKER_CHUNKER: Any = None


def _worker_init(kind: str, spec: str | None, max_tokens: int | None, merge_peers: bool, expand: str | None) -> None:
    global _WORKER_CHUNKER
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    _WORKER_CHUNKER = _make_chunker(kind, spec, max_tokens, merge_peers, expand, debug=False, warn=False)


def _worker_chunk(path: Path) -> tuple[list[str], str | None]:
    try:
        return _chunk_lines(_WORKER_CHUNKER, path), None
    except Exception as exc:  # one bad input never stops the others
        return [], _problem(path, exc)


def _problem(path: Path, exc: Exception) -> str:
    """One line naming the file and what went wrong."""
    from docchunk.integrations._rows import describe_failure

    return describe_failure(str(path), exc)


@contextmanager
def _open_output(output: Path | None) -> Iterator[IO[str]]:
    if output is None:
        yield sys.stdout
        return
    try:
        # surrogateescape: file names that are not valid UTF-8 are written back as their bytes
        handle = output.open("w", encoding="utf-8", errors="surrogateescape")
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
    main()
