"""``min_tokens`` keeps each merged piece's structure (issue 45, the new-document tester's findings 5 to 8).

The merge of pieces under ``min_tokens`` joined pieces of different heading paths by
writing the headings that differ into the text. It wrote a heading that reads as
content twice (once from the path, once as its section's first line), wrote a top
heading again before each merged subsection, joined the windows of a nested list flat
(with the parent item's text, perhaps shortened to ``…``, as a line of the text), and
joined two pieces of one code block with a closing and a reopening fence between them.
Each test fails on the code before the fix.
"""

from __future__ import annotations

from collections import Counter

import pytest

import docchunk
from tests.helpers.checks import lost_texts, span_faults


def _chunker(tok: str, max_tokens: int) -> docchunk.HybridChunker:
    return docchunk.HybridChunker(
        tokenizer=docchunk.get_tokenizer(tok, max_tokens=max_tokens), max_tokens=max_tokens, min_tokens=64
    )


def _html(body: str):
    return docchunk.load_document(f"<html><body>{body}</body></html>", format="html")


@pytest.fixture
def minilm(minilm_dir) -> str:
    return f"hf:{minilm_dir}"


def _repeated_lines(chunker, chunks) -> list[str]:
    out = []
    for chunk in chunks:
        lines = Counter(line for line in chunker.contextualize(chunk).split("\n") if line.strip())
        out += [line for line, n in lines.items() if n > 1]
    return out


def test_content_heading_is_written_once_after_a_merge(minilm):
    doc = _html(
        "<h1>Supply Agreement</h1><h2>3 Termination</h2><p>Either party may terminate.</p>"
        "<h2>4 The Supplier delivers the Goods to the site of the Customer</h2>"
        "<p>Delivery costs are borne by the Supplier.</p>"
    )
    chunker = _chunker(minilm, 256)
    chunks = list(chunker.chunk(doc))
    assert len(chunks) == 1  # merged under min_tokens
    assert _repeated_lines(chunker, chunks) == []


def test_top_heading_is_written_once_before_merged_subsections(minilm):
    doc = _html(
        "<h3>Intro</h3><p>Opening words.</p><h1>Main</h1><h2>One</h2><p>First part.</p>"
        "<h2>Two</h2><p>Second part.</p><h2>Three</h2><p>Third part.</p>"
    )
    chunker = _chunker(minilm, 256)
    chunks = list(chunker.chunk(doc))
    assert [chunker.contextualize(c) for c in chunks] == [
        "Intro\nOpening words.\nMain\nOne\nFirst part.\nTwo\nSecond part.\nThree\nThird part."
    ]


LIST = """# Slide 0: topic product

- Tax delivery delta report audit audit market beta customer service.
- Quality region market delivery delta product period delivery audit report annual customer invoice quality delivery.
  - Quality warranty annual beta invoice invoice period audit shipment delivery report warranty report period customer.
    - Region audit delta delivery customer delivery service invoice market quarter region gamma beta shipment tax.
- Annual shipment annual quarter beta shipment invoice delta alpha beta customer audit growth product beta.
"""


def test_windows_of_a_nested_list_are_not_joined_flat(minilm):
    doc = docchunk.load_document(LIST, format="md")
    chunker = _chunker(minilm, 64)
    chunks = list(chunker.chunk(doc))
    parents = {"- Quality warranty": "Quality region market", "- Region audit": "Quality warranty annual"}
    for chunk in chunks:
        lines = chunk.text.split("\n")
        for k, line in enumerate(lines):
            for child, parent in parents.items():
                if line.lstrip().startswith(child):
                    above = [ln for ln in lines[:k] if parent in ln]
                    indent = len(line) - len(line.lstrip())
                    if above:  # its parent item in the same text: the child indented under it
                        assert indent > len(above[-1]) - len(above[-1].lstrip()), chunk.text
                    else:  # else the parent item is in the path, not in the text
                        assert k == 0 and any(parent in h for h in chunk.meta.headings or []), chunk.text
        assert not any(line.endswith(" …") for line in lines)  # a shortened parent path is never text
    assert lost_texts(doc, chunks) == []


def test_two_pieces_of_one_code_block_merge_as_one_block(cl100k):
    handlers = "\n\n".join(
        f"def handler_{k}(event, context):\n    # Alpha region audit product tax beta.\n"
        f"    return {{'status': {k}, 'body': 'Annual region supplier audit.'}}"
        for k in range(12)
    )
    doc = docchunk.load_document(f"# Deploy\n\nThe handlers:\n\n```python\n{handlers}\n```\n", format="md")
    chunker = docchunk.HybridChunker(tokenizer=cl100k, max_tokens=128, min_tokens=64)
    chunks = list(chunker.chunk(doc))
    assert len(chunks) > 1
    for chunk in chunks:
        fences = [line for line in chunk.text.split("\n") if line.startswith("```")]
        assert len(fences) in (0, 2), chunk.text  # at most one block per chunk, opened and closed once
    assert span_faults(doc, chunks) == []


def test_heading_written_by_an_earlier_merge_is_not_written_again(minilm):
    """The pieces after a section merged first (its heading written as their first line), then with the piece
    before, which ends under that heading: the heading was written a second time (tester's docx_headings)."""
    doc = _html(
        "<h1>Odd heading levels</h1><h4>Level four first</h4><p>Text under level four.</p>"
        "<h2>Level one after</h2><h6>Level nine directly</h6><h3>Level two without text</h3><h4>Level three</h4>"
        f"<p>{'Control audit shipment gamma audit product invoice beta growth region region customer. ' * 3}</p>"
        "<h3>Level two again</h3><h2>Last heading with nothing after it</h2>"
    )
    chunker = _chunker(minilm, 256)
    chunks = list(chunker.chunk(doc))
    assert _repeated_lines(chunker, chunks) == []
    assert lost_texts(doc, chunks) == []
