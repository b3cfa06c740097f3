"""The default mode's table serializer: a table's caption, then its rows by :func:`table_rows`.

:func:`~docchunk.serialization.tables.write.table_rows` reads a table into its model and
writes its rows; :class:`RowTableSerializer` writes them as a docling-core table
serializer. Where a table is *cut* into pieces is the chunkers' business
(:mod:`docchunk.chunkers.doc.tables.pack`, :mod:`docchunk.chunkers.doc.tables.pieces`).
"""

from __future__ import annotations

from typing import Any

from docling_core.transforms.serializer.base import BaseDocSerializer, BaseTableSerializer, SerializationResult
from docling_core.transforms.serializer.common import create_ser_result
from docling_core.types.doc import DoclingDocument, RichTableCell, TableItem

from docchunk.serialization.tables.cells import CellRead, CellReads, all_new
from docchunk.serialization.tables.model import TableModel, read_table
from docchunk.serialization.tables.rows import TableFormat, TableRows, check_table_format
from docchunk.serialization.tables.write import model_options, table_rows, written

__all__ = ["RowTableSerializer", "rows_as_written", "table_description"]


def table_description(item: TableItem) -> str:
    """The table's ``meta.description`` text (docling-core's ``FloatingMeta``, e.g. written by a model), or ""."""
    meta = getattr(item, "meta", None)
    description = getattr(meta, "description", None) if meta is not None else None
    return " ".join(str(getattr(description, "text", "") or "").split()) if description is not None else ""


class RowTableSerializer(BaseTableSerializer):
    """A docling-core table serializer that writes a table's rows by :func:`table_rows`.

    Caption, the table's ``meta.description``, then the rows (one entry per line,
    in the form ``table_format`` names, see :func:`table_rows`), separated by blank
    lines, as docling-core's ``TripletTableSerializer`` lays them out; unlike it, no
    cell text is dropped. The default mode uses it for every table, nested ones in
    rich cells included.

    Args:
        table_format: ``"records"`` (default), ``"triplets"`` or ``"markdown"``.

    Raises:
        ConfigError: ``table_format`` is none of the three.

    One instance serves one document (``default_serializer`` makes a new one per
    ``chunk()`` call): it keeps the rows of each table (see :meth:`rows`), so that
    the walk and the row splitting read each table once.
    """

    reads_only_own_params = True
    """Its text depends only on the document serializer's own settings (see :mod:`docchunk.serialization.fast`)."""

    def __init__(self, table_format: TableFormat = "records") -> None:
        self.table_format: TableFormat = check_table_format(table_format)  # type: ignore[assignment]
        self._rows: dict[str, TableRows] = {}
        self._fresh: dict[str, tuple[TableRows, list[CellRead]]] = {}  # tables with rich cells: rows, cells read
        self._models: dict[tuple[str, bool, bool], TableModel] = {}
        self._doc: DoclingDocument | None = None
        self._cells: CellReads | None = None

    def cell_reads(self, doc: DoclingDocument, doc_serializer: BaseDocSerializer) -> CellReads:
        """The rich cells of ``doc`` read once (:class:`~.cells.CellReads`), for ``doc_serializer``.

        Kept while the same document and document serializer ask (one ``chunk()`` call);
        a new document or serializer starts a new one.
        """
        if self._cells is None or self._cells.doc is not doc or self._cells.serializer is not doc_serializer:
            self._cells, self._models = CellReads(doc, doc_serializer), {}
        return self._cells

    def model(
        self, item: TableItem, doc: DoclingDocument, doc_serializer: BaseDocSerializer, options: tuple[bool, bool]
    ) -> TableModel:
        """``item`` read into its model once (``visited`` None), for ``options`` ``(keep_links, table_lines)``.

        Kept with :meth:`cell_reads` (one document and document serializer), so that the
        layout walk (:func:`~docchunk.chunkers.doc.layout_cells.layout_cells`) and the rows
        read one model of a table.
        """
        cells = self.cell_reads(doc, doc_serializer)
        key = (item.self_ref, *options)
        model = self._models.get(key)
        if model is None:
            model = self._models[key] = read_table(item, doc, doc_serializer, None, *options, cells=cells)
        return model

    def layout_model(self, item: TableItem, doc: DoclingDocument, doc_serializer: BaseDocSerializer) -> TableModel:
        """The model the layout walk reads (links as text, a nested table on one line): the rows' own when alike.

        The rows' model (:meth:`model`) when its options are the same, or differ only in
        ``table_lines`` and no rich cell holds a table outside a nested list (the one
        cell text that option changes); else a model of its own.
        """
        options = model_options(self.table_format)
        if options == (False, True):
            cells = self.cell_reads(doc, doc_serializer)
            rich = [cell for cell in item.data.table_cells if isinstance(cell, RichTableCell)]
            if any(read.holds_table and not read.nested for read in (cells.kept(c, False) for c in rich)):
                options = (False, False)
        elif options != (False, False):
            options = (False, False)
        return self.model(item, doc, doc_serializer, options)

    def rows(
        self, item: TableItem, doc: DoclingDocument, doc_serializer: BaseDocSerializer, visited: set[str] | None
    ) -> TableRows:
        """``table_rows(item, doc, doc_serializer, visited)``, computed once per table.

        A table without rich cells is read once whatever ``visited``. One with rich cells
        is read once with fresh sets (``visited`` None: the chunker's row splitting asks
        for it several times a table: the Inline XBRL report of the corpus, 23 tables with
        rich cells, was read 79 times a ``chunk()`` call); a call of the walk (its
        ``visited`` refs) gets those rows when the rich cells they read walked no ref
        already in ``visited`` nor one another's (:func:`~.cells.all_new`: a read from
        ``visited`` would walk the same items and write the same text), and ``visited``
        gets the refs those reads walked, as the reads would have added them. Otherwise
        it reads the table with ``visited``.
        """
        if doc is not self._doc:
            self._rows, self._fresh, self._doc = {}, {}, doc
        rows = self._rows.get(item.self_ref)
        if rows is not None:
            return rows
        if not any(isinstance(cell, RichTableCell) for cell in item.data.table_cells):
            rows = self._rows[item.self_ref] = self._read(item, doc, doc_serializer, visited)
            return rows
        fresh = self._fresh.get(item.self_ref)
        if fresh is None:
            model = self.model(item, doc, doc_serializer, model_options(self.table_format))
            rows = written(model, self.table_format)
            fresh = self._fresh[item.self_ref] = (rows, list(model.reads))
        rows, reads = fresh
        if visited is None:
            return rows
        if all_new(reads, visited):
            for read in reads:
                visited.update(read.touched)
            return rows
        return self._read(item, doc, doc_serializer, visited)

    def _read(
        self, item: TableItem, doc: DoclingDocument, doc_serializer: BaseDocSerializer, visited: set[str] | None
    ) -> TableRows:
        """``item`` read into its rows now, its rich cells through :meth:`cell_reads`."""
        cells = self.cell_reads(doc, doc_serializer)
        return table_rows(item, doc, doc_serializer, visited, self.table_format, cells)

    def serialize(
        self, *, item: TableItem, doc_serializer: BaseDocSerializer, doc: DoclingDocument, **kwargs: Any
    ) -> SerializationResult:
        """The caption, description and rows of ``item``; its spans are the caption items and the table."""
        parts: list[SerializationResult] = []
        cap_res = doc_serializer.serialize_captions(item=item, **kwargs)
        if cap_res.text:
            parts.append(cap_res)
        if description := table_description(item):
            parts.append(create_ser_result(text=description, span_source=item))
        if item.self_ref not in doc_serializer.get_excluded_refs(**kwargs):
            text = self.rows(item, doc, doc_serializer, kwargs.get("visited")).text
            if text:
                parts.append(create_ser_result(text=text, span_source=item))
        return create_ser_result(text="\n\n".join(r.text for r in parts), span_source=parts)


def rows_as_written(table: TableItem, doc_serializer: BaseDocSerializer) -> TableRows:
    """The rows of ``table`` as ``doc_serializer`` writes them (what the default mode's table pieces hold).

    With the default mode's :class:`RowTableSerializer` (and a document), its rows of the
    table, read once per ``chunk()`` call (:meth:`RowTableSerializer.rows`); else
    :func:`~.write.table_rows` of the table, read now.

    Args:
        table: A table of the serializer's document.
        doc_serializer: The chunker's document serializer.

    Returns:
        The table's :class:`~.rows.TableRows` (``text`` "" for a table without cell text).
    """
    doc = getattr(doc_serializer, "doc", None)
    own = getattr(doc_serializer, "table_serializer", None)
    if isinstance(own, RowTableSerializer) and doc is not None:
        return own.rows(table, doc, doc_serializer, None)
    return table_rows(table, doc, doc_serializer)
