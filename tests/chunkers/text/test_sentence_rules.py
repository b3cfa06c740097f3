"""CJK sentence ends, abbreviations and section numbers.

The rules of ``sentence_spans`` are shared by SentenceChunker and the semantic chunkers.
"""

from __future__ import annotations

import pytest
from hypothesis import given

import docchunk
from docchunk.chunkers.text import sentence_spans
from tests.property.strategies import texts


def sentences(text: str) -> list[str]:
    spans = sentence_spans(text)
    assert [s for s, _ in spans[1:]] == [e for _, e in spans[:-1]]  # they tile the text
    assert "".join(text[s:e] for s, e in spans) == text
    return [text[s:e].strip() for s, e in spans]


CJK_CASES = {
    "zh": ("今天的天气很好，我们在公园里散步。湖边有很多人在休息，孩子们在草地上玩耍！你来吗？",
           ["今天的天气很好，我们在公园里散步。", "湖边有很多人在休息，孩子们在草地上玩耍！", "你来吗？"]),
    "zh-spaces": ("第一句。 第二句！\u3000第三句？", ["第一句。", "第二句！", "第三句？"]),
    "ja": ("今日は晴れです。明日は雨が降るでしょう！本当ですか？",
           ["今日は晴れです。", "明日は雨が降るでしょう！", "本当ですか？"]),
    "ja-quotes": ("彼は「行こう。」と言った。私も行った。", ["彼は「行こう。」", "と言った。", "私も行った。"]),
}  # fmt: skip


@pytest.mark.parametrize("case", CJK_CASES)
def test_cjk_full_stops_end_sentences_without_whitespace(case):
    text, expected = CJK_CASES[case]
    assert sentences(text) == expected


ABBREVIATION_CASES = {
    "en-title": ("It ran on one machine. Dr. Lee reviewed it. Mr. and Mrs. Smith agreed.",
                 ["It ran on one machine.", "Dr. Lee reviewed it.", "Mr. and Mrs. Smith agreed."]),
    "en-abbrev": ("Use fruit, e.g. apples, i.e. red ones, vs. pears. See Fig. 3 and No. 5. It works.",
                  ["Use fruit, e.g. apples, i.e. red ones, vs. pears.", "See Fig. 3 and No. 5.", "It works."]),
    "en-initials": ("J. R. R. Tolkien wrote it. The U.S. Army read it. Prof. A. B. Cole agreed.",
                    ["J. R. R. Tolkien wrote it.", "The U.S. Army read it.", "Prof. A. B. Cole agreed."]),
    "en-numbers": ("Pi is 3.14 or so. We met in 2024. It rained.",
                   ["Pi is 3.14 or so.", "We met in 2024.", "It rained."]),
    "en-section": ("Intro text here.\n5.3. Scope of the test is small.\n12. Results are good. Done.",
                   ["Intro text here.", "5.3. Scope of the test is small.", "12. Results are good.", "Done."]),
    "de": ("Das ist z.B. gut, d.h. sehr gut. Herr Dr. Müller kam, bzw. Prof. Weber. Siehe Nr. 4 usw. Ende.",
           ["Das ist z.B. gut, d.h. sehr gut.", "Herr Dr. Müller kam, bzw. Prof. Weber.", "Siehe Nr. 4 usw. Ende."]),
    "fr": ("Mme. Dupont est venue, p.ex. hier. M. Martin aussi. Voir Fig. 2. Fin.",
           ["Mme. Dupont est venue, p.ex. hier.", "M. Martin aussi.", "Voir Fig. 2.", "Fin."]),
    "es": ("El Sr. García llegó, p.ej. ayer. La Dra. Ruiz también. ¿Qué pasó? ¡Nada!",
           ["El Sr. García llegó, p.ej. ayer.", "La Dra. Ruiz también.", "¿Qué pasó?", "¡Nada!"]),
    "quotes": ('He said "Go." Then he left. Really?! Yes.',
               ['He said "Go."', "Then he left.", "Really?!", "Yes."]),
}  # fmt: skip


@pytest.mark.parametrize("case", ABBREVIATION_CASES)
def test_titles_abbreviations_initials_and_section_numbers_do_not_end_sentences(case):
    text, expected = ABBREVIATION_CASES[case]
    assert sentences(text) == expected


def test_sentence_chunker_does_not_end_a_chunk_after_dr_or_a_section_number():
    text = ("The test ran for two weeks on one machine. Dr. Lee reviewed the results with the team. "
            "Intro text here.\n5.3. Scope of the test is limited to one site. It ends here.")  # fmt: skip
    for size in range(10, 30):
        for chunk in docchunk.SentenceChunker("word", chunk_size=size)(text):
            assert not chunk.text.rstrip().endswith(("Dr.", "5.3.")), (size, chunk.text)


def test_sentence_chunker_ends_chinese_chunks_at_sentence_ends():
    text = "今天的天气很好，我们在公园里散步。湖边有很多人在休息，孩子们在草地上玩耍。" * 4
    for size in (20, 40, 60):
        chunks = docchunk.SentenceChunker("character", chunk_size=size)(text)
        assert "".join(c.text for c in chunks) == text
        assert len(chunks) > 1
        assert all(c.text.endswith("。") for c in chunks), [c.text for c in chunks]


def test_semantic_chunker_sees_chinese_sentences():
    text = "今天的天气很好，我们在公园里散步。湖边有很多人在休息，孩子们在草地上玩耍。" * 4
    seen: list[str] = []

    def embed(batch):
        seen.extend(batch)
        return [[1.0, 0.0]] * len(batch)

    docchunk.SemanticChunker(embed, chunk_size=500, boundaries="sentence")(text)
    assert len(seen) == 8 and all(s.endswith("。") for s in seen)


@given(text=texts(max_words=80))
def test_sentence_spans_tile_any_text(text):
    spans = sentence_spans(text)
    assert all(s < e for s, e in spans)
    assert "".join(text[s:e] for s, e in spans) == text
    assert [s for s, _ in spans[1:]] == [e for _, e in spans[:-1]]


SECTION_AND_ETC_CASES = {
    "section-after-sentence": (
        "They were stored at 4 °C, i.e. below the threshold. 4.2. Results of the second run were clear.",
        ["They were stored at 4 °C, i.e. below the threshold.", "4.2. Results of the second run were clear."],
    ),
    "single-number-section": ("The setup is done. 3. Method We used two runs. It worked.",
                              ["The setup is done.", "3. Method We used two runs.", "It worked."]),
    "number-ending-a-sentence": ("I counted to 4. Then we left. See Fig. 4. Results follow.",
                                 ["I counted to 4.", "Then we left.", "See Fig. 4.", "Results follow."]),
    "etc-at-an-end": ("We bought pens, paper, etc. The shop closed at six. Cats, dogs, etc. were there.",
                      ["We bought pens, paper, etc.", "The shop closed at six.", "Cats, dogs, etc. were there."]),
    "etc-in-french": ("Il y avait des pommes, des poires, etc. Le marché était plein.",
                      ["Il y avait des pommes, des poires, etc.", "Le marché était plein."]),
}  # fmt: skip


@pytest.mark.parametrize("case", SECTION_AND_ETC_CASES)
def test_section_numbers_begin_sentences_and_etc_can_end_one(case):
    text, expected = SECTION_AND_ETC_CASES[case]
    assert sentences(text) == expected


def test_sentence_chunker_keeps_a_section_number_with_its_sentence():
    text = ("The samples were stored at 4 °C, i.e. below the threshold. 4.2. Results of the second run "
            "were as expected. We used pens, pencils, etc. The next day was dry.")  # fmt: skip
    for size in range(12, 26):
        chunks = docchunk.SentenceChunker("word", chunk_size=size)(text)
        assert not any(c.text.rstrip().endswith("4.2.") for c in chunks), (size, [c.text for c in chunks])
    for size in range(5, 10):  # the last two sentences have 5 words each: they never share a chunk
        chunks = docchunk.SentenceChunker("word", chunk_size=size)(text)
        assert chunks[-1].text == "The next day was dry." and chunks[-2].text.endswith("etc. "), size
