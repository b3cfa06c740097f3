"""The tokenizer contract shared by every chunker: count the tokens of a string."""

from __future__ import annotations

import operator
import re
import reprlib
from abc import ABC, abstractmethod
from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence

from docchunk.errors import TokenizerError

__all__ = ["CallableTokenizer", "CharacterTokenizer", "TokenPositions", "Tokenizer", "WordTokenizer"]

# CJK ideographs (with the extension blocks and compatibility ideographs), hiragana, katakana
# (with the half-width forms) and hangul syllables: each is a word of its own, as in Unicode
# word segmentation (UAX #29), which puts a word boundary around every ideograph
_CJK = (
    "\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
    "\uac00-\ud7af\uff66-\uff9f\U00020000-\U0003134f"
)
# CJK punctuation and full-width forms: they stay with the character before them, as "word,"
# stays one word in Western text
_CJK_PUNCT = "\u3001-\u303f\uff01-\uff65"
_WORD = re.compile(rf"[{_CJK}][{_CJK_PUNCT}]*|[^\s{_CJK}]+")
_IS_CJK = re.compile(rf"[{_CJK}]")
_IS_CJK_PUNCT = re.compile(rf"[{_CJK_PUNCT}]")


def not_text_error(name: str, texts: Iterable[object]) -> TokenizerError | None:
    """A clear :class:`TokenizerError` when an item of ``texts`` is not a ``str``, else None."""
    for index, text in enumerate(texts):
        if not isinstance(text, str):
            hint = ": decode it first, e.g. text.decode('utf-8')" if isinstance(text, (bytes, bytearray)) else ""
            return TokenizerError(
                f"the tokenizer {name!r} counts str texts; text {index} is {type(text).__name__} "
                f"({reprlib.repr(text)}){hint}"
            )
    return None


class TokenPositions:
    """The character offsets of the tokens of one text (:meth:`Tokenizer.token_positions`).

    Args:
        offsets: :meth:`Tokenizer.token_offsets` of the text.
    """

    def __init__(self, offsets: Sequence[int]):
        self._offsets = offsets
        self.n = len(offsets)
        """The number of tokens."""

    def at(self, k: int) -> int:
        """The character offset of token ``k`` (``0 <= k < n``)."""
        return self._offsets[k]

    def between(self, a: int, b: int) -> int | None:
        """The number of tokens whose offsets lie from ``at(a)`` to before ``at(b)`` (to the end when ``b >= n``).

        None when it cannot say without tokenizing; the caller then counts the span.
        """
        offsets = self._offsets
        end = self.n if b >= self.n else bisect_left(offsets, offsets[b])
        return end - bisect_left(offsets, offsets[a])

    def before(self, offset: int) -> int:
        """The number of tokens whose offset is below ``offset`` (a ``str`` index into the text).

        For ``offset`` a clean boundary of the text (:meth:`Tokenizer.clean_boundary`) and a
        tokenizer whose offsets count spans (:attr:`Tokenizer.positions_count_spans`),
        ``before(e) - before(s)`` is the count of ``text[s:e]``.
        """
        return bisect_left(self._offsets, offset)


class Tokenizer(ABC):
    """Counts tokens of text; the unit of every token-based size in docchunk.

    Attributes:
        name: A short, human-readable name such as ``"character"`` or
            ``"hf:sentence-transformers/all-MiniLM-L6-v2"``.
        max_tokens: The model's input limit in tokens, or None when unknown.
        max_token_chars: Length in characters (bytes for byte-level BPE) of the
            longest token of the vocabulary, or None when unknown. Used only to
            skip counting text that is obviously too long.
    """

    name: str = "tokenizer"
    max_tokens: int | None = None
    max_token_chars: int | None = None

    @abstractmethod
    def count_tokens(self, text: str) -> int:
        """Return the number of tokens of ``text`` (no special tokens added)."""

    def count_tokens_batch(self, texts: Sequence[str]) -> list[int]:
        """Return ``[count_tokens(t) for t in texts]``; backends may batch natively."""
        return [self.count_tokens(t) for t in texts]

    def token_offsets(self, text: str) -> list[int]:
        """Start offset (a ``str`` index into ``text``) of each token, non-decreasing.

        Raises:
            TokenizerError: This tokenizer cannot say where its tokens are (callables).
        """
        raise TokenizerError(
            f"the tokenizer {self.name!r} cannot give token offsets, which this chunker needs; "
            'use "character", "word", an "hf:..." or a "tiktoken:..." tokenizer'
        )

    @property
    def gives_offsets(self) -> bool:
        """Whether :meth:`token_offsets` says where the tokens are (False for a callable ``str -> int``).

        A chunker that cuts at token starts (a word longer than the budget, in
        :class:`~docchunk.SentenceChunker` and the default ``HybridChunker``) cuts at
        characters instead when this is False. True when the class implements
        :meth:`token_offsets`.
        """
        return type(self).token_offsets is not Tokenizer.token_offsets

    def token_positions(self, text: str) -> TokenPositions:
        """The offsets of :meth:`token_offsets` behind a :class:`TokenPositions`; backends may compute them lazily.

        Raises:
            TokenizerError: This tokenizer cannot say where its tokens are (callables).
        """
        return TokenPositions(self.token_offsets(text))

    offsets_count_spans: bool = False
    """Whether :meth:`token_offsets` of a text also count its spans: for ``s`` and ``e``
    that are each the text's end or a clean boundary (:meth:`clean_boundary`),
    ``count_tokens(text[s:e])`` is the number of offsets in ``[s, e)``."""

    @property
    def positions_count_spans(self) -> bool:
        """Whether :meth:`token_positions` count spans as :attr:`offsets_count_spans` says.

        Default: :attr:`offsets_count_spans`. A backend may say yes here without
        having other chunkers keep the offsets of long texts.
        """
        return self.offsets_count_spans

    def token_offsets_batch(self, texts: Sequence[str]) -> list[list[int]]:
        """Return ``[token_offsets(t) for t in texts]``; backends may batch natively."""
        wrong = not_text_error(self.name, texts)
        if wrong is not None:
            raise wrong
        return [self.token_offsets(t) for t in texts]

    def counts_and_offsets_batch(self, texts: Sequence[str], over: int) -> list[tuple[int, list[int] | None]]:
        """Each text's token count, with its :meth:`token_offsets` when it has more than ``over`` tokens.

        Returns ``(count, offsets or None)`` per text, in order; backends may batch
        natively and skip the offsets of short texts.
        """
        return [(len(offsets), offsets if len(offsets) > over else None) for offsets in self.token_offsets_batch(texts)]

    def clean_boundary(self, left: str, right: str) -> bool:
        """Whether counts add up across a ``left | right`` boundary.

        That is, ``count(a + b) == count(a) + count(b)`` whenever ``a`` ends with the
        character ``left`` and ``b`` starts with the character ``right``.

        True means no token spans that boundary and neither side's tokens depend on the
        other; chunkers then size joined pieces by arithmetic. Default: False (measure).
        """
        return False

    def joins_additively(self, delim: str) -> bool:
        """Whether ``count(a + delim + b) == count(a) + count(delim) + count(b)`` for all a, b.

        When True, chunkers compute the size of joined texts by arithmetic instead of
        tokenizing them again. The default is the safe answer, False.
        """
        return False

    def __call__(self, text: str) -> int:
        """Same as :meth:`count_tokens`."""
        return self.count_tokens(text)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r} max_tokens={self.max_tokens}>"


class CharacterTokenizer(Tokenizer):
    """One token per Python ``str`` character (Unicode code point)."""

    name = "character"
    max_token_chars = 1

    def count_tokens(self, text: str) -> int:
        """The number of tokens in ``text`` (see :class:`Tokenizer`)."""
        return len(text)

    def token_offsets(self, text: str) -> list[int]:
        """The start offset of every token of ``text``, in order (see :class:`Tokenizer`)."""
        return list(range(len(text)))

    def joins_additively(self, delim: str) -> bool:
        """See :meth:`Tokenizer.joins_additively`."""
        return True

    def clean_boundary(self, left: str, right: str) -> bool:
        """See :meth:`Tokenizer.clean_boundary`."""
        return True


class WordTokenizer(Tokenizer):
    """One token per word: a run between whitespace, or one CJK ideograph, kana or hangul syllable.

    Chinese and Japanese put no spaces between words, so counting whitespace-separated
    runs would make a whole paragraph one "word"; like Unicode word segmentation
    (UAX #29) for ideographs, each CJK character counts as one word (CJK punctuation
    such as ``，`` or ``。`` stays with the character before it, as ``"word,"`` is one
    word). Text without CJK characters counts ``len(text.split())``.

    Example:
        >>> WordTokenizer().count_tokens("Hello world. 今天很好。")
        6
    """

    name = "word"

    def count_tokens(self, text: str) -> int:
        """The number of tokens in ``text`` (see :class:`Tokenizer`)."""
        if text.isascii() or _IS_CJK.search(text) is None:
            return len(text.split())
        return sum(1 for _ in _WORD.finditer(text))

    def token_offsets(self, text: str) -> list[int]:
        """The start offset of every token of ``text``, in order (see :class:`Tokenizer`)."""
        return [m.start() for m in _WORD.finditer(text)]

    def joins_additively(self, delim: str) -> bool:
        """See :meth:`Tokenizer.joins_additively`."""
        # words never merge across whitespace, and whitespace counts zero words
        return bool(delim) and delim.isspace()

    def clean_boundary(self, left: str, right: str) -> bool:
        """See :meth:`Tokenizer.clean_boundary`."""
        # no word spans whitespace; a CJK character always starts a word of its own; after a CJK
        # character, only CJK punctuation would join its word
        return (
            left.isspace()
            or right.isspace()
            or _IS_CJK.match(right) is not None
            or (_IS_CJK.match(left) is not None and _IS_CJK_PUNCT.match(right) is None)
        )


class CallableTokenizer(Tokenizer):
    """Adapts any callable ``str -> int`` (or a docling-core tokenizer) to :class:`Tokenizer`.

    Args:
        counter: Returns the number of tokens of a string.
        max_tokens: Optional input limit of the model, in the counter's tokens.
        name: Name shown in reprs and error messages.
    """

    def __init__(self, counter: Callable[[str], int], max_tokens: int | None = None, name: str | None = None):
        self._counter = counter
        self.max_tokens = max_tokens
        self.name = str(name or getattr(counter, "__name__", type(counter).__name__))

    def count_tokens(self, text: str) -> int:
        """The number of tokens in ``text`` (see :class:`Tokenizer`)."""
        try:
            n = self._counter(text)
        except Exception as exc:
            raise TokenizerError(
                f"the tokenizer {self.name!r} failed on a text of {len(text)} characters: {exc}"
            ) from exc
        try:
            count = -1 if isinstance(n, bool) else operator.index(n)
        except TypeError:
            count = -1
        if count < 0:
            raise TokenizerError(f"the tokenizer {self.name!r} returned {n!r}; a token counter must return an int >= 0")
        return count
