"""s9 new-user finding 3: ``OverlapRefinery(mode="recursive")`` cut its "sentences" after every period.

Its default ``RecursiveRules`` split sentences at each ``"."``, so the context ended in
``12.`` of ``12.5`` or was the single word ``Dr.``, where the docs promise "whole
sentences/words that fit" by docchunk's sentence rules. The sentence level now uses
``sentence_spans``.
"""

from __future__ import annotations

import pytest

import docchunk
from docchunk import OverlapRefinery, RecursiveLevel, RecursiveRules
from docchunk.errors import ConfigError
from docchunk.refineries.rules import split_units

TITLE = "Pump test report for the customer.\n"


def _suffix(next_text: str, size: int = 6) -> str:
    text = TITLE + next_text
    chunks = docchunk.RecursiveChunker(chunk_size=8, tokenizer="word", separators=["\n"])(text)
    assert len(chunks) == 2, [c.text for c in chunks]
    out = OverlapRefinery(tokenizer="word", context_size=size, mode="recursive", method="suffix", merge=False,
                          inplace=False)(chunks)  # fmt: skip
    assert out[0].context_suffix is not None
    return out[0].context_suffix


@pytest.mark.parametrize(
    "next_text",
    [
        "The max flow is 12.5 m3/h at 48 m head, measured on site by the service team.",
        "Dr. Chen asked whether the warranty covers seals and gaskets of the pump housing.",
        "The seals are listed in sec. 4.2 of the manual and in the price list of the year.",
    ],
)
def test_recursive_context_is_not_cut_at_a_decimal_or_an_abbreviation(next_text):
    context = _suffix(next_text)
    assert next_text.startswith(context.lstrip("\n"))
    assert len(context.split()) == 6  # whole words fill the budget: no sentence fits, no cut after "12." or "Dr."


def test_recursive_prefix_takes_whole_sentences_by_the_sentence_rules():
    first = "Notes on the pump. The pump was tested by Dr. Chen on site. It ran at 12.5 m3/h."
    chunks = [
        docchunk.Chunk(text=first, start_index=0, end_index=len(first)),
        docchunk.Chunk(text=" Then it stopped.", start_index=len(first), end_index=len(first) + 17),
    ]
    out = OverlapRefinery(tokenizer="word", context_size=9, mode="recursive", method="prefix", merge=False,
                          inplace=False)(chunks)  # fmt: skip
    assert out[1].context_prefix == "It ran at 12.5 m3/h."
    out = OverlapRefinery(tokenizer="word", context_size=14, mode="recursive", method="prefix", merge=False,
                          inplace=False)(chunks)  # fmt: skip
    assert out[1].context_prefix == "The pump was tested by Dr. Chen on site. It ran at 12.5 m3/h."


def test_the_sentence_level_tiles_the_text():
    text = "\nDr. Chen came at 4 p.m. and left. It ran at 12.5 m3/h!\n\nNext part e.g. here"
    units = split_units(text, RecursiveLevel(sentences=True))
    assert "".join(units) == text
    assert units == ["\n", "Dr. Chen came at 4 p.m. and left. ", "It ran at 12.5 m3/h!\n\n", "Next part e.g. here"]
    assert RecursiveRules().levels[1] == RecursiveLevel(sentences=True)


@pytest.mark.parametrize(
    "kwargs",
    [{"sentences": True, "whitespace": True}, {"sentences": True, "delimiters": ["."]},
     {"sentences": True, "include_delim": "next"}, {}],
)  # fmt: skip
def test_a_level_has_exactly_one_kind_of_split(kwargs):
    with pytest.raises(ConfigError, match="RecursiveLevel"):
        RecursiveLevel(**kwargs)
