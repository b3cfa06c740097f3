"""A chart's data is written as its table's rows in the default mode (a new user's finding 11, stop 56).

docling-core writes a picture's chart data as a padded pipe table (``|  1 |  3 |``): in the
default mode's records its values stood without the names of their series. The chart
below has the shape docling's chart models give (``xlsx__xlsx_01``'s line chart: an empty
corner, the series as column headers, the categories as row headers).
"""

from __future__ import annotations

import re
import warnings

import pytest
from docling_core.types.doc import (
    DocItemLabel,
    DoclingDocument,
    PictureMeta,
    PictureTabularChartData,
    TableCell,
    TableData,
    TabularChartMetaField,
)

from docchunk import HierarchicalChunker, HybridChunker

PIPE_ROW = re.compile(r"^\|.*\|$", re.M)


def _chart_data() -> TableData:
    rows = [["", "Revenue", "Costs"], ["2023", "120", "80"], ["2024", "150", "95"]]
    cells = [
        TableCell(
            text=text,
            start_row_offset_idx=r,
            end_row_offset_idx=r + 1,
            start_col_offset_idx=c,
            end_col_offset_idx=c + 1,
            column_header=r == 0,
            row_header=r > 0 and c == 0,
        )
        for r, row in enumerate(rows)
        for c, text in enumerate(row)
    ]
    return TableData(table_cells=cells, num_rows=3, num_cols=3)


def _doc(legacy: bool) -> DoclingDocument:
    doc = DoclingDocument(name="chart")
    doc.add_heading("Results")
    doc.add_text(label=DocItemLabel.TEXT, text="Revenue grew in 2024.")
    picture = doc.add_picture()
    if legacy:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            picture.annotations.append(PictureTabularChartData(chart_data=_chart_data(), title="Revenue"))
    else:
        picture.meta = PictureMeta(tabular_chart=TabularChartMetaField(chart_data=_chart_data()))
    return doc


@pytest.mark.parametrize("legacy", [False, True], ids=["meta", "annotation"])
@pytest.mark.parametrize("chunker", [HybridChunker, HierarchicalChunker])
def test_chart_data_is_records_in_the_default_mode(legacy: bool, chunker: type) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        text = "\n".join(c.text for c in chunker().chunk(_doc(legacy)))
    assert "2023: Revenue = 120; Costs = 80" in text
    assert "2024: Revenue = 150; Costs = 95" in text
    assert not PIPE_ROW.search(text), text


@pytest.mark.parametrize("legacy", [False, True], ids=["meta", "annotation"])
def test_compat_mode_keeps_docling_cores_pipe_table(legacy: bool) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        text = "\n".join(c.text for c in HybridChunker(docling_compat=True).chunk(_doc(legacy)))
    assert PIPE_ROW.search(text), text


@pytest.mark.parametrize("legacy", [False, True], ids=["meta", "annotation"])
def test_markdown_table_format_keeps_the_pipe_table(legacy: bool) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        text = "\n".join(c.text for c in HybridChunker(table_format="markdown").chunk(_doc(legacy)))
    assert PIPE_ROW.search(text), text
    assert "Revenue" in text and "95" in text


def test_chart_rows_forms() -> None:
    from docchunk.serialization.charts import chart_rows

    records = chart_rows(_chart_data())
    assert records.splitlines() == ["2023: Revenue = 120; Costs = 80", "2024: Revenue = 150; Costs = 95"]
    triplets = chart_rows(_chart_data(), "triplets")
    for value in ("2023", "Revenue", "120", "2024", "Costs", "95"):
        assert value in triplets
    assert chart_rows(TableData(table_cells=[], num_rows=0, num_cols=0)) == ""
