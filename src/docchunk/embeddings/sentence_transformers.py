"""sentence-transformers models as `embed_batch` callables (the ``semantic`` extra)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docchunk._extras import require
from docchunk.errors import ConfigError

if TYPE_CHECKING:
    import numpy as np

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
            (``pip install ".[semantic]"``).
        ConfigError: The model cannot be loaded; for a hub name that is neither cached
            nor downloadable (no network, or ``HF_HUB_OFFLINE=1``) within a few seconds,
            with a message that says how to get the files.

    Example:
        >>> embed = SentenceTransformerEmbeddings("path/to/all-MiniLM-L6-v2")  # doctest: +SKIP
        >>> SemanticChunker(embed, chunk_size=512)(text)  # doctest: +SKIP
    """

    def __init__(self, model: Any, batch_size: int = 32, device: str | None = None):
        if isinstance(model, str):
            import importlib.util

            local_only = False
            if importlib.util.find_spec("sentence_transformers") is not None:  # else require() says what to install
                local_only = _hub_files_offline(model)  # before the slow import: fail fast offline
            st = require("sentence_transformers", "semantic", "SentenceTransformerEmbeddings")
            try:
                model = st.SentenceTransformer(model, device=device, local_files_only=local_only)
            except Exception as exc:
                raise ConfigError(f"could not load the sentence-transformers model {model!r}: {exc}") from exc
        self.model = model
        self.batch_size = batch_size

    def __call__(self, texts: list[str]) -> np.ndarray:
        """Embed ``texts``: an array of shape ``(len(texts), dim)``."""
        return self.model.encode(
            list(texts), batch_size=self.batch_size, convert_to_numpy=True, show_progress_bar=False
        )


def _hub_files_offline(model: str) -> bool:
    """For a hub name: True when its files must come from the cache alone (the Hub did not answer).

    Raises ConfigError at once when the model is neither cached nor downloadable, instead
    of huggingface_hub retrying every file for minutes.
    """
    from pathlib import Path

    if Path(model).expanduser().exists():
        return False
    from docchunk.errors import TokenizerError
    from docchunk.tokenizers.hub import how_to_get, hub_file

    try:
        _, online = hub_file(model, "config.json")
    except TokenizerError as exc:
        message = str(exc).replace(how_to_get(model), how_to_get(model, "the path of a local model directory"))
        raise ConfigError(f"cannot load the sentence-transformers model {model!r}: {message}") from exc
    return not online
