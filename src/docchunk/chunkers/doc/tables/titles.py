"""What heads a table's pieces (default mode): its caption, description and the title lines before it.

Every piece of a table split by rows carries the same context in ``captions``
(``contextualize()`` writes it before the rows): :func:`caption_text` writes it, from
the table's caption (or that of the table it continues, a page-broken table's second
part), its ``meta.description`` and, in the hybrid chunker, the one-cell title tables or
the title paragraph directly before it (:func:`titles_before`). A one-cell title table
that so heads the next table gives no piece of its own (:func:`heads_next_table`).
A title only heads a table the serializer writes (:func:`written_by`): one left out
(page furniture in the default mode, a content layer or page not chunked, an excluded
reference) would take the title's text with it (session 8's hostile finding 1).
With ``same_page`` (``HybridChunker(merge_across_pages=False)``) a title only heads a
table on its own page (:func:`on_other_pages`): across a page change it is a piece of its
own on its page, as the setting keeps items of different pages apart (session 9's
hostile finding 5: a page-1 title table was in the chunk of the page-2 table it heads).
"""

from __future__ import annotations

from typing import Any

from docling_core.types.doc import TableItem, TextItem

from docchunk.chunkers.doc.lead_in_rules import title_paragraph_before
from docchunk.serialization.tables import read_table, rows_as_written, table_description
from docchunk.serialization.tables.continued import continued_from, sibling
from docchunk.serialization.tables.grid import more_cells_than
from docchunk.serialization.tables.rules import TITLE_ROWS, is_title_table

__all__ = ["caption_text", "heading_titles", "heads_next_table", "on_other_pages", "titles_before", "written_by"]


def caption_text(table: TableItem, serializer: Any, titled: bool = False, same_page: bool = False) -> str:
    """The table's caption and ``meta.description``: what ``contextualize()`` shows with every piece.

    With ``titled``, the text of a one-cell title table directly before it
    (:func:`titles_before`; the hybrid chunker's pieces, whose walk then has no piece
    of the titles' own) first. Then the caption text as the serializer gives it (docling-core's ``caption_text``
    otherwise), then the description, each on a line of its own. A table that continues
    the one before it (:func:`~docchunk.serialization.tables.continued.continued_from`: a
    page-broken table's second part, no caption of its own) has the first part's caption
    and title, which name it and its unit. ``same_page``: as for :func:`titles_before`.
    """
    doc = getattr(serializer, "doc", None)
    named = continued_from(table, doc) or table
    serialize = getattr(serializer, "serialize_captions", None)
    if serialize is not None:
        caption = serialize(item=named).text.strip()
    else:
        caption = named.caption_text(serializer.doc).strip()
    description = table_description(table)
    titles = heading_titles(table, doc, serializer, same_page) if titled else []
    title_text = "\n".join(
        rows_as_written(title, serializer).text if isinstance(title, TableItem)
        else (serializer.serialize(item=title).text or "").strip()  # a title paragraph, as the serializer writes it
        for title in titles
    )  # fmt: skip
    return "\n".join(t for t in (title_text, caption, description) if t)


def heading_titles(
    table: TableItem, doc: Any, serializer: Any = None, same_page: bool = False
) -> list[TableItem | TextItem]:
    """What :func:`caption_text` writes first with ``titled``: :func:`titles_before` the table it continues, or it.

    A page-broken table's second part (:func:`~docchunk.serialization.tables.continued.continued_from`)
    is headed by the first part's titles (with ``same_page``, those on its own page). Empty
    for none. ``serializer`` and ``same_page``: as for :func:`titles_before`.
    """
    titles = titles_before(continued_from(table, doc) or table, doc, serializer, same_page)
    return [t for t in titles if not on_other_pages(t, table)] if same_page else titles


def on_other_pages(title: Any, table: Any) -> bool:
    """Whether ``title`` and ``table`` are on different pages: each has provenance, and their first pages differ.

    An item without provenance is on no page of its own: it is on the page of either.
    """
    title_prov, table_prov = getattr(title, "prov", None) or [], getattr(table, "prov", None) or []
    return bool(title_prov and table_prov) and title_prov[0].page_no != table_prov[0].page_no


def written_by(item: Any, serializer: Any) -> bool:
    """Whether ``serializer`` writes ``item`` when the chunker walks the document (None: every item).

    The item is in one of the serializer's content layers (``params.layers``) and not
    among its excluded references (``get_excluded_refs()``: labels, pages, index range,
    and in docchunk's default mode page furniture unless ``include_furniture``).
    """
    if serializer is None:
        return True
    layers = getattr(getattr(serializer, "params", None), "layers", None)
    if layers is not None and item.content_layer not in layers:
        return False
    return bool(item.self_ref not in serializer.get_excluded_refs())


def _is_title(table: Any, doc: Any) -> bool:
    """Whether ``table`` is a one-cell title table without a caption (:func:`.rules.is_title_table`).

    Only the title rule runs: the table's full kind would read every rich cell's text.
    The table is read into a model only when its grid is at most :data:`.rules.TITLE_ROWS`
    cells (a title cell, or a title block of one cell a row): reading a rich cell here (no
    document serializer) makes docling-core build one, which validates the whole
    document, for each rich cell of each table next to another table.
    """
    if not isinstance(table, TableItem) or table.captions:
        return False
    if more_cells_than(table.data, TITLE_ROWS):
        return False
    model = read_table(table, doc)
    return is_title_table(model.grid, model.text_of)


def titles_before(
    table: TableItem, doc: Any, serializer: Any = None, same_page: bool = False
) -> list[TableItem | TextItem]:
    """The one-cell title tables directly before ``table`` (no caption of their own), which name it, first first.

    An XLSX sheet's title cell converted as a table of its own (docling#2396): its
    text heads the table after it, in the captions of every piece of it, rather than
    being a chunk of its own that does not say which table it names (issue 46). A block
    of such titles (a company, then a statement's name, each a one-cell table) heads the
    table together: each title heads the table after it (:func:`heads_next_table`), so
    a title that heads only the next title would be written nowhere (a long random run
    found the first of three lost, 5 December). Else a title paragraph alone under its
    heading (:func:`~..lead_in_rules.title_paragraph_before`: a DOCX form's title cell,
    converted as a paragraph), which heads every piece alike; the paragraph stays content
    (``merge_peers`` joins it to the first piece, writing it once). Empty for none.

    With ``serializer``, only titles it writes (:func:`written_by`) count, and one it
    leaves out ends the block: the same rule as :func:`heads_next_table`'s, so that a
    title is written either in the captions of the table it heads or as a piece of its own.
    With ``same_page``, a title on another page than the table after it (:func:`on_other_pages`)
    ends the block too (and a title paragraph on another page heads nothing).
    """
    titles: list[TableItem | TextItem] = []
    first = before = sibling(table, doc, -1)
    after: Any = table
    while (
        isinstance(before, TableItem)
        and written_by(before, serializer)
        and not (same_page and on_other_pages(before, after))
        and _is_title(before, doc)
    ):
        titles.insert(0, before)
        before, after = sibling(before, doc, -1), before
    if titles or isinstance(first, TableItem) or doc is None:
        return titles
    paragraph = title_paragraph_before(table, doc)
    return [paragraph] if paragraph is not None and not (same_page and on_other_pages(paragraph, table)) else []


def heads_next_table(table: TableItem, doc: Any, serializer: Any, same_page: bool = False) -> bool:
    """Whether ``table`` is a one-cell title table whose text heads the table directly after it.

    That table has cell text and is one ``serializer`` writes (:func:`written_by`): a
    title before a table the chunker leaves out (a furniture table in the default mode,
    a table on a page the serializer's ``pages`` leave out) is a piece of its own, not
    the caption of chunks that are never made. Page furniture between them is not
    passed over: a page footer between a title and a table ends the title's block.

    Args:
        table: A docling-core ``TableItem``.
        doc: The ``DoclingDocument`` holding it (None: False).
        serializer: The chunker's serializer of ``doc`` (None: every table counts as written).
        same_page: A title heads no table on another page (:func:`on_other_pages`;
            ``merge_across_pages=False``).
    """
    after = sibling(table, doc, 1)
    return (
        isinstance(after, TableItem)
        and any(cell.text.strip() for cell in after.data.table_cells)
        and written_by(after, serializer)
        and not (same_page and on_other_pages(table, after))
        and _is_title(table, doc)
    )
