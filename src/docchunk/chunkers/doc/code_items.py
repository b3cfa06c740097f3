"""Code items inside the document chunkers: the ``code_chunking_strategy`` setting.

A light module (no tree-sitter, no docling-core chunker package): the strategy is
only called here; :mod:`docchunk.chunkers.doc.code` holds docchunk's own strategy.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, cast

from docchunk._extras import extra_install
from docchunk.chunkers.doc.piece import CodeStrategy, Piece
from docchunk.errors import ConfigError, MissingDependencyError
from docchunk.serialization.chunk import contextualize, join_context
from docchunk.tokenizers import Tokenizer, TokenizerSpec, get_tokenizer

if TYPE_CHECKING:
    from docling_core.transforms.chunker.code_chunking.code_chunk import CodeChunk
    from docling_core.transforms.chunker.code_chunking.standard_code_chunking_strategy import (
        StandardCodeChunkingStrategy,
    )
    from docling_core.types.doc import CodeItem, DoclingDocument

    from docchunk.chunkers.doc.code import CodeChunk as OwnCodeChunk
    from docchunk.chunkers.doc.code import CodeChunkingStrategy

__all__ = ["check_code_strategy", "chunk_code_piece", "code_strategy_for"]

CODE_INSTALL = extra_install("code")


def check_code_strategy(value: object) -> CodeStrategy | None:  # value: whatever the user passed
    """``code_chunking_strategy``: None or an object with docling-core's ``chunk_code_item``.

    Raises:
        ConfigError: Anything else.
    """
    if value is not None and not callable(getattr(value, "chunk_code_item", None)):
        raise ConfigError(
            f"code_chunking_strategy must be None or a code chunking strategy (docchunk.CodeChunkingStrategy, or "
            f"a docling-core BaseCodeChunkingStrategy such as StandardCodeChunkingStrategy), got {value!r}"
        )
    return cast("CodeStrategy | None", value)  # it has chunk_code_item (the protocol's one method)


def code_strategy_for(
    docling_compat: bool, tokenizer: TokenizerSpec = None, max_tokens: int | None = None
) -> CodeChunkingStrategy | StandardCodeChunkingStrategy:
    """The strategy of the CLI's ``--code-chunking``: docling-core's with ``docling_compat``, else docchunk's.

    Args:
        docling_compat: True: docling-core's ``StandardCodeChunkingStrategy``
            (with ``tokenizer``'s docling-core form when it has one, and ``max_tokens``
            when given); False: :class:`docchunk.CodeChunkingStrategy`.
        tokenizer: The chunker's tokenizer (a :class:`docchunk.Tokenizer` or spec).
        max_tokens: Budget per code chunk in tokens of ``tokenizer``; None: the
            strategy's default (docling-core: 5000; docchunk: the tokenizer's limit).

    Raises:
        MissingDependencyError: tree-sitter, its grammars or docling-core's code
            chunking modules are not installed (``pip install ".[code]"`` from a checkout).
    """
    missing = [m for m in ("tree_sitter", "tree_sitter_python") if not _importable(m)]
    if missing:
        raise MissingDependencyError(
            f"code chunking needs the package {missing[0]!r}, which is not installed; install the code extra "
            f"with: {CODE_INSTALL}"
        )
    try:
        if not docling_compat:
            from docchunk.chunkers.doc.code import CodeChunkingStrategy

            return CodeChunkingStrategy(tokenizer=tokenizer, max_tokens=max_tokens)
        from docling_core.transforms.chunker.code_chunking.standard_code_chunking_strategy import (
            StandardCodeChunkingStrategy,
        )
    except MissingDependencyError:
        raise
    except ImportError as exc:
        raise MissingDependencyError(
            f"code chunking could not import {exc.name or exc!s}; install the code extra with: {CODE_INSTALL}"
        ) from exc
    kwargs: dict[str, Any] = {} if max_tokens is None else {"max_tokens": max_tokens}
    # docling-core's default tokenizer would be fetched from the Hugging Face Hub: give it ours
    kwargs["tokenizer"] = _docling_tokenizer(get_tokenizer(tokenizer))
    return StandardCodeChunkingStrategy(**kwargs)


def _docling_tokenizer(tok: Tokenizer) -> Any:
    """A docling-core ``BaseTokenizer`` counting with ``tok`` (docling-core's code chunkers call ``count_tokens``)."""
    from docling_core.transforms.chunker.tokenizer.base import BaseTokenizer
    from pydantic import ConfigDict

    class DocchunkTokenizer(BaseTokenizer):
        model_config = ConfigDict(arbitrary_types_allowed=True)
        tok: Any

        def count_tokens(self, text: str) -> int:
            return int(self.tok.count_tokens(text))

        def get_max_tokens(self) -> int:
            return int(self.tok.max_tokens or 0)

        def get_tokenizer(self) -> Any:
            return self.tok

    return DocchunkTokenizer(tok=tok)


def _importable(module: str) -> bool:
    import importlib

    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


def chunk_code_piece(
    piece: Piece, strategy: CodeStrategy, doc: DoclingDocument, tok: Tokenizer, delim: str, max_tokens: int | None
) -> list[CodeChunk]:
    """The default mode's chunks of one code item (``piece.code_chunks == []``).

    docchunk's strategy (it has ``with_budget``) is run as it is without
    ``max_tokens`` (hierarchical), else with the chunker's tokenizer and the
    budget left after the headings (hybrid); its chunks get the piece's headings, ``token_count`` (tokens of
    ``contextualize(chunk)`` by ``tok``) and ``oversized`` against ``max_tokens``.
    Another strategy (docling-core's) gives its chunks as they are.
    """
    item = cast("CodeItem", piece.items[0])  # a code piece holds its code item
    if not callable(getattr(strategy, "with_budget", None)):
        return list(strategy.chunk_code_item(item=item, doc=doc))
    # a strategy with ``with_budget``: docchunk's, whose chunks have docchunk's CodeDocMeta
    ours = cast("CodeChunkingStrategy", strategy)
    if max_tokens is None:  # no budget of the chunker's own: the strategy's
        return list(_finish(ours.chunk_code_item(item=item, doc=doc), piece, tok, delim, None))
    overhead = tok.count_tokens(join_context(piece.headings, None, "", delim)) if piece.headings else 0
    available = max(1, max_tokens - overhead)
    while True:
        chunks = _finish(ours.with_budget(tok, available).chunk_code_item(item=item, doc=doc), piece, tok,
                         delim, max_tokens)  # fmt: skip
        overflow = max((c.meta.token_count or 0 for c in chunks), default=0) - max_tokens  # set by _finish
        if overflow <= 0 or available == 1:
            return list(chunks)
        available = max(1, available - overflow)  # a tokenizer that does not join additively


def _finish(
    chunks: Iterable[OwnCodeChunk], piece: Piece, tok: Tokenizer, delim: str, max_tokens: int | None
) -> list[OwnCodeChunk]:
    out = []
    for chunk in chunks:
        meta = chunk.meta
        meta.headings = piece.headings
        meta.token_count = tok.count_tokens(contextualize(chunk, delim))
        if max_tokens is not None:
            meta.oversized = True if meta.token_count > max_tokens else None
        out.append(chunk)
    return out
