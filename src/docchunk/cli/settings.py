"""The settings of a chunking command, and the one table of which option applies to which chunker and engine.

Every usage error about an option that does not apply comes from :data:`APPLIES`,
checked by :func:`check_applicable` for ``docchunk chunk``, ``inspect`` and ``eval``
alike: an option given on the command line (not left at its default) for a chunker
or engine it does not apply to is refused, never silently ignored. The checks here
import nothing heavy, so a usage error comes before the start-up (docling-core, the
tokenizer).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from docchunk._versions import DOCLING_CORE_VERSION
from docchunk.chunkers.doc.kinds import KINDS
from docchunk.embeddings.models import DEFAULT_MODEL

__all__ = [
    "APPLIES",
    "DOC_KINDS",
    "SEMANTIC_KINDS",
    "TEXT_KINDS",
    "ChunkSettings",
    "check_applicable",
    "check_chunk_usage",
    "check_output_path",
    "check_settings",
    "check_tokenizer_spec",
]

DOC_KINDS = tuple(KINDS)
TEXT_KINDS = ("recursive", "token", "sentence", "window", "semantic", "sdpm")
SEMANTIC_KINDS = ("semantic", "sdpm")
_OVERLAPPING = ("recursive", "token", "sentence", "window")

APPLIES: dict[str, tuple[str, ...]] = {
    # option (click parameter name, or name=value) -> the chunkers and engines it applies to
    "max_tokens": ("hybrid", "page", "line"),
    "no_merge_peers": ("hybrid",),
    "no_merge_across_pages": ("hybrid",),
    "min_tokens": ("hybrid",),
    "docling_compat": DOC_KINDS,
    "include_furniture": DOC_KINDS,
    "code_chunking": ("hybrid", "hierarchical"),
    "table_format": ("hybrid", "hierarchical", "page"),
    "expand": DOC_KINDS,
    "expand_max_tokens": DOC_KINDS,
    "chunk_size": TEXT_KINDS,
    "chunk_overlap": _OVERLAPPING,
    "threshold": SEMANTIC_KINDS,
    "boundaries": SEMANTIC_KINDS,
    "similarity_window": SEMANTIC_KINDS,
    "embedding": SEMANTIC_KINDS,
    "context_size": TEXT_KINDS,
    "context_side": TEXT_KINDS,
    "context_mode": TEXT_KINDS,
    "context_stop": TEXT_KINDS,
    "headings": TEXT_KINDS,
    "table_header": TEXT_KINDS,
    "embed": (*DOC_KINDS, *TEXT_KINDS),  # every row has contextualized; --embed-device needs --embed (check_settings)
    "embed_device": (*DOC_KINDS, *TEXT_KINDS),
    "engine=ray": DOC_KINDS,
    "address": ("ray",),
    "num_workers": ("ray",),
    "workers": ("local",),
    "progress": ("local",),
}
"""Which chunkers (``--chunker``) or engines (``--engine``) each option applies to."""

_ENGINES = ("local", "ray")
_HINTS = {
    "max_tokens": "; text chunkers take --chunk-size",
    "chunk_size": "; document chunkers take --max-tokens",
    "chunk_overlap": "; the semantic chunkers take --context-size for context from the neighbours",
}


@dataclass(frozen=True)
class ChunkSettings:
    """What builds a chunker: the chunking options of a command, by their API names.

    Sizes are in tokens of ``tokenizer`` (a :func:`docchunk.get_tokenizer` spec; None
    is the bundled all-MiniLM-L6-v2). Document chunkers take ``max_tokens`` and the
    structure options; text chunkers ``chunk_size``, ``chunk_overlap``, the semantic
    options and the refineries' (``context_size`` tokens of each neighbour, stopping at
    the ``context_stop`` boundaries, ``headings``, ``table_header``). ``embed`` (a sentence-transformers model) and
    ``embed_device`` add the vector of each row's ``contextualized``, whatever the
    chunker (``docchunk chunk --embed``). Small and picklable: it is what worker processes
    get to build their own chunker.
    """

    chunker: str = "hybrid"
    tokenizer: str | None = None
    max_tokens: int | None = None
    merge_peers: bool = True
    merge_across_pages: bool = True
    min_tokens: int | None = None
    docling_compat: bool = False
    include_furniture: bool = False
    code_chunking: bool = False
    table_format: str = "records"
    expand: str | None = None
    expand_max_tokens: int | None = None
    chunk_size: int | None = None
    chunk_overlap: int = 0
    threshold: float = 0.8
    boundaries: str = "paragraph"
    similarity_window: int = 1
    embedding: str = DEFAULT_MODEL
    context_size: int = 0
    context_side: str = "both"
    context_mode: str = "token"
    context_stop: tuple[str, ...] = ("blank_line", "heading", "table")
    headings: bool = False
    table_header: str = "none"
    embed: str | None = None
    embed_device: str | None = None

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> ChunkSettings:
        """The settings of a command's parsed parameters (``no_merge_peers`` -> ``merge_peers`` ...)."""
        values = dict(params)
        values["tokenizer"] = values.pop("tokenizer_spec", None)
        values["merge_peers"] = not values.pop("no_merge_peers", False)
        values["merge_across_pages"] = not values.pop("no_merge_across_pages", False)
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in values.items() if k in names})

    @property
    def is_text(self) -> bool:
        """Whether the chunker is a text chunker (it reads text, not a DoclingDocument)."""
        return self.chunker in TEXT_KINDS


def _given(ctx: click.Context, name: str) -> bool:
    source = ctx.get_parameter_source(name)
    return source is not None and source not in (ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP)


def _flag(ctx: click.Context, name: str) -> str:
    """The option as the user wrote it (``--no-headings`` for a false ``--headings/--no-headings``)."""
    for param in ctx.command.params:
        if param.name == name and isinstance(param, click.Option):
            if param.secondary_opts and ctx.params.get(name) is False:
                return param.secondary_opts[0]
            return max(param.opts, key=len)
    return "--" + name.replace("_", "-")


def check_applicable(ctx: click.Context) -> None:
    """Refuse every option given for a chunker or engine it does not apply to (:data:`APPLIES`).

    Raises:
        click.UsageError: Naming the option, the chunkers or engines it applies to, and the one given.
    """
    chunker = ctx.params.get("chunker")
    engine = ctx.params.get("engine", "local")
    for key, allowed in APPLIES.items():
        name, _, value = key.partition("=")
        if name not in ctx.params or not _given(ctx, name) or (value and str(ctx.params[name]) != value):
            continue
        flag = _flag(ctx, name) + (f" {value}" if value else "")
        if allowed[0] in _ENGINES:
            if engine not in allowed:
                raise click.UsageError(f"{flag} applies to --engine {_words(list(allowed))} only "
                                       f"(this run: --engine {engine})")  # fmt: skip
        elif chunker not in allowed:
            kinds = [k for k in allowed if k in _choices(ctx, "chunker")]
            raise click.UsageError(f"{flag} applies to --chunker {_words(kinds)} only, not to --chunker {chunker}"
                                   + _HINTS.get(key, ""))  # fmt: skip
    if ctx.params.get("docling_compat") and "table_format" in ctx.params and _given(ctx, "table_format"):
        # records too: it is the default mode's table form, which docling-core's tables are not
        raise click.UsageError(f"--table-format {ctx.params['table_format']} is a default-mode option, so it does "
                               f"not go with --docling-compat (docling-core {DOCLING_CORE_VERSION} writes its own "
                               "tables); leave out one of them")  # fmt: skip


def _words(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return " and ".join(items) if len(items) < 3 else f"{', '.join(items[:-1])} and {items[-1]}"


def _choices(ctx: click.Context, name: str) -> list[str]:
    for param in ctx.command.params:
        if param.name == name and isinstance(param.type, click.Choice):
            return [str(c) for c in param.type.choices]
    return []


def check_settings(s: ChunkSettings) -> None:
    """Refuse combinations of options that cannot work together, before anything is loaded.

    Raises:
        click.UsageError: Saying which options clash and how to fix it.
    """
    if s.docling_compat and (s.min_tokens is not None or not s.merge_across_pages):
        given = "--min-tokens" if s.min_tokens is not None else "--no-merge-across-pages"
        raise click.UsageError(f"{given} is not a docling-core option, so it does not go with --docling-compat "
                               f"(docling-core {DOCLING_CORE_VERSION}'s output); leave out one of them")  # fmt: skip
    if s.code_chunking and s.docling_compat and s.chunker == "hybrid":
        raise click.UsageError(
            "--code-chunking with --docling-compat applies to --chunker hierarchical: "
            f"docling-core {DOCLING_CORE_VERSION}'s "
            "HybridChunker has no code chunking (use --chunker hierarchical, or leave out --docling-compat)"
        )
    if s.docling_compat and s.table_format != "records":
        raise click.UsageError(f"--table-format {s.table_format} is a default-mode option, so it does not go with "
                               f"--docling-compat (docling-core {DOCLING_CORE_VERSION} writes its own tables); "
                               "leave out one of them")  # fmt: skip
    if s.docling_compat and s.chunker == "page" and s.max_tokens is not None:
        raise click.UsageError(f"--max-tokens splits pages in the default mode; docling-core "
                               f"{DOCLING_CORE_VERSION}'s PageChunker (--docling-compat) keeps each page whole; "
                               "leave out one of them")  # fmt: skip
    if s.embed_device is not None and s.embed is None:
        raise click.UsageError(f"--embed-device {s.embed_device} is the device of --embed; give --embed MODEL too, "
                               "or leave out --embed-device")  # fmt: skip
    if s.expand_max_tokens is not None and s.expand is None:
        raise click.UsageError("--expand-max-tokens needs --expand tree or page")
    if s.expand_max_tokens is not None and s.docling_compat:
        raise click.UsageError("--expand-max-tokens caps --expand; docling-core's expansion (--docling-compat) "
                               "has no cap")  # fmt: skip
    if s.min_tokens is not None and s.max_tokens is not None and s.min_tokens > s.max_tokens:
        raise click.UsageError(f"--min-tokens {s.min_tokens} is above --max-tokens {s.max_tokens}; "
                               "give at most the chunk budget")  # fmt: skip
    check_tokenizer_spec(s.tokenizer)


def check_tokenizer_spec(spec: str | None) -> None:
    """Refuse a ``--tokenizer`` of none of the forms :func:`docchunk.get_tokenizer` reads, without loading it.

    Raises:
        click.UsageError: The spec is not ``character``, ``word``, ``hf:<ref>`` or ``tiktoken:<ref>``;
            the message echoes it as given and suggests the accepted spec closest to it
            (``tiktoken:cl100k_base`` for ``cl100k_base``), when one is.
    """
    from docchunk.tokenizers.names import did_you_mean, spec_form  # (the tokenizers themselves do not load)

    if spec is None or spec_form(spec) is not None:
        return

    raise click.UsageError(
        f"--tokenizer {spec!r}: unknown tokenizer spec{did_you_mean(spec)}; give \"character\", \"word\", "
        '"hf:<hub name | model directory | tokenizer.json>" or "tiktoken:<encoding or model>"'
    )


def check_output_path(output: Path | None, folder: bool = False) -> None:
    """Refuse ``-o`` when it cannot be written: its folder is missing, or it is of the wrong kind.

    Args:
        output: The ``-o`` path, or None for stdout.
        folder: The output is a folder of shards (``--engine ray``), else a file.

    Raises:
        click.UsageError: Saying what is wrong with the path.
    """
    if output is None:
        return
    parent = output.parent if str(output.parent) else Path(".")
    if not parent.is_dir():
        what = "folder" if folder else "file"
        raise click.UsageError(f"-o {output}: the folder {str(parent)!r} does not exist; create it, "
                               f"or give a {what} in an existing folder")  # fmt: skip
    if not folder and output.is_dir():
        raise click.UsageError(f"-o {output}: is a folder; give the file to write (a folder is for --engine ray)")
    if not os.access(parent, os.W_OK):
        raise click.UsageError(f"-o {output}: the folder {str(parent)!r} is not writable")


def check_chunk_usage(
    ctx: click.Context, settings: ChunkSettings, paths: tuple[Path, ...], output: Path | None
) -> None:
    """Every usage error of ``docchunk chunk`` that needs nothing loaded: checked before the start-up.

    Raises:
        click.UsageError: An option that does not apply (:data:`APPLIES`), clashing options
            (:func:`check_settings`), ``-`` twice or with ``--engine ray``, ``--engine ray``
            without ``-o``, ``--format parquet`` to stdout or without pyarrow, or an ``-o``
            that cannot be written.
    """
    check_applicable(ctx)
    check_settings(settings)
    engine = ctx.params["engine"]
    stdin = [p for p in paths if str(p) == "-"]
    if len(stdin) > 1:
        raise click.UsageError('"-" (standard input) can be given once')
    if engine == "ray" and output is None:
        raise click.UsageError("--engine ray needs -o OUT_DIR, the folder for the output shards")
    if engine == "ray" and stdin:
        raise click.UsageError('"-" (standard input) is read by --engine local only; give files or folders')
    from docchunk.batch.formats import FORMATS
    from docchunk.errors import BatchSetupError

    out_format = FORMATS[ctx.params["out_format"]]  # one of them: click.Choice
    if engine == "ray" and out_format.ray_write is None:
        raise click.UsageError(f"--engine ray cannot write --format {out_format.name}; use --engine local, "
                               f"or one of {', '.join(n for n, f in FORMATS.items() if f.ray_write)}")  # fmt: skip
    try:
        out_format.check(output)
    except BatchSetupError as exc:
        raise click.UsageError(str(exc)) from exc
    check_output_path(output, folder=engine == "ray")
