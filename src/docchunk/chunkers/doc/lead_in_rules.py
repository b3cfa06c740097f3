"""What a paragraph next to a table reads as (default mode): a lead-in, a table's title line, a trailing note, a title.

The rules :mod:`docchunk.chunkers.doc.lead_in` (which moves lead-ins into their
tables' pieces) and :mod:`docchunk.chunkers.doc.merging` (which keeps a trailing note
with its own table) read; each is a function of a paragraph's text (or item) alone.
"""

from __future__ import annotations

import re
from typing import Any

from docling_core.types.doc import DocItemLabel, TableItem
from docling_core.types.doc.document import SectionHeaderItem, TextItem, TitleItem

from docchunk.serialization.tables.kinds import TITLE_WORDS

__all__ = [
    "ends_lead_in",
    "introduces",
    "is_lead_in",
    "is_paragraph",
    "is_table_title",
    "is_title_line",
    "is_trailing_note",
    "lead_in_sentence",
    "plain",
    "title_paragraph_before",
]

_NAMES_TABLE = re.compile(
    r"^\s*(?:table|tab\.)\s*[\dIVX]+|\b(?:following|below|next)\s+tables?\b|\btables?\s+(?:below|that follows)\b",
    re.IGNORECASE,
)


def is_paragraph(item: Any) -> bool:
    """Whether ``item`` is a paragraph (a ``TextItem`` labelled text or paragraph): what may lead in a table."""
    return isinstance(item, TextItem) and item.label in (DocItemLabel.TEXT, DocItemLabel.PARAGRAPH)


def plain(text: str) -> str:
    """``text`` stripped of spaces and of the Markdown emphasis marks around it (``**Table 1: ...**``).

    Word's "Caption" style is bold: docling converts such a lead-in as a bold text item,
    written ``**Table 1: Results of experiment 1**``, which did not start with ``Table``
    (a tester's DOCX, issue 46 finding 12).
    """
    return text.strip().strip("*_~").strip()


def is_lead_in(text: str) -> bool:
    """Whether a paragraph reads as the lead-in of a table: it ends with ``:`` or names a table (emphasis aside)."""
    stripped = plain(text)
    return bool(stripped) and (stripped.endswith(":") or _NAMES_TABLE.search(stripped) is not None)


_TITLE_LINE = re.compile(r"^\s*(?:table|tab\.)\s*[\dIVX]+\b", re.IGNORECASE)
_POINTS_AHEAD = re.compile(r"\b(?:below|as follows|the following)\W*$", re.IGNORECASE)


def is_table_title(text: str) -> bool:
    """Whether a paragraph is a table's caption-style title line (``Table 2: Hardness by alloy``, emphasis aside).

    Word's "Caption" style, converted by docling as a text item (bold), not as the table's caption.
    """
    return _TITLE_LINE.match(plain(text)) is not None


def ends_lead_in(item: Any, text: str) -> bool:
    """Whether ``item`` (``text``, its text) may stand between a lead-in and its table as the lead-in's last line.

    A paragraph that reads as the table's title line (:func:`is_table_title`), or a
    caption or footnote item that the walk writes in the body (no table links it:
    docling's converters emit such items when they cannot pair them). ``The readings of
    station 0 are:`` / ``Table 0: station 0`` (a caption item) / the table (round-3
    tester's finding 17: the lead-in and the item were a chunk without rows).
    """
    if isinstance(item, TextItem) and item.label in (DocItemLabel.CAPTION, DocItemLabel.FOOTNOTE):
        return True
    return is_paragraph(item) and is_table_title(text)


def introduces(text: str) -> bool:
    """Whether a paragraph before a table's title line introduces the table: a lead-in, or it ends pointing ahead.

    ``The hardness results are given below.`` / ``Table 2: Hardness by alloy`` / the
    table (a tester's DOCX lab report, issue 46 finding 22): the sentence ends with
    ``below``, ``as follows``, ``the following`` (a full stop or ``:`` aside).
    """
    return is_lead_in(text) or _POINTS_AHEAD.search(plain(text)) is not None


_NOTE_START = re.compile(
    r"^\s*(?:(?:sources?|notes?|n\.\s?b\.|nb|footnotes?|remarks?)\s*[:.\-\u2013\u2014)]\s*\S"  # Source: survey A.
    r"|(?:note|notes)\s+(?:that|to)\b"  # Note that amounts are rounded.
    r"|[*\u2020\u2021\u00a7\u00b9\u00b2\u00b3\u2070-\u2079]"  # * Unaudited.  † Restated.  ¹ In euros.
    r"|[\[(]\d{1,2}[\])]\s)",  # (1) Restated.  [2] Estimate.
    re.IGNORECASE,
)
_REFERS_BACK = re.compile(
    r"\b(?:above|preceding|foregoing|previous\s+tables?)\b|^\s*(?:these|those)\s+(?:figures|amounts|numbers|values|data|results)\b",
    re.IGNORECASE,
)


def is_trailing_note(text: str) -> bool:
    """Whether a paragraph after a table reads as that table's trailing note, not the next table's lead-in.

    A note starts with ``Source:``, ``Sources -``, ``Note:``, ``Notes.`` followed by
    its text, ``Note that``, a footnote mark (``*``, ``†``, ``¹``, ``(1)``), or a
    lower-case letter (it goes on from the table), or it refers back (``above``,
    ``preceding``, ``These figures ...``), and it does not read as a lead-in
    (:func:`is_lead_in`: ending with ``:`` or naming a following table wins). A
    one-word label such as ``Notes.`` alone is no note: it titles what follows.
    Seen in a generated DOCX of two survey tables each followed by ``Source: survey
    A, 2026.`` (issue 46 finding 13: the note went to the next table's chunk).
    """
    stripped = plain(text)
    if not stripped or is_lead_in(stripped):
        return False
    if stripped[0].islower() or _NOTE_START.match(text.strip()) is not None:  # a footnote's ``*`` kept
        return True
    return _REFERS_BACK.search(stripped) is not None


_SENTENCE_END = re.compile(r"[.!?][\"'\u201d\u2019)\]]*\s+(?=[\"'\u201c\u2018(\[]*[A-Z0-9])")
"""A sentence end: ``.``, ``!`` or ``?`` (and closing quotes or brackets), spaces, then a capital or a digit."""


def lead_in_sentence(text: str) -> str | None:
    """The sentence of a lead-in paragraph that introduces the table, or None when ``text`` is no lead-in.

    The paragraph's last sentence when it ends with ``:`` (``... The following table
    presents the reconciliation:``); else its last sentence that names a table
    (``Table 3 shows ...``, ``... in the table below.``); sentences end at ``.``,
    ``!`` or ``?`` followed by spaces and a capital or a digit. A paragraph of one
    sentence is its own lead-in sentence. A lead-in of a sentence, then the table's title
    line on a line of its own (:func:`is_table_title`), has the title line as its sentence.
    """
    stripped = plain(text)
    if "\n" in stripped and is_table_title(stripped.rpartition("\n")[2]):  # a sentence, then the title line
        return plain(stripped.rpartition("\n")[2])
    if not is_lead_in(stripped):
        return None
    cuts = [m.end() for m in _SENTENCE_END.finditer(stripped)]
    sentences = [stripped[a:b].strip() for a, b in zip([0, *cuts], [*cuts, len(stripped)], strict=True)]
    sentences = [s for s in sentences if s]
    if not stripped.endswith(":"):
        named = [s for s in sentences if _NAMES_TABLE.search(s)]
        if named:
            return named[-1]
    return sentences[-1]


_SENTENCE_MARK = re.compile(
    r"[.!?;,\u3002\uff01\uff1f\uff1b\uff0c\u0964\u0965](?:\s|$)|[\u3002\uff01\uff1f]|[:\uff1a]$"
)
"""Sentence punctuation: ``.!?;,`` before a space or the end, a CJK stop, ``।``, a final ``:`` (full-width too)."""


def is_title_line(text: str) -> bool:
    """Whether a paragraph reads as a title: one line of at most ``TITLE_WORDS`` words, a letter, no sentence mark.

    ``FORM 7B — Vehicle mileage log``, ``Schedule of fees — effective 1 April 2026``,
    ``राज्यवार बिक्री रिपोर्ट``, ``FORM 1: Declaration of goods``; not ``The amounts are
    as follows:`` nor ``Fees are reviewed annually.`` (a mark ends it), nor a lead-in
    (:func:`is_lead_in`: ``Table 2: Hardness by alloy`` moves into its table's first
    piece as one), nor a note (``Note: in thousands``).
    The words of a title cell (:func:`~docchunk.serialization.tables.kinds.is_title_table`).
    """
    stripped = plain(text)
    if not stripped or "\n" in stripped or len(stripped.split()) > TITLE_WORDS or not stripped[0].isalpha():
        return False
    if stripped[0].islower() or _SENTENCE_MARK.search(stripped) is not None:
        return False
    return not is_lead_in(stripped) and not is_trailing_note(stripped)


def title_paragraph_before(table: TableItem, doc: Any) -> TextItem | None:
    """Rule: a title-like paragraph alone under its heading, directly before a table without a caption, titles it.

    A form's one-cell title table that docling's DOCX converter turns into a paragraph
    (``FORM 7B — Vehicle mileage log`` under the heading ``Forms``, then the table: the
    round-2 tester's ``docx_title_cell_apart``, finding 18): the same title a one-cell
    title table gives (HTML, XLSX) heads every piece of the table
    (:func:`~docchunk.chunkers.doc.tables.titles.titles_before`), where as a paragraph
    it headed the first piece only. The paragraph reads as a title
    (:func:`is_title_line`), stands directly before the table among its parent's children
    (empty paragraphs aside), and is the first content under its heading: a heading (or
    the title) comes directly before it, or is its parent (docling's DOCX converter nests
    a section's items under its heading). A paragraph that opens a sheet or a document
    without a heading is not taken (the round-2 tester's ``xlsx_hindi``, a sheet's title
    line of 18 MiniLM tokens, went to 1.35x compat's tokens at MiniLM 64 with it on every
    piece), nor a table in a cell. On the shared corpus it fires on 3 tables (``Before
    table`` in ``docx__docx_rich_cells`` and ``odf__text_document_03``, ``These are the
    trends`` in ``2_inp_dl_doc``), on none of doc-qa's.

    Returns:
        The paragraph, or None.
    """
    if table.captions or table.parent is None or doc is None:
        return None
    parent = table.parent.resolve(doc)
    if isinstance(parent, TableItem):
        return None
    children = parent.children
    at = next((k for k, ref in enumerate(children) if ref.cref == table.self_ref), None)
    k = _non_empty_before(children, doc, at) if at is not None else None
    if k is None:
        return None
    title = children[k].resolve(doc)
    if not is_paragraph(title) or not is_title_line(title.text):
        return None
    j = _non_empty_before(children, doc, k)
    heading = parent if j is None else children[j].resolve(doc)  # the paragraph's parent, when it is the first child
    return title if isinstance(heading, (SectionHeaderItem, TitleItem)) else None


def _non_empty_before(children: list[Any], doc: Any, at: int) -> int | None:
    """The position of the last child before ``at`` that is not an empty paragraph; None if none is."""
    k = at - 1
    while k >= 0:
        item = children[k].resolve(doc)
        if not (isinstance(item, TextItem) and not item.text.strip()):
            return k
        k -= 1
    return None
