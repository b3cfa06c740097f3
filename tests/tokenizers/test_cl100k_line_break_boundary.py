"""cl100k: a cut after a line break, before a character that is not whitespace, adds up.

The rule ``TiktokenTokenizer.clean_boundary`` states for cl100k and the recursive chunker
relies on (a paragraph's count is the sum of its lines' when each line ends with a break
and the next starts with a non-whitespace character). Read from cl100k's pre-tokenizer
regex: no alternative matches a line break followed by a non-whitespace character (letters
and numbers exclude line breaks from their optional prefix; punctuation takes line breaks
only at its end; the whitespace alternatives end at a line break or before a non-whitespace
character), and the regex has no lookbehind, so the text after the cut is split as it is
alone. Checked here against ``encode`` on the cases that could break it.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import docchunk

SIDES = ["word", "'s", "'ll", "1234", "5", ".", "!?", ",", "  ", "\t", " \n", "\r\n", "\r", "\n\n", "É", "東京", "😀",
         "\u3000", "\u00a0", "(x)", "--", "#", "|", "'"]  # fmt: skip
BREAKS = ["\n", "\r", "\r\n", " \n", "  \r\n", ".\n", "!\n\n", "1\n", "'s\n", "\t\n", "\u3000\n"]


@settings(deadline=None)
@given(
    left=st.lists(st.sampled_from(SIDES), max_size=5).map("".join),
    brk=st.sampled_from(BREAKS),
    right=st.lists(st.sampled_from(SIDES), min_size=1, max_size=5).map("".join),
)
def test_a_cut_after_a_line_break_before_non_whitespace_adds_up(cl100k, left, brk, right):
    a = left + brk
    if right[0].isspace():
        right = "x" + right
    tok = docchunk.get_tokenizer(cl100k)
    assert tok.clean_boundary(a[-1], right[0])
    assert len(cl100k.encode_ordinary(a + right)) == len(cl100k.encode_ordinary(a)) + len(
        cl100k.encode_ordinary(right)
    )
