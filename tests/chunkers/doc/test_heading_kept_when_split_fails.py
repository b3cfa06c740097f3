"""A section heading that fits the budget reaches a chunk when its text cannot be split under it
(hostile tester, session 7, finding 1).

``HybridRun.split_text`` shrinks the text budget by each part's overflow; when that did not
converge (the ``$$`` or fence markup reopened on every part of a small budget, or a tokenizer
whose counts grow faster than the text) it dropped the headings from every part, named them in
``headings_dropped``, and wrote them nowhere: the heading was lost. Now the shrinking starts
again from what the path costs alone, and only when that fails too are the outer headings
dropped, written once as text before the parts.
"""

from __future__ import annotations

import pytest
from docling_core.types.doc import DocItemLabel, DoclingDocument, GroupLabel

import docchunk
from tests.helpers import squash

FENCED = "Example:\n```python\n" + "".join(f"print({i})\n" for i in range(5)) + "```\nDone."
MATH = "The energy is $$E = mc^2$$ in joules."
PROSE = "A sentence with quite a few words in it. " * 5


def _squared_words(text: str) -> int:
    return len(text.split()) ** 2


def _section(heading: str, paragraph: str) -> DoclingDocument:
    doc = DoclingDocument(name="section")
    doc.add_heading(heading, level=1)
    doc.add_text(DocItemLabel.TEXT, paragraph)
    return doc


CASES = {
    "fenced code, MiniLM 8": ("Sec0", FENCED, {"max_tokens": 8}),
    "display math, MiniLM 4": ("Results", MATH, {"max_tokens": 4}),
    "display math, cl100k 4": ("Results", MATH, {"max_tokens": 4, "tokenizer": "tiktoken:cl100k_base"}),
    "prose, words ** 2, 20": ("Introduction", PROSE, {"max_tokens": 20, "tokenizer": _squared_words}),
}


@pytest.mark.parametrize("case", CASES)
def test_regression_heading_not_lost_when_the_text_split_does_not_converge(case):
    heading, paragraph, kwargs = CASES[case]
    chunker = docchunk.HybridChunker(**kwargs)
    assert chunker.token_counter.count_tokens(heading) <= chunker.max_tokens // 2  # the heading fits
    doc = _section(heading, paragraph)
    chunks = list(chunker.chunk(doc))
    # (the paragraph's own text is checked by the property tests; its parts here add reopened markup)
    in_text = squash(heading) in squash("".join(c.text for c in chunks))
    assert in_text or any(heading in (c.meta.headings or []) for c in chunks), [
        (c.text, c.meta.headings, c.meta.headings_dropped) for c in chunks
    ]
    for chunk in chunks:
        assert chunk.meta.token_count == chunker.token_counter.count_tokens(chunker.contextualize(chunk))
        assert chunk.meta.token_count <= chunker.max_tokens or chunk.meta.oversized
        if chunk.meta.headings_dropped:  # a dropped heading is written as text before the part
            before = "".join(c.text for c in chunks[: chunks.index(chunk)])
            assert all(h in before for h in chunk.meta.headings_dropped), chunk


def test_regression_path_kept_whole_under_a_superadditive_counter():
    """``words ** 2``: the path costs 1 of 20; the parts fit it at 3 words, so every chunk keeps it."""
    chunker = docchunk.HybridChunker(max_tokens=20, tokenizer=_squared_words)
    chunks = list(chunker.chunk(_section("Introduction", PROSE)))
    assert [c.meta.headings for c in chunks] == [["Introduction"]] * len(chunks)
    assert all(c.meta.headings_dropped is None for c in chunks)
    assert " ".join(c.text for c in chunks).split() == PROSE.split()


def test_regression_dropped_heading_written_once_with_its_item():
    """Display math at cl100k 4: no part holding ``$$`` fits with the heading; it is written once, as text."""
    doc = _section("Results", MATH)
    chunks = list(docchunk.HybridChunker(max_tokens=4, tokenizer="tiktoken:cl100k_base").chunk(doc))
    assert sum(c.text.count("Results") for c in chunks) == 1
    first = chunks[0]
    assert first.text.startswith("Results")
    assert doc.texts[0] in first.meta.doc_items  # the heading item is cited where its text is
    assert all(c.meta.headings_dropped == ["Results"] for c in chunks if "Results" not in c.text)


def test_regression_dropped_heading_under_a_sheet_name_cites_its_own_item():
    """An XLSX-like path (a sheet name, which has no item, then a heading) that the text split drops.

    The piece writing the dropped headings paired its heading items with the path from its
    first entry, the sheet name: no item matched, and it listed the paragraph instead of
    the heading it writes.
    """
    doc = DoclingDocument(name="workbook")
    sheet = doc.add_group(label=GroupLabel.SHEET, name="S")
    heading = doc.add_heading("Results", level=1, parent=sheet)
    paragraph = doc.add_text(DocItemLabel.TEXT, MATH, parent=sheet)
    chunker = docchunk.HybridChunker(max_tokens=4)
    chunks = list(chunker.chunk(doc))
    written = [c for c in chunks if c.meta.headings_dropped is None and c.text.endswith("Results")]
    assert len(written) == 1, [(c.text, c.meta.headings, c.meta.headings_dropped) for c in chunks]
    assert any(c.meta.headings_dropped == ["S", "Results"] for c in chunks)  # dropped by the text split
    items = written[0].meta.doc_items
    assert heading in items, [it.self_ref for it in items]
    assert paragraph not in items  # none of its text is in the written headings
