"""Regression tests for the refinery findings of tester s9/t47 on issue 47, each named after its finding."""

from __future__ import annotations

import pytest

import docchunk
from docchunk import HeadingContextRefinery, OverlapRefinery, RecursiveChunker

DOC = "# Guide\n\nBody text of the guide goes on here.\n\n## Install\n\nRun the installer now."


def paths(text: str) -> list[str | None]:
    chunks = RecursiveChunker(chunk_size=5, tokenizer="word", language="markdown")(text)
    return [c.context_prefix for c in HeadingContextRefinery(inplace=False)(chunks)]


# finding 2: a byte-order mark (U+FEFF) at the text's start


def test_finding2_a_byte_order_mark_does_not_hide_the_first_atx_heading():
    assert paths("\ufeff" + DOC) == paths(DOC) == [None, "Guide\n", "Guide\n", "Guide\nInstall\n"]


def test_finding2_a_setext_title_after_a_byte_order_mark_has_no_mark():
    text = "\ufeffGuide\n=====\n\nBody text of the guide."
    chunks = RecursiveChunker(chunk_size=5, tokenizer="word", language="markdown")(text)
    out = HeadingContextRefinery(inplace=False)(chunks)
    assert out[0].text.startswith("\ufeff")  # the mark stays in the text; offsets exact
    assert all(text[c.start_index : c.end_index] == c.text for c in out)
    assert [c.context_prefix for c in out][1:] == ["Guide\n"] * (len(out) - 1)


def test_finding2_headings_reads_a_bom_heading_at_offset_zero():
    assert HeadingContextRefinery().headings("\ufeff# Foo\nbar") == [(0, 1, "Foo")]


# finding 6: U+2029 PARAGRAPH SEPARATOR is a blank line to stop_at's "blank_line"


@pytest.mark.parametrize("sep", ["\u2029", "\n\u2029", "\u2029\n", " \u2029 "])
@pytest.mark.parametrize("method", ["suffix", "prefix"])
@pytest.mark.parametrize("stop_at", ["documents", ("blank_line",)])
def test_finding6_a_paragraph_separator_stops_context(sep, method, stop_at):
    text = "Ana: lunch at noon?\nBen: the noodle place" + sep + "Eli: is the printer fixed\nFay: it jams"
    chunks = RecursiveChunker(chunk_size=5, tokenizer="word")(text)
    out = OverlapRefinery(tokenizer="word", context_size=8, method=method, merge=False, inplace=False,
                          stop_at=stop_at)(chunks)  # fmt: skip
    first, second = text.index("noodle"), text.index("printer")
    for c in out:
        context = (c.context_suffix if method == "suffix" else c.context_prefix) or ""
        if c.start_index <= first < c.end_index:
            assert "printer" not in context
        if c.start_index <= second < c.end_index:
            assert "noodle" not in context
    # without a stop the context crosses it, as chonkie's does
    plain = OverlapRefinery(tokenizer="word", context_size=8, merge=False, inplace=False)(chunks)
    assert any("printer" in (c.context_suffix or "") for c in plain if "noodle" in c.text)


def test_finding6_a_paragraph_separator_inside_a_chunk_stops_context_as_a_blank_line_does():
    for sep in ("\n\n", "\u2029"):
        near = docchunk.Chunk(text="One two" + sep + "three", start_index=0, end_index=12 + len(sep))
        nxt = docchunk.Chunk(text=" four five", start_index=near.end_index, end_index=near.end_index + 10)
        text = near.text + nxt.text
        assert text[nxt.start_index : nxt.end_index] == nxt.text
        out = OverlapRefinery(tokenizer="word", context_size=4, method="prefix", merge=False, inplace=False,
                              stop_at=("blank_line",))([near, nxt])  # fmt: skip
        assert out[1].context_prefix == "three"
