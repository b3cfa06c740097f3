"""Shared configuration of docchunk's document chunkers."""

from __future__ import annotations

from typing import Any

from docling_core.transforms.serializer.base import BaseSerializerProvider
from pydantic import ConfigDict, Field, PrivateAttr, ValidationError, field_validator

from docchunk.chunkers.doc.types import DocChunk, DocMeta, contextualize, page_numbers_of
from docchunk.chunkers.doc.walk import Piece
from docchunk.errors import ConfigError, DocchunkError, DocumentError
from docchunk.serialization import ChunkingSerializerProvider
from docchunk.serialization._docling import BaseChunker
from docchunk.tokenizers import Tokenizer, get_tokenizer

__all__ = ["DocumentChunker", "check_document"]


def check_document(dl_doc: Any) -> None:
    """Raise a clear :class:`DocumentError` unless ``dl_doc`` is a ``DoclingDocument``."""
    from docling_core.types.doc import DoclingDocument

    if not isinstance(dl_doc, DoclingDocument):
        hint = (
            "; load one with docchunk.load_document(path), or load_document(text, format='md') for a string, "
            "or chunk plain text with docchunk.RecursiveChunker"
            if isinstance(dl_doc, (str, bytes))
            else "; load one with docchunk.load_document(path)"
        )
        raise DocumentError(f"chunk() takes a DoclingDocument, got {type(dl_doc).__name__}{hint}")


class DocumentChunker(BaseChunker):
    """Base of docchunk's document chunkers; a docling-core ``BaseChunker``.

    Attributes:
        tokenizer: Any spec :func:`docchunk.get_tokenizer` accepts (default: the
            bundled all-MiniLM-L6-v2 tokenizer); it counts every chunk's ``token_count``.
        serializer_provider: docling-core serializer provider that turns elements
            into text (default: docchunk's ``ChunkingSerializerProvider``, whose text
            equals docling-core's ``ChunkingSerializerProvider``).
        always_emit_headings: Also emit a heading-only chunk (empty text) for each
            section without content, as docling-core does.
        delim: Separator between headings, captions and text, and between merged texts.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    tokenizer: Any = None
    serializer_provider: BaseSerializerProvider = Field(default_factory=ChunkingSerializerProvider)
    always_emit_headings: bool = False

    _tok: Tokenizer = PrivateAttr()

    def __init__(self, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise _config_error(type(self).__name__, exc) from None

    @field_validator("delim")
    @classmethod
    def _check_delim(cls, value: str) -> str:
        if not isinstance(value, str):
            raise ConfigError(f"delim must be a str, got {value!r}")
        return value

    def model_post_init(self, __context: Any) -> None:
        """Resolve ``tokenizer`` into the :class:`docchunk.Tokenizer` behind :attr:`token_counter`."""
        self._tok = get_tokenizer(self.tokenizer)

    @property
    def token_counter(self) -> Tokenizer:
        """The resolved :class:`docchunk.Tokenizer` that counts ``token_count``."""
        return self._tok

    def contextualize(self, chunk: Any) -> str:
        """The embedding string of a chunk: headings, captions, text, joined by ``delim``.

        Equals docling-core's ``BaseChunker.contextualize`` for the same chunk.
        """
        return contextualize(chunk, self.delim)

    def _to_chunk(self, piece: Piece, token_count: int, oversized: bool = False) -> DocChunk:
        meta = DocMeta(
            doc_items=piece.items,
            headings=piece.headings,
            captions=piece.captions,
            origin=piece.origin,
            token_count=token_count,
            page_numbers=page_numbers_of(piece.items),
            oversized=True if oversized else None,
        )
        return DocChunk(text=piece.text, meta=meta)


def _config_error(owner: str, exc: ValidationError) -> DocchunkError:
    """Our own error for a failed pydantic validation: the original one when we raised it."""
    for err in exc.errors():
        original = (err.get("ctx") or {}).get("error")
        if isinstance(original, DocchunkError):
            return original
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or "<init>"
    return ConfigError(f"{owner}: invalid {where}={first.get('input')!r}: {first['msg']}")
