"""``docchunk inspect``: chunk documents and write one self-contained HTML page that shows the chunks."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from docchunk.batch.local import skip_reason
from docchunk.cli.options import (
    DOC_CHUNKERS,
    TEXT_CHUNKERS,
    ModelLimitCheck,
    chunker_option,
    doc_chunker_options,
    make_doc_chunker,
    structure_options,
    text_chunker_options,
)
from docchunk.cli.process import report_skipped
from docchunk.cli.settings import ChunkSettings, check_applicable, check_output_path, check_settings
from docchunk.cli.text import TEXT_SUFFIXES, make_text_chunker, read_text

__all__ = ["TEXT_SUFFIXES", "inspect_command"]


@click.command("inspect")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The HTML file to write.")  # fmt: skip
@chunker_option({**DOC_CHUNKERS, **TEXT_CHUNKERS})
@doc_chunker_options
@structure_options
@text_chunker_options
@click.option("--title", default=None, help="Page title (default: the input names).")
@click.option("--debug", is_flag=True, help="Show tracebacks.")
@click.pass_context
def inspect_command(ctx: click.Context, paths: tuple[Path, ...], output: Path, title: str | None, debug: bool,
                    **options: Any) -> None:  # fmt: skip
    """Chunk PATHS and write an HTML report of the chunks.

    The page shows every chunk in reading order with its heading path, token count
    against the budget, pages and flags; a summary with a histogram and the tiny and
    oversized chunks; the contextualized text on click.

    Document chunkers (hybrid, hierarchical, page, line) take docchunk chunk's chunker options; text
    chunkers read .txt and .md files as text (other inputs as their Markdown export).
    The page is self-contained: it opens from disk and makes no network request.
    """
    settings = ChunkSettings.from_params(options)
    check_applicable(ctx)
    check_settings(settings)
    check_output_path(output)
    chunker, max_tokens = settings.chunker, settings.max_tokens
    is_text = settings.is_text
    chunker_obj = make_text_chunker(settings, debug) if is_text else make_doc_chunker(settings, debug)
    from docchunk.report import inspect_document, render_html

    files, skipped = _input_files(paths, is_text)
    report_skipped(skipped, skip_reason)  # as chunk and index: the files of a folder left out, named
    views = []
    for path in files:
        try:
            views.append(inspect_document(chunker_obj, str(path), _read(path, is_text)))
        except Exception as exc:  # one bad input never stops the others
            if debug:
                raise
            _error(_problem(path, exc))
    if not views:  # an empty report would look like a document without chunks
        _error(f"none of the {len(files)} input(s) could be chunked; {output} was not written")
        sys.exit(1)
    page = render_html(views, title=title or "docchunk inspect: " + ", ".join(p.name for p in files[:3])
                       + (f" and {len(files) - 3} more" if len(files) > 3 else ""),
                       skipped=[(str(path), skip_reason(path)) for path in skipped])  # fmt: skip
    try:
        output.write_text(page, encoding="utf-8", errors="replace")
    except OSError as exc:
        raise click.UsageError(f"cannot write {output}: {exc.strerror or exc}") from exc
    count = sum(len(v.chunks) for v in views)
    limit_check = ModelLimitCheck(chunker, max_tokens, chunker_obj)
    limit_check.add_counts([c.token_count or 0 for v in views for c in v.chunks])
    limit_check.warn()
    click.echo(f"docchunk: wrote {output} ({count} chunks from {len(views)} of {len(files)} inputs)", err=True)
    if len(views) < len(files):
        _error(f"{len(files) - len(views)} of {len(files)} input(s) failed; the others are in the report")
        sys.exit(1)


def _input_files(paths: tuple[Path, ...], is_text: bool) -> tuple[list[Path], list[Path]]:
    """``(taken, skipped)`` over ``paths``: each file itself, a folder's files, sorted.

    ``taken``: a folder's supported files (and text files for text chunkers); ``skipped``:
    its other files (hidden ones aside), which the command names as chunk and index do.
    """
    from docchunk.loading import SUPPORTED_SUFFIXES, folder_files

    suffixes = (*SUPPORTED_SUFFIXES, *(TEXT_SUFFIXES if is_text else ()))
    taken: list[Path] = []
    skipped: list[Path] = []
    for path in paths:
        found, left = folder_files(path, suffixes) if path.is_dir() else ([path], [])
        taken += found
        skipped += left
    return taken, skipped


def _read(path: Path, is_text: bool) -> Any:
    """A ``DoclingDocument`` for the document chunkers; the text for the text chunkers."""
    if is_text:
        return read_text(path)
    from docchunk.loading import load_document

    return load_document(path)


def _problem(path: Path, exc: Exception) -> str:
    from docchunk.batch.rows import describe_failure

    return describe_failure(str(path), exc)


def _error(message: str) -> None:
    click.echo(f"docchunk: error: {message}", err=True)
