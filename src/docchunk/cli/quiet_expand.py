"""``--expand page --docling-compat``: docling-core's page expander without its warning per chunk.

docling-core warns "Cannot expand to page the following chunk: <the chunk's repr>" for
each chunk of a document without pages; the command says so once a document instead
(:func:`docchunk.cli.chunk.warn_without_pages`). The warning is silenced only while the
expander runs, with :func:`warnings.catch_warnings`: the process's warnings filters are
the same before and after (a library caller of
:func:`~docchunk.cli.options.make_doc_chunker` keeps its own).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from docchunk.chunkers.doc.expand import PageChunkExpander

if TYPE_CHECKING:
    from docling_core.transforms.chunker.base import BaseChunk
    from docling_core.transforms.serializer.base import BaseDocSerializer
    from docling_core.types.doc import DoclingDocument

__all__ = ["QuietPageChunkExpander"]

_END = object()


@contextmanager
def _without_page_warning() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Cannot expand to page", UserWarning, r"docling_core\.")
        yield


class QuietPageChunkExpander(PageChunkExpander):
    """:class:`~docchunk.PageChunkExpander`, with docling-core's "Cannot expand to page" warning silenced while it runs.

    The same expansions as its base (the CLI builds it for ``--expand page`` with
    ``--docling-compat``, where docling-core's expander runs); any other warning is
    shown as before.
    """

    def expand(
        self, chunk: BaseChunk, dl_doc: DoclingDocument, serializer: BaseDocSerializer | None = None
    ) -> BaseChunk:
        """:meth:`PageChunkExpander.expand`, without docling-core's warning for a chunk without pages."""
        with _without_page_warning():
            return super().expand(chunk, dl_doc, serializer)

    def expand_all(
        self, chunks: Iterable[BaseChunk], dl_doc: DoclingDocument, serializer: BaseDocSerializer | None = None
    ) -> Iterator[BaseChunk]:
        """:meth:`PageChunkExpander.expand_all`, each step without docling-core's warning.

        The filters are the process's own again whenever it yields a chunk.
        """
        expanded = super().expand_all(chunks, dl_doc, serializer)
        while True:
            with _without_page_warning():
                chunk = next(expanded, _END)
            if chunk is _END:
                return
            yield chunk  # type: ignore[misc]
