"""A rich cell read once per ``chunk()`` call (:class:`CellReads`) gives the text a fresh read gives (issue 46, speed).

The layout walk, the walk's table serializer (with its ``visited`` set) and the row
splitting each read a table with rich cells; each read serialized every rich cell again
(the Inline XBRL filing of the corpus: ten such tables, three reads each a call). A kept
read is given to a caller whose ``visited`` set holds none of the refs the read walks,
and adds them to that set; a caller whose set holds one reads the cell itself (the
serializer would skip that ref, so the text differs). Compared here with the reads made
without the cache: texts and ``visited`` sets equal, on real documents.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from docling_core.types.doc import DoclingDocument, RichTableCell, TableItem

from docchunk.serialization.selection import serializer_for
from docchunk.serialization.tables import TABLE_FORMATS, table_rows
from docchunk.serialization.tables.cells import CellReads
from docchunk.serialization.tables.grid import more_cells_than, read_grid

DATA = Path(__file__).resolve().parents[2] / "data"
CORPUS = Path(__file__).resolve().parents[3].parent / "shared" / "corpus" / "docling"
DOCS = [DATA / "html__html_rich_table_cells.html.json", CORPUS / "xbrl__mlac-20251231.xml.json"]


def _rich_tables(path: Path) -> tuple[DoclingDocument, list[TableItem]]:
    if not path.is_file():
        pytest.skip(f"{path.name} is absent: the shared corpus (../shared/corpus) is not checked out here")
    doc = DoclingDocument.load_from_json(path)
    tables = [t for t in doc.tables if any(isinstance(c, RichTableCell) for c in t.data.table_cells)]
    assert tables, f"{path.name} holds no table with rich cells"
    return doc, tables


def _rows(rows) -> list[str]:
    return [row.text for row in rows.rows]


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
@pytest.mark.parametrize("table_format", TABLE_FORMATS)
def test_kept_reads_give_the_fresh_text(path: Path, table_format) -> None:
    doc, tables = _rich_tables(path)
    serializer = serializer_for(None, doc)
    cells = CellReads(doc, serializer)
    for table in tables:
        for _ in range(2):  # the second pass reads every cell from the cache
            kept = table_rows(table, doc, serializer, None, table_format, cells)
            assert _rows(kept) == _rows(table_rows(table, doc, serializer, None, table_format))


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_walk_visited_set_gets_what_a_read_adds(path: Path) -> None:
    doc, tables = _rich_tables(path)
    serializer = serializer_for(None, doc)
    cells = CellReads(doc, serializer)
    for table in tables:
        table_rows(table, doc, serializer, None, "records", cells)  # fills the cache, as the row splitting does
        walked, kept = {table.self_ref}, {table.self_ref}
        fresh = table_rows(table, doc, serializer, walked, "records")
        assert _rows(table_rows(table, doc, serializer, kept, "records", cells)) == _rows(fresh)
        assert kept == walked
        assert len(walked) > 1  # the cells' content was walked


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_a_walked_ref_is_read_again(path: Path) -> None:
    """A cell whose content is already in ``visited`` is read with that set: the kept text would be wrong."""
    doc, tables = _rich_tables(path)
    serializer = serializer_for(None, doc)
    cells = CellReads(doc, serializer)
    changed = 0
    for table in tables:
        table_rows(table, doc, serializer, None, "records", cells)
        roots = [c.ref.resolve(doc) for c in table.data.table_cells if isinstance(c, RichTableCell)]
        inside = {item.self_ref for root in roots for item, _ in doc.iterate_items(root=root, with_groups=True)}
        walked, kept = set(inside), set(inside)
        fresh = table_rows(table, doc, serializer, walked, "records")
        got = table_rows(table, doc, serializer, kept, "records", cells)
        assert _rows(got) == _rows(fresh)
        assert kept == walked
        changed += _rows(got) != _rows(table_rows(table, doc, serializer, None, "records", cells))
    assert changed, "no table's text depends on its walked refs: the test does not test the fallback"


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
@pytest.mark.parametrize("walked_inside", [False, True], ids=["new refs", "walked refs"])
def test_walk_call_of_the_table_serializer(path: Path, walked_inside: bool) -> None:
    """The walk's call (a ``visited`` set) gets the rows and the set a read with that set gives."""
    doc, tables = _rich_tables(path)
    serializer = serializer_for(None, doc)
    rows_of = serializer.table_serializer.rows
    for table in tables:
        rows_of(table, doc, serializer, None)  # the row splitting's call, first
        roots = [c.ref.resolve(doc) for c in table.data.table_cells if isinstance(c, RichTableCell)]
        inside = {item.self_ref for item, _ in doc.iterate_items(root=roots[-1], with_groups=True)}
        walked = {table.self_ref, *(inside if walked_inside else ())}
        kept = set(walked)
        fresh = table_rows(table, doc, serializer, walked, "records")
        assert _rows(rows_of(table, doc, serializer, kept)) == _rows(fresh)
        assert kept == walked


@pytest.mark.parametrize("path", [*sorted(DATA.glob("*.json")), *sorted(CORPUS.glob("*.json"))], ids=lambda p: p.name)
def test_more_cells_than_is_the_grids_count(path: Path) -> None:
    """``grid.more_cells_than`` (the title check of a neighbouring table, without its grid) agrees with the grid."""
    doc = DoclingDocument.load_from_json(path)
    for table in doc.tables:
        cells = len({id(cell) for row in read_grid(table.data) for cell in row})
        for k in (0, 1, 3, cells - 1, cells):
            assert more_cells_than(table.data, k) == (cells > k), (table.self_ref, k, cells)
