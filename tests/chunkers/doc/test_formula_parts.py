"""A display formula split between chunks: each part balances its ``$$`` (round-3 documents tester, finding 7).

docling-core writes a display formula as ``$$<LaTeX>$$``. Split at a small budget, one
part opened ``$$`` and never closed it, a later one closed one it never opened
(``}\\n\\end{equation}$$``), and the parts between held LaTeX with no delimiter at all
(latex_paper's BM25 equation at MiniLM 64; api_code_formula's 30-term loss at every
budget). As a split code block closes and reopens its fence, each part of a split
formula is now ``$$...$$``; joined again (``min_tokens``), the parts are one formula.
"""

from __future__ import annotations

import pytest
from docling_core.types.doc import DocItemLabel, DoclingDocument

import docchunk
from docchunk.markup.formulas import math_blocks, reopened_math
from tests.helpers import lost_texts

LOSS = " + ".join(rf"\lambda_{{{i}}} \left\| W_{{{i}}} x - y_{{{i}}} \right\|_2^2" for i in range(30))


def _paper() -> DoclingDocument:
    doc = DoclingDocument(name="paper")
    doc.add_heading("Training objective", level=1)
    doc.add_text(DocItemLabel.TEXT, "The loss sums one term per layer:")
    doc.add_formula(LOSS)
    doc.add_text(DocItemLabel.TEXT, "where each weight is tuned on held-out data.")
    return doc


@pytest.mark.parametrize(("max_tokens", "min_tokens"), [(64, None), (256, None), (128, 64)])
def test_regression_split_formula_parts_balance_their_delimiters(max_tokens, min_tokens):
    doc = _paper()
    chunker = docchunk.HybridChunker(max_tokens=max_tokens, min_tokens=min_tokens)
    chunks = list(chunker.chunk(doc))
    parts = [c for c in chunks if any(it.label == "formula" for it in c.meta.doc_items)]
    assert len(parts) > 1  # the formula is split: the case of this test
    for chunk in parts:
        assert chunk.text.count("$$") == 2, chunk.text  # one formula part, opened and closed
        (span,) = [s for s in chunk.meta.spans if s.ref == doc.texts[2].self_ref]
        assert f"$${LOSS[span.start : span.end].strip()}$$" in chunk.text  # its own text, delimited
    assert "$$\n$$" not in "".join(c.text for c in chunks)
    assert lost_texts(doc, chunks) == []


def test_reopened_math_leaves_code_and_whole_formulas_alone():
    text = "$$a + b$$ then\n```sh\necho $$ pid\n```\n$$c + d + e$$"
    assert math_blocks(text) == [(0, 9), (text.index("$$c"), len(text))]
    assert reopened_math(text, 0, 9) == ("", 0, "")  # a whole formula
    inside_code = text.index("echo")
    assert reopened_math(text, inside_code, inside_code + 8) == ("", inside_code, "")
    c = text.index("c +")
    assert reopened_math(text, c + 4, len(text)) == ("$$", c + 4, "")
    assert reopened_math(text, text.index("$$c"), c + 3) == ("", text.index("$$c"), "$$")
