"""A Hypothesis strategy for arbitrary valid ``DoclingDocument`` trees, built through docling-core's API.

:func:`docling_documents` draws a document item by item: each new item is added with
docling-core's own methods (``add_title``, ``add_heading``, ``add_text``, ``add_list_group``
and ``add_list_item``, ``add_group`` of every :class:`GroupLabel`, ``add_inline_group``,
``add_code``, ``add_formula``, ``add_picture`` with captions and children, ``add_table``
with spanning, header, section and empty cells and rich cells holding a list,
``add_key_values``, ``add_form``, ``add_field_region``/``add_field_item``), under a parent
drawn from every node that can hold it so far:

- the body, the furniture, any group (a list item only under a list group);
- a list item (a picture, a table, code, a formula, a form or a nested list inside it);
- a heading or title (content nested under its section header, as some converters write it);
- a picture (texts inside it, such as a chart's labels);
- a table (the content of a rich cell: a group with a list or a paragraph in it).

Texts are drawn from :func:`odd_texts`: empty and blank texts, control characters
(``\\x88``), combining marks, right-to-left scripts, emoji, zero-width and line/page
separators, Markdown and HTML punctuation, and words too long for any small budget. Items
of a document with pages carry provenance on any of them (up to three pages), in any
order; some items carry none. Some items go to the furniture layer.

Every document drawn round-trips through docling-core's JSON (``DoclingDocument.model_validate``),
so it is one a user could load.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

__all__ = ["KINDS", "docling_documents", "odd_texts"]

_ODD = [
    "\x88", "«", "Ê", "\u0301", "e\u0301", "\u200b", "\u200d", "\u2028", "\u2029", "\x0c", "\x0b", "\t", "\r\n",
    "😀", "👩\u200d👩\u200d👧", "🇫🇷", "東京都", "שלום", "مرحبا", "ß", "İ", "ﬁ", "\ufeff", "\u00a0", "\u3000",
    "|", "||", "---", "```", "~~~", "#", "##", "*", "**", "_", "-", "- ", "1.", ">", "<b>", "&amp;", "&", "[x](y)",
    "\\", "$$", "<!-- image -->", ":", ". ", "\n", "\n\n", " ", "  ",
]  # fmt: skip
_WORDS = ["the", "chunk", "Tokenizer", "naïve", "alpha", "3.14", "a-b/c", "x" * 90, "Überschrift", "β-γ"]

_pieces = st.one_of(
    st.sampled_from(_ODD),
    st.sampled_from(_WORDS),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=8),
)


@st.composite
def odd_texts(draw: Any, max_pieces: int = 24) -> str:
    """A text of words, odd characters and separators; sometimes empty or blank."""
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return draw(st.sampled_from(["", " ", "\n", "\u200b", "\x88"]))
    parts = draw(st.lists(_pieces, min_size=1, max_size=max_pieces))
    seps = draw(st.lists(st.sampled_from([" ", " ", " ", "", "\n", ". "]), min_size=len(parts), max_size=len(parts)))
    return "".join(p + s for p, s in zip(parts, seps, strict=True)).rstrip(" ")


KINDS = (
    "title", "heading", "text", "text", "list", "code", "formula", "picture", "table", "key_values", "form",
    "field", "group", "inline", "furniture",
)  # fmt: skip
"""The kinds of item :func:`docling_documents` adds (``text`` twice: the commonest item)."""

_TEXT_LABELS = (
    "text", "paragraph", "footnote", "caption", "reference", "checkbox_selected", "checkbox_unselected",
    "handwritten_text", "empty_value", "marker", "page_header", "page_footer",
)  # fmt: skip


@dataclass
class _Builder:
    """The document being drawn, and the nodes that can hold the next item."""

    draw: Any
    doc: Any
    pages: int
    parents: list[Any] = field(default_factory=list)  # nodes that may hold any item
    lists: list[Any] = field(default_factory=list)  # list groups (the only parents of list items)

    def text(self, max_pieces: int = 24) -> str:
        return str(self.draw(odd_texts(max_pieces=max_pieces)))

    def prov(self, text: str = "") -> Any:
        """Provenance on one of the pages (none for some items, and in a document without pages)."""
        from docling_core.types.doc import BoundingBox, CoordOrigin, ProvenanceItem

        if not self.pages or self.draw(st.integers(0, 4)) == 0:
            return None
        top = float(self.draw(st.integers(0, 700)))
        origin = self.draw(st.sampled_from([CoordOrigin.TOPLEFT, CoordOrigin.BOTTOMLEFT]))
        t, b = (top, top + 40.0) if origin == CoordOrigin.TOPLEFT else (top + 40.0, top)
        return ProvenanceItem(
            page_no=self.draw(st.integers(1, self.pages)),
            bbox=BoundingBox(l=10.0, t=t, r=300.0, b=b, coord_origin=origin),
            charspan=(0, len(text)),
        )

    def parent(self) -> Any:
        return self.draw(st.sampled_from(self.parents))

    def caption(self, parent: Any) -> Any:
        from docling_core.types.doc import DocItemLabel

        text = self.text(8)
        return self.doc.add_text(label=DocItemLabel.CAPTION, text=text, parent=parent, prov=self.prov(text))

    def add(self, kind: str) -> None:
        getattr(self, "_" + kind)()

    def _title(self) -> None:
        text = self.text(8)
        self.parents.append(self.doc.add_title(text=text, parent=self.parent(), prov=self.prov(text)))

    def _heading(self) -> None:
        text = self.text(8)
        level = self.draw(st.integers(1, 6))
        heading = self.doc.add_heading(text=text, level=level, parent=self.parent(), prov=self.prov(text))
        if self.draw(st.booleans()):
            self.parents.append(heading)

    def _text(self) -> None:
        from docling_core.types.doc import ContentLayer, DocItemLabel

        label = DocItemLabel(self.draw(st.sampled_from(_TEXT_LABELS)))
        layer = ContentLayer.FURNITURE if label in (DocItemLabel.PAGE_HEADER, DocItemLabel.PAGE_FOOTER) else None
        text = self.text()
        link = self.draw(st.sampled_from([None, None, None, "https://example.com/a_(b)"]))
        item = self.doc.add_text(label=label, text=text, parent=self.parent(), prov=self.prov(text),
                                 content_layer=layer, hyperlink=link)  # fmt: skip
        if self.draw(st.integers(0, 5)) == 0:
            self.parents.append(item)  # a paragraph holding content (some converters nest under text)

    def _list(self) -> None:
        if self.lists and self.draw(st.booleans()):
            group = self.draw(st.sampled_from(self.lists))
        else:
            group = self.doc.add_list_group(parent=self.parent())
            self.lists.append(group)
        enumerated = self.draw(st.booleans())
        for _ in range(self.draw(st.integers(1, 4))):
            text = self.text(12)
            marker = self.draw(st.sampled_from([None, None, "•", "a)", "", "99."]))
            item = self.doc.add_list_item(text=text, enumerated=enumerated, marker=marker, parent=group,
                                          prov=self.prov(text))  # fmt: skip
            self.parents.append(item)
            if self.draw(st.integers(0, 3)) == 0:  # a nested list in the item
                self.lists.append(self.doc.add_list_group(parent=item))

    def _code(self) -> None:
        from docling_core.types.doc import CodeLanguageLabel

        text = self.text(30)
        language = self.draw(st.sampled_from([None, CodeLanguageLabel.PYTHON, CodeLanguageLabel.UNKNOWN]))
        code = self.doc.add_code(text=text, code_language=language, parent=self.parent(), prov=self.prov(text))
        if self.draw(st.booleans()):
            code.captions.append(self.caption(code).get_ref())

    def _formula(self) -> None:
        text = self.text(10)
        self.doc.add_formula(text=text, parent=self.parent(), prov=self.prov(text))

    def _picture(self) -> None:
        from docling_core.types.doc import DescriptionAnnotation, DocItemLabel

        picture = self.doc.add_picture(parent=self.parent(), prov=self.prov())
        for _ in range(self.draw(st.integers(0, 2))):
            picture.captions.append(self.caption(picture).get_ref())
        for _ in range(self.draw(st.integers(0, 2))):  # texts inside the picture
            text = self.text(6)
            self.doc.add_text(label=DocItemLabel.TEXT, text=text, parent=picture, prov=self.prov(text))
        if self.draw(st.booleans()):
            picture.annotations.append(DescriptionAnnotation(text=self.text(10), provenance="fuzz"))
        if self.draw(st.integers(0, 3)) == 0:
            self.parents.append(picture)

    def _table(self) -> None:
        from docling_core.types.doc import DocItemLabel, GroupLabel, RichTableCell, TableCell, TableData

        rows, cols = self.draw(st.integers(1, 5)), self.draw(st.integers(1, 4))
        taken: set[tuple[int, int]] = set()
        cells: list[Any] = []
        rich: tuple[int, int] | None = None
        header_rows = self.draw(st.integers(0, min(2, rows)))
        for r in range(rows):
            for c in range(cols):
                if (r, c) in taken:
                    continue
                rs = self.draw(st.integers(1, rows - r)) if self.draw(st.integers(0, 5)) == 0 else 1
                cs = self.draw(st.integers(1, cols - c)) if self.draw(st.integers(0, 5)) == 0 else 1
                while any((r + i, c + j) in taken for i in range(rs) for j in range(cs)):
                    rs, cs = 1, 1
                taken |= {(r + i, c + j) for i in range(rs) for j in range(cs)}
                choice = self.draw(st.integers(0, 7))
                if choice == 0:
                    continue  # no cell at all: an empty grid position
                if choice == 1 and rich is None and rs == cs == 1:
                    rich = (r, c)
                    continue
                cells.append(
                    TableCell(
                        text="" if choice == 2 else self.text(6),
                        row_span=rs,
                        col_span=cs,
                        start_row_offset_idx=r,
                        end_row_offset_idx=r + rs,
                        start_col_offset_idx=c,
                        end_col_offset_idx=c + cs,
                        column_header=r < header_rows,
                        row_header=c == 0 and self.draw(st.booleans()),
                        row_section=choice == 3 and cs == cols,
                    )
                )
        parent = self.parent()
        table = self.doc.add_table(data=TableData(num_rows=rows, num_cols=cols, table_cells=cells),
                                   parent=parent, prov=self.prov())  # fmt: skip
        if self.draw(st.booleans()):
            table.captions.append(self.caption(table).get_ref())
        if rich is not None:  # a rich cell: a group in the table holding a list or a paragraph
            group = self.doc.add_group(label=GroupLabel.UNSPECIFIED, name="rich_cell", parent=table)
            if self.draw(st.booleans()):
                inner = self.doc.add_list_group(parent=group)
                texts = [self.doc.add_list_item(text=self.text(6), parent=inner).text for _ in range(2)]
            else:
                texts = [self.doc.add_text(label=DocItemLabel.TEXT, text=self.text(6), parent=group).text]
            r, c = rich
            self.doc.add_table_cell(table, RichTableCell(
                text=" ".join(texts), ref=group.get_ref(), start_row_offset_idx=r, end_row_offset_idx=r + 1,
                start_col_offset_idx=c, end_col_offset_idx=c + 1))  # fmt: skip
            self.parents.append(group)

    def _graph(self) -> Any:
        from docling_core.types.doc import GraphCell, GraphCellLabel, GraphData, GraphLink, GraphLinkLabel

        cells, links = [], []
        for k in range(self.draw(st.integers(0, 3))):
            key, value = self.text(4), self.text(6)
            cells.append(GraphCell(label=GraphCellLabel.KEY, cell_id=2 * k, text=key, orig=key))
            cells.append(GraphCell(label=GraphCellLabel.VALUE, cell_id=2 * k + 1, text=value, orig=value))
            links.append(GraphLink(label=GraphLinkLabel.TO_VALUE, source_cell_id=2 * k, target_cell_id=2 * k + 1))
        return GraphData(cells=cells, links=links)

    def _key_values(self) -> None:
        self.doc.add_key_values(graph=self._graph(), parent=self.parent(), prov=self.prov())

    def _form(self) -> None:
        self.doc.add_form(graph=self._graph(), parent=self.parent(), prov=self.prov())

    def _field(self) -> None:
        """A form field region: fields of a key and a value (docling-core's newer form model)."""
        from docling_core.types.doc import DocItemLabel

        region = self.doc.add_field_region(parent=self.parent(), prov=self.prov())
        for _ in range(self.draw(st.integers(1, 2))):
            item = self.doc.add_field_item(parent=region)
            self.doc.add_text(label=DocItemLabel.FIELD_KEY, text=self.text(4), parent=item)
            self.doc.add_text(label=DocItemLabel.FIELD_VALUE, text=self.text(6), parent=item)

    def _group(self) -> None:
        from docling_core.types.doc import GroupLabel

        label = self.draw(st.sampled_from([g for g in GroupLabel if g not in (GroupLabel.INLINE,)]))
        group = self.doc.add_group(label=label, name=f"group-{label.value}", parent=self.parent())
        if label in (GroupLabel.LIST, GroupLabel.ORDERED_LIST):
            self.lists.append(group)  # docling-core makes a ListGroup of a list label
        else:
            self.parents.append(group)

    def _inline(self) -> None:
        """An inline run: texts, a formula and code on one line (a list item's text when under one)."""
        from docling_core.types.doc import DocItemLabel, Formatting

        group = self.doc.add_inline_group(parent=self.parent())
        for _ in range(self.draw(st.integers(1, 3))):
            which = self.draw(st.integers(0, 3))
            if which == 0:
                self.doc.add_formula(text=self.text(4), parent=group)
            elif which == 1:
                self.doc.add_code(text=self.text(4), parent=group)
            else:
                bold = Formatting(bold=self.draw(st.booleans()), italic=self.draw(st.booleans()))
                link = self.draw(st.sampled_from([None, "https://example.com/x"]))
                self.doc.add_text(label=DocItemLabel.TEXT, text=self.text(6), parent=group, formatting=bold,
                                  hyperlink=link)  # fmt: skip

    def _furniture(self) -> None:
        """An item of the furniture layer: a page header or footer, a footnote, a picture."""
        from docling_core.types.doc import ContentLayer, DocItemLabel

        label = DocItemLabel(self.draw(st.sampled_from(["page_header", "page_footer", "footnote", "text"])))
        parent = self.draw(st.sampled_from([self.doc.furniture, self.parent()]))
        text = self.text(8)
        self.doc.add_text(label=label, text=text, parent=parent, prov=self.prov(text),
                          content_layer=ContentLayer.FURNITURE)  # fmt: skip


@st.composite
def docling_documents(draw: Any, max_items: int = 12) -> Any:
    """A valid ``DoclingDocument`` of up to ``max_items`` drawn items (see the module docstring).

    Args:
        draw: Hypothesis's draw function (given by ``st.composite``).
        max_items: The most items drawn at the top level (a list, table or picture adds
            several nodes for one).

    Returns:
        A ``DoclingDocument`` named ``"fuzz"``, already validated as docling-core JSON.
    """
    from docling_core.types.doc import DoclingDocument, Size

    doc = DoclingDocument(name="fuzz")
    pages = draw(st.integers(0, 3))
    for page_no in range(1, pages + 1):
        doc.add_page(page_no=page_no, size=Size(width=600, height=800))
    builder = _Builder(draw, doc, pages, parents=[doc.body])
    for kind in draw(st.lists(st.sampled_from(KINDS), min_size=1, max_size=max_items)):
        builder.add(kind)
    return DoclingDocument.model_validate(doc.export_to_dict())
