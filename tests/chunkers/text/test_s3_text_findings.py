"""The s3 tester's text findings 12, 15, 16 and 17 (issue 47), each pinned.

- the sentence level keeps a closing quote or bracket with its sentence, in character
  mode (the fast path) as with any other tokenizer (12);
- ``WindowChunker`` gives no whitespace-only window (15);
- a ``---`` under lazy continuation lines of a list item, quote or HTML block is no
  Setext heading (16);
- a wrong type raises an error that is a ``ConfigError`` and a ``TypeError`` (17);
- sentence rules: the pronoun ``I``, a month or ``Ed`` before a capital end a sentence;
  lower-case ``fig. 3``, ``vol. 2``, ``no. 7`` and ``paused... then`` do not (13).
"""

from __future__ import annotations

import pytest

import docchunk
from docchunk import HeadingContextRefinery, OverlapRefinery, RecursiveChunker, TokenChunker, WindowChunker
from docchunk.errors import ConfigError
from docchunk.markup.sentences import sentence_spans
from docchunk.markup.setext import setext_headings

CLOSERS = [
    ("今日は晴れです。「明日も晴れるでしょう。」と彼は言った！本当ですか？", 20),
    ("The cat slept (it was tired.) Then it woke up and ate its food.", 28),
    ('Ok. She said: "We leave at dawn." He nodded and left the room quietly.', 32),
]


@pytest.mark.parametrize(("text", "size"), CLOSERS)
def test_no_chunk_starts_with_the_closer_of_the_sentence_before(text, size):
    fast = [c.text for c in RecursiveChunker(chunk_size=size)(text)]
    general = [c.text for c in RecursiveChunker(chunk_size=size, tokenizer=lambda s: len(s))(text)]
    assert fast == general
    assert not [t for t in fast[1:] if t[:1] in "」』\"”')]"]


@pytest.mark.parametrize(
    ("text", "offset", "tokenizer"),
    [
        ("Annual report, page one.\n\n\n\n\x0c\n\n\n\nPage two starts here.\n\n\n\n", 4, "character"),
        ("Annual report, page one.\n\n\n\n\x0c\n\n\n\nPage two starts here.\n\n\n\n", 3, "character"),
        ("Cd.\u200b  \tabCd.\n\u2028", 1, "character"),
        ("\r\n\n\rCd.\r。\t。Cd. \u3000\x0c\x0c", 2, "cl100k"),
    ],
)
def test_window_chunker_gives_no_whitespace_only_window(text, offset, tokenizer, cl100k):
    tok = docchunk.get_tokenizer(cl100k if tokenizer == "cl100k" else tokenizer)
    chunks = WindowChunker(offset=offset, overlap=1, unit="token", tokenizer=tok)(text)
    assert not [c.text for c in chunks if c.text.isspace()]
    assert "".join(text[c.main_start_index : c.main_end_index] for c in chunks) == text  # main segments tile
    for c in chunks:
        assert text[c.start_index : c.end_index] == c.text
        assert c.token_count == tok.count_tokens(c.text)
        assert c.token_count <= offset + 2 or c.oversized


@pytest.mark.parametrize(
    "text",
    [
        "- Bring a passport\n  and two photos\n---\nThe office opens at nine.\n",
        "> Never trust a computer\nyou cannot throw out a window\n---\nThe talk then moved on.\n",
        "<!-- draft\nreview later\n-->\n---\nFinal text.\n",
    ],
)
def test_no_setext_heading_under_lazy_continuation_lines(text):
    assert setext_headings(text) == []
    chunks = HeadingContextRefinery()(RecursiveChunker(chunk_size=6, tokenizer="word")(text))
    assert all(c.context_prefix is None for c in chunks)


def test_a_paragraph_under_a_heading_or_fence_is_still_a_setext_heading():
    assert [h.title for h in setext_headings("# Guide\nUsage\n---\ntext\n")] == ["Usage"]
    assert [h.title for h in setext_headings("```\ncode\n```\nTitle\n===\n")] == ["Title"]


@pytest.mark.parametrize(
    "call",
    [
        lambda: RecursiveChunker()(None),
        lambda: RecursiveChunker()(b"abc"),
        lambda: RecursiveChunker(chunk_size="512"),
        lambda: TokenChunker(chunk_size=1.5),
        lambda: OverlapRefinery(context_size="8"),
        lambda: HeadingContextRefinery()("# T\nbody"),
        lambda: OverlapRefinery()(["# T", "body"]),
    ],
)
def test_a_wrong_type_is_a_type_error_and_a_config_error(call):
    with pytest.raises(TypeError) as info:
        call()
    assert isinstance(info.value, ConfigError)


@pytest.mark.parametrize(
    ("text", "cut"),
    [
        ("So do I. We all agreed on that.", "So do I. "),
        ("Nobody saw it but I. The others slept.", "Nobody saw it but I. "),
        ("I met Ed. He was tired.", "I met Ed. "),
        ("The parcel went to Jan. She signed for it.", "The parcel went to Jan. "),
        ("See fig. 3 for the set-up.", None),
        ("The proof is in vol. 2 of the notes.", None),
        ("It is item no. 7 on the list.", None),
        ("She paused... then she laughed.", None),
        ("Written by J. R. R. Tolkien in Jan. 1937. It sold well.", "Written by J. R. R. Tolkien in Jan. 1937. "),
    ],
)
def test_sentence_rules_of_the_s3_tester(text, cut):
    spans = [text[a:b] for a, b in sentence_spans(text)]
    assert spans == ([cut, text[len(cut) :]] if cut else [text])


@pytest.mark.parametrize("space", ["\xa0", "\u3000", "\u202f"])
@pytest.mark.parametrize(("tok", "size"), [("character", 20), ("cl100k", 5)])
def test_words_joined_by_no_break_spaces_are_not_cut_inside(space, tok, size, cl100k):
    """s3 finding 14: '12\\xa0eu' / 'ros' before; semchunk cuts between the words."""
    text = space.join("Le prix est de 12 euros par personne et par nuit pour tout le groupe".split())
    tokenizer = docchunk.get_tokenizer(cl100k if tok == "cl100k" else tok)
    chunks = RecursiveChunker(chunk_size=size, tokenizer=tokenizer)(text)
    assert "".join(c.text for c in chunks) == text
    words = set(text.split(space))
    assert all(set(c.text.strip(space).split(space)) <= words for c in chunks)
