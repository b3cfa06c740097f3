r"""cl100k token counts and offsets from a text's space-separated pieces, each distinct piece encoded once.

tiktoken spends most of its time in its pre-tokenizer, a backtracking regex (cl100k's
pattern), which it runs over every character it is given. A text is split by spaces
instead, with ``str.split(" ")``: ``p0 " " p1 " " p2 ...``. Where the character before
a space is not whitespace, cl100k's pattern always ends a pre-token there (a letter run,
a digit run, a punctuation run and a contraction never take a space after them; a
whitespace match never starts before non-whitespace), and a pre-token never starts
before it and ends after it. So the text's tokens are those of ``p0``, then of
``" " + p1``, and so on, each encoded alone: a piece's end is a cut whose left side is
not whitespace (or the end of the text), so its last pre-token cannot look past it, and
its whitespace runs are followed by the same non-whitespace as in the text.

A piece that is empty (two spaces in a row) or ends with whitespace (``"\n "``) has a
cut after it that is not clean: it is joined with the pieces after it up to one that
ends with non-whitespace (or the last), and that run is encoded whole.

Every distinct piece is encoded once, the new pieces of a call together in one
``encode`` of the pieces joined by spaces (each junction is again non-whitespace before a
space). Prose repeats its words, so most of a text's pieces are dictionary look-ups.

Applies only to encodings whose pre-tokenizer pattern is one of :data:`CL100K_PATTERNS`
(cl100k, as tiktoken writes it now and as it did before 0.8);
``tests/tokenizers/test_space_pieces.py`` checks the counts and offsets against
``encode_ordinary`` with Hypothesis.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from contextlib import suppress
from itertools import accumulate
from operator import add, itemgetter
from typing import Any

from docchunk.tokenizers.base import TokenPositions

__all__ = ["CL100K_PATTERNS", "MIN_CHARS", "MIN_POSITION_CHARS", "SpacePieces"]

CL100K_PATTERNS = frozenset({
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s""",
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"""
    r"""|\s*[\r\n]+|\s+(?!\S)|\s+""",
})  # fmt: skip
"""cl100k's pre-tokenizer, as tiktoken 0.8 and later write it and as earlier versions did."""

MIN_CHARS = 48
"""Texts shorter than this are counted by one encode: splitting them costs about as much."""

MIN_POSITION_CHARS = 256
"""Texts shorter than this get their offsets from one encode (:meth:`SpacePieces.positions` has more set-up)."""

_BAD = -(1 << 40)
"""The count kept for a piece whose cut after it is not clean (empty or ending with whitespace)."""

_LIMIT = 200_000
"""Pieces kept at most; past it the cache starts empty again."""

_NUMPY_PIECES = 20_000
"""Texts of more pieces than this find their piece offsets with numpy (its set-up costs more for fewer)."""

_WHITESPACE_CODES = [c for c in range(0x3001) if chr(c).isspace()]
"""The code points of ``str.isspace()`` characters (none is above U+3000)."""


class SpacePieces:
    """Exact cl100k counts and token offsets of texts, by space-separated pieces (see the module docstring).

    Args:
        encoding: A ``tiktoken.Encoding`` whose pattern is one of :data:`CL100K_PATTERNS`.
        char_arrays: Returns the per-token numpy tables of
            :meth:`~docchunk.tokenizers.TiktokenTokenizer.token_positions`: the characters
            each token starts, and 1 when it starts inside a character.
        np: The numpy module.
    """

    def __init__(self, encoding: Any, char_arrays: Callable[[], tuple[Any, Any]], np: Any):
        self._enc = encoding
        self._char_arrays = char_arrays
        self._np = np
        self._spaced: dict[str, int] = {}  # piece -> count of " " + piece, or _BAD
        self._first: dict[str, int] = {}  # piece -> count of the piece alone (a text's first piece)
        self._runs: dict[str, int] = {}  # joined runs of pieces -> count

    @staticmethod
    def applies_to(encoding: Any) -> bool:
        """Whether ``encoding``'s pre-tokenizer is cl100k's (a ``tiktoken.Encoding``)."""
        return getattr(encoding, "_pat_str", None) in CL100K_PATTERNS

    # -- counts --------------------------------------------------------------------------
    def counts(self, texts: Sequence[str]) -> list[int]:
        """The exact count of each text (``len(encoding.encode_ordinary(text))``), in order.

        Texts whose pieces are all known are summed first; the others after their new
        pieces are encoded, all in one call.
        """
        split = [t.split(" ") for t in texts]
        out = [self._total(text, pieces, learnt=False) for text, pieces in zip(texts, split, strict=True)]
        todo = [k for k, n in enumerate(out) if n is None]
        if todo:
            self._learn([split[k] for k in todo])
            for k in todo:
                out[k] = self._total(texts[k], split[k], learnt=True)
        return out  # type: ignore[return-value]

    def _total(self, text: str, pieces: list[str], learnt: bool) -> int | None:
        """The count of ``text`` split into ``pieces``; None when a piece is new and not ``learnt``."""
        if len(pieces) == 1:  # no space: encoded whole, once per distinct text
            return self._run(text)
        spaced = self._spaced
        head, last = pieces[0], pieces[-1]
        try:  # itemgetter: the look-ups in one C loop
            total = sum(itemgetter(*pieces)(spaced)) - spaced[head]
            total += self._first.get(head, _BAD) if learnt else self._first[head]
        except KeyError:
            return None
        if spaced[last] == _BAD and last:  # the last piece ends the text: its end is clean
            total += self._run(" " + last) - _BAD
        return total if total >= 0 else sum(self._table(pieces)[1])

    def _learn(self, split: list[list[str]]) -> None:
        """Count every piece not seen before: the pieces after a space in one encode, first pieces alone."""
        if max(len(self._spaced), len(self._first), len(self._runs)) > _LIMIT:
            self._spaced, self._first, self._runs = {}, {}, {}
        spaced = self._spaced
        seen: set[str] = set()
        for pieces in split:
            seen.update(pieces)
        new = seen.difference(spaced)  # iterates the small set, not the cache (difference_update would)
        if new:
            good = [p for p in new if p and not p[-1].isspace()]
            if len(good) < len(new):
                spaced.update((p, _BAD) for p in new if not p or p[-1].isspace())
            if good:
                spaced.update(zip(good, self._joined_counts(good), strict=True))
        for pieces in split:
            if len(pieces) > 1:
                self._learn_head(pieces[0])

    def _learn_head(self, head: str) -> None:
        """Count ``head`` alone as the first piece of a text, unless known or its cut after it is not clean."""
        if head not in self._first and head and not head[-1].isspace():
            self._first[head] = len(self._enc.encode_ordinary(head))

    def _joined_counts(self, good: list[str]) -> list[int]:
        """The count of ``" " + p`` for each piece, from one encode of them all joined by spaces."""
        np = self._np
        joined = " " + " ".join(good)
        try:
            tokens = self._enc.encode_to_numpy(joined, disallowed_special=())
        except UnicodeEncodeError:  # lone surrogates: encode_ordinary repairs them, piece by piece
            encode = self._enc.encode_ordinary
            return [len(encode(" " + p)) for p in good]
        chars, inside = self._char_arrays()
        per_token = chars[tokens]
        offsets = per_token.cumsum() - per_token
        if not joined.isascii():
            offsets -= inside[tokens]
        ends = np.fromiter(map(len, good), dtype=np.int64, count=len(good))
        ends += 1
        found = offsets.searchsorted(ends.cumsum())  # tokens starting before each piece's end
        return np.diff(found, prepend=0).tolist()

    def _run(self, text: str) -> int:
        """The count of a text encoded whole (a run of pieces joined, or a text without spaces), once per text."""
        n = self._runs.get(text)
        if n is None:
            n = self._runs[text] = len(self._enc.encode_ordinary(text))
        return n

    def _table(self, pieces: list[str], text: str | None = None) -> tuple[list[int], list[int], dict[int, int]]:
        """The segments of ``text`` split into ``pieces``: ``(starts, counts, runs)``, one entry per piece.

        A run of pieces ``i..j-1`` whose cut after them is not clean is one segment with
        piece ``j`` after it (``runs[j] == i``): piece ``j`` holds the run's count and the
        run's start, pieces ``i..j-1`` count 0 tokens and start there too. So ``starts``
        (offsets in the text; empty when ``text`` is None) never decreases and ``counts``
        are the exact counts of the segments.
        """
        last = len(pieces) - 1
        look_up = itemgetter(*pieces) if last else lambda spaced: (spaced[pieces[0]],)
        try:
            counts = list(look_up(self._spaced))
        except KeyError:  # new pieces: encoded first
            self._learn([pieces])
            counts = list(look_up(self._spaced))
        if last:
            self._learn_head(pieces[0])
        counts[0] = self._first.get(pieces[0], _BAD)
        if counts[last] == _BAD:  # the last piece ends the text, so its end is clean
            counts[last] = self._run(pieces[last] if last == 0 else " " + pieces[last])
        starts: list[int] = []
        if text is not None and last < _NUMPY_PIECES:  # piece k > 0 starts at its space: after the pieces
            starts = list(map(add, accumulate(map(len, pieces[:-1]), initial=0), range(-1, last)))  # and k - 1 spaces
            starts[0] = 0
            text = None
        if text is not None:  # piece k > 0 starts at the k-th space; piece k's cut is unclean where
            # whitespace (or the text's start) comes before that space, as the pieces' _BAD says
            np = self._np
            codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
            spaces = np.flatnonzero(codes == 32)
            before = codes[spaces - 1]
            before[spaces == 0] = 32
            marks = np.flatnonzero(np.isin(before, _WHITESPACE_CODES)).tolist()
            spaces = spaces.tolist()
            starts = [0, *spaces]
        elif min(counts) >= 0:
            return starts, counts, {}
        else:
            marks = []
            with suppress(ValueError):
                while True:  # a C-level scan
                    marks.append(counts.index(_BAD, marks[-1] + 1 if marks else 0))
        runs: dict[int, int] = {}
        k = 0
        while k < len(marks):  # each run of pieces with unclean cuts after them
            i = j = marks[k]
            while k < len(marks) and marks[k] == j:
                counts[j] = 0
                k += 1
                j += 1
            runs[j] = i
            counts[j] = self._run(self.segment(pieces, i, j))
            if starts:
                starts[i + 1 : j + 1] = [starts[i]] * (j - i)
        return starts, counts, runs

    @staticmethod
    def segment(pieces: list[str], i: int, j: int) -> str:
        """Pieces ``i`` to ``j`` joined as in the text, with the space before them (none before the first)."""
        run = pieces[j] if i == j else " ".join(pieces[i : j + 1])
        return run if i == 0 else " " + run

    # -- offsets -------------------------------------------------------------------------
    def positions(self, text: str) -> TokenPositions:
        """The token offsets of ``text``, as :meth:`TiktokenTokenizer.token_positions` gives them."""
        pieces = text.split(" ")
        self._learn([pieces])
        return _PiecePositions(self, pieces, *self._table(pieces, text))

    def inner(self, text: str) -> tuple[list[int], list[int]]:
        """Token offsets in ``text`` encoded alone, and for each token 1 when it starts inside a character.

        A token that starts inside a character gets the character's offset.
        """
        chars, inside = self._char_arrays()
        offsets: list[int] = []
        flags: list[int] = []
        at = 0
        for token in self._enc.encode_ordinary(text):
            shift = int(inside[token])
            offsets.append(max(0, at - shift))
            flags.append(shift)
            at += int(chars[token])
        return offsets, flags


class _PiecePositions(TokenPositions):
    """Token offsets of a text from its segments' counts (:meth:`SpacePieces._table`); inside a segment, when asked."""

    def __init__(self, owner: SpacePieces, pieces: list[str], starts: list[int], counts: list[int],
                 runs: dict[int, int]):  # fmt: skip
        self._owner, self._pieces, self._runs = owner, pieces, runs
        self._starts = starts
        self._cum = list(accumulate(counts))  # tokens up to and including each segment
        self.n = self._cum[-1]
        self._inner: dict[int, tuple[list[int], list[int]]] = {}

    def _segment(self, m: int) -> tuple[list[int], list[int]]:
        """:meth:`SpacePieces.inner` of segment ``m``."""
        found = self._inner.get(m)
        if found is None:
            text = SpacePieces.segment(self._pieces, self._runs.get(m, m), m)
            found = self._inner[m] = self._owner.inner(text)
        return found

    def _locate(self, k: int) -> tuple[int, int]:
        """The segment holding token ``k`` and the token's index inside it."""
        m = bisect_right(self._cum, k)
        return m, k - (self._cum[m - 1] if m else 0)

    def at(self, k: int) -> int:
        m, r = self._locate(k)
        start = self._starts[m]
        return start if r == 0 else start + self._segment(m)[0][r]

    def before(self, offset: int) -> int:
        """The number of tokens whose offset is below ``offset``."""
        m = bisect_right(self._starts, offset) - 1
        if m < 0:
            return 0
        done = self._cum[m - 1] if m else 0
        start = self._starts[m]
        return done if offset == start else done + bisect_left(self._segment(m)[0], offset - start)

    def between(self, a: int, b: int) -> int | None:
        """``b - a`` when neither token starts inside a character; else None."""
        for k in (a, b):
            if k < self.n:
                m, r = self._locate(k)
                if r and self._segment(m)[1][r]:
                    return None
        return min(b, self.n) - a
