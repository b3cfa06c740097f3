"""``docchunk eval-docs``: evidence recall of document chunkers on the doc-qa layout.

Thin: parses arguments, calls :mod:`docchunk.evaluation.docqa`, prints the figures.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from docchunk._versions import DOCLING_CORE_VERSION
from docchunk.chunkers.doc.kinds import KINDS
from docchunk.cli.eval import ranker_option
from docchunk.cli.options import stderr_is_terminal
from docchunk.embeddings.models import DEFAULT_MODEL
from docchunk.errors import DocchunkError

CHUNKERS = list(KINDS)


@click.command("eval-docs")
@click.argument("data_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--chunker", type=click.Choice(CHUNKERS), default="hybrid", show_default=True)
@click.option("--max-tokens", type=click.IntRange(min=1), default=256, show_default=True,
              help="Tokens of all-MiniLM-L6-v2 per chunk (the flat route: per text chunk).")  # fmt: skip
@click.option("--min-tokens", type=click.IntRange(min=1), default=None, help="HybridChunker's min_tokens.")
@click.option("--docling-compat", is_flag=True,
              help=f"docling_compat=True (docling-core {DOCLING_CORE_VERSION}'s chunks).")  # fmt: skip
@click.option("--option", "extra", multiple=True, metavar="NAME=JSON",
              help="Any other keyword of the chunker, e.g. --option table_format='\"markdown\"' (repeatable).")
@click.option("--peer", type=click.Choice(["none", "docling-core", "flat"]), default="none", show_default=True,
              help="docling-core: docling-core's own HybridChunker; flat: the Markdown export chunked by "
              "RecursiveChunker.")  # fmt: skip
@click.option("--genre", "genres", multiple=True, help="Evaluate only this genre (repeatable).")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="The first N documents of each genre.")
@click.option("--offset", type=click.IntRange(min=0), default=0, show_default=True,
              help="Skip the first N documents of each genre (then --limit); e.g. --offset 40 --limit 80.")  # fmt: skip
@click.option("--half", type=click.Choice(["all", "tune", "check"]), default="all", show_default=True,
              help="Only the tuning or the checking half of the documents (a hash of doc_id; docs/quality.md).")
@click.option("--budget", type=click.IntRange(min=1), default=1000, show_default=True,
              help="cl100k tokens of retrieved chunk text per question.")  # fmt: skip
@click.option("--cells", type=click.Choice(["position", "text"]), default="position", show_default=True,
              help="How a chunk without table_rows (compat, docling-core) holds cells: the rows of the cells "
              "found in its text in reading order, or every cell whose text occurs in it.")  # fmt: skip
@click.option("--embedding", "model", default=DEFAULT_MODEL, show_default=True)
@ranker_option
@click.option("--marked-last", is_flag=True,
              help="Rank the chunks marked as boilerplate (meta.role: navigation, contents, links, furniture, "
              "concepts) after the others, as docchunk search leaves them out.")  # fmt: skip
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the summary and the per-question rows here.")  # fmt: skip
@click.option("--cache-dir", type=click.Path(file_okay=False, path_type=Path), default=None)
@click.option("--no-cache", is_flag=True, help="Do not read or write the embedding cache.")
@click.option("--question", "qid", default=None, metavar="QID",
              help="Show one question instead: write --html, its document's chunks ranked, the evidence highlighted.")
@click.option("--html", "html_out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The page --question writes.")  # fmt: skip
@click.option("--debug", is_flag=True, help="Show tracebacks.")
def eval_docs_command(data_dir: Path, chunker: str, max_tokens: int, min_tokens: int | None, docling_compat: bool,
                      extra: tuple[str, ...], peer: str, genres: tuple[str, ...], limit: int | None, offset: int,
                      half: str, budget: int, cells: str, model: str, ranker: str, marked_last: bool,
                      json_out: Path | None,
                      cache_dir: Path | None,
                      no_cache: bool, qid: str | None, html_out: Path | None, debug: bool) -> None:  # fmt: skip
    """Chunk the doc-qa documents of DATA_DIR, retrieve for each question, score the evidence the chunks hold.

    DATA_DIR holds <genre>/docs.jsonl.gz and <genre>/questions.jsonl (the doc-qa
    layout). Prints, per genre and overall, the percent of evidence (characters of
    text items, table cells) held by the top 1, 3, 5 chunks and by the chunks within
    --budget tokens, ranking the question's own document (doc@) and the genre (all@).

    With --question QID --html FILE, writes one self-contained page instead: the
    question, its answer, and its document's chunks ranked as doc@k ranks them, with
    their scores and the evidence each holds highlighted in its text.
    """
    options: dict[str, Any] = {"max_tokens": max_tokens, "min_tokens": min_tokens}
    if docling_compat:
        options["docling_compat"] = True
    for pair in extra:
        name, _, value = pair.partition("=")
        try:
            options[name.strip()] = json.loads(value)
        except json.JSONDecodeError:
            options[name.strip()] = value
    if (qid is None) != (html_out is None):
        raise click.UsageError("--question and --html go together: --question QID --html FILE writes the page")
    if qid is not None:
        if peer != "none":
            raise click.UsageError("--question shows docchunk's own chunkers: leave out --peer")
        _question_page(data_dir, qid, html_out, chunker, options, genres, model, cache_dir, no_cache, debug)
        return
    try:
        report = _run(data_dir, chunker, options, peer, genres, limit, budget, model, cache_dir, no_cache,
                      offset, cells, half, ranker=ranker, marked_last=marked_last)  # fmt: skip
    except DocchunkError as exc:
        if debug:
            raise
        raise click.UsageError(str(exc)) from exc
    from docchunk.evaluation.docqa import format_report

    click.echo(format_report(report))
    if json_out is not None:
        out = {"config": report.config, "summary": report.summary(), "chunks": report.chunks, "questions": report.rows}
        try:
            json_out.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            raise click.UsageError(f"cannot write {json_out}: {exc.strerror or exc}") from exc


def _run(data_dir: Path, chunker: str, options: dict[str, Any], peer: str, genres: tuple[str, ...],
         limit: int | None, budget: int, model: str, cache_dir: Path | None, no_cache: bool,
         offset: int = 0, cells: str = "position", half: str = "all", ranker: str = "dense",
         marked_last: bool = False) -> Any:  # fmt: skip
    from docchunk._extras import require

    require("numpy", "eval", "docchunk eval-docs")
    require("sentence_transformers", "eval", "docchunk eval-docs")  # the model loader would name [semantic]
    from docchunk.embeddings import CachedEmbedder, default_cache_dir, load_model
    from docchunk.evaluation.docqa import evaluate_docs, load_docqa

    progress = stderr_is_terminal()
    data = load_docqa(data_dir, list(genres) or None, limit, offset, half)
    cache = None if no_cache else (cache_dir or default_cache_dir())
    embed = CachedEmbedder(load_model(model, progress=progress), model, cache_dir=cache, progress=progress)
    route = {"none": "doc", "docling-core": "docling-core", "flat": "flat"}[peer]
    return evaluate_docs(data, embed, chunker=chunker, options=options, route=route, budget=budget, cells=cells,
                         ranker=ranker, marked_last=marked_last)


def _embedder(model: str, cache_dir: Path | None, no_cache: bool) -> Any:
    from docchunk._extras import require

    require("numpy", "eval", "docchunk eval-docs")
    require("sentence_transformers", "eval", "docchunk eval-docs")  # the model loader would name [semantic]
    from docchunk.embeddings import CachedEmbedder, default_cache_dir, load_model

    progress = stderr_is_terminal()
    cache = None if no_cache else (cache_dir or default_cache_dir())
    return CachedEmbedder(load_model(model, progress=progress), model, cache_dir=cache, progress=progress)


def _question_page(data_dir: Path, qid: str, html_out: Any, chunker: str, options: dict[str, Any],
                   genres: tuple[str, ...], model: str, cache_dir: Path | None, no_cache: bool,
                   debug: bool) -> None:  # fmt: skip
    """Write the page of one question (``--question QID --html FILE``)."""
    try:
        from docchunk.evaluation.question import find_question, rank_question
        from docchunk.report.question import render_question

        genre, question, doc = find_question(data_dir, qid, list(genres) or None)
        ranking = rank_question(doc, question, _embedder(model, cache_dir, no_cache), chunker, options, genre)
    except DocchunkError as exc:
        if debug:
            raise
        raise click.UsageError(str(exc)) from exc
    try:
        html_out.write_text(render_question(ranking), encoding="utf-8", errors="replace")
    except OSError as exc:
        raise click.UsageError(f"cannot write {html_out}: {exc.strerror or exc}") from exc
    recall = ", ".join(f"{k} {100 * v:.1f}" for k, v in ranking.recall.items())
    click.echo(f"docchunk: wrote {html_out} ({len(ranking.chunks)} chunks ranked; {recall})", err=True)
