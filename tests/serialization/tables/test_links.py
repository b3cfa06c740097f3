"""Regression: a link on an inline code item in a rich cell kept its URL in records (issue 46).

Node.js' ``api/intl.md`` has a table whose first column links each feature to MDN,
``[`String.prototype.normalize()`](https://developer.mozilla.org/...)``. docling
converts each such cell to a rich cell holding a code item with a hyperlink; the
code serializer puts the backticks inside the link, so the written link did not match
the form :func:`without_urls` looked for, and each record kept a URL of about 30
tokens: at MiniLM 64 every such row was cut between its entries (26 rows of the
unseen Node.js set cut, 2 in this table).
"""

from __future__ import annotations

import pytest

import docchunk
from docchunk.serialization.tables import table_rows

URL = "https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/String/normalize"
TABLE = (
    "# Internationalization support\n\n"
    "| Feature | `none` | `full-icu` |\n|---|---|---|\n"
    f"| [`String.prototype.normalize()`]({URL}) | none (function is no-op) | full |\n"
    "| [**Intl**](https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Intl) "
    "| none (object does not exist) | full |\n"
)


@pytest.fixture(scope="module")
def intl_doc():
    pytest.importorskip("docling", reason="converting Markdown needs docling (the convert extra)")
    return docchunk.load_document(TABLE, format="md")


def test_links_in_rich_cells_are_written_as_their_text_in_records(intl_doc):
    rows = [row.text for row in table_rows(intl_doc.tables[0], intl_doc).rows if row.cells]
    assert rows == [
        "`String.prototype.normalize()` (Feature): `none` = none (function is no-op); `full-icu` = full",
        "Intl (Feature): `none` = none (object does not exist); `full-icu` = full",  # no bold marks (finding 2)
    ]


def test_rows_with_linked_code_are_whole_at_minilm_64(intl_doc, minilm_dir):
    chunker = docchunk.HybridChunker(tokenizer=docchunk.get_tokenizer(f"hf:{minilm_dir}"), max_tokens=64)
    lines = [line for c in chunker.chunk(intl_doc) for line in c.text.split("\n")]
    assert any(line.startswith("`String.prototype.normalize()` (Feature): ") for line in lines), lines
    assert not any("https://" in line for line in lines)
