"""Embedding models: their names and input limits, loading them offline, and the on-disk cache.

The room every user of embeddings imports: the evaluation, the index, the integrations
and the CLI. :mod:`docchunk.embeddings.models` (the default model's name, the input
limits) is a leaf the tokenizers read too. The sentence-transformers adapter,
:class:`~docchunk.embeddings.sentence_transformers.SentenceTransformerEmbeddings`,
is imported from its module (it loads the model's files through the tokenizers' hub
access, so the package does not import it).

Example:
    >>> from docchunk.embeddings import DEFAULT_MODEL, CachedEmbedder, default_cache_dir, load_model
    >>> embed = CachedEmbedder(load_model(), DEFAULT_MODEL, cache_dir=default_cache_dir())  # doctest: +SKIP
    >>> embed(["a text"]).shape  # doctest: +SKIP
    (1, 384)
"""

from __future__ import annotations

from docchunk.embeddings.cache import CachedEmbedder, default_cache_dir
from docchunk.embeddings.load import load_model, model_path
from docchunk.embeddings.models import DEFAULT_MODEL, HUB_DEFAULT_MODEL, INPUT_LIMITS

__all__ = [
    "DEFAULT_MODEL",
    "HUB_DEFAULT_MODEL",
    "INPUT_LIMITS",
    "CachedEmbedder",
    "default_cache_dir",
    "load_model",
    "model_path",
]
