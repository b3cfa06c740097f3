"""The table wing: a table read once into a model, and every written form of it.

- :mod:`.grid`: docling-core's grid, read fast;
- :mod:`.rules`: each inference about a table's shape, one named function (header rows,
  label columns, table-wide headers, section and spanning rows, the table's kind);
- :mod:`.model`: :class:`TableModel`, a ``TableItem`` read once with the rules' findings;
- :mod:`.records`, :mod:`.triplets`, :mod:`.markdown`: the writers, each reading the model;
- :mod:`.rows`: what the writers give (:class:`TableRow`, :class:`TableRows`) and the
  pieces hold (:class:`TablePiece`);
- :mod:`.write`: :func:`table_rows`, the model written in the form ``table_format`` names;
- :mod:`.serializer`: :class:`RowTableSerializer`, the docling-core table serializer of
  the default mode.

Where a table is *cut* into pieces is the chunkers' business
(:mod:`docchunk.chunkers.doc.tables`).
"""

from __future__ import annotations

from docchunk.serialization.tables.model import TableModel, read_table
from docchunk.serialization.tables.rows import (
    ROW_SEP,
    TABLE_FORMATS,
    TableFormat,
    TablePiece,
    TableRow,
    TableRows,
    check_table_format,
    col_ranges,
)
from docchunk.serialization.tables.rules import TableKind
from docchunk.serialization.tables.serializer import RowTableSerializer, rows_as_written, table_description
from docchunk.serialization.tables.write import table_rows

__all__ = [
    "ROW_SEP",
    "TABLE_FORMATS",
    "RowTableSerializer",
    "TableFormat",
    "TableKind",
    "TableModel",
    "TablePiece",
    "TableRow",
    "TableRows",
    "check_table_format",
    "col_ranges",
    "read_table",
    "rows_as_written",
    "table_description",
    "table_rows",
]
