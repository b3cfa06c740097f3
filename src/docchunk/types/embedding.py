"""``EmbedBatch``: what embeds a batch of texts, a callable ``list[str] -> (n, d)`` vectors."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["EmbedBatch"]

EmbedBatch: TypeAlias = "Callable[[list[str]], ArrayLike]"
"""A callable ``list[str] -> (n, d)``: one vector of ``d`` floats per text, in order.

Anything ``numpy.asarray`` turns into an ``(n, d)`` float array: a numpy array (a
sentence-transformers model's ``encode``), a list of lists of floats. The semantic
chunkers, :class:`docchunk.EmbeddingsRefinery` and ``docchunk eval`` check the shape.
"""
