"""Cutting tables into pieces, in the default mode: where a table's rows are packed and split.

- :mod:`.pieces`: a table piece of the walk split by rows (``split_table``), the whole
  table as rows (``whole_table``), a row made whole under a shorter heading path.
- :mod:`.titles`: what heads every piece of a table (``caption_text``: its caption, its
  ``meta.description``, the one-cell title tables or title paragraph before it).
- :mod:`.paths`: a table piece under a shorter heading path (the outer headings dropped,
  named in ``meta.headings_dropped``), and whether the dropped ones reach another chunk.
- :mod:`.pack`: packing rows into pieces within the budget, and splitting a row larger
  than the budget between its entries (each piece keeps the row label).
- :mod:`.balance`: evening out the last two pieces of a table split by rows.
- :mod:`.user_lines`: a table of a user's own Markdown table serializer, split by whole
  lines under its header (never by columns, as docling-core does: docling-core#535).

The rows' text is written in :mod:`docchunk.serialization.tables`; docling-core's own
line and column splitting (compat mode, the line chunker) is in
:mod:`docchunk.chunkers.doc.compat.table_lines`.
"""
