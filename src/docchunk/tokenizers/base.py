"""The tokenizer contract shared by every chunker: count the tokens of a string."""

from __future__ import annotations

import operator
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence

from docchunk.errors import TokenizerError

__all__ = ["CallableTokenizer", "CharacterTokenizer", "Tokenizer", "WordTokenizer"]

_WORD = re.compile(r"\S+")


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
    """One token per whitespace-separated word (``len(text.split())``)."""

    name = "word"

    def count_tokens(self, text: str) -> int:
        """The number of tokens in ``text`` (see :class:`Tokenizer`)."""
        return len(text.split())

    def token_offsets(self, text: str) -> list[int]:
        """The start offset of every token of ``text``, in order (see :class:`Tokenizer`)."""
        return [m.start() for m in _WORD.finditer(text)]

    def joins_additively(self, delim: str) -> bool:
        """See :meth:`Tokenizer.joins_additively`."""
        # words never merge across whitespace, and whitespace counts zero words
        return bool(delim) and delim.isspace()

    def clean_boundary(self, left: str, right: str) -> bool:
        """See :meth:`Tokenizer.clean_boundary`."""
        return left.isspace() or right.isspace()


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
