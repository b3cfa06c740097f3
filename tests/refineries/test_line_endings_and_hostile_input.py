"""Hostile input for the context refineries: CR/CRLF line breaks, empty headings, long tables."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from docchunk import HeadingContextRefinery, TableHeaderRefinery
from tests.helpers import examples, line_chunks, sliced_chunks


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


def test_table_header_crlf_header_has_no_carriage_return():
    text = "a | b\r\n--|--\r\n1 | 2\r\n3 | 4\r\n"
    chunks = TableHeaderRefinery()(sliced_chunks(text, range(7, len(text), 7)))
    assert [c.context_prefix for c in chunks] == [None, "a | b\n", "a | b\n", "a | b\n"]


def test_table_header_cr_only_table_is_found():
    text = "Sales by year.\ryear | sales\r2007 | 10\r2008 | 12\r"
    chunks = TableHeaderRefinery(caption=True)(line_chunks(text))
    context = "Sales by year.\nyear | sales\n"
    assert [c.context_prefix for c in chunks] == [None, None, context, context]


def test_table_header_long_table_every_chunk_gets_the_header():
    # each chunk used to walk back row by row to the header (64 000 rows took about a minute);
    # the table is now scanned once. Speed is not timed here (house rule); this checks the result.
    text = "year | sales\n" + "".join(f"{y} | {y % 97}\n" for y in range(8_000))
    chunks = sliced_chunks(text, range(500, len(text), 500))
    TableHeaderRefinery(caption=True)(chunks)
    assert all(c.context_prefix == "year | sales\n" for c in chunks[1:] if not c.text.startswith("year"))


_LINES = st.lists(st.sampled_from(["# A", "## B #", "### C", "text", "x | y", "1 | 2", "= W =", "```", ""]),
                  max_size=25)  # fmt: skip


@given(_LINES, st.sampled_from(["\r\n", "\r"]))
@settings(max_examples=examples(200), deadline=None)
def test_contexts_do_not_depend_on_the_line_break(lines, newline):
    for refinery in (HeadingContextRefinery(), TableHeaderRefinery(caption=True)):
        unix = [c.context_prefix for c in refinery(line_chunks("\n".join(lines) + "\n"))]
        other = [c.context_prefix for c in refinery(line_chunks(newline.join(lines) + newline))]
        assert other == unix
