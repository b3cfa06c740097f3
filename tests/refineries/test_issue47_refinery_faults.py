"""Regression tests for the refinery faults of issue 47, each named after the fault it pins."""

from __future__ import annotations

from itertools import pairwise

import pytest

import docchunk
from docchunk import Chunk, HeadingContextRefinery, OverlapRefinery, RecursiveChunker

PARAGRAPHS = ("The library opens at nine on weekdays.\n\nStudents need a card to borrow books.\n\n"
              "Late returns cost ten cents a day.")  # fmt: skip


def split_at(text: str, *cuts: int) -> list[Chunk]:
    bounds = [0, *cuts, len(text)]
    return [Chunk(text=text[a:b], start_index=a, end_index=b) for a, b in pairwise(bounds)]


def test_overlap_refinery_default_gives_context_at_a_paragraph_junction():
    chunks = RecursiveChunker(chunk_size=70)(PARAGRAPHS)
    assert len(chunks) == 3 and all(c.text.startswith("\n\n") for c in chunks[1:])  # cut at blank lines
    out = OverlapRefinery(context_size=10, merge=False, inplace=False)(chunks)
    # chonkie's behaviour: the neighbour's edge, whatever it holds
    assert [c.context_suffix for c in out] == [c.text[:10] for c in chunks[1:]] + [None]
    prefix = OverlapRefinery(context_size=10, method="prefix", merge=False, inplace=False)(chunks)
    assert [c.context_prefix for c in prefix] == [None] + [c.text[-10:] for c in chunks[:-1]]


def test_overlap_refinery_documents_preset_stops_at_blank_lines_headings_tables():
    chunks = RecursiveChunker(chunk_size=70)(PARAGRAPHS)
    out = OverlapRefinery(context_size=10, merge=False, inplace=False, stop_at="documents")(chunks)
    assert all(c.context_suffix is None for c in out)  # a blank line separates each from the next
    assert OverlapRefinery(stop_at="documents").stop_at == ("blank_line", "heading", "table")
    assert OverlapRefinery(stop_at="none").stop_at == ()
    with pytest.raises(docchunk.ConfigError, match="preset name"):
        OverlapRefinery(stop_at="chat-logs")


@pytest.mark.parametrize("fence", ["```", "~~~", "    ```"])
def test_heading_stop_ignores_comments_inside_fenced_code(fence):
    code = "pip install docchunk\n# then check the version\ndocchunk --help\n"
    text = f"- Install it:\n{fence}bash\n{code}{fence}\n"  # indented four spaces: a fence in a list item
    cut = text.index("pip")
    chunks = split_at(text, cut)
    out = OverlapRefinery(context_size=100, merge=False, inplace=False, stop_at=("heading",))(chunks)
    assert out[0].context_suffix == text[cut:]  # "# then check" is code, not a heading
    later = split_at(text, text.index("docchunk --help"))  # the opening fence is in the chunk before
    out = OverlapRefinery(context_size=100, method="prefix", merge=False, inplace=False, stop_at=("heading",))(later)
    assert "# then check" in out[1].context_prefix


def test_heading_stop_still_stops_at_a_real_heading_after_code():
    text = "```\n# code comment\n```\nSome text.\n# Next section\nMore text."
    chunks = split_at(text, text.index("Some"))
    out = OverlapRefinery(context_size=100, merge=False, inplace=False, stop_at=("heading",))(chunks)
    assert out[0].context_suffix == "Some text.\n"


@pytest.mark.parametrize("fence", ["~~~", "    ```"])
def test_heading_context_skips_comments_in_tilde_and_indented_fences(fence):
    text = f"# Guide\n\n- step one:\n\n{fence}\n# not a heading\nrun()\n{fence}\n\nAfter the code."
    chunks = split_at(text, text.index("run()"), text.index("After"))
    out = HeadingContextRefinery(inplace=False)(chunks)
    assert [c.context_prefix for c in out[1:]] == ["Guide\n", "Guide\n"]


def test_heading_context_knows_setext_headings():
    text = "Fruit\n=====\n\nApples\n------\n\nRed and round.\n\nVegetables\n==========\n\nGreen."
    chunks = split_at(text, text.index("Red"), text.index("Green"))
    out = HeadingContextRefinery(inplace=False)(chunks)
    assert [c.context_prefix for c in out] == [None, "Fruit\nApples\n", "Vegetables\n"]


def test_setext_underline_after_a_blank_line_is_a_thematic_break():
    text = "Intro.\n\n---\n\nBody text."
    out = HeadingContextRefinery(inplace=False)(split_at(text, text.index("Body")))
    assert out[1].context_prefix is None


@pytest.mark.parametrize("opening", ["## Results", "= Results =", "| a | b |\n| 1 | 2 |"])
def test_no_prefix_before_a_chunk_that_opens_with_a_heading_or_table_after_a_line_break(opening):
    """RecursiveChunker keeps the separator at the chunk's start ("\n## Results"): the heading is still at the junction.

    Before the fix a chunk that opened with the heading itself got no prefix context, the
    same chunk opening with the kept line break got the end of the previous section.
    """
    text = f"The old section ends here.\n{opening}\nThe new section starts."
    cut = text.index(opening)
    for junction in (cut - 1, cut):  # the line break at the start of the chunk, or at the end of the one before
        chunks = split_at(text, junction)
        out = OverlapRefinery(context_size=100, method="prefix", merge=False, inplace=False, stop_at="documents")(
            chunks)  # fmt: skip
        assert out[1].context_prefix is None, (junction, out[1].context_prefix)
        suffix = OverlapRefinery(context_size=100, merge=False, inplace=False, stop_at="documents")(chunks)
        assert suffix[0].context_suffix is None
