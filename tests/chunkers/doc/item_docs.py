"""Small documents built with docling-core's API for the default mode's item serializers.

Pictures with child text items, key-value and form items with graph cells, formulas with
empty text and set ``orig``, body-layer page headers and footers between two halves of a
sentence across a page break. ``python -m tests.chunkers.doc.item_docs`` writes the stored
copies under ``tests/data/items/``.
"""

from __future__ import annotations

from pathlib import Path

from docling_core.types.doc import (
    BoundingBox,
    DocItemLabel,
    DoclingDocument,
    GraphCell,
    GraphCellLabel,
    GraphData,
    GraphLink,
    GraphLinkLabel,
    NodeItem,
    ProvenanceItem,
    RichTableCell,
    Size,
    TableCell,
    TableItem,
)

DATA = Path(__file__).resolve().parents[2] / "data" / "items"


def cell(text: str, row: int, col: int, header: bool = False) -> TableCell:
    """A one-row, one-column cell of a table at ``row``, ``col`` (a column header when ``header``)."""
    return TableCell(text=text, start_row_offset_idx=row, end_row_offset_idx=row + 1,
                     start_col_offset_idx=col, end_col_offset_idx=col + 1, column_header=header)  # fmt: skip


def header_row(names: list[str]) -> list[TableCell]:
    """The column header cells of row 0."""
    return [cell(name, 0, c, header=True) for c, name in enumerate(names)]


def add_rich_cell(doc: DoclingDocument, table: TableItem, content: NodeItem, text: str, row: int, col: int) -> None:
    """A rich cell at ``row``, ``col`` of ``table`` whose content is ``content`` (a group under the table)."""
    doc.add_table_cell(table, RichTableCell(text=text, ref=content.get_ref(), start_row_offset_idx=row,
                       end_row_offset_idx=row + 1, start_col_offset_idx=col, end_col_offset_idx=col + 1))  # fmt: skip


def prov(page: int) -> ProvenanceItem:
    return ProvenanceItem(page_no=page, bbox=BoundingBox(l=0, t=0, r=10, b=10), charspan=(0, 1))


def graph(pairs: list[tuple[str, str]], loose: tuple[str, ...] = (), to_key: bool = False) -> GraphData:
    """A graph of key and value cells, each key linked to its value, plus unlinked value cells ``loose``."""
    cells, links = [], []
    for key, value in pairs:
        k, v = len(cells), len(cells) + 1
        cells += [
            GraphCell(label=GraphCellLabel.KEY, cell_id=k, text=key, orig=key),
            GraphCell(label=GraphCellLabel.VALUE, cell_id=v, text=value, orig=value),
        ]
        if to_key:
            links.append(GraphLink(label=GraphLinkLabel.TO_KEY, source_cell_id=v, target_cell_id=k))
        else:
            links.append(GraphLink(label=GraphLinkLabel.TO_VALUE, source_cell_id=k, target_cell_id=v))
    for text in loose:
        cells.append(GraphCell(label=GraphCellLabel.VALUE, cell_id=len(cells), text=text, orig=text))
    return GraphData(cells=cells, links=links)


def scanned_page() -> DoclingDocument:
    """A document whose body is one picture (a scanned page) holding four text items."""
    doc = DoclingDocument(name="scanned_page")
    doc.add_page(page_no=1, size=Size(width=600, height=800))
    pic = doc.add_picture(prov=prov(1))
    for text in (
        "Invoice 2024-117",
        "Bill to: Northwind Labs, 12 Harbour Road",
        "Total due: 1,250.00 EUR",
        "Payment within 30 days of the invoice date.",
    ):
        doc.add_text(label=DocItemLabel.TEXT, text=text, parent=pic, prov=prov(1))
    return doc


def forms_and_formulas() -> DoclingDocument:
    """Key-value and form items, a chart picture with a caption and labels, formulas of each kind."""
    doc = DoclingDocument(name="forms_and_formulas")
    doc.add_heading(text="Claim form", level=1)
    doc.add_text(label=DocItemLabel.TEXT, text="The insured person fills in the fields below.")
    doc.add_key_values(graph=graph([("Name", "Alice Smith"), ("Policy number", "P-4471-220")], loose=("signed",)))
    doc.add_form(graph=graph([("Date of loss", "2024-03-02"), ("Amount claimed", "870 EUR")], to_key=True))
    caption = doc.add_text(label=DocItemLabel.CAPTION, text="Figure 1: claims per quarter")
    chart = doc.add_picture(caption=caption)
    doc.add_text(label=DocItemLabel.TEXT, text="Q1 claims 41", parent=chart)
    doc.add_text(label=DocItemLabel.TEXT, text="Q2 claims 57", parent=chart)
    doc.add_formula(text="E = mc^2")
    doc.add_formula(text="", orig="x2 + y2 = r2")
    doc.add_formula(text="", orig="")
    doc.add_text(label=DocItemLabel.TEXT, text="Claims are settled within four weeks.")
    return doc


FIRST_HALF = "The two samples were dried and then"
SECOND_HALF = "heated for one hour at 80 degrees."
FOOTER = "Northwind Labs annual report 2024 - page 7"
HEADER = "CONFIDENTIAL - internal use only"


def page_furniture() -> DoclingDocument:
    """A sentence running over a page break, with a body-layer page footer and header between its halves."""
    doc = DoclingDocument(name="page_furniture")
    for page in (1, 2):
        doc.add_page(page_no=page, size=Size(width=600, height=800))
    doc.add_text(label=DocItemLabel.TEXT, text="Method.", prov=prov(1))
    doc.add_text(label=DocItemLabel.TEXT, text=FIRST_HALF, prov=prov(1))
    doc.add_text(label=DocItemLabel.PAGE_FOOTER, text=FOOTER, prov=prov(1))
    doc.add_text(label=DocItemLabel.PAGE_HEADER, text=HEADER, prov=prov(2))
    doc.add_text(label=DocItemLabel.TEXT, text=SECOND_HALF, prov=prov(2))
    return doc


STORED = {"scanned_page": scanned_page, "forms_and_formulas": forms_and_formulas}


def stored(name: str) -> DoclingDocument:
    """The stored copy of a document of :data:`STORED`."""
    return DoclingDocument.load_from_json(DATA / f"{name}.json")


if __name__ == "__main__":  # pragma: no cover - regenerates tests/data/items
    DATA.mkdir(parents=True, exist_ok=True)
    for name, build in STORED.items():
        build().save_as_json(DATA / f"{name}.json")
