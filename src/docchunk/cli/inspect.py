"""``docchunk inspect``: chunk documents and write one self-contained HTML page that shows the chunks."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from docchunk.cli.options import (
    DOC_CHUNKERS,
    TEXT_CHUNKERS,
    ModelLimitCheck,
    chunker_option,
    doc_chunker_options,
    make_doc_chunker,
    make_text_chunker,
    structure_options,
    text_chunker_options,
)

__all__ = ["TEXT_SUFFIXES", "inspect_command"]

TEXT_SUFFIXES = (".txt", ".md", ".markdown", ".text")
"""Files a text chunker reads as plain text (UTF-8); other inputs are loaded as documents
and chunked as their Markdown export."""


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
def inspect_command(
    paths: tuple[Path, ...],
    output: Path,
    chunker: str,
    tokenizer_spec: str | None,
    max_tokens: int | None,
    no_merge_peers: bool,
    no_merge_across_pages: bool,
    min_tokens: int | None,
    docling_compat: bool,
    code_chunking: bool,
    chunk_size: int | None,
    chunk_overlap: int,
    title: str | None,
    debug: bool,
) -> None:
    """Chunk PATHS and write an HTML report of the chunks.

    The page shows every chunk in reading order with its heading path, token count
    against the budget, pages and flags; a summary with a histogram and the tiny and
    oversized chunks; the contextualized text on click.

    Document chunkers (hybrid, hierarchical, page, line) take docchunk chunk's chunker options; text
    chunkers read .txt and .md files as text (other inputs as their Markdown export).
    The page is self-contained: it opens from disk and makes no network request.
    """
    is_text = chunker in TEXT_CHUNKERS
    if is_text:
        _check_text_options(max_tokens, no_merge_peers or no_merge_across_pages or min_tokens is not None,
                            docling_compat)  # fmt: skip
    if is_text and code_chunking:
        raise click.UsageError("--code-chunking applies to --chunker hybrid and hierarchical")
    if not is_text and (chunk_size is not None or chunk_overlap):
        raise click.UsageError(f"--chunk-size and --chunk-overlap apply to the text chunkers "
                               f"({', '.join(TEXT_CHUNKERS)}); --chunker {chunker} takes --max-tokens")  # fmt: skip
    if is_text:
        chunker_obj = make_text_chunker(chunker, tokenizer_spec, chunk_size, chunk_overlap, debug)
    else:
        chunker_obj = make_doc_chunker(
            chunker, tokenizer_spec, max_tokens, not no_merge_peers, debug, docling_compat=docling_compat,
            min_tokens=min_tokens, merge_across_pages=not no_merge_across_pages, code_chunking=code_chunking,
        )  # fmt: skip
    from docchunk.report import inspect_document, render_html

    files = [f for p in paths for f in _input_files(p, is_text)]
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
                       + (f" and {len(files) - 3} more" if len(files) > 3 else ""))  # fmt: skip
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


def _check_text_options(max_tokens: int | None, hybrid_only: bool, docling_compat: bool) -> None:
    """Document chunker options given to a text chunker are usage errors that name the chunkers they apply to."""
    if max_tokens is not None:
        raise click.UsageError("--max-tokens applies to --chunker hybrid, page and line only; "
                               "text chunkers take --chunk-size")  # fmt: skip
    if hybrid_only:
        raise click.UsageError("--no-merge-peers, --min-tokens and --no-merge-across-pages apply to "
                               "--chunker hybrid only")  # fmt: skip
    if docling_compat:
        raise click.UsageError("--docling-compat applies to --chunker hybrid and hierarchical")


def _input_files(path: Path, is_text: bool) -> list[Path]:
    """The file itself, or a folder's supported files (and text files for text chunkers), sorted."""
    from docchunk.loading import SUPPORTED_SUFFIXES

    if not path.is_dir():
        return [path]
    suffixes = {*SUPPORTED_SUFFIXES, *(TEXT_SUFFIXES if is_text else ())}
    return sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in suffixes)


def _read(path: Path, is_text: bool) -> Any:
    """A ``DoclingDocument`` for the document chunkers; the text for the text chunkers."""
    from docchunk.errors import DocumentError
    from docchunk.loading import load_document

    if not is_text:
        return load_document(path)
    if path.suffix.lower() not in TEXT_SUFFIXES:
        return load_document(path).export_to_markdown()
    try:
        return path.read_bytes().decode("utf-8")  # as is: offsets count the file's own characters
    except FileNotFoundError:
        raise DocumentError(f"{path}: no such file") from None
    except UnicodeDecodeError as exc:
        raise DocumentError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start}); convert it to UTF-8") from exc
    except OSError as exc:
        raise DocumentError(f"{path}: cannot read: {exc.strerror or exc}") from exc


def _problem(path: Path, exc: Exception) -> str:
    from docchunk.serialization.rows import describe_failure

    return describe_failure(str(path), exc)


def _error(message: str) -> None:
    click.echo(f"docchunk: error: {message}", err=True)
