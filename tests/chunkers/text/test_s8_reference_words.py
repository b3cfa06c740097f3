"""s8 new-user finding 3: ``p. 14`` and ``para. 3`` ended a sentence (the page or paragraph number cut off).

docs/text.md: "reference words in lower case before a number are abbreviations". ``p.`` and
``para.`` were missing from the list, so ``SentenceChunker`` and the ``HybridChunker`` default
(which splits long paragraphs at sentences by the same rules) gave ``'... p. '`` and
``'14 for details.'``. A number after a real sentence end still starts a sentence.
"""

from __future__ import annotations

import pytest

from docchunk import HybridChunker, SentenceChunker
from docchunk.markup.sentences import sentence_spans


def _sentences(text: str) -> list[str]:
    return [text[a:b] for a, b in sentence_spans(text)]


@pytest.mark.parametrize(
    "text",
    [
        "See the guide, p. 14 for details.",
        "See para. 3 of the contract.",
        "As paras. 3 to 5 say, the fee is due.",
        "The term is defined in cl. 4 of the lease.",
        "The source is given in n. 12 of the paper.",
        "The duty is set out in s. 172 of the Act.",
        "Compare eq. 3 with tab. 2 and nos. 4 and 5 of the list.",
        "The quote is on pg. 7 of the report.",
        "It is listed in sch. 2 of the regulations.",
    ],
)
def test_a_lower_case_reference_word_before_a_number_ends_no_sentence(text):
    assert _sentences(text) == [text]


@pytest.mark.parametrize(
    ("text", "cut"),
    [
        ("It happened in 2019. 14 people came to the meeting.", "It happened in 2019. "),
        ("Sales grew in May. 14 stores opened that year.", "Sales grew in May. "),
        ("The answer was p. The next one was q.", "The answer was p. "),
    ],
)
def test_a_real_sentence_end_before_a_number_or_a_capital_still_ends_one(text, cut):
    assert _sentences(text) == [cut, text[len(cut) :]]


def test_sentence_chunker_keeps_the_page_number_with_its_p():
    text = "Five word sentence is here. See the guide, p. 14 for details."
    chunks = SentenceChunker(chunk_size=10, tokenizer="word")(text)
    assert [c.text for c in chunks] == ["Five word sentence is here. ", "See the guide, p. 14 for details."]
    assert all(text[c.start_index : c.end_index] == c.text for c in chunks)


def test_hybrid_default_keeps_the_paragraph_number_with_its_para():
    from docling_core.types.doc import DocItemLabel, DoclingDocument

    text = "Five word sentence is here. See para. 3 of the contract for the fee."
    doc = DoclingDocument(name="t")
    doc.add_text(label=DocItemLabel.TEXT, text=text)
    chunks = list(HybridChunker(tokenizer="word", max_tokens=10).chunk(doc))
    assert [c.text for c in chunks] == ["Five word sentence is here.", "See para. 3 of the contract for the fee."]
