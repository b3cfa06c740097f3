"""Reports that show chunks: what ``docchunk inspect`` writes.

Above the chunkers, below the CLI: :func:`inspect_document` runs a chunker and
describes each chunk (:class:`DocumentView`, :class:`ChunkView`); :func:`render_html`
turns those into one self-contained HTML page.

Example:
    >>> from docchunk import RecursiveChunker
    >>> from docchunk.report import inspect_document, render_html
    >>> view = inspect_document(RecursiveChunker(chunk_size=8), "notes.txt", "one two three four")
    >>> [c.text for c in view.chunks]
    ['one two', ' three', ' four']
    >>> page = render_html([view])
"""

from docchunk.report.html import TINY_FRACTION, render_html
from docchunk.report.views import ChunkView, DocumentView, budget_of, describe_chunker, inspect_document, rows_label

__all__ = [
    "TINY_FRACTION",
    "ChunkView",
    "DocumentView",
    "budget_of",
    "describe_chunker",
    "inspect_document",
    "render_html",
    "rows_label",
]
