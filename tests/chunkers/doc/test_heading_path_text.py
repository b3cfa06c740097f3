"""Regression: a heading kept in a table's path, not written as text, was lost when the table's
own pass dropped it (issue 46, lane46d).

``fit_headings`` writes as text only the headings a piece's path leaves out (the 1.3x ceiling:
``tests/chunkers/doc/test_token_ceiling.py``); a table's rows (``tables/rejoin.py``) and a
list's windows fit their own paths later and may drop more. The tester's
``docx_header_footer`` at MiniLM 64: a 60-word content heading over a sub-heading ``Key-value
table`` and its table; the table went under no path, and ``Key-value table`` reached no chunk.
"""

from __future__ import annotations

from docling_core.types.doc import DocItemLabel, DoclingDocument

import docchunk
from tests.helpers import lost_texts, make_table

LONG = (
    "A heading that is very long Delivery market shipment region beta gamma annual delta period quarter. "
    "Beta report customer beta gamma quality quality gamma supplier gamma. Annual quality beta quarter delta "
    "supplier region region quarter beta. Quarter quarter shipment beta supplier beta annual market invoice "
    "quality. Market annual delta quarter invoice annual product revenue delta quarter."
)
PARAGRAPH = (
    "Quarter region customer period delta annual service gamma quarter beta growth customer. Audit product "
    "annual quality delivery control quarter control period invoice supplier revenue. Service supplier gamma "
    "quarter invoice report audit delivery tax control invoice growth."
)
ADDRESS = (
    "1 Road Runner Way, Desert City, Gamma delta report quality revenue delivery market audit quality "
    "beta product gamma."
)


def test_a_heading_a_table_path_drops_later_still_reaches_a_chunk(minilm_dir):
    doc = DoclingDocument(name="header footer")
    doc.add_heading(LONG, level=1)
    doc.add_text(label=DocItemLabel.TEXT, text=PARAGRAPH)
    doc.add_heading("Key-value table", level=2)
    grid = [
        ["Name", "ACME Corp"],
        ["Founded", "1950"],
        ["Employees", "1,200"],
        ["Address", ADDRESS],
        ["CEO", "W. Coyote"],
    ]
    make_table(grid, doc=doc)
    chunker = docchunk.HybridChunker(tokenizer=docchunk.get_tokenizer(f"hf:{minilm_dir}"), max_tokens=64)
    chunks = list(chunker.chunk(doc))
    assert not lost_texts(doc, chunks)
