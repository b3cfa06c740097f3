"""The fast character path of RecursiveChunker gives exactly the general path's chunks.

In character mode with ``keep_separator="start"`` and no overlap, ``Call.group_by_search``
finds each group by searching back from the budget's end (``str.rfind``, the sentence and
line rules read from the right) instead of splitting the span and packing its pieces. A
callable ``len`` tokenizer counts the same characters but takes the general path (split,
count, pack), which stays the reference: the chunks must be the same.

Bug (the tester's ``t12_scan_diff.py``, 21 to 100 random texts a run): the two paths cut
differently where

* a sentence end's whitespace runs to the end of the span (``'." ." '`` at 5): the scan cut
  before that whitespace, the split does not cut at the span's end, so the scan left a
  whitespace-only group that then joined its neighbour over the limit;
* a run of marks mixes Western and CJK marks (``'」？. 」. '`` at 6): read from the right,
  the run gave only its first candidate, not each one a forward scan finds;
* a separator can overlap itself (``"\\n\\n"`` in ``"\\n\\n\\n"``): ``rfind`` found an
  occurrence the split, from the left, does not cut at.
"""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import docchunk

# what the rules care about: sentence marks and closers (Western and CJK), abbreviations,
# decimals, section numbers, runs of line breaks, Markdown headings, fences, Setext
ATOMS = [
    "ab", "Cd", ". ", "Dr. ", "e.g. ", "3.14", "... ", "?! ", '." ', ".) ", "。", "？", ".", "」", " ", "\n",
    "\n\n", "\t", "word ", "# H\n", "```\n", "Title\n===\n", "~~~\n", "4.2. ", "\n\n***\n\n", "$$", "।",
]  # fmt: skip


def _texts(text: str, size: int, language: str | None, tokenizer) -> list[str]:
    return [c.text for c in docchunk.RecursiveChunker(chunk_size=size, language=language, tokenizer=tokenizer)(text)]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])  # ~1 ms an example
@given(
    text=st.lists(st.sampled_from(ATOMS), min_size=1, max_size=30).map("".join),
    size=st.integers(1, 40),
    language=st.sampled_from([None, "markdown", "latex"]),
)
# the sentence end whose whitespace reaches the span's end
@example(text='." ." ', size=5, language="markdown")
@example(text=". . ", size=3, language="markdown")
@example(text="?! ?! ", size=5, language=None)
@example(text="?! ... ab?!  ", size=11, language=None)
@example(text="。\tTitle\n===\n。?! ?! 。 ", size=9, language=None)
@example(text="# H\n\n\n# H\nDr. Title\n===\n# H\nTitle\n===\n", size=33, language=None)
# a run of marks that mixes Western and CJK marks
@example(text="」？. 」. ", size=6, language=None)
@example(text=". !？。.？.", size=7, language=None)
@example(text="。. . !。!", size=3, language=None)
# a separator that overlaps itself
@example(text="?! \n\n\n」 」」", size=6, language="markdown")
@example(text="\t. ```\n\n\n3.14Dr. ", size=12, language=None)
@example(text="3.14\n\n. # H\n\n\n\n\n. ", size=17, language=None)
@example(text="\n\n\n.\" abword word ab\nword  \n\n\n\nword ", size=26, language="markdown")
def test_character_scan_gives_the_general_paths_chunks(text, size, language):
    scanned = _texts(text, size, language, "character")
    assert scanned == _texts(text, size, language, len)
    assert "".join(scanned) == text
