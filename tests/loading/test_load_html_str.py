"""HTML given as a ``str`` is read as the Unicode it is (issue 45, the new-document tester's finding 18).

docling's HTML parser guesses the encoding of bytes without ``<meta charset>``; a page whose
only non-ASCII characters were a few zero-width spaces came out as mojibake (``‚Äã``). Fails
on the code before the fix.
"""

from __future__ import annotations

import docchunk


def test_html_str_without_charset_is_not_decoded_as_another_encoding():
    """Zero-width spaces are the only non-ASCII characters (docling drops them from the text; the bytes were
    decoded as Mac Roman before, "\u200b" as three characters)."""
    html = (
        "<html><body><h1>H</h1><ul><li>first item</li><li>\u200b\u200b\u200b</li><li>third item</li></ul></body></html>"
    )
    texts = [t.text for t in docchunk.load_document(html, format="html").texts]
    assert texts == ["H", "first item", "", "third item"]
