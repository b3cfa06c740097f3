"""Fixtures of the text-chunker tests."""

from __future__ import annotations

import pytest

import docchunk


@pytest.fixture(scope="session")
def text_tokenizers(minilm_dir, cl100k) -> dict[str, docchunk.Tokenizer]:
    """The three real tokenizers the text tests run with, by name: character, cl100k, MiniLM."""
    return {
        "character": docchunk.get_tokenizer("character"),
        "cl100k": docchunk.get_tokenizer(cl100k),
        "minilm": docchunk.get_tokenizer(f"hf:{minilm_dir}"),
    }
