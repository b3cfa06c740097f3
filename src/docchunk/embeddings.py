"""Embedding adapters for the semantic chunkers (the ``semantic`` extra)."""

from __future__ import annotations

from typing import Any

from docchunk.errors import ConfigError, require

__all__ = ["SentenceTransformerEmbeddings"]


class SentenceTransformerEmbeddings:
    """A sentence-transformers model as an ``embed_batch`` callable.

    Args:
        model: A ``SentenceTransformer``, or a model name or local directory to load
            (a hub name needs the network unless it is cached).
        batch_size: Texts per forward pass inside sentence-transformers.
        device: Torch device, e.g. ``"cpu"``; None lets sentence-transformers choose.

    Calling it with ``list[str]`` returns a float32 numpy array of shape ``(n, d)``.

    Raises:
        MissingDependencyError: sentence-transformers is not installed
            (``pip install "docchunk[semantic]"``).
        ConfigError: The model cannot be loaded.

    Example:
        >>> embed = SentenceTransformerEmbeddings("path/to/all-MiniLM-L6-v2")  # doctest: +SKIP
        >>> SemanticChunker(embed, chunk_size=512)(text)  # doctest: +SKIP
    """

    def __init__(self, model: Any, batch_size: int = 32, device: str | None = None):
        st = require("sentence_transformers", "semantic", "SentenceTransformerEmbeddings")
        if isinstance(model, str):
            try:
                model = st.SentenceTransformer(model, device=device)
            except Exception as exc:
                raise ConfigError(f"could not load the sentence-transformers model {model!r}: {exc}") from exc
        self.model = model
        self.batch_size = batch_size

    def __call__(self, texts: list[str]) -> Any:
        """Embed ``texts``: an array of shape ``(len(texts), dim)``."""
        return self.model.encode(
            list(texts), batch_size=self.batch_size, convert_to_numpy=True, show_progress_bar=False
        )
