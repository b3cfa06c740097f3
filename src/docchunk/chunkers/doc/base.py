"""Shared configuration of docchunk's document chunkers."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from docling_core.transforms.serializer.base import BaseSerializerProvider
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, field_validator

from docchunk._versions import DOCLING_CORE_VERSION
from docchunk.chunkers.doc.mode import Mode, mode_for
from docchunk.chunkers.doc.page_boxes import page_boxes_of
from docchunk.chunkers.doc.piece import Piece, listed_items
from docchunk.chunkers.doc.provenance import captions_of, completed, item_text, spans_of
from docchunk.errors import ConfigError, DocchunkError, DocumentError
from docchunk.serialization import ChunkingSerializerProvider
from docchunk.serialization._docling import BaseChunk, BaseChunker
from docchunk.serialization.chunk import ChunkBudget, DocChunk, DocMeta, contextualize, page_numbers_of
from docchunk.tokenizers import Tokenizer, TokenizerSpec, get_tokenizer
from docchunk.types.config import check_size, config_error, unknown_name_error

if TYPE_CHECKING:
    from docling_core.types.doc import DoclingDocument

__all__ = ["DocumentChunker", "assign_validated", "check_document"]


def check_document(dl_doc: object) -> None:
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
        docling_compat: Reproduce docling-core's chunks exactly (texts, headings,
            captions, doc_items, ``contextualize()``), defects included, for the
            release named by ``docchunk._versions.DOCLING_CORE_VERSION``.
            False (the default): structure-faithful chunks, which differ from
            docling-core as listed in ``docs/compat.md``.
        include_furniture: Default mode: also chunk page headers and footers (the
            furniture layer, and body items labelled ``page_header``/``page_footer``),
            which are left out by default. Footnotes and endnotes are body text
            wherever they sit (docling's DOCX converter puts them in the furniture
            layer). Ignored with ``docling_compat=True``
            (docling-core's layers) and with a user's own ``serializer_provider``.

    Configuration is strict: an unknown keyword argument raises :class:`ConfigError`
    naming the closest accepted one and all of them; ``code_chunking_strategy``
    given to a chunker other than the hierarchical and hybrid ones raises saying so
    (None, docling-core's default, is accepted); a setting assigned after construction is
    validated as at construction (pydantic ``validate_assignment``, and the checks of
    ``model_post_init`` again for the settings they read), and an invalid value
    leaves the chunker unchanged.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid", validate_assignment=True)
    # settings that model_post_init reads: assigning one runs it again
    _POST_INIT_SETTINGS: ClassVar[frozenset[str]] = frozenset({"tokenizer"})

    tokenizer: TokenizerSpec = None
    serializer_provider: BaseSerializerProvider = Field(default_factory=ChunkingSerializerProvider)
    always_emit_headings: bool = False
    docling_compat: bool = False
    include_furniture: bool = False

    _tok: Tokenizer = PrivateAttr()

    def __init__(self, **data: Any) -> None:
        _check_keywords(type(self), data)
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise config_error(type(self).__name__, exc) from None

    def __setattr__(self, name: str, value: Any) -> None:
        assign_validated(self, name, value, name in self._POST_INIT_SETTINGS, super().__setattr__)

    @field_validator("max_tokens", mode="before", check_fields=False)
    @classmethod
    def _check_max_tokens(cls, value: Any) -> Any:
        """Every document chunker's ``max_tokens``: None or an int >= 1 (no coercion of "64" or True)."""
        return value if value is None else check_size("max_tokens", value, 1)

    @field_validator("code_chunking_strategy", check_fields=False)
    @classmethod
    def _check_code_strategy(cls, value: Any) -> Any:
        from docchunk.chunkers.doc.code_items import check_code_strategy

        return check_code_strategy(value)

    @field_validator("table_format", mode="before", check_fields=False)
    @classmethod
    def _check_table_format(cls, value: Any) -> Any:
        """The document chunkers' ``table_format``: one of ``"records"``, ``"triplets"``, ``"markdown"``."""
        from docchunk.serialization.tables import check_table_format

        return check_table_format(value)

    @field_validator("delim")
    @classmethod
    def _check_delim(cls, value: str) -> str:
        if not isinstance(value, str):
            raise ConfigError(f"delim must be a str, got {value!r}")
        return value

    def model_post_init(self, __context: Any) -> None:
        """Resolve ``tokenizer`` into the :class:`docchunk.Tokenizer` behind :attr:`token_counter`.

        Raises:
            ConfigError: ``table_format`` other than ``"records"`` with ``docling_compat=True``
                (docling-core writes its own tables; the option would be ignored).
        """
        table_format = getattr(self, "table_format", "records")
        if "table_format" in self.mode.refuses and table_format != "records":
            raise ConfigError(
                f"{type(self).__name__}: table_format={table_format!r} needs docling_compat=False: with "
                f"docling_compat=True tables are written as docling-core {DOCLING_CORE_VERSION} writes them; leave "
                "table_format "
                "out, or use docling_compat=False"
            )
        self._tok = get_tokenizer(self.tokenizer)

    @property
    def token_counter(self) -> Tokenizer:
        """The resolved :class:`docchunk.Tokenizer` that counts ``token_count``."""
        return self._tok

    @property
    def mode(self) -> Mode:
        """The chunker's :class:`~docchunk.chunkers.doc.mode.Mode`: compat with ``docling_compat``, else structured."""
        return mode_for(self.docling_compat)

    def contextualize(self, chunk: BaseChunk) -> str:
        """The embedding string of a chunk: headings, captions, text, joined by ``delim``.

        Equals docling-core's ``BaseChunker.contextualize`` for the same chunk.
        """
        return contextualize(chunk, self.delim)

    def _to_chunk(
        self,
        piece: Piece,
        token_count: int,
        oversized: bool = False,
        doc: DoclingDocument | None = None,
        budget: ChunkBudget | None = None,
    ) -> DocChunk:
        """The chunk of ``piece``, with its spans (:mod:`~docchunk.chunkers.doc.provenance`) and page boxes.

        ``budget``: this chunker's :meth:`_budget`, made once for the chunks of one ``chunk()``
        call (it is immutable); made here when None.
        """
        caption_items = captions_of(piece.items, doc)
        listed = listed_items(piece)  # with the title tables that head its table (in its context)
        items = [*piece.items, *caption_items]
        texts = {it.self_ref: text for it in items if (text := item_text(it)) is not None}
        meta = DocMeta(
            doc_items=listed,
            headings=piece.headings,
            captions=piece.captions,
            origin=piece.origin,
            token_count=token_count,
            page_numbers=page_numbers_of(listed),
            oversized=True if oversized else None,
            table_rows=piece.table_rows,
            table_cols=list(piece.table_cols) if piece.table_cols is not None else None,
            spans=spans_of(completed(piece, doc, caption_items), texts),
            page_boxes=page_boxes_of(listed, doc),
            headings_dropped=piece.headings_dropped,
            table_context_dropped=list(piece.table_context_dropped) if piece.table_context_dropped else None,
        )
        chunk = DocChunk(text=piece.text, meta=meta)
        chunk._budget = budget if budget is not None else self._budget()
        return chunk

    def _budget(self) -> ChunkBudget:
        """What each chunk remembers of this chunker (see :class:`ChunkBudget`)."""
        return ChunkBudget(self._tok, getattr(self, "max_tokens", None), self.delim)


_RECHECKING: set[int] = set()  # chunkers whose model_post_init runs again after an assignment


def assign_validated(
    model: BaseModel, name: str, value: object, post_init: bool, setattr_: Callable[[str, object], None]
) -> None:
    """Assign a setting of a strict pydantic model (``validate_assignment``) as at construction.

    Unknown names raise :class:`ConfigError` naming the settings; pydantic's validation
    runs (``setattr_`` is the model class's ``super().__setattr__``), then, when
    ``post_init`` is True, ``model_post_init`` again for the checks it makes. Any
    failure is a docchunk error and leaves ``model`` as it was.
    """
    if name.startswith("_"):
        setattr_(name, value)
        return
    fields = type(model).model_fields
    if name not in fields:
        raise unknown_name_error(type(model).__name__, name, fields, "attribute")
    before, private = dict(model.__dict__), dict(model.__pydantic_private__ or {})
    try:
        setattr_(name, value)  # validate_assignment
        if post_init and id(model) not in _RECHECKING:
            _RECHECKING.add(id(model))  # model_post_init may assign settings itself
            try:
                model.model_post_init(None)
            finally:
                _RECHECKING.discard(id(model))
    except ValidationError as exc:
        raise config_error(type(model).__name__, exc) from None
    except DocchunkError:  # leave the model as it was
        model.__dict__.update(before)
        object.__setattr__(model, "__pydantic_private__", private)
        raise


# keywords of docling-core's chunkers that docchunk does not implement: what to do instead
_NOT_IMPLEMENTED = {
    "code_chunking_strategy": (
        "only HierarchicalChunker and HybridChunker take a code_chunking_strategy, as in docling-core; "
        "leave it out, or chunk with one of those"
    ),
}


def _check_keywords(cls: type[DocumentChunker], data: dict[str, Any]) -> None:
    """Raise :class:`ConfigError` for a keyword ``cls`` does not accept, naming the accepted ones."""
    fields = cls.model_fields
    for name in list(data):
        if name in fields:
            continue
        if name in _NOT_IMPLEMENTED:
            if data[name] is None:  # docling-core's default: nothing to implement
                del data[name]
                continue
            raise ConfigError(f"{cls.__name__}: {name}={data[name]!r}: {_NOT_IMPLEMENTED[name]}")
        raise unknown_name_error(cls.__name__, name, fields)
