"""Parity code: docling-core's algorithms, kept decision for decision.

This package changes only with the docling-core pin. Every module here reproduces a
part of docling-core's chunkers whose output ``docling_compat=True`` must equal
exactly (``tests/differential`` compares them live), so a change here is a change of
docling-core's behaviour, made only when the pin moves to a docling-core release that
changed it. The default (structure-faithful) mode's own behaviour belongs elsewhere in
:mod:`docchunk.chunkers.doc`.

- :mod:`~docchunk.chunkers.doc.compat.walk`: the ``HierarchicalChunker`` walk (compat mode's walk);
- :mod:`~docchunk.chunkers.doc.compat.semsplit`: the semchunk port docling-core's ``HybridChunker``
  splits oversized text with (compat mode's segmenter; the default mode's table packing also
  cuts an oversized cell value with it);
- :mod:`~docchunk.chunkers.doc.compat.table_lines`: ``LineBasedTokenChunker``'s line packing and
  ``HybridChunker._split_table_by_columns`` (the line chunker, and tables written as Markdown
  lines by a chunking serializer).
"""
