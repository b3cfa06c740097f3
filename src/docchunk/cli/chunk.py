"""``docchunk chunk``: documents in, one JSON line per chunk out.

Thin by design: parses arguments, calls the public API, reports progress and
errors. Bad input never prints a traceback (unless ``--debug``): one line on
stderr per problem; usage errors exit 2, failed inputs exit 1 after every other
input has been chunked and written. Nothing to chunk (a folder without supported
files, a document without text) is a failed input.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import click

from docchunk.batch.formats import DEFAULT_FORMAT, FORMATS
from docchunk.batch.local import collect_inputs, skip_reason
from docchunk.batch.progress import DELAY, PHASES_MAX_FILES
from docchunk.cli.embed import embed_options
from docchunk.cli.options import (
    DOC_CHUNKERS,
    SEMANTIC_CHUNKERS,
    TEXT_CHUNKERS,
    ModelLimitCheck,
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
from docchunk.cli.process import error, report_skipped, startup
from docchunk.cli.settings import ChunkSettings, check_chunk_usage

if TYPE_CHECKING:
    from docchunk.serialization._docling import BaseChunker



@click.command("chunk")
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
@click.option(
    "--progress/--no-progress", default=None,
    help="Progress on stderr: per file for many files, per phase (load, chunk, embed, write) for a few "
         f"(fewer than {PHASES_MAX_FILES}). Default: on a terminal, once the run takes over {DELAY:g} s.",
)
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Local worker processes (no Ray); output order is the same as with one.")  # fmt: skip
@click.option("--engine", type=click.Choice(["local", "ray"]), default="local", show_default=True,
              help="ray: chunk on Ray Data and write shards into the folder -o (document chunkers).")  # fmt: skip
@click.option("--address", default=None, help="Ray cluster address (--engine ray); default: start a local Ray.")
@click.option("--num-workers", type=click.IntRange(min=1), default=2, show_default=True,
              help="CPUs of the local Ray instance (--engine ray).")  # fmt: skip
@click.option("--format", "out_format", type=click.Choice(list(FORMATS)), default=DEFAULT_FORMAT, show_default=True,
              help=", or ".join(f.schema for f in FORMATS.values()) + ".")  # fmt: skip
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
    with startup():
        chunker_obj = make_chunker(settings, debug)
    inputs, empty, skipped = collect_inputs(paths, settings.is_text)
    for problem in empty:
        error(problem)
    report_skipped(skipped, skip_reason)
    total = len(inputs) + len(empty)
    if engine == "ray":
        from docchunk.batch.ray import run_ray
        from docchunk.errors import BatchSetupError, EngineStartError

        assert output is not None
        files = [p for p in inputs if isinstance(p, Path)]
        embed = (settings.embed, settings.embed_device) if settings.embed else None
        try:
            doc_chunker = cast("BaseChunker", chunker_obj)  # --engine ray takes document chunkers only (APPLIES)
            failures, count = run_ray(doc_chunker, files, output, address, num_workers, out_format, debug, error,
                                      embed) if files else (0, 0)  # fmt: skip
        except BatchSetupError as exc:
            raise click.UsageError(str(exc)) from exc
        except EngineStartError as exc:
            error(str(exc))
            sys.exit(1)
        _summary(output, count, total - failures - len(empty), total)
        _finish(failures + len(empty), total)
        return
    # by default only for a person watching (a log file or pipe gets no carriage-return updates), and only
    # once the run has taken a few seconds; --progress draws it at once
    show = progress if progress is not None else stderr_is_terminal()
    failures, count = _run_local(inputs, chunker_obj, settings, output, out_format, workers, show, debug,
                                 forced=bool(progress))  # fmt: skip
    failures += len(empty)
    if output is not None:  # stdout stays pure JSONL and stderr quiet for pipes; a file gets a summary
        _summary(output, count, total - failures, total)
    _finish(failures, total)


def _run_local(inputs: list[Any], chunker: Any, settings: ChunkSettings, output: Path | None, out_format: str,
               workers: int, show: bool, debug: bool, forced: bool = False) -> tuple[int, int]:  # fmt: skip
    """:func:`docchunk.batch.local.run_local` with ``--embed`` and the model-limit warning; (failed inputs, rows).

    Raises:
        click.UsageError: The ``--embed`` model cannot be loaded, or the output cannot be written.
    """
    from functools import partial

    from docchunk.batch.local import run_local
    from docchunk.errors import BatchSetupError

    limit_check = ModelLimitCheck(settings.chunker, settings.max_tokens, chunker)
    embedder = None
    if settings.embed:
        from docchunk.cli.embed import RowEmbedder

        embedder = RowEmbedder(settings.embed, settings.embed_device, debug)

    def each(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        rows = embedder.rows(rows) if embedder is not None else rows
        limit_check.add(rows)
        if settings.expand == "page":
            warn_without_pages(rows)
        return rows

    build = partial(make_chunker, settings, debug=False, warn=False)  # a spawned worker's chunker
    try:
        failures, count = run_local(inputs, chunker, output, out_format, workers, show, debug, error, build, each,
                                    forced=forced, each_phase="embed" if settings.embed else None)  # fmt: skip
    except BatchSetupError as exc:
        raise click.UsageError(str(exc)) from exc
    limit_check.warn()
    if embedder is not None:
        embedder.finish()
    return failures, count


def warn_without_pages(rows: list[dict[str, Any]]) -> None:
    """One ``docchunk: warning:`` line for a document whose chunks ``--expand page`` cannot expand.

    That is a document without page provenance (no chunk has a page: its items carry no
    ``prov``, as in a DOCX, HTML or Markdown conversion). Its rows are written as for
    any chunk that is not expanded: ``expanded_text`` is the chunk's own text,
    ``expanded_page_numbers`` empty and ``meta.expanded`` unset
    (:class:`docchunk.PageChunkExpander` returns such chunks unchanged).
    """
    if rows and not any(row.get("expanded_page_numbers") for row in rows):
        click.echo(f"docchunk: warning: {rows[0]['source']}: --expand page expanded none of its {len(rows)} chunk(s): "
                   "the document has no page provenance (its items carry no page numbers, as in a DOCX, HTML or "
                   "Markdown conversion), so expanded_text is each chunk's own text; --expand tree expands to whole "
                   "sections instead", err=True)  # fmt: skip


def _summary(output: Path, count: int, done: int, total: int) -> None:
    if count:
        click.echo(f"docchunk: wrote {output} ({count} chunks from {done} of {total} inputs)", err=True)
    else:
        click.echo(f"docchunk: wrote nothing: no chunks from {total} inputs; {output} was not written", err=True)


def _finish(failures: int, total: int) -> None:
    if failures:
        rest = "; the others were written" if failures < total else ""
        error(f"{failures} of {total} input(s) failed{rest}")
        sys.exit(1)
