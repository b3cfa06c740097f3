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
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import click

from docchunk.errors import DocchunkError

PROGRESS_MIN_FILES = 10


def _fail_usage(message: str) -> None:
    raise click.UsageError(message)


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
    "--chunker", type=click.Choice(["hybrid", "hierarchical"]), default="hybrid", show_default=True,
    help="hybrid: structure + token limit; hierarchical: one chunk per element.",
)  # fmt: skip
@click.option(
    "--tokenizer", "tokenizer_spec", default=None, metavar="SPEC",
    help='"character", "word", "hf:<name|dir|tokenizer.json>" or "tiktoken:<encoding|model>" '
    "(default: bundled all-MiniLM-L6-v2, offline).",
)  # fmt: skip
@click.option("--max-tokens", type=int, default=None, callback=_positive, help="Tokens per chunk (hybrid).")
@click.option("--no-merge-peers", is_flag=True, help="Do not merge undersized chunks with equal headings (hybrid).")
@click.option("--progress/--no-progress", default=None, help=f"Progress bar on stderr (default: {PROGRESS_MIN_FILES}+ files).")
@click.option("--debug", is_flag=True, help="Show tracebacks.")
def chunk_command(
    paths: tuple[Path, ...],
    output: Path | None,
    chunker: str,
    tokenizer_spec: str | None,
    max_tokens: int | None,
    no_merge_peers: bool,
    progress: bool | None,
    debug: bool,
) -> None:
    """Chunk PATHS (DoclingDocument JSON files, folders of them, or Markdown, HTML,
    DOCX, PPTX, XLSX, CSV files with the convert extra) into JSON lines.

    Each line holds text, contextualized, token_count, meta, source, chunk_index
    and page_numbers.
    """
    chunker_obj = _make_chunker(chunker, tokenizer_spec, max_tokens, not no_merge_peers, debug)
    from docchunk.loading import iter_input_files

    files = [f for p in paths for f in iter_input_files(p)]
    show = progress if progress is not None else len(files) >= PROGRESS_MIN_FILES
    failures = 0
    with _open_output(output) as out:
        for path in _progress(files, show):
            try:
                lines = list(_chunk_lines(chunker_obj, path))
            except (DocchunkError, OSError) as exc:
                failures += 1
                _error(str(exc) if str(path) in str(exc) else f"{path}: {exc}")
                if debug:
                    raise
                continue
            out.writelines(lines)
            out.flush()
    if failures:
        rest = "; the others were written" if failures < len(files) else ""
        _error(f"{failures} of {len(files)} input(s) failed{rest}")
        sys.exit(1)


def _make_chunker(kind: str, spec: str | None, max_tokens: int | None, merge_peers: bool, debug: bool) -> Any:
    from docchunk import HierarchicalChunker, HybridChunker, get_tokenizer

    if kind == "hierarchical" and (max_tokens is not None or not merge_peers):
        raise click.UsageError("--max-tokens and --no-merge-peers apply to --chunker hybrid only")
    try:
        tokenizer = get_tokenizer(spec)
        if kind == "hierarchical":
            return HierarchicalChunker(tokenizer=tokenizer)
        if max_tokens is None and tokenizer.max_tokens is None:
            raise click.UsageError(
                f"--tokenizer {spec} has no token limit of its own; give --max-tokens N (tokens per chunk)"
            )
        return HybridChunker(tokenizer=tokenizer, max_tokens=max_tokens, merge_peers=merge_peers)
    except DocchunkError as exc:
        if debug:
            raise
        raise click.UsageError(str(exc)) from exc


def _chunk_lines(chunker: Any, path: Path) -> Iterator[str]:
    from docchunk.loading import load_document

    doc = load_document(path)
    for index, chunk in enumerate(chunker.chunk(doc)):
        meta = chunk.meta.export_json_dict()
        row = {
            "text": chunk.text,
            "contextualized": chunker.contextualize(chunk),
            "token_count": chunk.meta.token_count,
            "page_numbers": chunk.meta.page_numbers or [],
            "source": str(path),
            "chunk_index": index,
            "meta": meta,
        }
        yield json.dumps(row, ensure_ascii=False) + "\n"


@contextmanager
def _open_output(output: Path | None) -> Iterator[IO[str]]:
    if output is None:
        yield sys.stdout
        return
    try:
        handle = output.open("w", encoding="utf-8")
    except OSError as exc:
        raise click.UsageError(f"cannot write {output}: {exc.strerror or exc}") from exc
    with handle:
        yield handle


def _progress(files: list[Path], show: bool) -> Any:
    if not show:
        return files
    from tqdm import tqdm

    return tqdm(files, desc="chunking", unit="file", file=sys.stderr)


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
