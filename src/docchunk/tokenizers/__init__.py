"""Tokenizers: what every token-based size in docchunk counts.

``get_tokenizer(spec)`` turns any accepted spec into a :class:`Tokenizer` with
``count_tokens(text) -> int`` and ``max_tokens`` (or None). :class:`Sizer` is the one
sizing engine every chunker uses on top of a tokenizer: cached and batched counts,
sizes of joined texts by arithmetic, early rejection of text that is too long.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from docchunk.embeddings.models import HUB_DEFAULT_MODEL
from docchunk.errors import TokenizerError
from docchunk.tokenizers.base import CallableTokenizer, CharacterTokenizer, Tokenizer, WordTokenizer
from docchunk.tokenizers.hf import HFTokenizer, transformers_limit
from docchunk.tokenizers.names import did_you_mean, spec_form
from docchunk.tokenizers.sizer import Sizer
from docchunk.tokenizers.spans import SpanSizer
from docchunk.tokenizers.tiktoken import TiktokenTokenizer
from docchunk.types.config import check_size

if TYPE_CHECKING:
    import tiktoken
    import tokenizers
    from transformers import PreTrainedTokenizerBase

    class _DoclingTokenizer(Protocol):
        """docling-core's ``BaseTokenizer``, by its shape (this layer does not import docling-core)."""

        def count_tokens(self, text: str) -> int: ...
        def get_max_tokens(self) -> int: ...
        def get_tokenizer(self) -> Any: ...

    TokenizerSpec: TypeAlias = (
        str
        | Tokenizer
        | tokenizers.Tokenizer
        | tiktoken.Encoding
        | PreTrainedTokenizerBase
        | _DoclingTokenizer
        | Callable[[str], int]
        | None
    )
    """What :func:`get_tokenizer` accepts (for type checkers; ``Any`` at run time)."""
else:
    # at run time the spec is checked by get_tokenizer (which names the accepted forms), not by pydantic
    TokenizerSpec = Any

__all__ = [
    "ACCEPTED_SPECS",
    "DEFAULT_TOKENIZER",
    "CallableTokenizer",
    "CharacterTokenizer",
    "HFTokenizer",
    "Sizer",
    "SpanSizer",
    "TiktokenTokenizer",
    "Tokenizer",
    "TokenizerSpec",
    "WordTokenizer",
    "get_tokenizer",
    "is_docling_tokenizer",
]

DEFAULT_TOKENIZER = f"hf:{HUB_DEFAULT_MODEL}"
"""The default: the all-MiniLM-L6-v2 WordPiece tokenizer bundled with docchunk (offline), limit 256."""

ACCEPTED_SPECS = (
    '"character", "word", "hf:<hub name | local directory | path to tokenizer.json>", '
    '"tiktoken:<encoding or model name>", a docchunk Tokenizer, a tokenizers.Tokenizer, '
    "a transformers tokenizer, a tiktoken.Encoding, a docling-core tokenizer, "
    "or a callable str -> int"
)


def _instance_of(obj: Any, module: str, cls: str) -> bool:
    """Isinstance check against a class of an optional module, without importing it."""
    mod = sys.modules.get(module)
    return mod is not None and isinstance(obj, getattr(mod, cls, ()))


def is_docling_tokenizer(spec: object) -> bool:
    """Whether ``spec`` is a docling-core tokenizer object (a ``BaseTokenizer``), without importing docling-core."""
    return _instance_of(spec, "docling_core.transforms.chunker.tokenizer.base", "BaseTokenizer")


def get_tokenizer(spec: TokenizerSpec = None, max_tokens: int | None = None) -> Tokenizer:
    """Resolve a tokenizer spec.

    Args:
        spec: One of: None (the default, ``DEFAULT_TOKENIZER``: all-MiniLM-L6-v2's
            WordPiece tokens, bundled, offline, limit 256); ``"character"`` (Unicode
            code points); ``"word"`` (whitespace-separated words);
            ``"hf:<hub name | directory | tokenizer.json>"``;
            ``"tiktoken:<encoding or model>"``; a :class:`Tokenizer`; a
            ``tokenizers.Tokenizer``; a transformers tokenizer; a ``tiktoken.Encoding``;
            a docling-core ``BaseTokenizer``; any callable ``str -> int``.
        max_tokens: Overrides the tokenizer's own limit (in its tokens); must be >= 1.

    Returns:
        A :class:`Tokenizer`. Counts never include special tokens.

    Raises:
        TokenizerError: The spec is of none of the accepted forms, or loading failed.
        MissingDependencyError: The spec needs an extra (``hf``, ``tiktoken``) that is
            not installed.

    Example:
        >>> get_tokenizer("character").count_tokens("héllo")
        5
    """
    if max_tokens is not None:
        check_size("max_tokens", max_tokens, 1, TokenizerError)
    tok = _resolve(DEFAULT_TOKENIZER if spec is None else spec, max_tokens)
    if max_tokens is not None:
        tok.max_tokens = max_tokens
    return tok


def _resolve(spec: Any, max_tokens: int | None) -> Tokenizer:
    if isinstance(spec, Tokenizer):
        if max_tokens is None or spec.max_tokens == max_tokens:
            return spec
        import copy

        return copy.copy(spec)
    if isinstance(spec, str):
        return _from_string(spec, max_tokens)
    if _instance_of(spec, "tokenizers", "Tokenizer"):
        return HFTokenizer(spec, max_tokens=max_tokens, name="hf:<tokenizers.Tokenizer>")
    if _instance_of(spec, "tiktoken", "Encoding") or _instance_of(spec, "tiktoken.core", "Encoding"):
        return TiktokenTokenizer(spec, max_tokens=max_tokens)
    if _instance_of(spec, "transformers", "PreTrainedTokenizerBase"):
        return _from_transformers(spec, max_tokens)
    if is_docling_tokenizer(spec):
        limit = max_tokens if max_tokens is not None else spec.get_max_tokens()
        inner = spec.get_tokenizer()
        if _instance_of(inner, "transformers", "PreTrainedTokenizerBase"):
            return _from_transformers(inner, limit)
        if _instance_of(inner, "tiktoken", "Encoding") or _instance_of(inner, "tiktoken.core", "Encoding"):
            return TiktokenTokenizer(inner, max_tokens=limit)
        return CallableTokenizer(spec.count_tokens, max_tokens=limit, name=type(spec).__name__)
    if isinstance(spec, type):  # callable, but calling it makes an object, not a count
        raise TokenizerError(
            f"the tokenizer is the class {spec.__name__}, not a tokenizer; pass an instance, "
            f"e.g. {spec.__name__}(...), or one of the accepted forms: {ACCEPTED_SPECS}"
        )
    if callable(spec):
        return CallableTokenizer(spec, max_tokens=max_tokens)
    raise TokenizerError(f"unknown tokenizer spec {spec!r}; accepted forms: {ACCEPTED_SPECS}")


def _from_string(spec: str, max_tokens: int | None) -> Tokenizer:
    form = spec_form(spec)
    if form is None:
        raise TokenizerError(f"unknown tokenizer spec {spec!r}{did_you_mean(spec)}; accepted forms: {ACCEPTED_SPECS}")
    kind, ref = form
    if kind == "character":
        return CharacterTokenizer()
    if kind == "word":
        return WordTokenizer()
    if kind == "hf":
        return HFTokenizer.from_spec(ref, max_tokens)
    return TiktokenTokenizer.from_spec(ref, max_tokens)


def _from_transformers(tok: Any, max_tokens: int | None) -> Tokenizer:
    """Use the fast tokenizer's Rust backend when there is one; else ``tokenize()``.

    Without ``max_tokens`` the limit is the model's (:func:`~docchunk.tokenizers.hf.transformers_limit`).
    """
    name = f"hf:{getattr(tok, 'name_or_path', '') or type(tok).__name__}"
    if max_tokens is None:
        max_tokens = transformers_limit(tok)
    backend = getattr(tok, "backend_tokenizer", None)
    if backend is not None:
        return HFTokenizer(backend, max_tokens=max_tokens, name=name)
    return CallableTokenizer(lambda text: len(tok.tokenize(text)), max_tokens=max_tokens, name=name)
