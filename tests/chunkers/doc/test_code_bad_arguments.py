"""CodeChunkingStrategy.chunk_code with arguments of the wrong type: a ConfigError, not an AttributeError."""

from __future__ import annotations

import pytest

from docchunk import CodeChunkingStrategy, ConfigError


@pytest.mark.parametrize(("code", "language"), [("x = 1\n", None), (b"x = 1\n", "python"), (None, "python")])
def test_chunk_code_non_str_arguments_raise_config_error(code, language):
    with pytest.raises(ConfigError, match="chunk_code takes code and language as str"):
        CodeChunkingStrategy(tokenizer="character", max_tokens=5).chunk_code(code, language)
