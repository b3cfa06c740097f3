"""Regression tests for the round-2 text tester's chunker findings (issue 47), named after each fault."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from docchunk import OverlapRefinery, RecursiveChunker, SentenceChunker, TokenChunker
from docchunk.chunkers.text.separators import DEFAULT_SEPARATORS, describe_separators
from docchunk.errors import ConfigError, ConfigTypeError
from docchunk.markup.fences import closing_fences
from docchunk.markup.sentences import sentence_spans


# F1: the paragraph reader's blank line also took a single CRLF for two line breaks
def test_sentence_spans_read_a_crlf_paragraph_as_its_lf_twin():
    lf = ("The meeting ran long and we\nagreed to meet again next week on Monday.\nThe budget was cut by a tenth and "
          "the\nstaff complained about it loudly.")  # fmt: skip
    crlf = lf.replace("\n", "\r\n")
    texts = [
        [lf[a:b] for a, b in sentence_spans(lf)],
        [crlf[a:b].replace("\r\n", "\n") for a, b in sentence_spans(crlf)],
    ]
    assert texts[0] == texts[1]


# F11: the markdown preset cut at "\n# " inside <pre>, <script>, <style> and comments
@pytest.mark.parametrize(
    "block",
    [
        "<pre>\n# cp build/app /usr/local/bin\n# chmod +x /usr/local/bin/app\n</pre>",
        "<!--\n# Old intro\nThis paragraph was cut in review.\n-->",
        "<script>\n# templated by the build step\nvar x = 1;\n</script>",
    ],
)
@pytest.mark.parametrize("tokenizer", ["character", "cl100k"])
def test_markdown_preset_keeps_an_html_block_that_fits_whole(block, tokenizer, cl100k):
    tok = cl100k if tokenizer == "cl100k" else "character"
    text = f"# Install\n\nCopy the binary as root.\n\n{block}\n\n# Use\n\nRun app --help to start."
    counter = RecursiveChunker(chunk_size=10**6, tokenizer=tok)
    size = counter.tokenizer.count_tokens(block) + 2
    chunks = RecursiveChunker(chunk_size=size, language="markdown", tokenizer=tok)(text)
    assert any(block in c.text for c in chunks), [c.text for c in chunks]
    assert "".join(c.text for c in chunks) == text
    assert any(c.text.lstrip().startswith("# Use") for c in chunks)  # the real heading after it still cuts


# F5: wrong-typed separators and unknown keywords were ConfigErrors only (no TypeError); the empty-list message
# named LangChain's list as the default
@pytest.mark.parametrize("separators", ["\n\n", ["\n", b" "], ("\n\n", 0), [["\n"]]])
def test_wrong_typed_separators_are_a_type_error_naming_the_value(separators):
    with pytest.raises(ConfigTypeError, match="separators must be a list of str") as info:
        RecursiveChunker(chunk_size=20, separators=separators)
    assert isinstance(info.value, TypeError) and isinstance(info.value, ValueError)
    assert repr(separators)[1:-1] in str(info.value)  # the value, as a list or a tuple


def test_the_empty_separator_list_message_names_the_real_default():
    with pytest.raises(ConfigError) as info:
        RecursiveChunker(chunk_size=20, separators=[])
    message = str(info.value)
    assert describe_separators(DEFAULT_SEPARATORS) in message and "SENTENCE" in message
    assert not isinstance(info.value, TypeError)  # the type is right, the value is not


@pytest.mark.parametrize(
    "make",
    [
        lambda: RecursiveChunker(chunk_size=20, overlap_mode=None),
        lambda: TokenChunker(chunk_size=20, strip=True),
        lambda: OverlapRefinery(window=3),
        lambda: RecursiveChunker(20, 0, None, "start", None, "character", "extra"),
    ],
)
def test_an_unknown_keyword_or_extra_argument_is_a_type_error_as_in_python(make):
    with pytest.raises(ConfigTypeError, match=r"[Aa]ccepted") as info:
        make()
    assert isinstance(info.value, TypeError) and isinstance(info.value, ConfigError)


# F6: the markdown preset knew only "\n\n***\n\n", "\n\n---\n\n", "\n\n___\n\n": other thematic breaks were glued
# to the end of the section before them
@pytest.mark.parametrize("rule", ["***", "*****", "* * *", "___", "_ _ _ _", "- - -", "----------", "  ***"])
@pytest.mark.parametrize("gap", ["\n", "\n\n", "\r\n\r\n"])
def test_markdown_preset_cuts_before_any_thematic_break(rule, gap):
    before, after = "The first part ends here.", "The second part begins now."
    text = f"{before}{gap}{rule}{gap}{after}"
    if rule.strip()[0] == "-" and gap == "\n":
        return  # "---" right under a paragraph line underlines a Setext heading: not a break
    chunks = RecursiveChunker(chunk_size=len(text) - 5, language="markdown")(text)
    assert [c.text for c in chunks] == [before, text[len(before) :]]


def test_a_setext_underline_and_a_break_inside_code_are_not_breaks():
    text = "Title line\n---\nBody of the section here.\n```\n***\n```\nEnd."
    chunks = RecursiveChunker(chunk_size=30, language="markdown")(text)
    assert all(not c.text.lstrip().startswith("***") for c in chunks)
    assert "Title line\n---" in "".join(c.text for c in chunks[:1])


# F4: at budgets of 1-6, a chunk still started with a closing fence (whitespace given to it after the fence phase)
# or inside one (a fence longer than the budget was cut between its marks)
FENCED = st.builds(
    lambda before, fence, extra, body, nl, after: f"{before}{nl}{fence}\n{body}{nl}{fence}{extra}{nl}{after}",
    st.sampled_from(["Run it:", "Text", "A"]),
    st.sampled_from(["```", "~~~~~", "````"]),
    st.sampled_from(["", "~~", "``"]),
    st.sampled_from(["make", "", "\n\n", "x = 1\ny = 2"]),
    st.sampled_from(["\n", "\r\n", "\n\n"]),
    st.sampled_from(["Done.", "End", "ok"]),
)


@given(text=FENCED, size=st.integers(1, 8), keep=st.sampled_from(["start", "end", False]),
       tok=st.sampled_from(["character", "cl100k", "minilm"]))  # fmt: skip
def test_no_chunk_starts_at_or_inside_a_closing_fence_at_tiny_budgets(text, size, keep, tok, cl100k, minilm_dir):
    fences = [(a, b) for a, b in closing_fences(text)]
    assume(fences)
    spec = {"character": "character", "cl100k": cl100k, "minilm": f"hf:{minilm_dir}"}[tok]
    chunker = RecursiveChunker(chunk_size=size, language="markdown", tokenizer=spec, keep_separator=keep)
    chunks = chunker(text)
    for c in chunks:
        assert text[c.start_index : c.end_index] == c.text and c.text.strip()
        assert c.token_count == chunker.tokenizer.count_tokens(c.text)
        assert c.token_count <= size or c.oversized
    for a, b in fences:
        marks = a + len(text[a:b]) - len(text[a:b].lstrip())
        for c in chunks[1:]:
            first = c.start_index + len(c.text) - len(c.text.lstrip())
            assert not marks <= first < b, (text, [x.text for x in chunks])


# F8: a period before a lower-case word, in spaced German abbreviations, after "ext." before a number and after a
# day before a German month ended a sentence, so the chunkers cut mid-sentence
FALSE_ENDS = [
    "Yesterday we toured the dept. offices on the third floor.",
    "The bus stops at the hosp. entrance every ten minutes.",
    "Bitte bringt d. h. alle eure Unterlagen mit.",
    "Man kann u. U. auch später noch kommen.",
    "Das Fest beginnt am 3. Oktober um acht Uhr.",
    "Ring the help desk on tel. 4410 before five.",
    "Мы встретились в 7 ч. утра у входа.",
]


@pytest.mark.parametrize("sentence", FALSE_ENDS)
def test_no_sentence_end_inside_these_sentences(sentence):
    text = f"First things first. {sentence} After that we rested."
    spans = [text[a:b] for a, b in sentence_spans(text)]
    assert spans == ["First things first. ", sentence + " ", "After that we rested."]


@pytest.mark.parametrize("sentence", FALSE_ENDS)
@pytest.mark.parametrize("make", [RecursiveChunker, SentenceChunker])
def test_chunkers_keep_these_sentences_whole(sentence, make):
    text = f"First things first. {sentence} After that we rested."
    chunks = make(chunk_size=len(sentence) + 2)(text)
    assert any(c.text.strip() == sentence for c in chunks), [c.text for c in chunks]


def test_lower_cased_text_still_ends_sentences_before_lower_case_words():
    text = "revenue rose in 2003. this liability was recorded in march. the board approved it."
    assert len(sentence_spans(text)) == 3  # the text never capitalises: each period ends a sentence


def test_a_lower_cased_document_inside_a_capitalised_text_keeps_its_sentence_ends():
    """Regression (5 December): capitalisation was judged over the whole text, so a lower-cased
    document inside a large capitalised one read as capitalised, and each of its periods before a
    lower-case word was taken for an abbreviation: its sentences ran together (and the chunker read
    back over all those periods: character mode 0.63x chonkie at 10 MB). It is judged near the period."""
    capitalised = "The Board met on Monday. It approved the plan. " * 400  # 18,800 characters, 4+ blocks
    lower = "revenue rose in 2003. this liability was recorded in march. the board approved it. " * 200  # 16,800
    text = capitalised + "\n\n" + lower
    start = len(capitalised) + 2 + 8192  # past the blocks next to the capitalised part
    spans = [text[a:b] for a, b in sentence_spans(text) if a >= start]
    assert len(spans) > 250 and set(spans) == {
        "revenue rose in 2003. ",
        "this liability was recorded in march. ",
        "the board approved it. ",
    }, set(spans)
    # and the capitalised part keeps its abbreviation rule (judged over the blocks near the period)
    toured = "Yesterday we toured the dept. offices on the third floor. "
    half = "The Board met on Monday. It approved the plan. " * 200
    mixed = half + toured + half + "\n\n" + lower
    assert toured in [mixed[a:b] for a, b in sentence_spans(mixed)]


def test_a_word_with_capitals_after_a_period_still_starts_a_sentence():
    text = "The samples were frozen at once. mRNA levels were read later. Then we stopped."
    assert len(sentence_spans(text)) == 3


def test_a_period_before_a_listed_abbreviation_still_ends_a_sentence():
    text = "The talk was given at the vision workshops. pp. 12-19 hold the slides. The end."
    assert [text[a:b] for a, b in sentence_spans(text)][:2] == ["The talk was given at the vision workshops. ",
                                                                "pp. 12-19 hold the slides. "]  # fmt: skip


# F13: a long URL alone on a line set the paragraph's width, so every 72-column wrap read as a line end
@pytest.mark.parametrize("url_length", [90, 150, 260])
def test_a_long_url_line_sets_no_width_for_the_wraps(url_length):
    url = "https://intranet.example.org/docs/" + "a" * (url_length - 34)
    text = ("Our team reviewed the draft schedule on Monday and decided that the two\n"
            "workshops planned for spring should move to the first week of May.\n"
            f"{url}\n"
            "Everyone agreed to send comments by Friday so the plan can be final.\n")  # fmt: skip
    spans = [text[a:b] for a, b in sentence_spans(text)]
    assert spans[0].endswith("first week of May.\n")  # not cut at the wrap after "the two"
