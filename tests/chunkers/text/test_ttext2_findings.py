"""Regression tests for the round-2 text tester's chunker findings (issue 47), named after each fault."""

from __future__ import annotations

import pytest

from docchunk import RecursiveChunker
from docchunk.chunkers.text.sentences import sentence_spans


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
