"""``docchunk chunk --embed MODEL``: an ``embedding`` column in the JSONL (and in Ray's Parquet shards).

The chunk command's rows come from one process or from ``--workers`` processes;
either way the main process embeds each file's ``contextualized`` strings, in
batches of that file's chunks (torch already uses every core), so the rows are the
same with any number of workers. With ``--engine ray`` the embedding runs in the Ray
pipeline instead (:mod:`docchunk.batch.ray`, with
:func:`docchunk.integrations.ray.embed_dataset`). Text chunkers' rows are embedded
the same way: every row has ``contextualized``.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from docchunk.errors import DocchunkError, ModelLimitWarning

if TYPE_CHECKING:
    from docchunk.serialization.rows import Row

__all__ = ["RowEmbedder", "embed_options"]

F = TypeVar("F", bound=Callable[..., Any])


def embed_options(func: F) -> F:
    """``--embed MODEL`` and ``--embed-device DEVICE``."""
    func = click.option(
        "--embed-device", default=None, metavar="DEVICE",
        help="Torch device for --embed, e.g. cpu or cuda (with --engine ray: GPU actors).",
    )(func)  # fmt: skip
    return click.option(
        "--embed", default=None, metavar="MODEL",
        help="Add an embedding column: the vector of contextualized by this sentence-transformers model "
             "(name or folder; all-MiniLM-L6-v2 is bundled, offline). Needs the semantic extra.",
    )(func)  # fmt: skip


class RowEmbedder:
    """Adds ``"embedding"`` to each row of one input, and warns once about chunks over the model's limit.

    Args:
        model: The ``--embed`` model name or folder.
        device: The ``--embed-device``.
        debug: Raise docchunk's errors instead of turning them into usage errors.

    Raises:
        click.UsageError: The model cannot be loaded, or its extra is missing.
    """

    def __init__(self, model: str, device: str | None, debug: bool):
        from docchunk.integrations.embedding_refinery import EmbeddingsRefinery

        try:
            self.embedder = EmbeddingsRefinery(model, device=device)
        except DocchunkError as exc:
            if debug:
                raise
            raise click.UsageError(f"--embed {model}: {exc}") from exc
        self.token_counts: list[int | None] = []

    def rows(self, rows: list[Row]) -> list[Row]:
        """``rows`` (one input's chunks) with the embedding of ``contextualized`` (a list of floats) as the last key."""
        if not rows:
            return rows
        vectors = self.embedder.embed([row["contextualized"] for row in rows])
        self.token_counts.extend(row["token_count"] for row in rows)
        for row, vector in zip(rows, vectors, strict=True):
            row["embedding"] = vector.tolist()
        return rows

    def finish(self) -> None:
        """One ``docchunk: warning:`` line when chunks exceed the model's input limit."""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ModelLimitWarning)
            self.embedder.check_limit(self.token_counts)
        for warning in caught:
            click.echo(f"docchunk: warning: {warning.message}", err=True)
