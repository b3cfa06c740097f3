"""Fenced code is one piece to RecursiveChunker(language="markdown") (issue 47, the s3 tester's findings 1 and 2).

A block that fits ``chunk_size`` stays whole, whatever holds it (blank lines, ``---``, a
```` ``` ```` line inside ``~~~``, indentation in a list item); a closing fence never
starts a chunk once the budget holds the fence and the line before it, with any
``keep_separator`` (indented fences, closing fences longer than the opening one).
"""

from __future__ import annotations

import pytest

from docchunk import RecursiveChunker
from docchunk.markup.fences import closing_fences, fenced_blocks

FITTING = {
    "plain block": "Install the tool before you start.\n\n```\nx = 1\ny = 2\nz = 3\n```\n\nThen run it.",
    "~~~ holding a ``` line": "Intro line of prose.\n\n~~~\n```\n# not a heading\n```\n~~~\n\nDone with that.",
    "blank lines in code": (
        "Intro paragraph about the loader and its job.\n\n```python\ndef load(path):\n    return open(path).read()"
        "\n\n\ndef save(path, data):\n    open(path, 'w').write(data)\n```\n\nAfter the code we explain more things."
    ),
    "yaml with ---": "Prose before.\n\n```yaml\na: 1\n\n---\n\nb: 2\n```\n\nProse after.",
    "list-indented": (
        "1. Install it:\n\n   ```sh\n   # get the tool\n   pip install tool\n   # verify\n   tool --version\n   ```"
        "\n\n2. Run it."
    ),
    "setext lines in code": "Prose before.\n\n```\nTitle\n=====\ncode\n-----\n```\n\nProse after.",
}

CLOSING = {
    "list item": "- step one:\n\n  ```\n  make all\n  ```\n\n- step two",
    "nested list": "- outer\n  - inner:\n\n    ```\n    run it\n    ```\n\n- next",
    "longer closing fence": "Text before it.\n\n```\nx = 1\n`````\n\nText after it.",
    "four backticks": "Intro.\n\n````\n```\ninner\n```\n````\n\nOutro.",
    "trailing spaces": "Text before it.\n\n~~~\nx = 1\n~~~   \n\nText after it.",
    "crlf": "Text before it.\r\n\r\n```\r\nx = 1\r\ny = 2\r\n```\r\n\r\nText after it.",
    "no line break at the end": "Intro.\n\n```\ncode line\n```",
    "cjk": "前言。\n\n```\n代码\n```\n\n结束。",
}


def _exact(text, chunks, tokenizer, tiles=True):
    if tiles:
        assert "".join(c.text for c in chunks) == text
    for c in chunks:
        assert text[c.start_index : c.end_index] == c.text
        assert c.token_count == tokenizer.count_tokens(c.text)


@pytest.mark.parametrize("name", FITTING)
@pytest.mark.parametrize("tok", ["character", "cl100k", "minilm"])
def test_a_fenced_block_that_fits_stays_whole(text_tokenizers, tok, name):
    text, tokenizer = FITTING[name], text_tokenizers[tok]
    ((a, b),) = fenced_blocks(text)
    for size in range(tokenizer.count_tokens(text[a:b]), tokenizer.count_tokens(text)):
        chunks = RecursiveChunker(chunk_size=size, language="markdown", tokenizer=tokenizer)(text)
        _exact(text, chunks, tokenizer)
        assert any(c.start_index <= a and b <= c.end_index for c in chunks), (size, [c.text for c in chunks])


def _starts_on_closing_fence(text, chunk, closing):
    first = chunk.start_index + len(chunk.text) - len(chunk.text.lstrip())
    line = max(text.rfind("\n", 0, first), text.rfind("\r", 0, first)) + 1
    return bool(chunk.text.strip()) and line in closing and chunk.start_index >= line


@pytest.mark.parametrize("name", CLOSING)
@pytest.mark.parametrize("tok", ["character", "cl100k", "minilm"])
@pytest.mark.parametrize("keep", ["start", "end", False])
@pytest.mark.parametrize("language", ["markdown", None])
def test_a_closing_fence_never_starts_a_chunk(text_tokenizers, tok, name, keep, language):
    text, tokenizer = CLOSING[name], text_tokenizers[tok]
    closing = dict(closing_fences(text))
    # the budget holds the closing fence line and the line before it
    need = max(tokenizer.count_tokens(text[text.rfind("\n", 0, s - 1) + 1 : e]) for s, e in closing.items())
    for size in range(need, need + 25):
        chunker = RecursiveChunker(chunk_size=size, tokenizer=tokenizer, language=language, keep_separator=keep)
        chunks = chunker(text)
        _exact(text, chunks, tokenizer, tiles=keep is not False)
        assert not [c.text for c in chunks[1:] if _starts_on_closing_fence(text, c, closing)], (size, chunks)


def test_indented_closing_fence_keeps_its_indentation_and_block():
    """The tester's case at 17 characters: no '```\\n\\n- step two' chunk."""
    text = CLOSING["list item"]
    chunks = [c.text for c in RecursiveChunker(chunk_size=17, language="markdown")(text)]
    assert chunks == ["- step one:\n\n", "  ```\n", "  make all\n  ```", "\n\n- step two"]
