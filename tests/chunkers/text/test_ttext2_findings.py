"""Regression tests for the round-2 text tester's chunker findings (issue 47), named after each fault."""

from __future__ import annotations

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
