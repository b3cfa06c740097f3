"""Unicode line and paragraph separators and fixed-width spaces (the round-2 text tester's F10).

U+2029 (PARAGRAPH SEPARATOR) is a paragraph break wherever ``"\\n\\n"`` is; U+2028, a
vertical tab, a form feed, NEL and the rest of ``str.splitlines``' list are line breaks
wherever ``"\\n"`` is; the thin space and the other fixed-width spaces separate words as
the no-break spaces do.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docchunk import RecursiveChunker, SentenceChunker
from docchunk.chunkers.text import sentence_spans
from docchunk.chunkers.text.separators import SPACES
from docchunk.markup.line_breaks import BREAK, BREAKS, LINE_BREAKS

P1 = "Heating Repairs In The North Wing Begin Monday"
P2 = "Contractors will shut off the boilers at six and the work lasts two days"
WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]
ODD_BREAKS = ["\u2029", "\u2028", "\x0c", "\x0b", "\x85", "\x1e"]


def test_reference_list_is_str_splitlines():
    """Every character ``str.splitlines`` breaks at is a line break, and no other."""
    breaking = [chr(c) for c in range(0x3000) if len(("a" + chr(c) + "b").splitlines()) == 2]
    assert sorted(LINE_BREAKS) == sorted(breaking)


def _splitlines_breaks(text: str) -> list[tuple[int, int]]:
    """The spans of the line breaks ``str.splitlines`` finds in ``text``."""
    spans, pos = [], 0
    for line in text.splitlines(keepends=True):
        bare = len(line.splitlines()[0]) if line.splitlines() else 0
        if bare < len(line):
            spans.append((pos + bare, pos + len(line)))
        pos += len(line)
    return spans


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=st.sampled_from([*LINE_BREAKS, "a", " "]), max_size=12), data=st.data())
def test_break_pattern_finds_the_breaks_of_str_splitlines(text, data):
    """``BREAKS`` (the one pattern the text and document chunkers use) between any ``pos`` and ``endpos``.

    A ``"\r"`` whose ``"\n"`` is past ``endpos`` is a break of its own, as in the slice;
    the captured form splits into lines and breaks that join back to the text.
    """
    lo = data.draw(st.integers(0, len(text)))
    hi = data.draw(st.integers(lo, len(text)))
    found = [(m.start() - lo, m.end() - lo) for m in BREAKS.finditer(text, lo, hi)]
    assert found == _splitlines_breaks(text[lo:hi])
    first = BREAKS.search(text, lo, hi)
    assert (first.span() if first else None) == ((found[0][0] + lo, found[0][1] + lo) if found else None)
    parts = re.split(f"({BREAK})", text)  # line, break, line, ..., line
    assert "".join(parts) == text
    assert parts[::2] == ([*text.splitlines(), ""] if not text or parts[-1] == "" else text.splitlines())


@pytest.mark.parametrize("sep", ODD_BREAKS)
@pytest.mark.parametrize("tok", ["character", "cl100k", "minilm"])
def test_paragraphs_apart(text_tokenizers, tok, sep):
    """Each paragraph fits, two do not: a chunk per paragraph (the paragraphs were run together)."""
    tokenizer = text_tokenizers[tok]
    text = P1 + sep + P2 + sep + P1
    size = tokenizer.count_tokens(sep + P2) + 1
    chunks = RecursiveChunker(chunk_size=size, tokenizer=tokenizer)(text)
    assert [c.text.strip(sep) for c in chunks] == [P1, P2, P1]
    assert all(text[c.start_index : c.end_index] == c.text for c in chunks)
    assert all(c.token_count == tokenizer.count_tokens(c.text) for c in chunks)


def test_paragraph_separator_is_a_blank_line():
    """U+2029 ends a paragraph of wrapped prose as a blank line does (a single U+2028 does not)."""
    para = (
        "The committee met on Tuesday to review the budget for the coming year and\n"
        "agreed that the travel allowance should be cut by a tenth after the talks"
    )
    blank = RecursiveChunker(chunk_size=len(para) + 3)(para + "\n\n" + para)
    assert [c.text for c in RecursiveChunker(chunk_size=len(para) + 3)(para + "\u2029" + para)] == [
        c.text.replace("\n\n", "\u2029") for c in blank
    ]
    assert len(sentence_spans(para + "\u2029" + para)) == 2
    assert len(sentence_spans("She met Dr.\u2029Smith left.")) == 2  # no wrap after an abbreviation
    assert len(sentence_spans(para.replace("\n", "\u2028"))) == 1  # a wrap, as "\n"


@pytest.mark.parametrize("space", SPACES)
@pytest.mark.parametrize("tok", ["character", "cl100k"])
def test_no_word_cut_at_a_fixed_width_space(text_tokenizers, tok, space):
    tokenizer = text_tokenizers[tok]
    text = space.join(WORDS)
    size = max(tokenizer.count_tokens(space + w) for w in WORDS) + 1  # a word fits, not every two
    chunks = RecursiveChunker(chunk_size=size, tokenizer=tokenizer)(text)
    assert [w for c in chunks for w in c.text.split(space) if w] == WORDS, [c.text for c in chunks]


@pytest.mark.parametrize("sep", ["\u2028", "\x0c"])
def test_words_on_lines_of_their_own(sep):
    chunks = RecursiveChunker(chunk_size=15)(sep.join(WORDS))
    assert [w for c in chunks for w in c.text.split(sep) if w] == WORDS


parts = st.lists(st.sampled_from([*WORDS, "Dr.", "end.", "# Title", "- item", "日本語。"]), min_size=1, max_size=40)
glue = st.sampled_from([" ", "\n", "\n\n", "\r\n", "\r", *ODD_BREAKS, "\u2029\u2029", "\r\n\u2028", *SPACES[:3]])


@st.composite
def texts(draw) -> str:
    words = draw(parts)
    return "".join(w + (draw(glue) if i < len(words) - 1 else "") for i, w in enumerate(words))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts(), size=st.integers(1, 60), keep=st.sampled_from(["start", "end", False]),
       language=st.sampled_from([None, "markdown", "langchain"]))  # fmt: skip
def test_any_breaks_exact_offsets(text, size, keep, language):
    """Offsets slice back, every character is kept (with a separator kept), none ends inside a ``"\\r\\n"``."""
    chunks = RecursiveChunker(chunk_size=size, keep_separator=keep, language=language)(text)
    for c in chunks:
        assert text[c.start_index : c.end_index] == c.text and c.text
        assert c.token_count == len(c.text)
        assert text[c.end_index - 1 : c.end_index + 1] != "\r\n"
    if language == "langchain":  # LangChain's chunks: stripped, only the whitespace between them left out
        kept = {i for c in chunks for i in range(c.start_index, c.end_index)}
        assert all(text[i].isspace() for i in range(len(text)) if i not in kept)
    elif keep:
        assert "".join(c.text for c in chunks) == text
    spans = sentence_spans(text)
    assert "".join(text[a:b] for a, b in spans) == text
    sentences = SentenceChunker(chunk_size=max(size, 20))(text)
    assert all(text[c.start_index : c.end_index] == c.text for c in sentences)
