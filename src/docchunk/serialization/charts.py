"""A chart's data, written as its table's rows in the default mode.

docling's chart models give a picture its data as a table (``TabularChartMetaField``
in ``meta.tabular_chart``, or the legacy ``PictureTabularChartData`` annotation):
column headers (the series), row headers (the categories) and the values.
docling-core's Markdown serializers write that table as a padded pipe table
(``|  1 |       3 |``), which in the default mode's records stood apart from every
other table of the document, its values without the names of their columns (a new
user's finding 11, stop 56). Here a chart's data is written as any table of the
default mode is: :func:`~docchunk.serialization.tables.write.table_rows` in the
serializer's ``table_format`` (``records``: ``1 (x): col-3 = 3``; ``triplets``;
``markdown`` keeps docling-core's pipe table). ``docling_compat=True`` keeps
docling-core's serializers and their text, exactly.
"""

from __future__ import annotations

from typing import Any

from docling_core.transforms.serializer.markdown import MarkdownMetaSerializer
from docling_core.types.doc import BaseMeta, DocItemLabel, TableData, TableItem, TabularChartMetaField

from docchunk.serialization.tables.rows import TableFormat, check_table_format
from docchunk.serialization.tables.write import table_rows

__all__ = ["ChartRowsMetaSerializer", "chart_rows"]


def chart_rows(data: TableData, table_format: TableFormat = "records") -> str:
    """The rows of a chart's data table, as :func:`~docchunk.serialization.tables.write.table_rows` writes a table.

    Args:
        data: The chart's ``chart_data`` (docling-core ``TableData``: header cells
            flagged ``column_header``/``row_header`` as docling's chart models flag them).
        table_format: ``"records"``, ``"triplets"`` or ``"markdown"``.

    Returns:
        One entry per line (no trailing line break); ``""`` when the table has no text.
        Every cell text of ``data`` is in it.

    Raises:
        ConfigError: ``table_format`` is none of the three.
    """
    check_table_format(table_format)
    # a table item of its own (no document: a chart's cells are plain text, never rich cells)
    table = TableItem(self_ref="#/tables/0", label=DocItemLabel.TABLE, data=data)
    return table_rows(table, table_format=table_format).text


class ChartRowsMetaSerializer(MarkdownMetaSerializer):
    """docling-core's Markdown meta serializer, with a chart's data written by :func:`chart_rows`.

    Every other meta field (classification, description, summary, molecule ...) is
    written by docling-core's serializer, unchanged; ``table_format="markdown"``
    leaves the chart's pipe table to it too.
    """

    table_format: TableFormat = "records"

    def _serialize_meta_field(self, meta: BaseMeta, name: str, mark_meta: bool, **kwargs: Any) -> str | None:
        field = getattr(meta, name, None)
        if not isinstance(field, TabularChartMetaField) or self.table_format == "markdown":
            return super()._serialize_meta_field(meta, name, mark_meta, **kwargs)
        text = chart_rows(field.chart_data, self.table_format)
        if not text:
            return None
        return f"[{self._humanize_text(name, title=True)}] {text}" if mark_meta else text
