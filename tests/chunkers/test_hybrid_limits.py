"""A chunk budget above the model's input limit is allowed but warned about."""

from __future__ import annotations

import warnings

import pytest

import docchunk
from tests.cli.test_chunk_command import rows, run
from tests.conftest import DATA


def test_budget_above_model_limit_warns_and_is_kept():
    tok = docchunk.get_tokenizer()  # all-MiniLM-L6-v2: 256 tokens
    with pytest.warns(docchunk.ModelLimitWarning, match=r"max_tokens=1024 .*\(256 tokens for 'hf:"):
        chunker = docchunk.HybridChunker(tokenizer=tok, max_tokens=1024)
    assert chunker.max_tokens == 1024


@pytest.mark.parametrize("max_tokens", [None, 256, 64])
def test_budget_within_model_limit_is_silent(max_tokens):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        chunker = docchunk.HybridChunker(tokenizer=docchunk.get_tokenizer(), max_tokens=max_tokens)
    assert chunker.max_tokens == (max_tokens or 256)


def test_tokenizer_without_a_limit_never_warns():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert docchunk.HybridChunker(tokenizer="word", max_tokens=100_000).max_tokens == 100_000


def test_cli_prints_the_warning_once_and_still_chunks(capsys, tmp_path):
    out_file = tmp_path / "out.jsonl"
    code, _out, err = run(
        capsys, "chunk", str(DATA / "pdf__multi_page.json"), "--max-tokens", "1024", "-o", str(out_file)
    )
    assert code == 0, err
    assert err.count("docchunk: warning: max_tokens=1024 is above the input limit") == 1, err
    data = rows(out_file.read_text())
    assert data and max(r["token_count"] for r in data) > 256  # the budget given was used


def test_cli_passes_other_warnings_through(capsys, monkeypatch):
    """Only ModelLimitWarning is reformatted; another warning raised while the chunker is
    built is shown as Python shows warnings (here recorded by pytest), not swallowed."""
    import docchunk.chunkers.doc.hybrid as hybrid

    original = hybrid.HybridChunker.model_post_init

    def post_init(self, context):
        warnings.warn("some other warning", DeprecationWarning, stacklevel=1)
        original(self, context)

    monkeypatch.setattr(hybrid.HybridChunker, "model_post_init", post_init)
    with pytest.warns(DeprecationWarning, match="some other warning"):
        code, _, err = run(capsys, "chunk", str(DATA / "pdf__multi_page.json"), "--max-tokens", "100")
    assert code == 0, err
    assert "docchunk: warning" not in err
