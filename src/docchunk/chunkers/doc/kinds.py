"""The document chunkers by name: one table that ``docchunk chunk|inspect|index|eval-docs`` and the eval read.

A leaf that imports no chunker (the CLI reads it at start-up): each entry names the
module and class of a chunker, which load when first built (:meth:`ChunkerKind.load`).
A new document chunker is its module and one entry of :data:`KINDS` (and a test):
``--chunker NAME`` then offers it in every command, ``eval-docs`` included. Its CLI
options are those the ``APPLIES`` table of ``docchunk.cli.settings`` lists for it
(none at first: it is built with the tokenizer alone).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from docchunk.chunkers.doc.base import DocumentChunker

__all__ = ["KINDS", "ChunkerKind"]


@dataclass(frozen=True)
class ChunkerKind:
    """One document chunker as the commands name it.

    Attributes:
        name: The ``--chunker`` value.
        module: The module that defines it (imported when first built).
        cls: Its class name in ``module``.
        help: One line for ``--chunker``'s help.
    """

    name: str
    module: str
    cls: str
    help: str

    def load(self) -> type[DocumentChunker]:
        """The chunker's class (its module imported now)."""
        return cast("type[DocumentChunker]", getattr(importlib.import_module(self.module), self.cls))


KINDS: dict[str, ChunkerKind] = {
    k.name: k
    for k in (
        ChunkerKind("hybrid", "docchunk.chunkers.doc.hybrid", "HybridChunker", "structure + token limit"),
        ChunkerKind("hierarchical", "docchunk.chunkers.doc.hierarchical", "HierarchicalChunker",
                    "one chunk per element"),
        ChunkerKind("page", "docchunk.chunkers.doc.page", "PageChunker",
                    "one chunk per page (split with --max-tokens)"),
        ChunkerKind("line", "docchunk.chunkers.doc.line", "LineBasedTokenChunker", "whole lines up to --max-tokens"),
    )
}  # fmt: skip
"""The document chunkers by ``--chunker`` name, the default (``hybrid``) first."""
