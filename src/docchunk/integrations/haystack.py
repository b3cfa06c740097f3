"""Haystack: a converter component that chunks files with docchunk into Haystack ``Document`` s.

docling-haystack's ``DoclingConverter`` also takes a docchunk document chunker as its
``chunker`` (``export_type=ExportType.DOC_CHUNKS``): its documents hold
``contextualize(chunk)``, the chunk's meta nested under ``dl_meta`` and the first page
as ``page_number``. :class:`DocchunkConverter` is the native form: no docling
converter (it reads what :func:`docchunk.load_document` reads), and flat metadata
(``heading``, ``first_page``, ``last_page`` ... at the top level, so Haystack filters
such as ``{"field": "meta.heading", ...}`` and stores that take only scalars work).

Needs the ``haystack`` extra (``pip install ".[haystack]"``: haystack-ai).
"""

# no `from __future__ import annotations`: Haystack's @component reads run()'s annotations at runtime
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from docchunk._extras import require
from docchunk.errors import ConfigError
from docchunk.serialization.rows import MetadataForm, check_metadata_form, chunk_metadata, store_metadata

if TYPE_CHECKING:
    from docchunk.serialization._docling import BaseChunker, DocChunk

_haystack: Any = require("haystack", "haystack", "docchunk.integrations.haystack")

__all__ = ["DocchunkConverter"]

_Document: Any = _haystack.Document


@_haystack.component
class DocchunkConverter:
    """A Haystack component: files in, one Haystack ``Document`` per docchunk chunk out.

    Args:
        chunker: A docchunk document chunker (``HybridChunker``, ``HierarchicalChunker``
            ...); default ``HybridChunker()`` (256 all-MiniLM-L6-v2 tokens, bundled).
        metadata: ``"flat"`` (default): scalars only, what every document store takes,
            see :func:`docchunk.serialization.rows.store_metadata`; ``"structured"``:
            lists kept.

    Each ``Document`` has ``content = chunker.contextualize(chunk)`` (headings, captions,
    text: within the chunker's ``max_tokens``, what the embedder should see) and
    ``meta``: the chunk's metadata (``source``, ``chunk_index``, ``token_count``,
    ``heading``, ``headings``, ``first_page``, ``last_page``, ``page_numbers``,
    ``doc_items`` ...), then the ``meta`` given to :meth:`run` for that source (which
    wins on a shared key). ``chunk.meta`` is not changed.

    Raises:
        ConfigError: ``metadata`` is no metadata form.

    Example:
        >>> converter = DocchunkConverter(chunker=docchunk.HybridChunker(max_tokens=128))  # doctest: +SKIP
        >>> converter.run(sources=["paper.json"])["documents"][0].meta["heading"]  # doctest: +SKIP
    """

    def __init__(self, chunker: "BaseChunker | None" = None, metadata: MetadataForm = "flat"):
        self.metadata = check_metadata_form(metadata)
        if chunker is None:
            from docchunk import HybridChunker

            chunker = HybridChunker()
        self.chunker = chunker

    @_haystack.component.output_types(documents=list[_Document])
    def run(
        self, sources: list[str | Path], meta: dict[str, Any] | list[dict[str, Any]] | None = None
    ) -> dict[str, list[Any]]:
        """Chunk each source; ``{"documents": [...]}``, the chunks of each source in order.

        Args:
            sources: Paths (str or Path) of anything :func:`docchunk.load_document` reads.
            meta: Metadata added to every document (a dict), or one dict per source
                (a list as long as ``sources``).

        Raises:
            ConfigError: ``meta`` is a list whose length is not that of ``sources``.
            DocumentError: A source cannot be read.
        """
        from docchunk import load_document

        documents = []
        for source, extra in zip(sources, _per_source(meta, len(sources)), strict=True):
            doc = load_document(Path(source))
            for index, chunk in enumerate(self.chunker.chunk(doc)):
                structured = chunk_metadata(cast("DocChunk", chunk), str(source), index)
                own = store_metadata(structured) if self.metadata == "flat" else structured
                documents.append(_Document(content=self.chunker.contextualize(chunk), meta={**own, **extra}))
        return {"documents": documents}


def _per_source(meta: dict[str, Any] | list[dict[str, Any]] | None, count: int) -> Iterable[dict[str, Any]]:
    if meta is None or isinstance(meta, dict):
        return [dict(meta or {}) for _ in range(count)]
    if len(meta) != count:
        raise ConfigError(
            f"meta is a list of {len(meta)} dicts for {count} sources: give one dict per source, "
            "or a single dict for all of them"
        )
    return meta
