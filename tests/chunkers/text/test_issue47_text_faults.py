"""Regression tests for the text-chunker faults of issue 47, each named after the fault it pins."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import docchunk
from docchunk import RecursiveChunker, SentenceChunker, TokenChunker
from docchunk.chunkers.text.sentence import sentence_spans
from docchunk.markup.fences import closing_fences

CODE = "\n".join(
    [
        "# Setup",
        "",
        "Run this first.",
        "",
        "{fence}python",
        "# install the package and check the version",
        "import docchunk",
        "# print the version number",
        "print(docchunk.__version__)",
        "{fence}",
        "",
        "Then go on.",
    ]
)


def exact(text: str, chunks: list[docchunk.Chunk], tokenizer: docchunk.Tokenizer) -> None:
    assert "".join(c.text for c in chunks) == text
    for c in chunks:
        assert text[c.start_index : c.end_index] == c.text
        assert c.token_count == tokenizer.count_tokens(c.text)


@pytest.mark.parametrize("fence", ["```", "~~~"])
def test_markdown_preset_does_not_cut_at_a_comment_inside_fenced_code(fence):
    text = CODE.format(fence=fence)
    block = text[text.index(fence) : text.rindex(fence) + 3]
    chunker = RecursiveChunker(chunk_size=len(block) + 2, language="markdown")
    chunks = chunker(text)
    exact(text, chunks, chunker.tokenizer)
    assert any(block in c.text for c in chunks)  # the block fits, so it stays whole
    assert all(c.text.count(fence) % 2 == 0 for c in chunks)  # no unclosed fence


def test_markdown_preset_does_not_cut_at_a_comment_inside_an_indented_fence_in_a_list():
    text = ("- install:\n\n    ```bash\n    # fetch the package first\n    pip install docchunk\n"
            "    # then check it\n    docchunk --help\n    ```\n\n- done\n")  # fmt: skip
    block = text[text.index("    ```bash") : text.rindex("```") + 3]
    chunks = RecursiveChunker(chunk_size=len(block) + 6, language="markdown")(text)
    assert "".join(c.text for c in chunks) == text
    assert any(block in c.text for c in chunks)


def test_sentence_level_cuts_at_sentence_ends_not_mid_sentence():
    text = ("Visitors must sign the register at the front desk first. Then they receive a badge from the guard. "
            "The badge must be worn at all times inside the building.")  # fmt: skip
    chunks = RecursiveChunker(chunk_size=70)(text)
    exact(text, chunks, docchunk.get_tokenizer("character"))
    assert [c.text for c in chunks] == [  # the space between sentences starts the next, as separators do
        "Visitors must sign the register at the front desk first.",
        " Then they receive a badge from the guard.",
        " The badge must be worn at all times inside the building.",
    ]
    assert RecursiveChunker(chunk_size=70, keep_separator="end")(text)[0].text.endswith("first. ")
    # the LangChain-equal preset keeps LangChain's separators (no sentence level): a cut mid-sentence
    old = RecursiveChunker(chunk_size=70, language="langchain")(text)
    assert old[0].text.endswith("Then they")
    assert docchunk.separators_for("langchain") == ["\n\n", "\n", " ", ""]


@pytest.mark.parametrize("size", [40, 60, 90])
def test_sentence_level_with_real_tokenizer(cl100k, size):
    text = "The first claim is simple. The second one, however, needs more words to state it well! " * 8
    chunker = RecursiveChunker(chunk_size=size, tokenizer=cl100k)
    chunks = chunker(text)
    exact(text, chunks, chunker.tokenizer)
    assert all(c.token_count <= size for c in chunks)
    assert all(c.text.rstrip().endswith((".", "!")) for c in chunks)


WRAPPED = (
    "The committee met on Tuesday to review the budget for the coming year and\n"
    "agreed that the travel allowance should be cut by a tenth. Members who\n"
    "objected were asked to put their reasons in writing before the next\n"
    "meeting.\n"
)


def test_hard_wrapped_paragraph_line_breaks_are_not_sentence_ends():
    assert [WRAPPED[s:e] for s, e in sentence_spans(WRAPPED)] == [
        "The committee met on Tuesday to review the budget for the coming year and\n"
        "agreed that the travel allowance should be cut by a tenth. ",
        "Members who\nobjected were asked to put their reasons in writing before the next\nmeeting.\n",
    ]
    chunks = SentenceChunker(chunk_size=170)(WRAPPED)
    assert [c.text.rstrip()[-1] for c in chunks] == [".", "."]  # no chunk ends at a wrap


def test_hard_wrapped_markdown_list_and_heading_start_new_sentences():
    text = ("The installer copies the files into the folder you chose during the first\n"
            "step and then asks for a restart\n"
            "- open the settings\n- choose a theme\n# Next steps\nRead on")  # fmt: skip
    spans = [text[s:e] for s, e in sentence_spans(text)]
    assert spans[0].startswith("The installer") and spans[0].endswith("restart\n")
    assert spans[1:] == ["- open the settings\n", "- choose a theme\n", "# Next steps\n", "Read on"]


def test_chat_log_turns_stay_apart_even_when_a_turn_is_long():
    text = ("Ana: I think we should go to the noodle place again later today after work\n"
            "Ben: ok\n[12:01] Eli: is the printer on the second floor fixed yet or not\n<fay> it jams")  # fmt: skip
    assert [text[s:e] for s, e in sentence_spans(text)] == text.splitlines(keepends=True)


@pytest.mark.parametrize(
    "poem",
    [
        "Shall I compare thee to a summer's day?\nThou art more lovely and more temperate:\n"
        "Rough winds do shake the darling buds of May,\nAnd summer's lease hath all too short a date;\n",
        "so much depends\nupon\na red wheel\nbarrow\n",
    ],
)
def test_a_poems_lines_stay_lines(poem):
    assert [poem[s:e] for s, e in sentence_spans(poem)] == poem.splitlines(keepends=True)


@pytest.mark.parametrize("size", [3, 5, 10, 20])
def test_no_whitespace_only_chunk_even_over_the_limit(size):
    text = "Hello there\n\n\n\n\n\n\n\n\n\n\n\nGeneral Kenobi\n\n\n\n\n\n      \n"
    for chunker in (RecursiveChunker(chunk_size=size), TokenChunker(chunk_size=size), SentenceChunker(chunk_size=size)):
        chunks = chunker(text)
        exact(text, chunks, chunker.tokenizer)
        assert not any(c.text.isspace() for c in chunks), (type(chunker).__name__, [c.text for c in chunks])
        for c in chunks:  # over the limit only by whitespace
            assert len(c.text.strip()) <= size or c.oversized


@given(st.text(alphabet=st.sampled_from("ab .\n\t"), min_size=1, max_size=80), st.integers(1, 12))
def test_no_whitespace_only_chunk_property(text, size):
    for chunker in (RecursiveChunker(chunk_size=size), TokenChunker(chunk_size=size), SentenceChunker(chunk_size=size)):
        chunks = chunker(text)
        exact(text, chunks, chunker.tokenizer)
        assert text.isspace() or not any(c.text.isspace() for c in chunks)
        assert all(c.token_count <= size or c.oversized for c in chunks)


SETEXT = "Fruit\n=====\n\nApples are red and round.\n\nPears\n-----\n\nPears are green and soft.\n"


def test_markdown_preset_cuts_before_setext_headings():
    from docchunk.markup.setext import setext_headings

    assert [(h.level, h.title) for h in setext_headings(SETEXT)] == [(1, "Fruit"), (2, "Pears")]
    chunks = RecursiveChunker(chunk_size=40, language="markdown")(SETEXT)
    assert "".join(c.text for c in chunks) == SETEXT
    pears = next(c for c in chunks if "Pears\n-----" in c.text)
    assert pears.text.lstrip().startswith("Pears\n-----")  # the heading opens its chunk
    assert not any(c.text.rstrip().endswith("Pears") for c in chunks)  # never cut from its underline


def test_closing_fence_never_starts_a_chunk_at_tiny_sizes():
    for fence in ("```", "~~~"):
        text = CODE.format(fence=fence) + "\n\nText\n\n" + fence + "\ncode line\nmore code\n" + fence + "\n\nend"
        closing = {start for start, _ in closing_fences(text)}
        assert len(closing) == 2
        for size in range(4, 60):  # below 4 characters the fence line itself is cut
            chunker = RecursiveChunker(chunk_size=size, language="markdown")
            chunks = chunker(text)
            exact(text, chunks, chunker.tokenizer)
            starts = {c.start_index + len(c.text) - len(c.text.lstrip()) for c in chunks}
            assert not starts & closing, (size, [c.text for c in chunks])


@pytest.mark.parametrize("text", ["… naïve\n\nnaïve", "a naïve\n\nnaïve", "naïve\n\nnaïve"])
def test_sentence_chunker_cuts_a_word_before_a_blank_line_as_it_cuts_the_same_word_alone(cl100k, text):
    # cl100k at 2 tokens: " naïve" is 2 tokens and "\n\n" one more, so the blank line fitted with
    # neither neighbour and joined " naïve" over the limit (3 tokens, oversized) while the second
    # "naïve" was cut into "naï" + "ve"; " naï" + "ve\n\n" fit, so the first is cut too
    tok = docchunk.get_tokenizer(cl100k)
    chunks = SentenceChunker(tok, chunk_size=2)(text)
    exact(text, chunks, tok)
    assert all(c.token_count <= 2 and not c.oversized for c in chunks), [(c.text, c.token_count) for c in chunks]
    cuts = [c.end_index for c in chunks]
    first, second = text.index("naïve"), text.rindex("naïve")
    assert [p - first for p in cuts if first < p < first + 5] == [p - second for p in cuts if second < p < second + 5]
