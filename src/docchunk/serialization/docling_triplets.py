"""docling-core's ``TripletTableSerializer``, reproduced: a table as ``row, column = value`` triplets.

The table text of :class:`~docchunk.serialization.ChunkingSerializer` (docling-core's
chunking serialization, the ``docling_compat=True`` text): :class:`TripletTableSerializer`
writes the caption, then the triplets of :func:`table_cells`, equal to docling-core's
character for character (tested differentially on the corpus), without building
docling-core's data frame.

Not here: the default mode's table forms (triplet lines, records, Markdown; the table
wing, :mod:`docchunk.serialization.tables`, whose ``tables/triplets.py`` writes the
default mode's triplets, row by row) and the document serializer itself
(:mod:`docchunk.serialization.chunking`).
"""

from __future__ import annotations

from typing import Any

from docling_core.transforms.serializer.base import BaseDocSerializer, BaseTableSerializer, SerializationResult
from docling_core.transforms.serializer.common import create_ser_result
from docling_core.types.doc.document import DoclingDocument, TableItem

__all__ = ["TripletTableSerializer", "table_cells"]


class TripletTableSerializer(BaseTableSerializer):
    """Tables as ``row header, column header = cell`` triplets joined by ``". "``.

    Follows docling-core's ``TripletTableSerializer`` exactly: the caption
    first (its own paragraph); a one-column table as ``first cell = cell``
    pairs; a header-only table as its header cells; a table whose triplets are all
    empty as its non-empty cells joined by ``". "``.
    """

    def serialize(
        self, *, item: TableItem, doc_serializer: BaseDocSerializer, doc: DoclingDocument, **kwargs: Any
    ) -> SerializationResult:
        """The caption and triplet text of ``item``; its spans are the table and its caption."""
        parts: list[SerializationResult] = []
        shared_visited = kwargs.get("visited")
        caption = doc_serializer.serialize_captions(item=item, **kwargs)
        if caption.text:
            parts.append(caption)
        if item.self_ref not in doc_serializer.get_excluded_refs(**kwargs):
            local_kwargs = {**kwargs, "visited": set(shared_visited)} if shared_visited is not None else kwargs
            table_text = _triplets(*table_cells(item, doc, doc_serializer=doc_serializer, **local_kwargs))
            if table_text:
                if shared_visited is not None:
                    shared_visited.update(local_kwargs["visited"])
                parts.append(create_ser_result(text=table_text, span_source=item))
        return create_ser_result(text="\n\n".join(r.text for r in parts), span_source=parts)


def table_cells(item: TableItem, doc: DoclingDocument, **kwargs: Any) -> tuple[list[str], list[list[str]]]:
    """The column names and the body rows of a table, as docling-core's data frame export has them.

    Equal to ``TableItem.export_to_dataframe``'s ``columns`` (as strings) and rows,
    without building the data frame: the column header rows are joined into one
    name per column (``.`` between the parts); without a header the names are
    ``"0"``, ``"1"`` ...; each cell's text (rich cells serialized with ``kwargs``)
    is read once, spanning cells repeat their text.

    Returns:
        ``(columns, rows)``; ``([], [])`` for a table without rows or columns.
    """
    data = item.data
    count_headers = getattr(data, "_count_column_header_rows", None)
    if count_headers is None:  # pragma: no cover - another docling-core: its own data frame
        frame = item._export_to_dataframe_with_options(doc, **kwargs)
        return [str(c) for c in frame.columns], [list(r) for r in frame.itertuples(index=False, name=None)]
    if data.num_rows == 0 or data.num_cols == 0:
        return [], []
    grid = data.grid
    n_headers = count_headers(grid=grid)
    texts: dict[tuple[int, int], str] = {}

    def text_of(cell: Any) -> str:
        key = (cell.start_row_offset_idx, cell.start_col_offset_idx)
        text = texts.get(key)
        if text is None:
            text = texts[key] = cell._get_text(doc=doc, **kwargs)
        return text

    columns = [str(j) for j in range(data.num_cols)]
    if n_headers > 0:
        columns = ["" for _ in range(data.num_cols)]
        for row in grid[:n_headers]:
            for j, cell in enumerate(row):
                name = text_of(cell)
                columns[j] += f".{name}" if columns[j] != "" else name
    return columns, [[text_of(cell) for cell in row] for row in grid[n_headers:]]


def _triplets(columns: list[str], rows: list[list[str]]) -> str:
    """docling-core's triplet text of a table from :func:`table_cells`."""
    if not rows:
        return ". ".join(text for col in columns if (text := col.strip()))
    if not columns:
        return ""
    if len(columns) == 1:
        values = [row[0] for row in rows]
        head = values[0].strip()
        text = ". ".join(f"{head} = {v.strip()}" for v in values[1:]) if len(values) > 1 else head
    else:
        table = [columns, *rows]
        row_heads = [row[0].strip() for row in table]
        col_heads = [col.strip() for col in columns]
        text = ". ".join(
            f"{row_heads[i]}, {col_heads[j]} = {table[i][j].strip()}"
            for i in range(1, len(table))
            for j in range(1, len(columns))
        )
    if not text:  # e.g. a one-cell layout table with blank headers: its cells, so that no text is lost
        text = ". ".join(t for row in rows for v in row if (t := v.strip()))
    return text
