"""Hub model names without a network: one clear docchunk error within seconds, and the cache is used."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from docchunk.cli.main import main
from tests.helpers import DATA, ROOT

MISSING = "docchunk-tests/no-such-model-anywhere"

# times the call alone (not the interpreter's start-up) and reports what it raised
PROBE = """
import json, sys, time
kind = sys.argv[1]
start = time.perf_counter()
try:
    if kind == "tokenizer":
        import docchunk
        docchunk.get_tokenizer("hf:" + sys.argv[2])
    else:
        from docchunk.embeddings.sentence_transformers import SentenceTransformerEmbeddings
        SentenceTransformerEmbeddings(sys.argv[2])
    result = {"error": None}
except Exception as exc:
    result = {"error": type(exc).__name__, "message": str(exc), "bases": [c.__name__ for c in type(exc).__mro__]}
result["seconds"] = time.perf_counter() - start
print(json.dumps(result))
"""


def probe(kind: str, name: str, **env: str) -> dict:
    environ = {k: v for k, v in os.environ.items() if k not in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")}
    environ.update(env)
    done = subprocess.run(
        [sys.executable, "-c", PROBE, kind, name], env=environ, cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


# HF_HUB_OFFLINE=1, and a Hub that cannot be reached (a closed port on this machine, so
# nothing leaves it) without HF_HUB_OFFLINE: huggingface_hub used to retry for 20-90 s
OFFLINE_SETUPS = [
    pytest.param({"HF_HUB_OFFLINE": "1"}, id="HF_HUB_OFFLINE"),
    pytest.param({"HF_ENDPOINT": "http://127.0.0.1:9"}, id="hub-unreachable"),
]


@pytest.mark.parametrize("env", OFFLINE_SETUPS)
@pytest.mark.parametrize(("kind", "error"), [("tokenizer", "TokenizerError"), ("embeddings", "ConfigError")])
def test_uncached_hub_name_offline_fails_fast_with_how_to_get_it(kind, error, env):
    result = probe(kind, MISSING, **env)
    assert result["error"] == error and "DocchunkError" in result["bases"]
    assert result["seconds"] < 10
    message = result["message"]
    assert MISSING in message and "not in the local cache" in message
    assert f"huggingface-cli download {MISSING}" in message and "HF_HUB_OFFLINE" in message
    assert "local" in message and "directory" in message


def test_uncached_hub_tokenizer_in_the_cli_is_one_line_exit_2(capsys):
    assert os.environ.get("HF_HUB_OFFLINE") == "1"  # set by conftest for the whole run
    with pytest.raises(SystemExit) as exit_info:
        main(["chunk", str(DATA / "pdf__multi_page.json"), "--tokenizer", f"hf:{MISSING}"])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2
    assert err.count("\n") == 1 and "huggingface-cli download" in err and "Traceback" not in err


def test_cached_hub_name_loads_offline_with_its_limit(tmp_path, minilm_dir):
    """A model in the Hugging Face cache is read from it with HF_HUB_OFFLINE=1, limit included."""
    commit = "0" * 40
    repo = tmp_path / "models--docchunk-tests--cached-minilm"
    snapshot = repo / "snapshots" / commit
    snapshot.mkdir(parents=True)
    for name in ("tokenizer.json", "sentence_bert_config.json", "tokenizer_config.json"):
        if (minilm_dir / name).is_file():
            shutil.copy(minilm_dir / name, snapshot / name)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(commit)
    code = (
        "import docchunk; t = docchunk.get_tokenizer('hf:docchunk-tests/cached-minilm'); "
        "print(t.max_tokens, t.count_tokens('Hello world'))"
    )
    environ = dict(os.environ, HF_HUB_OFFLINE="1", HF_HUB_CACHE=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", code], env=environ, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["256", "2"]


NO_NETWORK = """
import socket, sys
def refuse(*args, **kwargs):
    raise AssertionError("a network call was attempted")
socket.getaddrinfo = refuse
socket.socket.connect = refuse
import docchunk
try:
    docchunk.get_tokenizer("hf:docchunk-tests/absent-model")
    print("loaded")
except docchunk.TokenizerError as exc:
    print("TokenizerError", "huggingface_hub.file_download" in sys.modules, "not in the local cache" in str(exc))
"""


def test_offline_hub_name_without_a_cache_entry_fails_before_the_download_code_loads(tmp_path):
    """HF_HUB_OFFLINE and no cache folder for the model: the error comes at once, without a network
    attempt and before huggingface_hub's download code (an HTTP client) is imported."""
    (tmp_path / "models--docchunk-tests--another-model" / "snapshots").mkdir(parents=True)
    environ = dict(os.environ, HF_HUB_OFFLINE="1", HF_HUB_CACHE=str(tmp_path), PYTHONPATH=str(ROOT / "src"))
    done = subprocess.run([sys.executable, "-c", NO_NETWORK], env=environ, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["TokenizerError", "False", "True"]


@pytest.fixture
def fake_hub(tmp_path, monkeypatch):
    """An empty Hugging Face cache in tmp_path, and a Hub whose every download fails the test."""
    import huggingface_hub
    import huggingface_hub.constants as constants

    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path))

    def no_download(*args, **kwargs):
        pytest.fail(f"a download was attempted: {args}")

    monkeypatch.setattr(huggingface_hub, "hf_hub_download", no_download)
    return huggingface_hub


def test_offline_hub_name_cached_without_its_tokenizer_fails_without_network(fake_hub, tmp_path, monkeypatch):
    import docchunk

    snapshot = tmp_path / "models--docchunk-tests--partial" / "snapshots" / ("0" * 40)
    snapshot.mkdir(parents=True)
    (snapshot / "config.json").write_text("{}")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(fake_hub, "get_hf_file_metadata", lambda *a, **k: pytest.fail("the Hub was asked"))
    with pytest.raises(docchunk.TokenizerError, match="not in the local cache and HF_HUB_OFFLINE is set"):
        docchunk.get_tokenizer("hf:docchunk-tests/partial")


def test_hub_that_never_answers_is_given_up_after_the_probe_timeout(fake_hub, monkeypatch):
    """A resolver or Hub that does not answer (no network) cannot hold the probe past its timeout:
    the error comes while the request is still hanging."""
    import threading

    import huggingface_hub.constants as constants

    import docchunk

    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("TRANSFORMERS_OFFLINE", raising=False)
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setenv("HF_HUB_ETAG_TIMEOUT", "0.05")
    release, returned = threading.Event(), threading.Event()

    def hanging_request(*args, **kwargs):
        release.wait(20)  # as a DNS lookup without a reachable resolver hangs
        returned.set()

    monkeypatch.setattr(fake_hub, "get_hf_file_metadata", hanging_request)
    try:
        with pytest.raises(docchunk.TokenizerError, match=r"the Hub cannot be reached \(TimeoutError") as raised:
            docchunk.get_tokenizer("hf:docchunk-tests/silent-hub")
        assert not returned.is_set()
        assert "huggingface-cli download docchunk-tests/silent-hub" in str(raised.value)
    finally:
        release.set()


def test_common_embedding_model_without_a_limit_file_gets_its_known_limit(fake_hub, tmp_path, minilm_dir):
    """A cached bge-small-en-v1.5 holding only tokenizer.json still knows its 512-token input limit,
    so a budget above it warns."""
    import docchunk

    snapshot = tmp_path / "models--BAAI--bge-small-en-v1.5" / "snapshots" / ("0" * 40)
    snapshot.mkdir(parents=True)
    shutil.copy(minilm_dir / "tokenizer.json", snapshot / "tokenizer.json")
    (tmp_path / "models--BAAI--bge-small-en-v1.5" / "refs").mkdir()
    (tmp_path / "models--BAAI--bge-small-en-v1.5" / "refs" / "main").write_text("0" * 40)
    assert os.environ.get("HF_HUB_OFFLINE") == "1"
    assert docchunk.get_tokenizer("hf:BAAI/bge-small-en-v1.5").max_tokens == 512
    with pytest.warns(docchunk.ModelLimitWarning, match=r"max_tokens=1024 .*\(512 tokens for 'hf:BAAI/bge-small"):
        docchunk.HybridChunker(tokenizer="hf:BAAI/bge-small-en-v1.5", max_tokens=1024)
