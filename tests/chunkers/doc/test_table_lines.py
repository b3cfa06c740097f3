"""Packing table lines under a repeated header (docchunk.chunkers.doc.compat.table_lines.split_lines)."""

from __future__ import annotations

import docchunk
from docchunk.chunkers.doc.compat.table_lines import split_lines
from docchunk.tokenizers import Sizer


def test_line_that_fits_only_without_the_header(cl100k):
    """Bug: when the header fit the budget but not one more character did, the loop
    emitted the header alone forever (found by hypothesis as a hanging HybridChunker)."""
    tok = docchunk.get_tokenizer(cl100k)
    header = "| a | b |\n"
    budget = tok.count_tokens(header) + 1  # the header and one token; an emoji is two
    out = split_lines(["😀😀 x"], budget, Sizer(tok), prefix=header)
    assert out == [header, "😀😀 x"]  # the header is kept once, the line goes without it
    assert all(tok.count_tokens(chunk) <= budget for chunk in out)
