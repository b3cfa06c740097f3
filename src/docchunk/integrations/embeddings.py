"""Deprecated home of :class:`SentenceTransformerEmbeddings`.

Import it from :mod:`docchunk.embeddings.sentence_transformers`.
"""

from __future__ import annotations

import warnings
from typing import Any

__all__ = ["SentenceTransformerEmbeddings"]  # noqa: F822 - given by __getattr__, with a DeprecationWarning


def __getattr__(name: str) -> Any:
    if name != "SentenceTransformerEmbeddings":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(
        "docchunk.integrations.embeddings.SentenceTransformerEmbeddings moved to "
        "docchunk.embeddings.sentence_transformers.SentenceTransformerEmbeddings; import it from there "
        "(the old path goes away in a later release)",
        DeprecationWarning,
        stacklevel=2,
    )
    from docchunk.embeddings.sentence_transformers import SentenceTransformerEmbeddings

    return SentenceTransformerEmbeddings
