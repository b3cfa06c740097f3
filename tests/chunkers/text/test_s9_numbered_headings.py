"""s9 new-user finding 2: a numbered heading (``## 2. Warranty``, ``== 3. Scope ==``) ended a sentence after its number.

docs/text.md, *Sentences*: a period does not end a sentence after a section number alone at
the start of its line. A Markdown or MediaWiki heading mark before the number broke the rule,
so ``sentence_spans``, ``SentenceChunker`` and ``RecursiveChunker``'s sentence level cut
``'## 2. '`` off its title. A year at the end of a sentence still ends it.
"""

from __future__ import annotations

import pytest

from docchunk import RecursiveChunker, SentenceChunker
from docchunk.markup.sentences import sentence_spans


def _sentences(text: str) -> list[str]:
    return [text[a:b] for a, b in sentence_spans(text)]


@pytest.mark.parametrize(
    ("text", "heading"),
    [
        ("## 2. Warranty\n\nThe warranty period is 24 months.", "## 2. Warranty\n\n"),
        ("# 1. Introduction\nText here.", "# 1. Introduction\n"),
        ("Intro.\n\n  ### 4.2. Results\nAbc.", "### 4.2. Results\n"),  # (the indent ends the sentence before)
        ("###### 12. Remedies\nText.", "###### 12. Remedies\n"),
        ("= 2. History =\nText.", "= 2. History =\n"),
        ("== 3. Scope ==\r\nText.", "== 3. Scope ==\r\n"),
        ("==3.1. Scope==\nText.", "==3.1. Scope==\n"),
    ],
)
def test_a_numbered_heading_is_one_sentence(text, heading):
    sentences = _sentences(text)
    assert heading in sentences
    assert "".join(sentences) == text


@pytest.mark.parametrize(
    ("text", "cut"),
    [
        ("He moved in 2003. The house was old.", "He moved in 2003. "),  # a year ends its sentence
        ("x = 3. The end.", "x = 3. "),  # "=" that is no heading mark
        ("= 3. Scope\nText.", "= 3. "),  # no closing "=": not a MediaWiki heading
        ("#1. Not a heading. Next.", "#1. "),  # no space after "#": not an ATX heading
        ("    # 4. Code\nAbc.", "    # 4. "),  # four spaces: indented code, not a heading
        ("####### 7. Seven. Next.", "####### 7. "),  # seven marks: not a heading
    ],
)
def test_other_numbers_after_marks_still_end_a_sentence(text, cut):
    assert _sentences(text)[0] == cut


MANUAL = (
    "# X200 Pump\n\n## 1. Safety\n\nWait at least 5 minutes for the capacitors to discharge.\n\n"
    "## 2. Warranty\n\nThe warranty period is 24 months.\n\n== 3. Scope ==\nThe scope is the pump.\n"
)


@pytest.mark.parametrize("size", [6, 12, 20])
def test_sentence_chunker_keeps_the_number_with_its_heading(size):
    chunks = SentenceChunker(chunk_size=size, tokenizer="word")(MANUAL)
    assert all(MANUAL[c.start_index : c.end_index] == c.text for c in chunks)
    assert "".join(c.text for c in chunks) == MANUAL
    assert not any(c.text.rstrip().endswith(("1.", "2.", "3.")) for c in chunks)
    assert not any(c.text.startswith(("Safety", "Warranty", "Scope")) for c in chunks)


@pytest.mark.parametrize(
    "text",
    [
        "## 2. Warranty terms for the pump and its parts\nThe warranty period is 24 months.",
        "== 3. Scope of the agreement between the parties ==\nText follows here.",
    ],
)
def test_recursive_chunker_does_not_cut_after_the_heading_number(text):
    chunks = RecursiveChunker(chunk_size=8, tokenizer="word")(text)
    assert all(text[c.start_index : c.end_index] == c.text for c in chunks)
    assert "".join(c.text for c in chunks) == text
    assert not chunks[0].text.rstrip().endswith(("2.", "3."))
