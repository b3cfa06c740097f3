"""Hard-wrapped text reads as running text (issue 47, the s3 tester's findings 3, 4 and 5).

``sentence_spans`` ends no sentence at a wrap (after ``Dr.``, before ``reasons: ``,
``10:30``, ``<help@example.org>``, ``1884.``, German nouns, quoted e-mail, PDF lines of
varying width), while chat-log turns stay lines; ``RecursiveChunker``'s line level does
not cut a wrapped paragraph at a wrap when a sentence end is there to cut at.
"""

from __future__ import annotations

import pytest

from docchunk import RecursiveChunker, SentenceChunker
from docchunk.markup.sentences import sentence_spans

BAKERIES = (
    "Our survey of local bakeries found that most of them open before six in\n"
    "the morning and close early in the afternoon, once the bread is sold. A\n"
    "few stay open late on Fridays, when demand for cakes and pastries rises\n"
    "sharply ahead of the weekend. Owners said that rent and flour prices are\n"
    "their largest costs.\n"
)

WRAPPED = {
    "Dr. at the wrap": (
        "The samples were examined under the microscope by the lab head, Dr.\n"
        "Smith, who confirmed that the cells had divided twice during the night.\n"
    ),
    "e.g. at the wrap": (
        "Several kinds of input were tried in the second round of tests, e.g.\n"
        "dates in odd formats, very long names and sums with many decimals.\n"
    ),
    "next line 'reasons: '": (
        "In the second half of the meeting the committee went through the main\n"
        "reasons: the cost of travel, the lack of rooms and the short notice given.\n"
    ),
    "next line '10:30'": (
        "Because the hall is booked for the whole morning, the lecture will start at\n"
        "10:30 sharp and it will end before lunch so that everyone can eat on time.\n"
    ),
    "next line '<e-mail>'": (
        "If anything in this message is unclear or you need more copies, write to\n"
        "<help@example.org> and someone from the office will answer within a day.\n"
    ),
    "next line '1884. '": (
        "The town grew slowly at first, then quickly after the railway came in\n"
        "1884. The mill opened two years later and the population doubled again.\n"
    ),
    "German, lines start with nouns": (
        "Die Kommission hat am Dienstag den Haushalt für das kommende Jahr und die\n"
        "Reisekosten der Mitglieder geprüft. Nach langer Debatte wurde beschlossen, die\n"
        "Ausgaben für Dienstreisen im nächsten Jahr um ein Zehntel zu kürzen, weil die\n"
        "Mittel knapp sind.\n"
    ),
    "quoted e-mail reply": "".join("> " + line + "\n" for line in BAKERIES.splitlines()),
    # a PDF's lines in a proportional font: 68 to 84 characters for the same width in points
    "PDF, proportional font": (
        "The committee met on Tuesday to review the budget for the coming year and agreed\n"
        "that the travel allowance should be cut by a tenth, which most members supported\n"
        "without much debate. Several of them asked whether the savings would be used for\n"
        "the library, which has been waiting for new shelves since the spring, or whether\n"
        "the money would go back into the general fund of the town. The chair promised an\n"
        "answer at the next meeting in March, after talks with the treasurer.\n"
    ),
}

CHATS = {
    "WhatsApp": (
        "12/01/2024, 10:02 - Ana Lopez: are we still meeting at the station later on\n"
        "12/01/2024, 10:03 - Ben: yes i will be there around six i think\n"
        "12/01/2024, 10:05 - Ana Lopez: great see you there then\n"
    ),
    "Telegram": (
        "[12.01.24 10:02] Ana: are we still meeting at the station later on today\n"
        "[12.01.24 10:03] Ben: yes i will be there around six or maybe a bit later\n"
    ),
    "IRC": (
        "ana> are we still meeting at the station later on today or not, tell me\n"
        "ben> yes i will be there around six or maybe a bit later than that\n"
    ),
    # the round-2 text tester's F2: a title line before the turns, and "Name (time):" turns
    "title line, then turns": (
        "Support chat transcript, ticket 4471, exported from the helpdesk\n"
        "Agent Maria: Hello and thanks for waiting, how can I help you today with\n"
        "Customer Tom: my invoice from last month shows a charge I do not recognise\n"
        "Agent Maria: I can see the charge, it is the annual renewal of your plan\n"
    ),
    "Name (time):": (
        "Ana (10:02): did anyone look at the failing build from last night on main\n"
        "Ben (10:03): yes it was the cache again, I cleared it and reran the pipeline\n"
        "Ana (10:04 PM): thanks, can you also pin the compiler version in the ci config\n"
    ),
    "[time] Name:": (
        "Meeting notes from the support channel, copied on Friday afternoon\n"
        "[10:02 AM] Ana Lopez: did anyone look at the failing build from last night\n"
        "[10:03 AM] Ben: yes it was the cache again, I cleared it and reran it all\n"
    ),
}


def _sentences(text: str) -> list[str]:
    return [text[a:b] for a, b in sentence_spans(text)]


@pytest.mark.parametrize("name", WRAPPED)
def test_no_sentence_ends_at_a_hard_wrap(name):
    text = WRAPPED[name]
    inner_ends = [s for s in _sentences(text)[:-1] if s.endswith("\n")]
    assert not [s for s in inner_ends if not s.rstrip().endswith((".", "!", "?"))], _sentences(text)
    if name.startswith(("Dr.", "e.g.")):  # one sentence: the abbreviation ends none
        assert len(_sentences(text)) == 1


def test_pdf_lines_of_varying_width_give_three_sentences():
    assert len(_sentences(WRAPPED["PDF, proportional font"])) == 3
    chunks = SentenceChunker(chunk_size=250)(WRAPPED["PDF, proportional font"])
    assert all(c.text.rstrip().endswith(".") for c in chunks)


@pytest.mark.parametrize("name", CHATS)
def test_chat_turns_stay_lines(name):
    text = CHATS[name]
    assert _sentences(text) == text.splitlines(keepends=True)


@pytest.mark.parametrize(("tok", "size"), [("character", 150), ("cl100k", 37), ("minilm", 37)])
@pytest.mark.parametrize("language", [None, "markdown"])
def test_recursive_cuts_a_wrapped_paragraph_at_sentence_ends(text_tokenizers, tok, size, language):
    """Every sentence fits: no chunk ends at a wrap ('...sold. A' / '...prices are' before)."""
    text = ("# Bakeries\n\n" if language else "") + BAKERIES
    tokenizer = text_tokenizers[tok]
    chunks = RecursiveChunker(chunk_size=size, tokenizer=tokenizer, language=language)(text)
    assert "".join(c.text for c in chunks) == text
    assert all(c.token_count == tokenizer.count_tokens(c.text) <= size for c in chunks)
    mid = [c.text for c in chunks[:-1] if not c.text.rstrip().endswith((".", "Bakeries"))]
    assert not mid


def test_line_level_still_cuts_lines_that_end():
    """A list and a chat log keep their lines: the line level cuts there before the sentence level."""
    text = "Shopping:\n- flour from the mill on the hill\n- sugar\n- eggs from the farm down the road\n"
    chunks = [c.text for c in RecursiveChunker(chunk_size=45)(text)]
    assert chunks == ["Shopping:\n- flour from the mill on the hill", "\n- sugar\n- eggs from the farm down the road\n"]
    chat = CHATS["Telegram"]
    assert [c.text for c in RecursiveChunker(chunk_size=80)(chat)] == [chat[:72], chat[72:]]


@pytest.mark.parametrize("name", ["title line, then turns", "Name (time):"])
@pytest.mark.parametrize("tok", ["character", "cl100k"])
def test_recursive_keeps_each_turn_whole(text_tokenizers, name, tok):
    """F2 (round 2): a size that fits any turn gives one chunk a turn ('...helpdesk\\nAgent' | ' Maria: ...' before)."""
    text, tokenizer = CHATS[name], text_tokenizers[tok]
    lines = text.splitlines(keepends=True)
    size = max(tokenizer.count_tokens(line) for line in lines) + 1
    chunks = RecursiveChunker(chunk_size=size, tokenizer=tokenizer)(text)
    assert [c.text.strip() for c in chunks] == [line.strip() for line in lines]


def test_one_line_like_a_turn_makes_no_chat_log():
    """A wrapped paragraph whose second line begins like a turn ('Note: ') after a title-like line is prose."""
    text = (
        "The committee went through the three proposals for the new library and\n"
        "Note: the cost of each was checked by the treasurer before the meeting and\n"
        "the members agreed that the second one should go ahead in the spring.\n"
    )
    assert len(_sentences(text)) == 1


def test_long_lines_are_paragraphs_not_wraps():
    """A text of one paragraph a line (lines over 200 characters) is cut at its line breaks."""
    first = "The committee met on Tuesday to review the budget for the coming year and agreed on a cut " * 3
    second = "Members who objected were asked to write to the chair before the next meeting in March " * 3
    text = first.strip() + "\n" + second.strip()
    assert [text[a:b] for a, b in sentence_spans(text)] == [first.strip() + "\n", second.strip()]
    assert [c.text for c in RecursiveChunker(chunk_size=300)(text)] == [first.strip(), "\n" + second.strip()]
