"""``docchunk eval``: retrieval quality of a chunking on a character-span evaluation set.

Thin: parses arguments, calls :mod:`docchunk.evaluation`, prints the figures.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from docchunk.cli.options import context_stop_option, stderr_is_terminal
from docchunk.cli.settings import check_applicable, check_tokenizer_spec
from docchunk.embeddings.models import DEFAULT_MODEL
from docchunk.errors import DocchunkError

if TYPE_CHECKING:
    from docchunk.evaluation.run import EvalReport, EvalSummary

CHUNKER_NAMES = ["recursive", "token", "sentence", "window", "semantic", "sdpm"]
ROWS = [  # (label, figure)
    ("recall @k", "recall_k"), ("precision @k", "precision_k"), ("IoU @k", "iou_k"),
    ("recall @budget", "recall_budget"), ("precision @budget", "precision_budget"), ("IoU @budget", "iou_budget"),
    ("precision_omega", "precision_omega"),
]  # fmt: skip


ranker_option = click.option(
    "--ranker", type=click.Choice(["dense", "lexical", "hybrid"]), default="dense", show_default=True,
    help="How each question ranks the chunks: dense (cosine similarity of the embeddings), lexical (BM25) or "
    "hybrid (weighted reciprocal rank fusion of the two, k=60, BM25 weighing 1.5, as docchunk search).",
)  # fmt: skip
"""``--ranker``, shared by ``eval`` and ``eval-docs``."""


@click.command("eval")
@click.argument("data_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--chunker", type=click.Choice(CHUNKER_NAMES), default="recursive", show_default=True)
@click.option("--tokenizer", "tokenizer_spec", default=None, metavar="SPEC",
              help='Unit of the sizes: "character", "word", "hf:<...>", "tiktoken:<...>" '
              "(default: all-MiniLM-L6-v2).")  # fmt: skip
@click.option("--chunk-size", type=click.IntRange(min=1), default=200, show_default=True,
              help="Tokens per chunk (window: the main segment).")  # fmt: skip
@click.option("--chunk-overlap", type=click.IntRange(min=0), default=0, show_default=True,
              help="Tokens repeated between chunks (window: context on each side).")  # fmt: skip
@click.option("--context-size", type=click.IntRange(min=0), default=0, show_default=True,
              help="Tokens of each neighbouring chunk embedded with a chunk but not retrieved "
              "(OverlapRefinery merge=False).")  # fmt: skip
@click.option("--context-side", type=click.Choice(["both", "prefix", "suffix"]), default="both", show_default=True)
@click.option("--context-mode", type=click.Choice(["token", "recursive"]), default="token", show_default=True,
              help="token: exactly --context-size tokens; recursive: whole sentences/words that fit.")  # fmt: skip
@context_stop_option
@click.option("--table-header", type=click.Choice(["none", "row", "caption"]), default="none", show_default=True,
              help="Embed a pipe table's header row (row) and the sentence before it (caption) with chunks "
              "inside the table (TableHeaderRefinery).")  # fmt: skip
@click.option("--headings/--no-headings", default=False, show_default=True,
              help="Embed the Markdown/MediaWiki heading path above each chunk (HeadingContextRefinery).")  # fmt: skip
@click.option("--threshold", type=click.FloatRange(0, 1), default=0.8, show_default=True, help="semantic/sdpm.")
@click.option("--boundaries", type=click.Choice(["paragraph", "sentence"]), default="paragraph", show_default=True,
              help="semantic/sdpm.")  # fmt: skip
@click.option("--similarity-window", type=click.IntRange(min=0), default=1, show_default=True, help="semantic/sdpm.")
@click.option("--embedding", "model", default=DEFAULT_MODEL, show_default=True,
              help="sentence-transformers model name (offline) or local directory.")  # fmt: skip
@click.option("--k", "k", type=click.IntRange(min=1), default=5, show_default=True,
              help="Chunks retrieved per question.")  # fmt: skip
@click.option("--budget", type=click.IntRange(min=1), default=1000, show_default=True,
              help="cl100k tokens retrieved per question (top-ranked chunks that fit).")  # fmt: skip
@ranker_option
@click.option("--corpus", "corpus_ids", multiple=True, help="Evaluate only this corpus id (repeatable).")
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path), help="Write every figure here.")
@click.option("--cache-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Embedding cache (default: ~/.cache/docchunk/embeddings).")  # fmt: skip
@click.option("--no-cache", is_flag=True, help="Do not read or write the embedding cache.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bars on stderr (default: when stderr is a terminal).")
@click.option("--debug", is_flag=True, help="Show tracebacks.")
@click.pass_context
def eval_command(ctx: click.Context, data_dir: Path, model: str, k: int, budget: int, ranker: str,
                 corpus_ids: tuple[str, ...], json_out: Path | None, cache_dir: Path | None, no_cache: bool,
                 progress: bool | None, debug: bool, **settings: Any) -> None:  # fmt: skip
    """Chunk the corpora of DATA_DIR, retrieve for each question, and score the retrieved character spans.

    DATA_DIR holds corpora/<id>.md and questions_df.csv (question, references as a
    JSON list of {content, start_index, end_index}, corpus_id), the layout of
    Chroma's general evaluation set. Prints recall, precision and IoU at top k and
    within the token budget, and precision_omega, as mean ± std in percent, overall
    and per corpus.
    """
    check_applicable(ctx)
    check_tokenizer_spec(settings["tokenizer_spec"])
    try:
        show = stderr_is_terminal() if progress is None else progress
        report = _run(data_dir, model, k, budget, corpus_ids, cache_dir, no_cache, show, settings, ranker)
    except DocchunkError as exc:
        if debug:
            raise
        raise click.UsageError(str(exc)) from exc
    summary = report.to_dict()
    click.echo(format_summary(summary))
    if json_out is not None:
        try:
            json_out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            raise click.UsageError(f"cannot write {json_out}: {exc.strerror or exc}") from exc


def _run(data_dir: Path, model: str, k: int, budget: int, corpus_ids: tuple[str, ...], cache_dir: Path | None,
         no_cache: bool, progress: bool, settings: dict[str, Any], ranker: str = "dense") -> EvalReport:  # fmt: skip
    from docchunk._extras import require

    require("numpy", "eval", "docchunk eval")
    require("sentence_transformers", "eval", "docchunk eval")  # before the model loader names [semantic]
    from docchunk.embeddings import CachedEmbedder, default_cache_dir, load_model
    from docchunk.evaluation import ChunkingConfig, evaluate, load_eval_set

    settings["tokenizer"] = settings.pop("tokenizer_spec")
    config = ChunkingConfig(**settings)
    eval_set = load_eval_set(data_dir, list(corpus_ids) or None)
    cache = None if no_cache else (cache_dir or default_cache_dir())
    embed = CachedEmbedder(load_model(model, progress=progress), model, cache_dir=cache, progress=progress)
    return evaluate(eval_set, config, embed, k=k, budget=budget, model_name=model, progress=progress, ranker=ranker)


def format_summary(summary: EvalSummary) -> str:
    """The figures as a plain-text table: one row per figure, overall then per corpus (mean ± std, percent)."""
    cfg = summary["config"]
    columns = ["all", *summary["per_corpus"]]
    blocks = [summary["overall"], *summary["per_corpus"].values()]
    head = (f"ranker={cfg.get('ranker', 'dense')}, k={cfg['k']}, budget={cfg['budget']} cl100k tokens, "
            f"{summary['questions_count']} questions, percent")  # fmt: skip
    lines = [head, "figure".ljust(18) + "".join(c[:18].rjust(20) for c in columns)]
    for label, name in ROWS:
        cells = [f"{b[name]['mean']:.1f} ± {b[name]['std']:.1f}" if name in b else "-" for b in blocks]
        lines.append(label.ljust(18) + "".join(c.rjust(20) for c in cells))
    counts = [str(sum(int(c["count"]) for c in summary["chunks"].values()))]
    counts += [str(int(summary["chunks"][c]["count"])) for c in summary["per_corpus"]]
    lines.append("chunks".ljust(18) + "".join(c.rjust(20) for c in counts))
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(eval_command())
