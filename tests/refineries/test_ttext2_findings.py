"""Regression tests for the round-2 text tester's refinery findings (issue 47), named after each fault."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from docchunk import Chunk, OverlapRefinery, RecursiveChunker


def split_at(text: str, *cuts: int) -> list[Chunk]:
    bounds = [0, *cuts, len(text)]
    return [Chunk(text=text[a:b], start_index=a, end_index=b) for a, b in pairwise(bounds)]


def suffixes(chunks: list[Chunk], **kwargs: object) -> list[str | None]:
    out = OverlapRefinery(merge=False, inplace=False, **kwargs)(chunks)  # type: ignore[arg-type]
    return [c.context_suffix for c in out]


# F1: a single "\r\n" counted as a blank line ("\r" then "\n"), so stop_at="documents" gave no context at all
TICKETS = "Joe: the VPN drops again\nMia: since when\nJoe: this morning\n\nLee: new laptop arrived\nMia: great"


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_a_crlf_line_break_is_no_blank_line_to_the_documents_stop(newline):
    text = TICKETS.replace("\n", newline)
    cut = text.index("Mia")
    out = suffixes(split_at(text, cut, text.index("Lee")), stop_at="documents", context_size=60)
    assert out[0] == text[cut : text.index("morning") + 7]  # both turns of the next chunk, up to its blank line
    assert out[1] is None  # the blank line at the junction


@given(st.lists(st.sampled_from(["Ana: yes", "Ben: no way", "", "  ", "# Title", "a | b"]), min_size=2, max_size=8),
       st.integers(1, 30))  # fmt: skip
def test_stops_are_the_same_with_crlf_as_with_lf(lines, size):
    lf = "\n".join(lines) + "\nend"
    crlf = lf.replace("\n", "\r\n")
    chunks = RecursiveChunker(chunk_size=size)(lf)

    def shift(i: int) -> int:  # the same chunks: each "\n" before a position is one more character with "\r\n"
        return i + lf.count("\n", 0, i)

    moved = [Chunk(text=crlf[shift(c.start_index) : shift(c.end_index)], start_index=shift(c.start_index),
                   end_index=shift(c.end_index)) for c in chunks]  # fmt: skip
    lf_out = suffixes(chunks, stop_at="documents", context_size=200)
    crlf_out = suffixes(moved, stop_at="documents", context_size=200)
    assert [s.replace("\r\n", "\n") if s else s for s in crlf_out] == lf_out
