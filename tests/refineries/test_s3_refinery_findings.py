"""The s3 tester's refinery findings (issue 47: 6 to 11, and 17 for the refineries), each pinned.

- the prefix stop is not bypassed by the line break a chunk starts with (6);
- the heading stop keeps the fence state with overlapping chunks (7) and when its
  400-character window starts inside a fence line (8);
- HeadingContextRefinery reads the path where the chunk's own text starts, after a
  merged prefix (9), carries it over separators dropped with keep_separator=False (10),
  and gives a chunk that starts with its own heading that heading's parents (11);
- a str or a list of str is refused, as by OverlapRefinery (17).
"""

from __future__ import annotations

import itertools

import pytest

from docchunk import Chunk, HeadingContextRefinery, OverlapRefinery, RecursiveChunker
from docchunk.errors import ConfigError
from docchunk.refineries.boundaries import EDGE

FRUIT = (
    "# Fruit\n\n## Apples\n\nApples are red. Cox is crisp and sweet.\n\n"
    "## Pears\n\nPears are soft and green and very juicy.\n"
)


def _two(text: str, cut: int) -> list[Chunk]:
    return [
        Chunk(text=text[:cut], start_index=0, end_index=cut, token_count=cut),
        Chunk(text=text[cut:], start_index=cut, end_index=len(text), token_count=len(text) - cut),
    ]


@pytest.mark.parametrize("language", ["markdown", None])
def test_prefix_stop_is_not_bypassed_by_a_leading_line_break(language):
    text = "# Doc one\n\nThe printer on floor two is fixed.\n# Doc two\n\nLunch is at noon on Friday.\n"
    chunks = RecursiveChunker(chunk_size=50, language=language)(text)
    out = OverlapRefinery(context_size=20, method="prefix", merge=False, stop_at="documents")(chunks)
    assert not [c for c in out if c.text.lstrip().startswith("# Doc two") and c.context_prefix]


@pytest.mark.parametrize(("text", "boundary"), [
    ("# Doc one\n\nThe printer on floor two is fixed.\n# Doc two\n\nLunch.\n", "# Doc two"),
    ("Prose before the table.\n| a | b |\n|---|---|\n| 1 | 2 |", "| a"),
])  # fmt: skip
def test_prefix_stop_at_the_line_break_before_a_heading_or_table(text, boundary):
    at = text.index(boundary)
    for cut in (at - 1, at):  # the chunk starts at the line break, or at the line itself
        out = OverlapRefinery(context_size=12, method="prefix", merge=False, stop_at="documents")(_two(text, cut))
        assert out[1].context_prefix is None


def test_heading_stop_keeps_the_fence_state_of_overlapping_chunks():
    text = "Intro words here.\n\n```\nx = 1\ny = 2\n# set z\nz = 3\n# set w\nw = 4\n```\n\nEnd of the text."
    chunks = RecursiveChunker(chunk_size=16, chunk_overlap=3, language="markdown")(text)
    assert any(a.end_index > b.start_index for a, b in itertools.pairwise(chunks))  # they overlap
    stop = OverlapRefinery(context_size=40, merge=False, inplace=False, stop_at=("heading",))(chunks)
    free = OverlapRefinery(context_size=40, merge=False, inplace=False)(chunks)
    assert [c.context_suffix for c in stop] == [c.context_suffix for c in free]


@pytest.mark.parametrize("pad", range(5))
def test_heading_stop_window_starting_inside_a_fence_line(pad):
    body = "".join(f"step_{i:02d} = run({i:02d})\n" for i in range(10))
    code = "```\n" + body
    code += "y" * (EDGE + pad - len(code) - 1) + "\n"  # the window starts in "```" for pad 1 and 2
    first = "Intro line.\n" + code
    text = first + "# comment\nmore = 1\n```\nAfter the code."
    stop = OverlapRefinery(context_size=40, merge=False, stop_at=("heading",))(_two(text, len(first)))
    assert stop[0].context_suffix == text[len(first) :]


def test_heading_path_is_read_after_a_merged_prefix():
    chunks = RecursiveChunker(chunk_size=45, language="markdown")(FRUIT)
    plain = HeadingContextRefinery(inplace=False)(chunks)
    merged = HeadingContextRefinery()(OverlapRefinery(context_size=15, method="prefix", inplace=False)(chunks))
    assert [c.context_prefix for c in merged] == [c.context_prefix for c in plain]
    assert merged[-1].context_prefix == "Fruit\nPears\n"


def test_heading_path_carries_over_separators_dropped_with_keep_separator_false():
    chunks = RecursiveChunker(chunk_size=45, keep_separator=False)(FRUIT)
    assert any(a.end_index < b.start_index for a, b in itertools.pairwise(chunks))  # gaps
    paths = [c.context_prefix for c in HeadingContextRefinery()(chunks)]
    assert paths == [None, "Fruit\nApples\n", "Fruit\n", "Fruit\nPears\n"]


def test_offsets_that_start_again_start_a_new_path():
    text = "# One\n\nBody one.\n"
    chunks = [Chunk(text=text, start_index=0, end_index=len(text)), Chunk(text="Body two.", start_index=0, end_index=9)]
    assert HeadingContextRefinery()(chunks)[1].context_prefix is None


@pytest.mark.parametrize("cut_before", ["\n## Pears", "## Pears"])
def test_a_chunk_that_starts_with_its_heading_gets_its_parents(cut_before):
    text = "# Fruit\n\n## Apples\n\nApples are red.\n\n## Pears\n\nPears are soft.\n"
    out = HeadingContextRefinery()(_two(text, text.index(cut_before)))
    assert out[1].context_prefix == "Fruit\n"


@pytest.mark.parametrize("bad", ["# T\nbody", ["# T", "body"], None])
def test_heading_refinery_refuses_what_is_not_chunks(bad):
    with pytest.raises(ConfigError, match="refines chunks"):
        HeadingContextRefinery()(bad)


def test_an_empty_atx_line_stops_no_context():
    """'#' alone is no heading to HeadingContextRefinery, nor to the heading stop."""
    text = "First part of the text.\n#\nSecond part of it."
    cut = text.index("#")
    out = OverlapRefinery(context_size=10, merge=False, stop_at=("heading",))(_two(text, cut))
    assert out[0].context_suffix == text[cut : cut + 10]
    assert HeadingContextRefinery()(_two(text, cut))[1].context_prefix is None


@pytest.mark.parametrize("method", ["suffix", "prefix"])
def test_recursive_mode_gives_more_than_the_blank_line_at_paragraph_junctions(method):
    """s3 finding 18: mode="recursive" took the '\\n\\n' a chunk starts with as a whole unit, and stopped."""
    text = (
        "Bees collect nectar from many flowers each day.\n\n"
        "The hive stores honey in wax cells for winter.\n\n"
        "Beekeepers harvest the surplus in late summer."
    )
    chunks = RecursiveChunker(chunk_size=60)(text)
    out = OverlapRefinery(mode="recursive", method=method, merge=False)(chunks)
    contexts = [c.context_suffix if method == "suffix" else c.context_prefix for c in out]
    contexts = contexts[:-1] if method == "suffix" else contexts[1:]
    assert all(c and c.strip() for c in contexts), contexts
