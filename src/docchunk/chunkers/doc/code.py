"""Code chunking: code split at function and class boundaries with tree-sitter.

docchunk's own algorithm (the ``[code]`` extra brings tree-sitter and its grammars):
the code is parsed, its top-level definitions become chunks of their own, the
code between them (imports, statements, comments) becomes preamble chunks, and
a definition larger than the budget is split into its members (a class into its
header and methods), then by the text splitter. Chunks are exact, contiguous
slices of the code: together they give it back, character for character.

docling-core's ``StandardCodeChunkingStrategy`` is the model for the
interface (``chunk_code_item``) and the chunk types; its chunks repeat imports
and class context and may leave code out, which docchunk's do not (see
``docs/compat.md``). To get docling-core's chunks, pass its own strategy to a
chunker with ``docling_compat=True``.

This module holds the chunk models (:class:`CodeDocMeta`, :class:`CodeChunk`) and the
strategy: fitting definitions to the budget, the text splitter, the chunks' meta.
Reading the code's syntax (grammars, parsers, definitions as spans of the code) is
:mod:`docchunk.chunkers.doc.code_syntax`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import Field

from docchunk._extras import extra_install
from docchunk.errors import ConfigError, MissingDependencyError
from docchunk.serialization.chunk import page_numbers_of
from docchunk.tokenizers import Tokenizer, TokenizerSpec, get_tokenizer
from docchunk.types.config import check_size

if TYPE_CHECKING:
    from docling_core.transforms.serializer.base import BaseDocSerializer
    from docling_core.types.doc import CodeItem, DoclingDocument, DocumentOrigin

try:  # docling-core's chunker package needs tree-sitter (its [chunking] extra, which [code] brings)
    from docling_core.transforms.chunker.code_chunking.base_code_chunking_strategy import BaseCodeChunkingStrategy
    from docling_core.transforms.chunker.code_chunking.code_chunk import CodeChunk as _DLCodeChunk
    from docling_core.transforms.chunker.code_chunking.code_chunk import CodeChunkType
    from docling_core.transforms.chunker.code_chunking.code_chunk import CodeDocMeta as _DLCodeDocMeta
except ImportError as exc:
    raise MissingDependencyError(
        f"code chunking needs docling-core's code chunking and tree-sitter, which are not installed "
        f"({exc.name or exc}); install the code extra with: {extra_install('code')}"
    ) from exc

# (after the check above: code_syntax imports docling-core's code chunking too)
from docchunk.chunkers.doc.code_syntax import (
    GRAMMARS,
    SUPPORTED_LANGUAGES,
    Span,
    absorb_whitespace,
    class_body,
    definitions,
    new_parser,
)

__all__ = ["SUPPORTED_LANGUAGES", "CodeChunk", "CodeChunkType", "CodeChunkingStrategy", "CodeDocMeta"]


class CodeDocMeta(_DLCodeDocMeta):
    """docling-core's ``CodeDocMeta`` (part_name, docstring, start_line, end_line, chunk_type) plus docchunk's fields.

    Attributes:
        token_count: Tokens of the chunk text, counted by the strategy's tokenizer
            (:meth:`CodeChunkingStrategy.chunk_code`); inside a document chunker, tokens
            of ``contextualize(chunk)``, as every document chunk's.
        start_index: Offset (a Python ``str`` index) of the chunk in the code item's text;
            ``code[start_index:end_index] == chunk.text``.
        end_index: End offset, exclusive.
        language: The code item's language.
        oversized: True when ``token_count`` exceeds ``max_tokens`` because one
            indivisible piece is larger; else None.
        fallback: Why the code was split by the text splitter instead of tree-sitter
            (an unsupported language, or code tree-sitter could not parse); else None.
        page_numbers: Pages of the code item's provenance, or None.

    ``contextualize()`` of a chunk is its headings (when a document chunker set
    them) and its text: the fields above are excluded from the embedding string.
    """

    excluded_embed: ClassVar[list[str]] = [
        *_DLCodeDocMeta.excluded_embed,
        "part_name", "docstring", "sha256", "start_line", "end_line", "end_line_signature", "chunk_type",
        "token_count", "start_index", "end_index", "language", "oversized", "fallback", "page_numbers",
    ]  # fmt: skip

    token_count: int | None = Field(default=None, ge=0)
    start_index: int | None = None
    end_index: int | None = None
    language: str | None = None
    oversized: bool | None = None
    fallback: str | None = None
    page_numbers: list[int] | None = None


class CodeChunk(_DLCodeChunk):
    """A chunk of a code item: ``text`` and :class:`CodeDocMeta`; a docling-core ``CodeChunk``."""

    meta: CodeDocMeta


class CodeChunkingStrategy(BaseCodeChunkingStrategy):
    """Splits code items at function and class boundaries; a docling-core code chunking strategy.

    Pass it as ``code_chunking_strategy`` to a document chunker, or call
    :meth:`chunk_code` on a string.

    Invariants of the chunks of one code text: contiguous exact slices
    (``code[start_index:end_index] == text``) that give back the whole code; none
    is empty or whitespace only (whitespace joins its neighbour); ``token_count <=
    max_tokens`` unless one character is larger (then ``oversized``); a definition
    that fits is one chunk (``FUNCTION``, ``METHOD`` or ``CLASS``); code between
    definitions is a ``PREAMBLE`` chunk (the text splitter's ``CODE_BLOCK`` chunks
    for unsupported languages, with ``meta.fallback`` saying why).

    Args:
        tokenizer: Any spec :func:`docchunk.get_tokenizer` accepts; default all-MiniLM-L6-v2.
        max_tokens: Budget per chunk in tokens of ``tokenizer``; default: the
            tokenizer's own limit (256 for the default tokenizer).

    Raises:
        ConfigError: No budget or a budget that is not a positive int.
        MissingDependencyError: tree-sitter or a grammar is not installed
            (``pip install ".[code]"`` from a checkout), raised when the language is first used
            (and at import when docling-core's code chunking modules are missing).

    Example:
        >>> strategy = CodeChunkingStrategy(max_tokens=128)  # doctest: +SKIP
        >>> [c.meta.part_name for c in strategy.chunk_code(source, "python")]  # doctest: +SKIP
        [None, 'load', 'Loader']
    """

    def __init__(self, tokenizer: TokenizerSpec = None, max_tokens: int | None = None) -> None:
        self._tok: Tokenizer = get_tokenizer(tokenizer)
        limit = max_tokens if max_tokens is not None else self._tok.max_tokens
        if limit is None:
            raise ConfigError(
                f"CodeChunkingStrategy: max_tokens is required: the tokenizer {self._tok.name!r} has no limit "
                "of its own; pass max_tokens=<positive int>"
            )
        self.max_tokens: int = check_size("max_tokens", limit, 1)
        self._parsers: dict[str, Any] = {}

    def with_budget(self, tokenizer: TokenizerSpec, max_tokens: int) -> CodeChunkingStrategy:
        """A copy that counts with ``tokenizer`` and splits at ``max_tokens`` of its tokens (parsers shared).

        The document chunkers call it to size code chunks by their own tokenizer and budget.

        Raises:
            ConfigError: ``max_tokens`` is not a positive int.
        """
        copy = type(self).__new__(type(self))
        copy.__dict__.update(self.__dict__)
        CodeChunkingStrategy.__init__(copy, tokenizer=tokenizer, max_tokens=max_tokens)
        copy._parsers = self._parsers
        return copy

    def chunk_code_item(
        self,
        *,
        item: CodeItem,
        doc: DoclingDocument,
        doc_serializer: BaseDocSerializer | None = None,
        visited: set[str] | None = None,
        **kwargs: Any,
    ) -> Iterator[CodeChunk]:
        """Yield the chunks of one ``CodeItem`` of ``doc`` (docling-core's strategy interface).

        ``doc_serializer`` and the other keywords of docling-core's callers (``kwargs``)
        are accepted and not used; ``visited`` gets the item's ref.
        """
        if visited is not None:
            visited.add(item.self_ref)
        language = str(getattr(item.code_language, "value", item.code_language) or "").lower()
        yield from self.chunk_code(item.text, language, item=item, origin=doc.origin)

    def chunk_code(
        self, code: str, language: str, item: CodeItem | None = None, origin: DocumentOrigin | None = None
    ) -> list[CodeChunk]:
        """The chunks of ``code`` in ``language`` (see the class invariants).

        Args:
            code: The source text.
            language: ``"python"``, ``"c"``, ``"java"``, ``"javascript"``, ``"typescript"``;
                others fall back to the text splitter.
            item: The ``CodeItem`` the code comes from (the chunks' ``doc_items``);
                default: a new one holding ``code``.
            origin: The document origin for the chunks' meta.

        Raises:
            ConfigError: ``code`` or ``language`` is not a str.
        """
        if not isinstance(code, str) or not isinstance(language, str):
            raise ConfigError(f"chunk_code takes code and language as str, got code={type(code).__name__}, "
                              f"language={language!r}; e.g. chunk_code(source, 'python') ('' for unknown)")  # fmt: skip
        if not code.strip():
            return []
        if item is None:
            from docling_core.types.doc import DoclingDocument

            item = DoclingDocument(name="code").add_code(text=code)
        language = language.lower()
        fallback = None
        spans: list[Span] | None = None
        if language in GRAMMARS:
            tree = self._parser(language).parse(code.encode("utf-8"))
            found = definitions(tree.root_node, code, 0, len(code))
            if any(s.kind != CodeChunkType.PREAMBLE for s in found):
                spans = self._fit(found, code)  # tree-sitter recovers from errors; definitions found are good
            elif tree.root_node.has_error:
                fallback = f"tree-sitter could not parse this {language} code"
        else:
            fallback = f"language {language or 'unknown'!r} is not supported by code chunking ({', '.join(GRAMMARS)})"
        if spans is None:
            kind = CodeChunkType.CODE_BLOCK if fallback else CodeChunkType.PREAMBLE
            spans = self._split_text(Span(0, len(code), kind), code, language)
        return [self._chunk(s, code, language, fallback, item, origin) for s in absorb_whitespace(spans, code)]

    # -- phases ------------------------------------------------------------------
    def _parser(self, language: str) -> Any:
        parser = self._parsers.get(language)
        if parser is None:
            parser = self._parsers[language] = new_parser(language)
        return parser

    def _fit(self, spans: list[Span], code: str) -> list[Span]:
        """Spans within the budget: a class split into header and methods, then the text splitter."""
        out: list[Span] = []
        counts = self._tok.count_tokens_batch([code[s.start : s.end] for s in spans])
        for span, count in zip(spans, counts, strict=True):
            if count <= self.max_tokens:
                out.append(span)
                continue
            body = class_body(span.node) if span.kind == CodeChunkType.CLASS and span.node is not None else None
            members = definitions(body, code, span.start, span.end) if body is not None else []
            if any(m.kind != CodeChunkType.PREAMBLE for m in members):
                for m in members:
                    if m.kind == CodeChunkType.FUNCTION:
                        m.kind = CodeChunkType.METHOD
                if members[0].kind == CodeChunkType.PREAMBLE:
                    members[0].kind, members[0].name = CodeChunkType.CLASS, span.name  # the class header
                out.extend(self._fit(members, code))
            else:
                out.extend(self._split_text(span, code, None))
        return out

    def _split_text(self, span: Span, code: str, language: str | None) -> list[Span]:
        from docchunk.chunkers.text import RecursiveChunker

        preset = language if language in {"python", "javascript", "typescript", "java"} else None
        splitter = RecursiveChunker(chunk_size=self.max_tokens, tokenizer=self._tok, language=preset)
        pieces = splitter.chunk(code[span.start : span.end])
        out = []
        for piece in pieces:
            out.append(Span(span.start + piece.start_index, span.start + piece.end_index, span.kind, span.name))
        return out

    def _chunk(
        self, span: Span, code: str, language: str, fallback: str | None, item: CodeItem, origin: DocumentOrigin | None
    ) -> CodeChunk:
        text = code[span.start : span.end]
        count = self._tok.count_tokens(text)
        meta = CodeDocMeta(
            doc_items=[item],
            origin=origin,
            part_name=span.name,
            start_line=code.count("\n", 0, span.start) + 1,
            end_line=code.count("\n", 0, span.end - 1) + 1 if span.end > span.start else None,
            sha256=int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big"),
            chunk_type=span.kind,
            token_count=count,
            start_index=span.start,
            end_index=span.end,
            language=language or None,
            oversized=True if count > self.max_tokens else None,
            fallback=fallback,
            page_numbers=page_numbers_of([item]),
        )
        return CodeChunk.model_construct(text=text, meta=meta)
