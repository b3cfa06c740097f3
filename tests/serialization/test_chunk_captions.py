"""``DocMeta.captions``: docchunk's default mode fills it, so reading it gives no deprecation warning."""

from __future__ import annotations

import warnings

import pytest
from docling_core.types.doc import DocItemLabel, DoclingDocument, TableCell, TableData

import docchunk
from docchunk.serialization._docling import DocMeta as DoclingDocMeta
from docchunk.serialization.chunk import DocChunk, DocMeta


def _captioned_table_doc() -> DoclingDocument:
    doc = DoclingDocument(name="t")
    caption = doc.add_text(label=DocItemLabel.CAPTION, text="Table 1. Prices.")
    cells = [TableCell(text=t, start_row_offset_idx=r, end_row_offset_idx=r + 1, start_col_offset_idx=c,
                       end_col_offset_idx=c + 1, column_header=r == 0)
             for r, row in enumerate([["Fruit", "Price"], ["apple", "3"]]) for c, t in enumerate(row)]  # fmt: skip
    doc.add_table(data=TableData(num_rows=2, num_cols=2, table_cells=cells), caption=caption)
    return doc


def test_reading_captions_of_a_chunk_gives_no_warning():
    """The README points to ``meta.captions``; reading it raised docling-core's bare "deprecated" warning."""
    chunks = list(docchunk.HybridChunker().chunk(_captioned_table_doc()))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        captions = [chunk.meta.captions for chunk in chunks]
    assert ["Table 1. Prices."] in captions


def test_captions_keep_docling_cores_json_and_assignment():
    chunk = next(c for c in docchunk.HybridChunker().chunk(_captioned_table_doc()) if c.meta.captions)
    data = chunk.export_json_dict()
    assert data["meta"]["captions"] == ["Table 1. Prices."]
    again = DocChunk.model_validate(data)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert again.meta.captions == ["Table 1. Prices."]
        again.meta.captions = ["changed"]
        assert again.meta.captions == ["changed"] and again.meta.model_dump()["captions"] == ["changed"]
    assert DocMeta.model_validate({"doc_items": data["meta"]["doc_items"]}).captions is None
    with pytest.raises(AttributeError):
        DocMeta.captions  # noqa: B018 - a field, not a class attribute, as on docling-core's class


def test_docling_cores_own_meta_still_warns():
    """Only docchunk's subclass changes: docling-core's ``DocMeta`` keeps its deprecation."""
    chunk = next(c for c in docchunk.HybridChunker().chunk(_captioned_table_doc()) if c.meta.captions)
    theirs = DoclingDocMeta.model_validate(chunk.export_json_dict()["meta"])
    with pytest.warns(DeprecationWarning):
        assert theirs.captions == ["Table 1. Prices."]
