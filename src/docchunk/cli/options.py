"""Chunker options shared by the commands, and the chunkers they build.

Each option is defined once here; ``docchunk chunk`` and ``docchunk inspect`` (and
any later command) apply the same objects, so their names, help and checks agree.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from docchunk._versions import DOCLING_CORE_VERSION
from docchunk.chunkers.doc.kinds import KINDS
from docchunk.cli.settings import APPLIES, ChunkSettings
from docchunk.embeddings.models import DEFAULT_MODEL
from docchunk.errors import DocchunkError, ModelLimitWarning

if TYPE_CHECKING:
    from docchunk.batch.text import TextChunking
    from docchunk.chunkers.doc.base import DocumentChunker
    from docchunk.chunkers.doc.expand import ExpandingChunker
    from docchunk.chunkers.text.base import TextChunker
    from docchunk.serialization._docling import BaseChunker
    from docchunk.serialization.rows import Row
    from docchunk.tokenizers import Tokenizer

__all__ = [
    "DOC_CHUNKERS",
    "SEMANTIC_CHUNKERS",
    "TEXT_CHUNKERS",
    "ModelLimitCheck",
    "chunker_option",
    "context_stop_option",
    "doc_chunker_options",
    "expand_option",
    "make_chunker",
    "make_doc_chunker",
    "refinery_options",
    "semantic_options",
    "structure_options",
    "text_chunker_options",
]

F = TypeVar("F", bound=Callable[..., Any])

DOC_CHUNKERS = {kind.name: kind.help for kind in KINDS.values()}
TEXT_CHUNKERS = {
    "recursive": "RecursiveChunker (text files)",
    "token": "TokenChunker (text files)",
    "sentence": "SentenceChunker (text files)",
    "window": "WindowChunker, --chunk-size new tokens per window (text files)",
}
SEMANTIC_CHUNKERS = {
    "semantic": "SemanticChunker, splits where the topic changes (text files; the semantic extra)",
    "sdpm": "SDPMChunker, SemanticChunker that rejoins similar neighbours (text files; the semantic extra)",
}


def _positive(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    if value is not None and value < 1:
        raise click.BadParameter(f"{value!r}: must be a positive number of tokens (>= 1)")
    return value


def chunker_option(kinds: dict[str, str]) -> Callable[[F], F]:
    """``--chunker`` over ``kinds`` (name -> help), default ``hybrid``."""
    described = "; ".join(f"{name}: {text}" for name, text in kinds.items())
    return click.option("--chunker", type=click.Choice(list(kinds)), default="hybrid", show_default=True,
                        help=described + ".")  # fmt: skip


tokenizer_option = click.option(
    "--tokenizer", "tokenizer_spec", default=None, metavar="SPEC",
    help='"character", "word", "hf:<name|dir|tokenizer.json>" or "tiktoken:<encoding|model>" '
    "(default: bundled all-MiniLM-L6-v2, offline).",
)  # fmt: skip
max_tokens_option = click.option("--max-tokens", type=int, default=None, callback=_positive,
                                 help="Tokens per chunk (hybrid, page, line).")  # fmt: skip
no_merge_peers_option = click.option("--no-merge-peers", is_flag=True,
                                     help="Do not merge undersized chunks with equal headings (hybrid).")  # fmt: skip
chunk_size_option = click.option("--chunk-size", type=int, default=None, callback=_positive,
                                 help="Tokens per chunk (text chunkers; default: the tokenizer's limit).")  # fmt: skip
chunk_overlap_option = click.option("--chunk-overlap", type=click.IntRange(min=0), default=0, show_default=True,
                                    help="Tokens shared by neighbouring chunks (text chunkers).")  # fmt: skip


def expand_option(command: F) -> F:
    """``--expand`` and its cap ``--expand-max-tokens``."""
    command = click.option(
        "--expand-max-tokens", type=click.IntRange(min=1), default=None,
        help="Cap on an expanded chunk, in tokens of --tokenizer: a larger expansion is not made (the chunk "
             "stays as it was, meta.expanded false). Default: none, expanded chunks may exceed --max-tokens.",
    )(command)  # fmt: skip
    return click.option(
        "--expand", type=click.Choice(["tree", "page"]), default=None,
        help="Expand each chunk to its whole top-level item (tree) or its pages (page): match small, read big.",
    )(command)  # fmt: skip


no_merge_across_pages_option = click.option("--no-merge-across-pages", is_flag=True,
                                            help="Never join items of different pages or slides (hybrid).")  # fmt: skip
min_tokens_option = click.option(
    "--min-tokens", type=int, default=None, callback=_positive,
    help="Merge chunks under N tokens with a neighbour when the result fits (hybrid).",
)  # fmt: skip
docling_compat_option = click.option(
    "--docling-compat",
    is_flag=True,
    help=f"Reproduce docling-core {DOCLING_CORE_VERSION}'s chunks exactly (every document chunker).",
)
code_chunking_option = click.option(
    "--code-chunking", is_flag=True,
    help="Split code items at function and class boundaries (hybrid, hierarchical; needs the code extra): "
    "docchunk's CodeChunkingStrategy, or docling-core's with --docling-compat (hierarchical).",
)  # fmt: skip


include_furniture_option = click.option(
    "--include-furniture", is_flag=True,
    help="Also chunk page headers and footers, which are left out by default (every document chunker).",
)  # fmt: skip


table_format_option = click.option(
    "--table-format", type=click.Choice(["records", "triplets", "markdown"]), default="records", show_default=True,
    help="How tables are written (hybrid, hierarchical, page; not with --docling-compat): records "
    "('label: header = value; ...', the row label once), triplets ('label, header = value. ...') or markdown "
    "(table lines under the header).",
)  # fmt: skip


def structure_options(func: F) -> F:
    """The structure options of the document chunkers.

    ``--no-merge-across-pages``, ``--min-tokens``, ``--docling-compat``, ``--code-chunking``,
    ``--include-furniture``, ``--table-format``.
    """
    return no_merge_across_pages_option(
        min_tokens_option(docling_compat_option(code_chunking_option(include_furniture_option(table_format_option(func)))))
    )


def doc_chunker_options(func: F) -> F:
    """The options of the document chunkers: ``--tokenizer``, ``--max-tokens``, ``--no-merge-peers``."""
    return tokenizer_option(max_tokens_option(no_merge_peers_option(func)))


def text_chunker_options(func: F) -> F:
    """The options only text chunkers take: ``--chunk-size``, ``--chunk-overlap``."""
    return chunk_size_option(chunk_overlap_option(func))


def semantic_options(func: F) -> F:
    """The options of the semantic chunkers, as ``docchunk eval`` names them."""
    func = click.option("--threshold", type=click.FloatRange(0, 1), default=0.8, show_default=True,
                        help="semantic/sdpm: quantile below which a similarity dip is a boundary.")(func)  # fmt: skip
    func = click.option("--boundaries", type=click.Choice(["paragraph", "sentence"]), default="paragraph",
                        show_default=True, help="semantic/sdpm: the units that are compared.")(func)  # fmt: skip
    func = click.option("--similarity-window", type=click.IntRange(min=0), default=1, show_default=True,
                        help="semantic/sdpm: sentences on each side of a gap besides the nearest.")(func)  # fmt: skip
    return click.option("--embedding", default=DEFAULT_MODEL, show_default=True,
                        help="semantic/sdpm: sentence-transformers model (offline) or its folder.")(func)  # fmt: skip


CONTEXT_STOP_DEFAULT = "blank_line,heading,table"
"""``--context-stop``'s default: the README's recommended context (OverlapRefinery ``stop_at="documents"``)."""


def _parse_stops(ctx: click.Context, param: click.Parameter, value: str) -> tuple[str, ...]:
    """``--context-stop``'s value as ``OverlapRefinery``'s ``stop_at`` tuple (``none``: ``()``)."""
    from docchunk.refineries.boundaries import STOPS

    words = [w.strip() for w in value.split(",") if w.strip()]
    if words == ["none"]:
        return ()
    unknown = [w for w in words if w not in STOPS]
    if unknown or not words:
        raise click.BadParameter(
            f"{unknown[0] if unknown else value!r}: give a comma-separated list of {', '.join(STOPS)}, "
            f"or none (e.g. --context-stop {CONTEXT_STOP_DEFAULT})"
        )
    return tuple(s for s in STOPS if s in words)


context_stop_option = click.option(
    "--context-stop", default=CONTEXT_STOP_DEFAULT, show_default=True, metavar="STOPS", callback=_parse_stops,
    help="Where --context-size context stops (OverlapRefinery stop_at): comma-separated blank_line, heading, "
    "table, or none (context whatever the neighbour holds). The default is docchunk eval's and the README's "
    "recommended context, so eval's options give the same chunks and context here.",
)  # fmt: skip
"""``--context-stop``, shared by ``chunk`` and ``eval``: the same values and default."""


def refinery_options(func: F) -> F:
    """The refineries' options (text chunkers): context embedded with a chunk but not part of its text."""
    func = click.option("--context-size", type=click.IntRange(min=0), default=0, show_default=True,
                        help="Tokens of each neighbouring chunk embedded with a chunk but not retrieved "
                        "(OverlapRefinery merge=False; text chunkers).")(func)  # fmt: skip
    func = click.option("--context-side", type=click.Choice(["both", "prefix", "suffix"]), default="both",
                        show_default=True, help="Which neighbours give --context-size context.")(func)  # fmt: skip
    func = click.option("--context-mode", type=click.Choice(["token", "recursive"]), default="token",
                        show_default=True, help="token: exactly --context-size tokens; "
                        "recursive: whole sentences/words that fit.")(func)  # fmt: skip
    func = context_stop_option(func)
    func = click.option("--table-header", type=click.Choice(["none", "row", "caption"]), default="none",
                        show_default=True, help="Embed a pipe table's header row (row) and the sentence before it "
                        "(caption) with chunks inside a table (TableHeaderRefinery; text chunkers).")(func)  # fmt: skip
    return click.option("--headings/--no-headings", default=False, show_default=True,
                        help="Embed the Markdown/MediaWiki heading path above each chunk "
                        "(HeadingContextRefinery; text chunkers).")(func)  # fmt: skip


def make_chunker(
    settings: ChunkSettings, debug: bool, warn: bool = True
) -> DocumentChunker | ExpandingChunker | TextChunking:
    """The chunker of ``settings``: a document chunker, or a :class:`~docchunk.batch.text.TextChunking`.

    Raises:
        click.UsageError: See :func:`make_doc_chunker` and :func:`docchunk.cli.text.make_text_chunking`.
    """
    if settings.is_text:
        from docchunk.cli.text import make_text_chunking

        return make_text_chunking(settings, debug)
    return make_doc_chunker(settings, debug, warn=warn)


def make_doc_chunker(settings: ChunkSettings, debug: bool, warn: bool = True) -> DocumentChunker | ExpandingChunker:
    """The document chunker of ``settings.chunker`` (hybrid, hierarchical, page, line).

    With ``expand`` ("tree" or "page"), the chunker's chunks come out expanded
    (:class:`docchunk.ExpandingChunker`), each at most ``expand_max_tokens`` when
    given, as docling-core expands them with ``docling_compat`` (docling-core's warning
    for each chunk of a document without pages is silenced while the expander runs,
    :class:`~docchunk.cli.quiet_expand.QuietPageChunkExpander`: the command warns once a
    document, :func:`docchunk.cli.chunk.warn_without_pages`; the process's warnings
    filters are left as they were). With ``code_chunking``, code items are
    chunked by :class:`docchunk.CodeChunkingStrategy` (docling-core's
    ``StandardCodeChunkingStrategy`` with ``docling_compat``). The tokenizer loads
    first and the budget is checked against its limit before docling-core is imported.

    Raises:
        click.UsageError: A bad tokenizer or budget, or the code extra missing for
            ``code_chunking`` (the :class:`DocchunkError`, e.g.
            :class:`MissingDependencyError`, itself when ``debug``).
    """
    s = settings
    try:
        from docchunk.tokenizers import get_tokenizer

        tokenizer = get_tokenizer(s.tokenizer)
        _check_budget(s, tokenizer)
        structure: dict[str, Any] = {"docling_compat": s.docling_compat}
        if s.include_furniture:
            structure["include_furniture"] = True
        if s.table_format != "records":
            structure["table_format"] = s.table_format
        if s.chunker == "hybrid":
            structure.update(min_tokens=s.min_tokens, merge_across_pages=s.merge_across_pages)
        if s.code_chunking:
            from docchunk.chunkers.doc.code_items import code_strategy_for

            structure["code_chunking_strategy"] = code_strategy_for(s.docling_compat, s.tokenizer, s.max_tokens)
        chunker = _build_doc_chunker(s.chunker, tokenizer, s.max_tokens, s.merge_peers, warn, structure)
        if s.expand is None:
            return chunker
        from docchunk.chunkers.doc.expand import ChunkExpander, ExpandingChunker, get_expander

        expander: ChunkExpander
        options: dict[str, Any] = dict(
            tokenizer=chunker.token_counter, max_tokens=s.expand_max_tokens, docling_compat=s.docling_compat,
            include_furniture=s.include_furniture, table_format=s.table_format,
        )  # fmt: skip
        if s.expand == "page" and s.docling_compat:  # docling-core warns per chunk, with its repr: one line per
            from docchunk.cli.quiet_expand import QuietPageChunkExpander  # document instead, filtered while it runs

            expander = QuietPageChunkExpander(**options)
        else:
            expander = get_expander(s.expand, **options)  # type: ignore[arg-type]
        return ExpandingChunker(chunker=chunker, expander=expander)
    except DocchunkError as exc:
        if debug:
            raise
        raise click.UsageError(str(exc)) from exc


def _check_budget(s: ChunkSettings, tokenizer: Tokenizer) -> None:
    """The token budget of a hybrid or line chunker exists, and ``--min-tokens`` is within it."""
    budget = s.max_tokens if s.max_tokens is not None else tokenizer.max_tokens
    if s.chunker in ("hybrid", "line") and budget is None:
        raise click.UsageError(
            f"--tokenizer {s.tokenizer} has no token limit of its own; give --max-tokens N (tokens per chunk)"
        )
    if s.min_tokens is not None and budget is not None and s.min_tokens > budget:
        where = "--max-tokens" if s.max_tokens is not None else f"the limit of --tokenizer {tokenizer.name}"
        raise click.UsageError(f"--min-tokens {s.min_tokens} is above {where} ({budget} tokens per chunk); "
                               "give at most the chunk budget")  # fmt: skip


def _build_doc_chunker(
    kind: str, tokenizer: Tokenizer, max_tokens: int | None, merge_peers: bool, warn: bool, structure: dict[str, Any]
) -> DocumentChunker:
    from docchunk import HierarchicalChunker, HybridChunker, LineBasedTokenChunker, PageChunker

    if kind == "hierarchical":
        return HierarchicalChunker(tokenizer=tokenizer, **structure)
    if kind == "page":
        page_settings = _pick(structure, "table_format", "include_furniture", "docling_compat")
        return PageChunker(tokenizer=tokenizer, max_tokens=max_tokens, **page_settings)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ModelLimitWarning)
        chunker: DocumentChunker
        if kind == "line":
            line_settings = _pick(structure, "include_furniture", "docling_compat")  # no table_format (APPLIES)
            chunker = LineBasedTokenChunker(tokenizer=tokenizer, max_tokens=max_tokens, **line_settings)
        elif kind == "hybrid":
            chunker = HybridChunker(tokenizer=tokenizer, max_tokens=max_tokens, merge_peers=merge_peers, **structure)
        else:  # any other chunker of KINDS: the tokenizer, and the options APPLIES gives it
            chunker = _build_kind(kind, tokenizer, max_tokens, structure)
    for warning in caught:  # ours as one plain line (once, not per worker); others as Python shows them
        if not issubclass(warning.category, ModelLimitWarning):
            warnings.showwarning(warning.message, warning.category, warning.filename, warning.lineno)
        elif warn:
            click.echo(f"docchunk: warning: {warning.message}", err=True)
    return chunker


def _build_kind(kind: str, tokenizer: Tokenizer, max_tokens: int | None, structure: dict[str, Any]) -> DocumentChunker:
    """The chunker ``KINDS[kind]`` with the tokenizer, ``max_tokens`` where ``APPLIES`` gives it, and its settings.

    The settings are the entries of ``structure`` that are fields of its class; the CLI
    refused every option ``APPLIES`` does not list for ``kind``, so those are defaults.
    """
    cls = KINDS[kind].load()
    budget = {"max_tokens": max_tokens} if kind in APPLIES["max_tokens"] else {}
    return cls(tokenizer=tokenizer, **budget, **{k: v for k, v in structure.items() if k in cls.model_fields})


def _pick(structure: dict[str, Any], *names: str) -> dict[str, Any]:
    """The entries of ``structure`` named ``names`` (the settings a chunker that takes only those gets)."""
    return {name: structure[name] for name in names if name in structure}


class ModelLimitCheck:
    """Counts the chunks over the tokenizer's model input limit when no budget bounds them (``--chunker page``).

    ``PageChunker`` without ``--max-tokens`` keeps every page whole, as docling-core does, so a
    page can exceed what the embedding model reads. Such chunks are not ``oversized`` (that flag
    means over the chunker's own budget, as in ``HybridChunker``); the command warns once instead.
    """

    def __init__(self, kind: str, max_tokens: int | None, chunker: BaseChunker | TextChunking | TextChunker):
        tok = getattr(chunker, "token_counter", None)
        self.limit = tok.max_tokens if kind == "page" and max_tokens is None and tok is not None else None
        self.name = getattr(tok, "name", "")
        self.over = self.total = self.largest = 0

    def add(self, rows: list[Row]) -> None:
        """Count the rows (one chunk each, with ``token_count``) of one input."""
        if self.limit is not None:
            self.add_counts([row["token_count"] or 0 for row in rows])

    def add_counts(self, counts: list[int]) -> None:
        """Count chunks by their ``token_count`` (tokens of the chunker's tokenizer)."""
        if self.limit is None:
            return
        self.total += len(counts)
        over = [c for c in counts if c > self.limit]
        self.over += len(over)
        self.largest = max([self.largest, *over])

    def warn(self) -> None:
        """One ``docchunk: warning:`` line on stderr when any chunk was over the limit."""
        if self.over:
            click.echo(
                f"docchunk: warning: {self.over} of {self.total} page chunks exceed the input limit of the "
                f"tokenizer's model ({self.limit} tokens for {self.name!r}; the largest has {self.largest}); an "
                "embedding model truncates longer input. Give --max-tokens N to split pages to N tokens.",
                err=True,
            )


def stderr_is_terminal() -> bool:
    """Whether stderr is a terminal: progress bars are shown by default only then (not in logs or pipes)."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced or closed stderr
        return False
