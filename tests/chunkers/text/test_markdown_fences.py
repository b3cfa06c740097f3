"""RecursiveChunker(language="markdown") keeps a closing
code fence with the block it closes; no chunk starts with a closing fence line."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import docchunk

FENCED_EXAMPLE = (
    "Opening words of a short note here.\n\n```\nfirst code line\nsecond code line\n```\n\n"
    "Prose resumes after the block and goes on."
)


def _paired_fences(text: str) -> tuple[set[int], set[int]]:
    """(ends of opening fence lines, line starts of closing fences), paired as in CommonMark.

    A closing fence has the opening's character, at least as many of it, and nothing after.
    """
    opening_ends, closing_starts, opening = set(), set(), None
    for m in re.finditer(r"^ {0,3}(`{3,}|~{3,})([^\n]*)$", text, re.MULTILINE):
        marks, rest = m.group(1), m.group(2)
        if opening is None:
            if not (marks[0] == "`" and "`" in rest):
                opening = marks
                opening_ends.add(m.end())
        elif marks[0] == opening[0] and len(marks) >= len(opening) and not rest.strip():
            closing_starts.add(m.start())
            opening = None
    return opening_ends, closing_starts


def closing_fence_starts(text: str) -> set[int]:
    """Line starts of closing fences, paired as in CommonMark (same character, at least as many)."""
    return _paired_fences(text)[1]


def opening_fence_ends(text: str) -> set[int]:
    """Ends of opening fence lines, paired as in :func:`closing_fence_starts`."""
    return _paired_fences(text)[0]


def ends_with_opening_fence(text: str, chunk) -> bool:
    return chunk.start_index + len(chunk.text.rstrip()) in opening_fence_ends(text)


def starts_with_closing_fence(text: str, chunk) -> bool:
    first = chunk.start_index + len(chunk.text) - len(chunk.text.lstrip())
    return bool(chunk.text.strip()) and text.rfind("\n", 0, first) + 1 in closing_fence_starts(text)


@pytest.mark.parametrize("size", range(8, 20))
def test_closing_fence_stays_with_its_block(size):
    chunker = docchunk.RecursiveChunker(chunk_size=size, language="markdown", tokenizer="word")
    chunks = chunker(FENCED_EXAMPLE)
    assert "".join(c.text for c in chunks) == FENCED_EXAMPLE
    assert not any(starts_with_closing_fence(FENCED_EXAMPLE, c) for c in chunks[1:]), [c.text for c in chunks]
    for c in chunks:
        assert FENCED_EXAMPLE[c.start_index : c.end_index] == c.text
        assert c.token_count == chunker.tokenizer.count_tokens(c.text) <= size


def test_closing_fence_ends_its_chunk_at_twelve_words():
    chunks = docchunk.RecursiveChunker(chunk_size=12, language="markdown", tokenizer="word")(FENCED_EXAMPLE)
    assert any(c.text.rstrip().endswith("second code line\n```") for c in chunks)


WORDS = ["alpha", "beta", "x = 1", "print(x)", "return", "def f():", "#", "gamma delta"]
line = st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join)
block = st.builds(
    lambda fence, info, lines: f"{fence}{info}\n" + "".join(f"{ln}\n" for ln in lines) + fence,
    st.sampled_from(["```", "````", "~~~"]),
    st.sampled_from(["", "python"]),
    st.lists(line, max_size=6),
)
prose = st.lists(st.sampled_from(WORDS), min_size=1, max_size=15).map(" ".join)
markdown = st.builds(
    lambda parts, sep, end: sep.join(parts) + end,
    st.lists(st.one_of(block, prose, line.map(lambda t: "## " + t)), min_size=1, max_size=8),
    st.sampled_from(["\n\n", "\n"]),
    st.sampled_from(["", "\n"]),
)


@given(text=markdown, size=st.integers(14, 40), tok=st.sampled_from(["word", "character"]))
def test_no_chunk_starts_with_a_closing_fence(text, size, tok):
    limit = size * 4 if tok == "character" else size  # lines of at most 4 words fit twice with a fence
    chunker = docchunk.RecursiveChunker(chunk_size=limit, language="markdown", tokenizer=tok)
    chunks = chunker(text)
    assert "".join(c.text for c in chunks) == text
    for c in chunks:
        assert text[c.start_index : c.end_index] == c.text
        assert c.token_count == chunker.tokenizer.count_tokens(c.text)
        assert c.token_count <= limit or c.oversized
    assert not any(starts_with_closing_fence(text, c) for c in chunks[1:]), [c.text for c in chunks]
    assert not any(ends_with_opening_fence(text, c) for c in chunks[:-1]), [c.text for c in chunks]


TWO_BLOCKS = (
    "Intro text before code.\n\n```\nalpha = 1\nbeta = 2\ngamma = 3\n```\n\n"
    "```python\ndelta = 4\nepsilon = 5\nzeta = 6\n```\n\nClosing words here."
)


@pytest.mark.parametrize(("tok", "size"), [*(("word", n) for n in range(4, 12)),
                                           *(("character", n) for n in range(19, 60, 3))])  # fmt: skip
def test_fence_lines_stay_with_their_blocks_at_sizes_smaller_than_a_block(tok, size):
    """A block larger than the chunk size is cut between its own lines: no chunk ends with an
    opening fence line or starts with a closing one, so no chunk holds only fence lines."""
    chunker = docchunk.RecursiveChunker(chunk_size=size, language="markdown", tokenizer=tok)
    chunks = chunker(TWO_BLOCKS)
    texts = [c.text for c in chunks]
    assert "".join(texts) == TWO_BLOCKS
    assert not any(ends_with_opening_fence(TWO_BLOCKS, c) for c in chunks[:-1]), texts
    assert not any(starts_with_closing_fence(TWO_BLOCKS, c) for c in chunks[1:]), texts
    assert not any(set(t.split()) <= {"```", "```python"} for t in texts), texts
    for c in chunks:
        assert TWO_BLOCKS[c.start_index : c.end_index] == c.text
        assert c.token_count == chunker.tokenizer.count_tokens(c.text) <= size


def test_fence_lines_stay_with_their_blocks_in_minilm_tokens(minilm_dir):
    tok = docchunk.get_tokenizer(f"hf:{minilm_dir}")
    for size in range(8, 30, 2):
        chunks = docchunk.RecursiveChunker(chunk_size=size, language="markdown", tokenizer=tok)(TWO_BLOCKS)
        texts = [c.text for c in chunks]
        assert "".join(texts) == TWO_BLOCKS
        assert not any(ends_with_opening_fence(TWO_BLOCKS, c) for c in chunks[:-1]), (size, texts)
        assert not any(starts_with_closing_fence(TWO_BLOCKS, c) for c in chunks[1:]), (size, texts)
