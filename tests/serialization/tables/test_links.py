"""Regressions: a link, and the backticks, of an inline code item in a rich cell in records (issue 46).

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
        # the code items' backticks go too, as in the default mode's inline runs
        "String.prototype.normalize() (Feature): none = none (function is no-op); full-icu = full",
        "Intl (Feature): none = none (object does not exist); full-icu = full",  # no bold marks (finding 2)
    ]


def test_rows_with_linked_code_are_whole_at_minilm_64(intl_doc, minilm_dir):
    chunker = docchunk.HybridChunker(tokenizer=docchunk.get_tokenizer(f"hf:{minilm_dir}"), max_tokens=64)
    lines = [line for c in chunker.chunk(intl_doc) for line in c.text.split("\n")]
    assert any(line.startswith("String.prototype.normalize() (Feature): ") for line in lines), lines
    assert not any("https://" in line for line in lines)


DNS = (
    "# DNS\n\n## DNS promises API\n\n### `dnsPromises.resolve(hostname[, rrtype])`\n\n"
    "The type and structure of individual results varies based on `rrtype`:\n\n"
    "| `rrtype` | `records` contains | Result type | Shorthand method |\n|---|---|---|---|\n"
    + "".join(
        f"| `'{t}'` | {what} records | {{Object}} | `dnsPromises.resolve{m}()` |\n"
        for t, what, m in [
            ("CAA", "CA authorization", "Caa"),
            ("CNAME", "canonical name", "Cname"),
            ("NAPTR", "name authority pointer", "Naptr"),
            ("SOA", "start of authority", "Soa"),
        ]
    )
)


def test_code_marks_in_rich_cells_do_not_cut_rows_at_minilm_64(minilm_dir):
    """Node.js' ``api/dns.md``: records of code cells (``'CAA'`` and ``dnsPromises.resolveCaa()`` in backticks),
    one MiniLM token a backtick, ten a row, were a few tokens over 64 under a three-level path: 12 rows
    that fit were cut between their entries. Records are plain text: the backticks go."""
    pytest.importorskip("docling", reason="converting Markdown needs docling (the convert extra)")
    doc = docchunk.load_document(DNS, format="md")
    rows = [row.text for row in table_rows(doc.tables[0], doc).rows if row.cells]
    assert (
        rows[0] == "'CAA' (rrtype): records contains = CA authorization records; Result type = {Object}; "
        "Shorthand method = dnsPromises.resolveCaa()"
    )
    chunker = docchunk.HybridChunker(tokenizer=docchunk.get_tokenizer(f"hf:{minilm_dir}"), max_tokens=64)
    lines = {line for c in chunker.chunk(doc) for line in c.text.split("\n")}
    assert all(row in lines for row in rows), sorted(lines)
