"""The derandomized profiles draw the same examples whatever ran before in the process (issue 45).

Regression: Hypothesis draws some strings and numbers from the literals of the project's
modules found in ``sys.modules``; before tests/conftest.py read them all up front
(:func:`tests.helpers.properties.preload_local_constants`), a property test drew other
documents after a test that had loaded more of docchunk (the CLI) in the same xdist worker,
and failed or passed by order.
"""

from __future__ import annotations

import importlib.util
import sys

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from tests.helpers.properties import SOURCES
from tests.strategies.doclingdoc import docling_documents


def drawn(n: int) -> list[str]:
    """The first ``n`` documents a derandomized property draws, as JSON."""
    docs: list[str] = []

    @settings(max_examples=n, derandomize=True, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(doc=docling_documents())
    def record(doc):
        docs.append(doc.model_dump_json())

    record()
    return docs


@pytest.mark.hypothesis  # runs Hypothesis inside: conftest's setup prepares it as for a @given test
def test_examples_do_not_depend_on_the_modules_loaded_before():
    before = drawn(12)
    # every module of the project newly in sys.modules, as if all were imported since (the
    # CLI's, the loaders'...): module objects under names of their own, never executed
    added = []
    for i, file in enumerate(sorted(f for d in SOURCES for f in d.rglob("*.py"))):
        name = f"_issue45_fresh_module_{i}"
        spec = importlib.util.spec_from_file_location(name, file)
        assert spec is not None
        sys.modules[name] = importlib.util.module_from_spec(spec)
        added.append(name)
    try:
        after = drawn(12)
    finally:
        for name in added:
            del sys.modules[name]
    assert len(before) == len(after) == 12
    assert after == before
