"""HeadingContextRefinery: the Markdown / MediaWiki heading path above each chunk as embedded context."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import docchunk
from docchunk import Chunk, ConfigError, HeadingContextRefinery, OverlapRefinery, RecursiveChunker, TableHeaderRefinery
from tests.helpers import examples, line_chunks, sliced_chunks

MARKDOWN = (
    "Intro before any heading.\n"
    "# Fruit\n"
    "Fruit is sweet.\n"
    "## Apples ##\n"
    "Apples are red.\n"
    "### Cox\n"
    "Cox is crisp.\n"
    "## Pears\n"
    "Pears are soft.\n"
)
WIKITEXT = (
    " = Valkyria Chronicles III = \n"
    " Senjo no Valkyria 3 is a tactical role @-@ playing game . \n"
    " = = Plot = = \n"
    " The game takes place during the Second Europan War . \n"
    " = = = Music = = = \n"
    " The music was composed by Hitoshi Sakimoto . \n"
    " = = Reception = = \n"
    " It sold 102 @,@ 779 copies . \n"
    " = Tower Building = \n"
    " The building was built in 1840 . a = b = c \n"
)


def _by_text(chunks):
    return {c.text.strip(): c.context_prefix for c in chunks}


def test_markdown_path_follows_levels():
    got = _by_text(HeadingContextRefinery(syntax=("markdown",))(line_chunks(MARKDOWN)))
    assert got["Intro before any heading."] is None
    assert got["# Fruit"] is None  # a heading is not its own context
    assert got["Fruit is sweet."] == "Fruit\n"
    assert got["Apples are red."] == "Fruit\nApples\n"  # closing '#'s are not part of the title
    assert got["Cox is crisp."] == "Fruit\nApples\nCox\n"
    assert got["Pears are soft."] == "Fruit\nPears\n"  # a level-2 heading closes Apples and Cox


def test_mediawiki_and_wikitext103_spacing():
    got = _by_text(HeadingContextRefinery(syntax=("mediawiki",))(line_chunks(WIKITEXT)))
    assert got["Senjo no Valkyria 3 is a tactical role @-@ playing game ."] == "Valkyria Chronicles III\n"
    assert got["The music was composed by Hitoshi Sakimoto ."] == "Valkyria Chronicles III\nPlot\nMusic\n"
    assert got["It sold 102 @,@ 779 copies ."] == "Valkyria Chronicles III\nReception\n"
    assert got["The building was built in 1840 . a = b = c"] == "Tower Building\n"  # a new article
    plain = "== Early life ==\nBorn in 1900.\n"
    assert _by_text(HeadingContextRefinery()(line_chunks(plain)))["Born in 1900."] == "Early life\n"


def test_unbalanced_or_markerless_lines_are_not_headings():
    refinery = HeadingContextRefinery()
    assert refinery.headings("==== Front\n= =\n#hashtag\n##\nx = y =\n") == []
    assert refinery.headings("= = Plot = = =\n") == []  # 2 on the left, 3 on the right


def test_context_goes_before_overlap_prefix_and_text_is_untouched():
    chunks = RecursiveChunker(chunk_size=10, tokenizer="word")(MARKDOWN)
    before = [(c.text, c.start_index, c.end_index, c.token_count) for c in chunks]
    chunks = OverlapRefinery(tokenizer="word", context_size=2, method="prefix", merge=False)(chunks)
    prefixes = [c.context_prefix for c in chunks]
    out = HeadingContextRefinery()(chunks)
    assert [(c.text, c.start_index, c.end_index, c.token_count) for c in out] == before
    assert any(c.context_prefix != p for c, p in zip(out, prefixes, strict=True))
    for chunk, old in zip(out, prefixes, strict=True):
        assert (chunk.context_prefix or "").endswith(old or "")


def test_inplace_false_leaves_the_input():
    chunks = line_chunks(WIKITEXT)
    out = HeadingContextRefinery(inplace=False)(chunks)
    assert all(c.context_prefix is None for c in chunks)
    assert any(c.context_prefix for c in out)


@pytest.mark.parametrize("bad", [(), ("rst",), ["markdown", "asciidoc"]])
def test_bad_syntax(bad):
    with pytest.raises(ConfigError, match="syntax"):
        HeadingContextRefinery(syntax=bad)


def test_exported_from_package():
    assert docchunk.HeadingContextRefinery is HeadingContextRefinery


@settings(max_examples=examples(60), deadline=None)
@given(cuts=st.lists(st.integers(min_value=1, max_value=len(WIKITEXT) - 1), unique=True, max_size=10))
def test_path_is_the_one_of_the_chunk_start_for_any_cut(cuts):
    bounds = [0, *sorted(cuts), len(WIKITEXT)]
    chunks = [Chunk(text=WIKITEXT[a:b], start_index=a, end_index=b) for a, b in itertools.pairwise(bounds)]
    whole = HeadingContextRefinery().headings(WIKITEXT)
    for c in HeadingContextRefinery()(chunks):
        assert WIKITEXT[c.start_index : c.end_index] == c.text
        path: dict[int, str] = {}
        for _, level, title in (h for h in whole if h[0] < c.start_index):
            path = {**{lv: t for lv, t in path.items() if lv < level}, level: title}
        lead = len(c.text) - len(c.text.lstrip())
        own = [h for h in whole if c.start_index <= h[0] <= c.start_index + lead < c.end_index]
        if own:  # a chunk that starts with a heading gets its parents (s3 tester, finding 9)
            path = {lv: t for lv, t in path.items() if lv < own[0][1]}
        assert c.context_prefix == ("".join(f"{path[lv]}\n" for lv in sorted(path)) or None)


# -- CR and CRLF line breaks, empty headings ---------------------------------------------------
def test_crlf_heading_closing_hashes_are_not_in_the_title():
    text = "# Title #\r\nbody one\r\n## Sub ##\r\nmore text\r\n"
    chunks = HeadingContextRefinery()(sliced_chunks(text, range(12, len(text), 12)))
    assert [c.context_prefix for c in chunks] == [None, "Title\n", "Title\nSub\n", "Title\nSub\n"]


def test_cr_only_line_breaks_end_headings():
    text = "# A\rbody\r## B\rmore text\r"
    chunks = HeadingContextRefinery()(sliced_chunks(text, range(5, len(text), 5)))
    assert [c.context_prefix for c in chunks] == [None, "A\n", "A\nB\n", "A\nB\n", "A\nB\n"]


def test_cr_only_mediawiki_headings():
    text = "= A =\rbody\r== B ==\rmore\r"
    assert HeadingContextRefinery(syntax=("mediawiki",)).headings(text) == [(0, 1, "A"), (11, 2, "B")]


def test_empty_atx_heading_gives_no_hash_title():
    text = "# #\nbody\n# ###\nmore\n"
    assert HeadingContextRefinery().headings(text) == []
    chunks = HeadingContextRefinery()(sliced_chunks(text, range(4, len(text), 4)))
    assert [c.context_prefix for c in chunks] == [None] * 5


_LINES = st.lists(st.sampled_from(["# A", "## B #", "### C", "text", "x | y", "1 | 2", "= W =", "```", ""]),
                  max_size=25)  # fmt: skip


@given(_LINES, st.sampled_from(["\r\n", "\r"]))
@settings(max_examples=examples(200), deadline=None)
def test_contexts_do_not_depend_on_the_line_break(lines, newline):
    for refinery in (HeadingContextRefinery(), TableHeaderRefinery(caption=True)):
        unix = [c.context_prefix for c in refinery(line_chunks("\n".join(lines) + "\n"))]
        other = [c.context_prefix for c in refinery(line_chunks(newline.join(lines) + newline))]
        assert other == unix
