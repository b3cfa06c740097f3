r"""Token offsets of whitespace-delimited words, each distinct word tokenized once.

In a WordPiece pipeline with BERT's normalizer and a pre-tokenizer that splits at
whitespace (BERT's, or ``WhitespaceSplit``: see
:meth:`docchunk.HFTokenizer.joins_additively`), no token spans a space, tab, line
break or carriage return, and the text between two of them is tokenized as it is
alone: normalization works character by character and the pre-tokenizer splits
there. A text's tokens are then its words' tokens, in order, each moved to where
its word starts. :class:`WordCache` keeps the token start offsets of every word it
has seen and asks the library (``tokenizers.Tokenizer.encode_batch``) only for new
words, in one batch; prose repeats its words, so most of a document's words are
tokenized once for the whole corpus. The counts and offsets are the library's own,
which the tests compare text by text.

An added token (``[CLS]``, ``[MASK]``, a user's) is matched before the words are
split. With an added token that is matched in the raw text, takes no whitespace along
(``lstrip``, ``rstrip``) and holds none (BERT's special tokens), a text that contains
it is left to the library whole (:meth:`WordCache.covers`). Any other added token
gets the tokenizer no word cache (:meth:`WordCache.applies_to`): a normalized one
matches text that only normalization writes (``"Áb"`` for ``"ab"``, ``"New\tYork"``
for ``"new york"``), and one that takes whitespace along makes the space a token or
moves its start.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

__all__ = ["WordCache"]

_WORDS = re.compile(r"[^ \t\n\r]+")
"""A word: a run of characters between spaces, tabs, line breaks and carriage returns (all BERT whitespace)."""


_ONE_TOKEN = (0,)
"""The offsets of a word that is one token, starting where the word does."""


class WordCache:
    """The token start offsets of words, each asked of the library once (see the module docstring).

    Args:
        tokenizer: A ``tokenizers.Tokenizer`` whose pipeline tokenizes whitespace-delimited
            words alone and whose added tokens :meth:`applies_to` accepts (the caller
            checks both), with truncation and padding off.
        limit: Words kept at most; past it the cache starts empty again.
        batches: Splits the new words into the lists encoded one call each (bounding the
            memory the encodings hold at once); None encodes them in one call.
    """

    def __init__(
        self, tokenizer: Any, limit: int = 200_000, batches: Callable[[list[str]], Iterable[list[str]]] | None = None
    ) -> None:
        self._tok = tokenizer
        self._limit = limit
        self._batches = batches if batches is not None else lambda words: [words]
        self._starts: dict[str, tuple[int, ...]] = {}
        added = sorted({t.content for t in tokenizer.get_added_tokens_decoder().values() if t.content})
        # one search for any of them (:meth:`covers` is asked of every text counted)
        self._added = re.compile("|".join(map(re.escape, added))) if added else None

    @staticmethod
    def applies_to(tokenizer: Any) -> bool:
        """Whether every added token of ``tokenizer`` is matched in the raw text alone.

        Not normalized, no ``lstrip`` or ``rstrip``, no whitespace in its content (the
        caller checks the pipeline).
        """
        return all(
            not (token.normalized or token.lstrip or token.rstrip or any(c.isspace() for c in token.content))
            for token in tokenizer.get_added_tokens_decoder().values()
        )

    def covers(self, text: str) -> bool:
        """Whether ``text`` holds no added token, so that its words may be tokenized alone."""
        return self._added is None or self._added.search(text) is None

    def _fill(self, words: list[str]) -> dict[str, tuple[int, ...]]:
        """The offsets of every word, the new ones tokenized in one batch; raises the library's TypeError."""
        starts = self._starts
        todo = [w for w in dict.fromkeys(words) if w not in starts]
        if todo:
            if len(starts) + len(todo) > self._limit:
                # a new cache, the words of this call all tokenized again (a new dict, not a
                # cleared one: another thread reading the old one still finds its words)
                starts = self._starts = {}
                todo = list(dict.fromkeys(words))
            for part in self._batches(todo):
                for word, encoding in zip(part, self._tok.encode_batch(part, add_special_tokens=False), strict=True):
                    starts[word] = tuple(start for start, _ in encoding.offsets)
        return starts

    def counts(self, texts: Sequence[str]) -> list[int]:
        """The number of tokens of each text (each must be :meth:`covers`)."""
        words = [_WORDS.findall(text) for text in texts]
        starts = self._fill([w for ws in words for w in ws])
        return [sum(map(len, map(starts.__getitem__, ws))) for ws in words]

    def counts_and_offsets(self, texts: Sequence[str], over: int) -> list[tuple[int, list[int] | None]]:
        """Each text's count, with its token start offsets when it has more than ``over`` tokens."""
        words = [_WORDS.findall(text) for text in texts]
        starts = self._fill([w for ws in words for w in ws])
        out: list[tuple[int, list[int] | None]] = []
        for text, ws in zip(texts, words, strict=True):
            of_words = [starts[w] for w in ws]
            n = sum(map(len, of_words))
            if n <= over:
                out.append((n, None))
                continue
            offsets: list[int] = []
            for at, of_word in zip([m.start() for m in _WORDS.finditer(text)], of_words, strict=True):
                if of_word == _ONE_TOKEN:  # most words
                    offsets.append(at)
                else:
                    offsets.extend([at + s for s in of_word])
            out.append((n, offsets))
        return out
