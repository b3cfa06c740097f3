"""``docchunk index`` (documents into a LanceDB index folder) and ``docchunk search`` (questions against it).

Thin: parses arguments, calls :mod:`docchunk.index`, prints progress and results.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import sys
import textwrap
from pathlib import Path
from typing import Any

import click

from docchunk.cli.options import DOC_CHUNKERS, chunker_option, doc_chunker_options, make_doc_chunker, stderr_is_terminal
from docchunk.cli.settings import ChunkSettings, check_settings
from docchunk.embeddings.models import DEFAULT_MODEL
from docchunk.errors import DocchunkError

__all__ = ["index_command", "search_command"]

PROGRESS_MIN_FILES = 10


def _error(message: str) -> None:
    click.echo(f"docchunk: error: {message}", err=True)


@click.command("index")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--db", "-o", "db", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="The index folder (LanceDB; created when missing); -o is the same option, as in chunk.")  # fmt: skip
@chunker_option(DOC_CHUNKERS)
@doc_chunker_options
@click.option("--embed", "model", default=DEFAULT_MODEL, show_default=True, metavar="MODEL",
              help="sentence-transformers model name or folder (the default is bundled, offline).")  # fmt: skip
@click.option("--embed-device", default=None, metavar="DEVICE", help="Torch device, e.g. cpu or cuda.")
@click.option("--embed-cache/--no-embed-cache", default=False, show_default=True,
              help="Keep vectors in docchunk eval's on-disk cache, keyed by model and text.")  # fmt: skip
@click.option("--progress/--no-progress", default=None,
              help=f"Progress bar on stderr (default: for {PROGRESS_MIN_FILES}+ files on a terminal).")  # fmt: skip
@click.option("--debug", is_flag=True, help="Show tracebacks.")
def index_command(
    paths: tuple[Path, ...], db: Path, model: str, embed_device: str | None, embed_cache: bool, progress: bool | None,
    debug: bool, **options: Any,
) -> None:  # fmt: skip
    """Chunk PATHS, embed the chunks and write them into the index folder --db.

    One table row per chunk (vector, text, contextualized, source, headings, pages,
    doc items, table rows, chunker settings). A changed file's rows are replaced;
    an unchanged file (same content hash and settings) is skipped. Each file is
    written in one transaction: an interrupted run keeps the files already written,
    and running it again completes the index. The files of an index folder inside
    a folder of PATHS (docchunk-index.json and chunks.lance/, e.g. --db docs/idx
    for docs) are never read as input, so the index may live among its documents.
    A missing or unreadable input, or a --db that cannot be created, is refused
    before anything is written (exit 2).
    """
    from docchunk.batch.local import skip_reason
    from docchunk.cli.process import report_skipped
    from docchunk.index.build import Indexer, check_model, chunk_files
    from docchunk.index.store import IndexStore
    from docchunk.loading import input_files
    from docchunk.report.views import describe_chunker

    settings = ChunkSettings.from_params(options)  # --chunker, --tokenizer, --max-tokens, --no-merge-peers
    check_settings(settings)
    chunker_obj = make_doc_chunker(settings, debug)
    existed = os.path.exists(db)  # False, not an OSError, for a name the system refuses (IndexStore says why)
    load = functools.partial(_embedder, model, embed_device, embed_cache)
    files, skipped = input_files(paths)  # an index inside a folder of PATHS is left out (loading.folder_files)
    try:
        check_model(IndexStore(db), model)  # lancedb installed, the same model: before the model loads
        indexer = Indexer(db, load, describe_chunker(chunker_obj), model_name=model)
        todo, _ = indexer.plan(files)  # a missing or unreadable input: one line, exit 2, nothing written
    except DocchunkError as exc:
        if not existed:  # opening the index made the folder: a refused run leaves none
            shutil.rmtree(db, ignore_errors=True)
        if debug:
            raise
        raise click.UsageError(str(exc)) from exc
    report_skipped(skipped, functools.partial(skip_reason, text_chunkers=False))
    try:
        if todo:  # the model loads only when some file needs embedding
            indexer.embedder  # noqa: B018 (loads it here, so that a model that cannot load is one line)
    except DocchunkError as exc:
        if debug:
            raise
        raise click.UsageError(str(exc)) from exc
    show = progress if progress is not None else len(todo) >= PROGRESS_MIN_FILES and stderr_is_terminal()
    work: Any = chunk_files(chunker_obj, todo, raise_errors=debug)
    if show:
        from tqdm import tqdm

        work = tqdm(work, desc="indexing", unit="file", total=len(todo), file=sys.stderr)
    for path, digest, rows, problem in work:
        if problem is None:
            indexer.add(str(path), rows, digest)
        else:
            indexer.fail(str(path), problem)
            _error(problem)
    report = indexer.finish()
    held = f"{db} holds {report.total} chunks"
    if report.total == 0 and not existed:  # a run that indexes nothing leaves no folder that looks like an index
        shutil.rmtree(db, ignore_errors=True)
        held = f"no index written at {db}"
    click.echo(
        f"docchunk: indexed {len(report.indexed)} file(s) ({report.chunks} chunks), skipped {len(report.skipped)} "
        f"unchanged, {len(report.failed)} failed; {held}",
        err=True,
    )
    if report.failed:
        sys.exit(1)


def _embedder(model: str, device: str | None, cache: bool) -> Any:
    from docchunk.integrations.embedding_refinery import EmbeddingsRefinery

    cache_dir = None
    if cache:
        from docchunk.embeddings.cache import default_cache_dir

        cache_dir = default_cache_dir()
    return EmbeddingsRefinery(model, cache_dir=cache_dir, device=device)


@click.command("search")
@click.argument("db", type=click.Path(file_okay=False, path_type=Path))
@click.argument("question")
@click.option("-k", "k", type=click.IntRange(min=1), default=5, show_default=True, help="How many chunks to show.")
@click.option("--json", "as_json", is_flag=True, help="One JSON array of the hits instead of text.")
@click.option("--mode", type=click.Choice(["hybrid", "dense", "lexical"]), default="hybrid", show_default=True,
              help="hybrid: BM25 and vectors fused by weighted reciprocal rank (k=60, BM25 1.5); dense: "
              "cosine similarity of the vectors; lexical: BM25 over the full-text index (loads no embedding "
              "model).")  # fmt: skip
@click.option("--all-roles", is_flag=True,
              help="Also rank the chunks marked as boilerplate (meta.role navigation, contents, links, furniture, "
              "concepts), which are left out by default.")  # fmt: skip
@click.option("--embed-device", default=None, metavar="DEVICE", help="Torch device for the query's embedding.")
@click.option("--debug", is_flag=True, help="Show tracebacks.")
def search_command(db: Path, question: str, k: int, as_json: bool, mode: str, all_roles: bool,
                   embed_device: str | None, debug: bool) -> None:  # fmt: skip
    """Rank the chunks of the index DB for QUESTION and print the K best.

    For each: the score (--mode hybrid: the weighted reciprocal rank fusion score; dense:
    cosine similarity; lexical: BM25), source, pages, heading path and the chunk's
    text (a table chunk's text holds its rows; the row range is shown). An index
    built before the full-text index gets it on its first hybrid or lexical search.
    """
    from docchunk.index import search

    try:
        hits = search(db, question, k=k, device=embed_device, mode=mode, roles=None if all_roles else ("content",))
    except DocchunkError as exc:
        if debug:
            raise
        raise click.UsageError(str(exc)) from exc
    if as_json:
        keep = ("source", "chunk_index", "page_numbers", "headings", "captions", "table_rows", "doc_items", "text",
                "contextualized", "token_count", "role")  # fmt: skip
        out = [{"score": round(h.score, 6), **{name: h.row.get(name) for name in keep}} for h in hits]
        click.echo(json.dumps(out, ensure_ascii=False, indent=2))
        return
    for rank, hit in enumerate(hits, 1):
        click.echo(_describe_hit(rank, hit))


def _describe_hit(rank: int, hit: Any) -> str:
    row = hit.row
    where = [f"{row['source']} #{row['chunk_index']}"]
    if row["page_numbers"]:
        where.append("p. " + ",".join(str(p) for p in row["page_numbers"]))
    if row["table_rows"]:
        from docchunk.report.views import rows_label  # inspect's numbering: grid rows from 1, header included

        where.append("table " + rows_label(tuple(row["table_rows"])))
    if row.get("role") not in (None, "content"):
        where.append(f"[{row['role']}]")
    head = f"{rank}. {hit.score:.3f}  " + "  ".join(where)
    path = " > ".join(row["headings"] or [])
    lines = [head, *([f"   {path}"] if path else [])]
    lines.append(textwrap.indent(row["text"], "   "))
    return "\n".join(lines) + "\n"
