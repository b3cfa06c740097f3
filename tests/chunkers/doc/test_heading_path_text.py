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


def _level_name(k: int) -> str:
    topic = "a rather long topic name that keeps going "
    return f"Level {k} section about " + ("" if k % 3 == 0 else topic * (1 + (k % 3 == 2))) + f"part {k}"


def deep_handbook() -> DoclingDocument:
    """The round-3 tester's ``api_deep_headings``: a title over eight heading levels, long names, short bodies."""
    doc = DoclingDocument(name="handbook")
    doc.add_title("Handbook")
    for k in range(1, 9):
        doc.add_heading(_level_name(k), level=k)
        doc.add_text(label=DocItemLabel.TEXT, text=" ".join([f"Body at level {k}."] * (3 + k)))
    return doc


def test_a_heading_written_as_a_path_is_not_written_again_after_its_section(minilm_dir):
    """A path too long for half the budget wrote its outer headings as text, though earlier chunks had them as path.

    The round-3 tester's finding 9 (MiniLM 64): ``Handbook``, the first chunk's path, came next
    as a chunk of its own; ``Level 3 ...``, the path of level 3's and level 4's chunks, came as a
    line after level 4's body, under a shortened path whose ``headings_dropped`` was None.
    Each heading is now written once as text or path before its section's content, in order,
    and a chunk whose path leaves out outer headings names them in ``headings_dropped``.
    """
    doc = deep_handbook()
    chunker = docchunk.HybridChunker(tokenizer=docchunk.get_tokenizer(f"hf:{minilm_dir}"), max_tokens=64)
    chunks = list(chunker.chunk(doc))
    assert not lost_texts(doc, chunks)
    names = ["Handbook", *(_level_name(k) for k in range(1, 9))]
    seen: set[str] = set()
    for chunk in chunks:
        lines = chunker.contextualize(chunk).split("\n")
        again = [line for line in lines if line in names and line in seen and line not in (chunk.meta.headings or ())]
        assert not again, (again, lines)  # a heading line already written, written again as text
        path = [*(chunk.meta.headings_dropped or ()), *(chunk.meta.headings or ())]
        assert path == names[: len(path)], path  # the whole path from the title, in meta
        seen.update(line for line in lines if line in names)


def test_a_piece_left_without_a_path_still_has_its_outer_headings_before_it(minilm_dir):
    """A piece under a heading too long for the budget keeps no path: its outer headings are written before it.

    Even when earlier chunks wrote them as their path (the rule above): docling-core's test
    document ``2_inp_dl_doc`` (MiniLM 256), a table under ``Business trends too long ...``;
    its chunk opened with ``IBM`` / ``Corporate affairs`` / the long heading, and stays so.
    """
    doc = DoclingDocument(name="ibm")
    doc.add_title("IBM")
    doc.add_heading("Corporate affairs", level=1)
    doc.add_text(label=DocItemLabel.TEXT, text=PARAGRAPH)
    doc.add_heading("Business trends " + "too long " * 70, level=2)
    doc.add_text(label=DocItemLabel.TEXT, text="These are the trends")
    make_table([["Year", "Revenue"], ["2014", "92.7"], ["2015", "81.7"]], doc=doc)
    chunker = docchunk.HybridChunker(tokenizer=docchunk.get_tokenizer(f"hf:{minilm_dir}"), max_tokens=256)
    chunks = list(chunker.chunk(doc))
    holder = next(c for c in chunks if "2014" in c.text)
    assert chunker.contextualize(holder).startswith("IBM\nCorporate affairs\nBusiness trends"), holder.text
