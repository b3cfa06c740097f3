"""A bilingual table side by side is chunked as text, not as records (issue 46, round-3 tester's finding 1).

The tester's ``docx_bilingual``: a heading, then a Word table ``English | العربية`` (the
header row flagged) over nine rows, three clauses each in both languages, three times. Read
as data, the English clause (30 words) was the label of every record, repeated before each
piece of the Arabic cell, which was cut into one- or two-word pieces, some mid-word
(``الإصلاحا`` | ``ت:``): 45 chunks repeated the clause and the output was 2.40 times compat's
tokens at MiniLM 64. As parallel text (``is_parallel_text_table``) its cells are paragraphs,
in reading order, each once.
"""

from __future__ import annotations

from docling_core.types.doc import DoclingDocument

import docchunk
from tests.helpers import make_table

CLAUSES = [
    (
        "The tenant must pay the rent on the first day of each month by bank transfer to the account named in the "
        "lease. A late payment incurs a fee of 5% of the monthly rent for each week of delay.",
        "يجب على المستأجر دفع الإيجار في اليوم الأول من كل شهر عن طريق التحويل المصرفي إلى الحساب المذكور في عقد "
        "الإيجار. يترتب على التأخر في الدفع رسوم بنسبة 5٪ من الإيجار الشهري عن كل أسبوع تأخير.",
    ),
    (
        "Repairs: the landlord is responsible for the structure, the roof and the heating system; the tenant is "
        "responsible for damage caused by misuse.",
        "الإصلاحات: المالك مسؤول عن الهيكل والسقف ونظام التدفئة؛ المستأجر مسؤول عن الأضرار الناتجة عن سوء الاستخدام.",
    ),
    (
        "Notice period: either party may end the lease with two months' written notice.",
        "مدة الإشعار: يجوز لأي من الطرفين إنهاء عقد الإيجار بإشعار خطي مدته شهران.",
    ),
]


def bilingual() -> DoclingDocument:
    doc = DoclingDocument(name="docx_bilingual")
    doc.add_heading("Tenancy notice / إشعار الإيجار", level=1)
    table = make_table([["English", "العربية"], *[list(pair) for pair in CLAUSES * 3]])[1]
    doc.add_table(data=table.data)
    doc.add_text(label="text", text="Signed in two copies, one in each language.")
    return doc


def test_a_bilingual_table_is_its_paragraphs_once_each(minilm_dir):
    tokenizer = docchunk.get_tokenizer(f"hf:{minilm_dir}", max_tokens=64)
    chunker = docchunk.HybridChunker(tokenizer=tokenizer, max_tokens=64)
    compat = docchunk.HybridChunker(tokenizer=tokenizer, max_tokens=64, docling_compat=True)
    doc = bilingual()
    chunks = list(chunker.chunk(doc))
    english, arabic = CLAUSES[1]
    # the English clause once per row it is in (3), never a label repeated before pieces of the Arabic cell
    assert sum(c.text.count(english) for c in chunks) == 3
    # the Arabic cell cut only between words: every piece of it is made of its own words
    words = set(arabic.split())
    for c in chunks:
        for line in c.text.split("\n"):
            if line and line in arabic:
                assert set(line.split()) <= words, line
    ours = sum(tokenizer.count_tokens(chunker.contextualize(c)) for c in chunks)
    theirs = sum(tokenizer.count_tokens(compat.contextualize(c)) for c in compat.chunk(doc))
    assert ours <= 1.3 * theirs
    assert all(c.meta.token_count <= 64 for c in chunks)
