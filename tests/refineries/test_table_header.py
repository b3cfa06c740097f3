"""TableHeaderRefinery: the header row (and caption) of a pipe table as embedded context."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import docchunk
from docchunk import ConfigError, OverlapRefinery, RecursiveChunker, TableHeaderRefinery
from tests.helpers import examples, line_chunks, sliced_chunks

TEXT = (
    "Revenue grew in every quarter. Long-term debt consisted of the following:\n\n"
    "(in millions) | 2017 | 2016\n"
    "senior notes due 2021 | 600 | 600\n"
    "senior notes due 2025 | 300 | 250\n"
    "total long-term debt | 900 | 850\n\n"
    "The company has no other debt. Cash was 120 | 130 in the two years.\n"
)
HEADER = "(in millions) | 2017 | 2016\n"
CAPTION = "Long-term debt consisted of the following:\n"


def _cuts_at_lines(text: str) -> list[int]:
    return [i + 1 for i, ch in enumerate(text[:-1]) if ch == "\n"]


def test_rows_after_the_header_get_header_and_caption():
    chunks = TableHeaderRefinery(caption=True)(sliced_chunks(TEXT, _cuts_at_lines(TEXT)))
    by_text = {c.text: c.context_prefix for c in chunks}
    assert by_text["senior notes due 2021 | 600 | 600\n"] == CAPTION + HEADER
    assert by_text["total long-term debt | 900 | 850\n"] == CAPTION + HEADER
    assert by_text[HEADER] is None  # the header itself needs no context
    assert by_text["The company has no other debt. Cash was 120 | 130 in the two years.\n"] is None  # a lone line
    assert by_text["Revenue grew in every quarter. Long-term debt consisted of the following:\n"] is None


def test_default_gives_the_header_row_only():
    chunks = TableHeaderRefinery()(sliced_chunks(TEXT, _cuts_at_lines(TEXT)))
    assert [c.context_prefix for c in chunks if c.context_prefix] == [HEADER] * 3


def test_chunk_holding_the_header_gets_no_context():
    cut = TEXT.index("senior notes due 2025")
    chunks = TableHeaderRefinery(caption=True)(sliced_chunks(TEXT, [TEXT.index(HEADER) - 1, cut]))
    assert [c.context_prefix for c in chunks] == [None, None, CAPTION + HEADER]


def test_context_goes_before_overlap_prefix_and_text_is_untouched():
    chunks = RecursiveChunker(chunk_size=12, tokenizer="word")(TEXT)
    before = [(c.text, c.start_index, c.end_index, c.token_count) for c in chunks]
    chunks = OverlapRefinery(tokenizer="word", context_size=2, method="prefix", merge=False)(chunks)
    prefixes = [c.context_prefix for c in chunks]
    out = TableHeaderRefinery()(chunks)
    assert [(c.text, c.start_index, c.end_index, c.token_count) for c in out] == before
    changed = [(c, p) for c, p in zip(out, prefixes, strict=True) if c.context_prefix != p]
    assert changed, "some chunk starts inside the table"
    for chunk, old in changed:
        assert chunk.context_prefix.endswith(old or "")
        assert HEADER in chunk.context_prefix


def test_inplace_false_leaves_the_input():
    chunks = sliced_chunks(TEXT, _cuts_at_lines(TEXT))
    out = TableHeaderRefinery(inplace=False)(chunks)
    assert all(c.context_prefix is None for c in chunks)
    assert any(c.context_prefix for c in out)


def test_a_gap_starts_a_new_run_so_the_header_is_not_seen():
    chunks = sliced_chunks(TEXT, _cuts_at_lines(TEXT))
    row = next(i for i, c in enumerate(chunks) if c.text.startswith("senior notes due 2025"))
    out = TableHeaderRefinery(caption=True)([chunks[row]])  # the rows before it are not given
    assert out[0].context_prefix is None


def test_markdown_table_with_delimiter_row():
    text = "| quarter | high | low |\n|---|---|---|\n| Q4 2008 | 37.28 | 19.35 |\n"
    out = TableHeaderRefinery(caption=False)(sliced_chunks(text, _cuts_at_lines(text)))
    assert [c.context_prefix for c in out] == [None, "| quarter | high | low |\n", "| quarter | high | low |\n"]


@pytest.mark.parametrize("bad", [0, -1, 1.5, True])
def test_bad_max_caption_chars(bad):
    with pytest.raises(ConfigError, match="max_caption_chars"):
        TableHeaderRefinery(max_caption_chars=bad)


def test_exported_from_package():
    assert docchunk.TableHeaderRefinery is TableHeaderRefinery


@settings(max_examples=examples(60), deadline=None)
@given(cuts=st.lists(st.integers(min_value=1, max_value=len(TEXT) - 1), unique=True, max_size=12))
def test_any_cut_context_is_header_of_the_table_or_nothing(cuts):
    chunks = TableHeaderRefinery(caption=True)(sliced_chunks(TEXT, sorted(cuts)))
    for c in chunks:
        assert TEXT[c.start_index : c.end_index] == c.text
        assert c.context_prefix in (None, CAPTION + HEADER)
        if c.context_prefix:
            assert TEXT.index(HEADER) + len(HEADER) <= c.start_index + len(c.text) - len(c.text.lstrip())


# -- CR and CRLF line breaks, long tables ------------------------------------------------------
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
