"""Sentence ends of scripts other than Latin and CJK (round-2 tester, finding 14).

A paragraph in Hindi, Urdu, Arabic, Armenian, Amharic, Burmese or Khmer ends its
sentences with its own full stop (see ``FULL_STOPS``). Before
the fix none of them was a sentence end, so ``HybridChunker`` cut such paragraphs
mid-sentence although every sentence fitted (7 of 8 cuts on the tester's Hindi page at
cl100k 128).
"""

from __future__ import annotations

import pytest
from docling_core.types.doc import DocItemLabel, DoclingDocument

import docchunk
from docchunk.chunkers.text import sentence_spans
from docchunk.markup.sentences import FULL_STOPS

# one sentence of each script (our own wording), ending in the script's full stop
SENTENCES = {
    "hindi": ("समिति ने सोमवार को बैठक की और पुस्तकालय के वार्षिक बजट को मंजूरी दी", "।"),
    "hindi-double-danda": ("समिति ने सोमवार को बैठक की और पुस्तकालय के वार्षिक बजट को मंजूरी दी", "॥"),
    "urdu": ("کمیٹی نے پیر کو اجلاس کیا اور لائبریری کے سالانہ بجٹ کی منظوری دی", "\u06d4"),
    "arabic-question": ("هل وافقت اللجنة يوم الاثنين على الميزانية السنوية للمكتبة العامة الجديدة", "؟"),
    "armenian": ("Հանձնաժողովը երկուշաբթի հավանություն տվեց գրադարանի տարեկան բյուջեին", "\u0589"),
    "amharic": ("ኮሚቴው ሰኞ ተሰብስቦ የቤተ መጻሕፍቱን ዓመታዊ በጀት አጸደቀ", "።"),
    "amharic-question": ("ኮሚቴው ሰኞ ተሰብስቦ የቤተ መጻሕፍቱን ዓመታዊ በጀት አጸደቀ", "፧"),
    "burmese": ("ကော်မတီသည် တနင်္လာနေ့တွင် စာကြည့်တိုက်၏ နှစ်စဉ်ဘတ်ဂျက်ကို အတည်ပြုခဲ့သည်", "။"),
    "khmer": ("គណៈកម្មាធិការបានអនុម័តថវិកាប្រចាំឆ្នាំរបស់បណ្ណាល័យ", "។"),
}


def paragraph(name: str, n: int = 8) -> str:
    words, mark = SENTENCES[name]
    return " ".join(f"{words} {k}{mark}" for k in range(n))


@pytest.mark.parametrize("name", sorted(SENTENCES))
def test_sentence_spans_end_at_the_scripts_full_stop(name):
    text = paragraph(name, 3)
    mark = SENTENCES[name][1]
    spans = sentence_spans(text)
    assert "".join(text[s:e] for s, e in spans) == text
    assert [text[s:e].rstrip()[-1] for s, e in spans] == [mark] * 3


@pytest.mark.parametrize("name", sorted(SENTENCES))
def test_hybrid_chunker_cuts_such_paragraphs_only_at_sentence_ends(name, cl100k):
    """The tester's check: a paragraph of 8 sentences, a budget of 2.5 sentences, no cut mid-sentence."""
    text = paragraph(name)
    mark = SENTENCES[name][1]
    one = len(cl100k.encode(f"{SENTENCES[name][0]} 0{mark}"))
    doc = DoclingDocument(name=name)
    doc.add_text(label=DocItemLabel.TEXT, text=text)
    chunks = list(docchunk.HybridChunker(tokenizer=cl100k, max_tokens=int(one * 2.5)).chunk(doc))
    assert len(chunks) > 1
    cuts = [s.end for c in chunks for s in c.meta.spans or [] if s.end < len(text)]
    assert cuts
    assert [text[:e].rstrip()[-1] for e in cuts] == [mark] * len(cuts)


def test_every_full_stop_is_a_unicode_sentence_terminal():
    """The marks are Unicode's Sentence_Terminal characters (UAX #29), not our own choice."""
    regex = pytest.importorskip("regex")
    assert FULL_STOPS
    assert all(regex.fullmatch(r"\p{Sentence_Terminal}", ch) for ch in FULL_STOPS)


def test_a_full_stop_needs_no_space_after_it():
    text = "पहला वाक्य।दूसरा वाक्य।"
    assert [text[s:e] for s, e in sentence_spans(text)] == ["पहला वाक्य।", "दूसरा वाक्य।"]
