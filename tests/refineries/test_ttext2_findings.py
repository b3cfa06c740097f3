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


# F11: "#" lines inside raw HTML blocks (CommonMark types 1-5) were headings to the ATX rules
HTML_BLOCKS = {
    "comment": "<!--\n## Draft notes\nnot ready to publish\n-->",
    "pre": "<pre>\n# make install\n# ldconfig\n</pre>",
    "script": '<script type="text/x-config">\n# retries = 3\n</script>',
    "style": "<STYLE>\n# not a selector either\n</STYLE>",
    "processing instruction": "<?php\n# echo 'hi';\n?>",
}


def _doc(block: str) -> str:
    return f"# Setup\n\nFirst build the tool.\n\n{block}\n\nThen restart the daemon.\n\n## Checks\n\nRun the tests."


@pytest.mark.parametrize("kind", HTML_BLOCKS)
def test_heading_context_skips_hash_lines_inside_html_blocks(kind):
    from docchunk import HeadingContextRefinery

    text = _doc(HTML_BLOCKS[kind])
    chunks = split_at(text, text.index("\n", text.index(HTML_BLOCKS[kind])) + 1, text.index("Then"), text.index("Run"))
    out = HeadingContextRefinery(inplace=False)(chunks)
    assert [c.context_prefix for c in out[1:]] == ["Setup\n", "Setup\n", "Setup\nChecks\n"]


@pytest.mark.parametrize("kind", HTML_BLOCKS)
@pytest.mark.parametrize("method", ["suffix", "prefix"])
def test_heading_stop_ignores_hash_lines_inside_html_blocks(kind, method):
    block = HTML_BLOCKS[kind]
    text = _doc(block)
    lines = block.split("\n")
    cut = text.index(block) + len(lines[0]) + 1 + len(lines[1]) + 1  # after the "#" line: the block opened before
    chunks = split_at(text, text.index(block) + len(lines[0]), cut)
    out = OverlapRefinery(context_size=200, method=method, merge=False, inplace=False, stop_at=("heading",))(chunks)
    if method == "suffix":
        assert out[0].context_suffix == text[chunks[1].start_index : chunks[2].start_index]  # runs over the "#" line
        assert out[1].context_suffix == text[cut : text.index("## Checks")]  # a real heading still stops it
    else:
        assert out[2].context_prefix == chunks[1].text


def test_a_one_line_comment_ends_before_the_heading_under_it():
    from docchunk import HeadingContextRefinery

    text = "<!-- generated file -->\n# Title\nBody text here."
    out = HeadingContextRefinery(inplace=False)(split_at(text, text.index("Body")))
    assert out[1].context_prefix == "Title\n"


# F7: the table stop fired at any line holding "|"; a table is two or more consecutive such lines
SHELL_CHAT = ("Kim: how many workers are up\nRaj: run ps aux | grep worker | wc -l\nKim: says four\n"
              "Raj: then tail -f log.txt | less and watch")  # fmt: skip


@pytest.mark.parametrize("method", ["suffix", "prefix"])
def test_a_single_line_with_a_pipe_is_no_table_to_the_table_stop(method):
    cuts = [SHELL_CHAT.index(w) for w in ("Raj: run", "grep worker", "Kim: says", "Raj: then", "less")]
    chunks = split_at(SHELL_CHAT, *cuts)
    out = OverlapRefinery(context_size=300, method=method, merge=False, inplace=False, stop_at=("table",))(chunks)
    got = [c.context_suffix if method == "suffix" else c.context_prefix for c in out]
    neighbours = [c.text for c in chunks[1:]] + [None] if method == "suffix" else [None] + [c.text for c in chunks[:-1]]
    assert got == neighbours  # one dialogue, no table: every junction gets the whole neighbour


STOCK = "Stock on hand:\nitem | count\nbolts | 40\nnuts | 12\nThat is all for now."


def test_the_table_stop_sees_a_table_whose_second_row_is_beyond_the_context():
    chunks = split_at(STOCK, STOCK.index("item"), STOCK.index("That"))
    out = suffixes(chunks, stop_at=("table",), context_size=3, tokenizer="word")
    assert out[0] is None  # "item | count" opens a table, though its next row is not in the context
    prefix = OverlapRefinery(context_size=3, method="prefix", tokenizer="word", merge=False, inplace=False,
                             stop_at=("table",))(chunks)  # fmt: skip
    assert prefix[2].context_prefix is None  # "nuts | 12\n" ends one


def test_the_table_stop_and_table_header_refinery_read_the_same_tables():
    from docchunk import TableHeaderRefinery

    text = f"{SHELL_CHAT}\n\n{STOCK}"
    chunks = RecursiveChunker(chunk_size=4, tokenizer="word")(text)
    headed = TableHeaderRefinery(inplace=False)(chunks)
    stopped = OverlapRefinery(context_size=1, method="prefix", tokenizer="word", merge=False, inplace=False,
                              stop_at=("table",))(chunks)  # fmt: skip
    in_table = [bool(c.context_prefix) for c in headed]
    assert any(in_table)
    for k, (chunk, table) in enumerate(zip(chunks, in_table, strict=True)):
        if k and "|" in chunk.text and not table:  # a pipe outside any table never stops the context
            assert stopped[k].context_prefix


# F12: with merge=True, merged chunks were recounted in the refinery's unit (characters by default) while the
# others kept the chunker's (cl100k): one list mixed units
NOTES = ("The boiler room is locked at night. Keys are kept at the front desk. Ask the porter for them. "
         "Sign the book when you take them and again when you bring them back.")  # fmt: skip


@pytest.mark.parametrize("stop_at", [(), "documents"])
@pytest.mark.parametrize("method", ["suffix", "prefix"])
def test_merged_overlap_gives_one_unit_per_list(cl100k, stop_at, method):
    import docchunk

    cl = docchunk.get_tokenizer(cl100k)
    chunks = RecursiveChunker(chunk_size=12, tokenizer=cl)(NOTES)
    assert len(chunks) >= 3
    default = OverlapRefinery(method=method, stop_at=stop_at, inplace=False)(chunks)
    assert [c.token_count for c in default] == [len(c.text) for c in default]  # the refinery's unit, characters
    same = OverlapRefinery(tokenizer=cl, method=method, stop_at=stop_at, inplace=False)(chunks)
    assert [c.token_count for c in same] == [cl.count_tokens(c.text) for c in same]
    chunker = RecursiveChunker(chunk_size=12, tokenizer=cl)
    told = OverlapRefinery(chunker=chunker, method=method, stop_at=stop_at, inplace=False)(chunks)
    assert [c.token_count for c in told] == [cl.count_tokens(c.text) for c in told]


def test_a_list_that_takes_no_context_keeps_its_counts(cl100k):
    import docchunk

    cl = docchunk.get_tokenizer(cl100k)
    text = "Ana: the build is green\n\nBen: deploy at five"
    chunks = RecursiveChunker(chunk_size=8, tokenizer=cl)(text)
    out = OverlapRefinery(stop_at="documents", inplace=False)(chunks)  # the blank line stops every context
    assert [c.text for c in out] == [c.text for c in chunks]
    assert [c.token_count for c in out] == [c.token_count for c in chunks]
