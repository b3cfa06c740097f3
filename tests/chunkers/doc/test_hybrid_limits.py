"""A chunk budget above the model's input limit is allowed but warned about."""

from __future__ import annotations

import warnings

import pytest

import docchunk
from tests.helpers import DATA, rows, run


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


def _docling_hf(transformers_minilm, max_tokens: int):
    from docling_core.transforms.chunker.tokenizer.huggingface import HuggingFaceTokenizer

    return HuggingFaceTokenizer(tokenizer=transformers_minilm, max_tokens=max_tokens)


def _texts(chunker, doc) -> list[str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [c.text for c in chunker.chunk(doc) if c.text.strip()]


def test_max_tokens_beside_a_docling_tokenizer_object_follows_docling_core_in_compat(transformers_minilm):
    """docling-core's HybridChunker ignores max_tokens=64 beside its tokenizer object (limit 256) and
    chunks at 256; docling_compat=True honoured the 64. Now it follows, and warns."""
    from docling_core.transforms.chunker.hybrid_chunker import HybridChunker as DLHybrid

    from tests.helpers import load

    doc = load(DATA / "docling_core__2_inp_dl_doc.json")
    tok = _docling_hf(transformers_minilm, 256)
    theirs = DLHybrid(tokenizer=tok, max_tokens=64)
    assert theirs.max_tokens == 256
    with pytest.warns(UserWarning, match=r"ignores max_tokens=64 beside a docling-core tokenizer .*\(256 tokens\)"):
        ours = docchunk.HybridChunker(tokenizer=tok, max_tokens=64, docling_compat=True)
    assert ours.max_tokens == 256
    assert _texts(ours, doc) == _texts(theirs, doc)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the default mode honours max_tokens, silently
        default = docchunk.HybridChunker(tokenizer=tok, max_tokens=64)
        same = docchunk.HybridChunker(tokenizer=tok, max_tokens=256, docling_compat=True)
    assert default.max_tokens == 64 and same.max_tokens == 256
    assert max(c.meta.token_count for c in default.chunk(doc)) <= 64


@pytest.mark.parametrize("compat", [True, False])
def test_transformers_tokenizer_object_without_max_tokens_uses_the_models_limit(transformers_minilm, compat):
    """It raised ConfigError; the limit is the model's, as for the same model by name (256 here,
    from sentence_bert_config.json; docling-core's limit for it too)."""
    from docling_core.transforms.chunker.hybrid_chunker import HybridChunker as DLHybrid

    from tests.helpers import load

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        chunker = docchunk.HybridChunker(tokenizer=transformers_minilm, docling_compat=compat)
    by_name = docchunk.HybridChunker(tokenizer=f"hf:{transformers_minilm.name_or_path}", docling_compat=compat)
    assert chunker.max_tokens == by_name.max_tokens == 256
    doc = load(DATA / "docling_core__2_inp_dl_doc.json")
    assert _texts(chunker, doc) == _texts(by_name, doc)
    if compat:
        assert _texts(chunker, doc) == _texts(DLHybrid(tokenizer=_docling_hf(transformers_minilm, 256)), doc)
