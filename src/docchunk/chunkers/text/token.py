"""Fixed windows of tokens, cut on character boundaries."""

from __future__ import annotations

from docchunk.chunkers.text.base import TextChunker, absorb_whitespace_chunks, check_size
from docchunk.errors import ConfigError
from docchunk.tokenizers import Tokenizer, TokenizerSpec
from docchunk.types import Chunk
from docchunk.types.chunk import make_chunks

__all__ = ["TokenChunker", "character_windows", "token_windows"]

_REACH = 16  # tokens from an unclean window end or start to look for a clean one (see token_windows)


def token_windows(
    text: str, tokenizer: Tokenizer, chunk_size: int, chunk_overlap: int = 0, base: int = 0
) -> list[Chunk]:
    """Windows of at most ``chunk_size`` tokens over ``text``, overlapping by ``chunk_overlap`` tokens.

    Boundaries are token starts, so a chunk never cuts a character (a byte-level
    token inside a multi-byte character belongs to the chunk holding the whole
    character). A window whose both ends are ends of the text or clean boundaries
    (:meth:`Tokenizer.clean_boundary`: counts add up across them) holds exactly the
    tokens that start in it, so its count comes from the one tokenization of the text;
    an unclean end (or start) is counted alone from (or up to) a clean token start at
    most 16 tokens away, the tokens between from the one tokenization; any other
    window is counted again. A window over ``chunk_size`` is shrunk until it fits. A single
    character larger than ``chunk_size`` is emitted alone, oversized. Offsets are
    shifted by ``base``.
    """
    if not text:
        return []
    positions = tokenizer.token_positions(text)
    n = positions.n
    if n == 0:
        return [Chunk(text=text, start_index=base, end_index=base + len(text),
                      token_count=tokenizer.count_tokens(text), oversized=False)]  # fmt: skip

    def char_at(index: int) -> int:
        return len(text) if index >= n else (0 if index == 0 else positions.at(index))

    clean_boundary, size = tokenizer.clean_boundary, len(text)
    pairs: dict[tuple[str, str], bool] = {}  # clean_boundary by the two characters, memoized

    def clean(position: int) -> bool:
        if position in (0, size):
            return True
        pair = (text[position - 1], text[position])
        flag = pairs.get(pair)
        if flag is None:
            flag = pairs[pair] = bool(clean_boundary(*pair))
        return flag

    def clean_token(first: int, stop: int, step: int) -> int | None:
        """The first token index from ``first`` towards ``stop`` (excluded) that starts at a clean position."""
        for k in range(first, stop, step):
            if clean(char_at(k)):
                return k
        return None

    def counted(a: int, b: int) -> int:
        """Tokens of the window from token ``a`` to before token ``b``.

        Counts add up across clean positions, and between two clean token starts the
        text's one tokenization holds exactly the tokens of that span alone. So the
        window is: the characters up to the first clean token start (at most 16 tokens
        in, counted alone), the tokens from there to the last clean token start (at
        most 16 tokens before the end; from the offsets), and the rest (counted alone).
        """
        start, end = char_at(a), char_at(b)
        first = a if clean(start) else clean_token(a + 1, min(b, a + _REACH), 1)
        if first is not None:
            last = b if clean(end) else clean_token(b - 1, max(first, b - _REACH) - 1, -1)
            if last is not None:
                known = positions.between(first, last)
                if known is not None:
                    head = tokenizer.count_tokens(text[start : char_at(first)]) if first > a else 0
                    tail = tokenizer.count_tokens(text[char_at(last) : end]) if last < b else 0
                    return head + known + tail
        return tokenizer.count_tokens(text[start:end])

    out: list[Chunk] = []
    spans: list[tuple[int, int, int, bool]] = []  # windows not yet made chunks (made in one batch)
    a, done, end = 0, 0, 0  # next window's first token; tokens and characters already covered
    while True:
        start = char_at(a)
        floor = max(start, end)
        b = min(a + chunk_size, n)
        while b < n and char_at(b) <= floor:  # never empty, always past the previous chunk
            b += 1
        count = counted(a, b)
        while count > chunk_size and b - 1 > a and char_at(b - 1) > floor:
            b -= 1
            count = counted(a, b)
        if count > chunk_size and a < done:  # the overlap leaves no room: take less of it
            a += 1
            continue
        end = char_at(b)
        if count > chunk_size and end - start > 1:  # no token start inside fits: cut by characters
            out += _shifted(text, spans, base)
            spans = []
            out.extend(_fit_characters(text, start, end, tokenizer, chunk_size, base))
        else:
            spans.append((start, end, count, count > chunk_size))
        if b >= n:
            return out + _shifted(text, spans, base)
        done = b
        a = max(b - chunk_overlap, a + 1)
        while a < b and char_at(a) <= start:
            a += 1


def _shifted(text: str, spans: list[tuple[int, int, int, bool]], base: int) -> list[Chunk]:
    """The chunks of ``spans`` of ``text``, their offsets shifted by ``base``."""
    chunks = make_chunks(text, spans)
    if base:
        for c in chunks:
            c.start_index += base
            c.end_index += base
    return chunks


def _fit_characters(text: str, start: int, stop: int, tokenizer: Tokenizer, chunk_size: int, base: int) -> list[Chunk]:
    """Chunks of ``text[start:stop]``, cut greedily by characters.

    The span is a few characters that tokenize together, e.g. one WordPiece word or a
    byte-level token spanning characters. Each chunk is the longest prefix within
    ``chunk_size``, or one character, then oversized.
    """
    out: list[Chunk] = []
    while start < stop:
        end = stop
        count = tokenizer.count_tokens(text[start:end])
        while count > chunk_size and end - start > 1:
            end -= 1
            count = tokenizer.count_tokens(text[start:end])
        out.append(Chunk(text=text[start:end], start_index=base + start, end_index=base + end,
                         token_count=count, oversized=count > chunk_size))  # fmt: skip
        start = end
    return out


def character_windows(text: str, tokenizer: Tokenizer, chunk_size: int, base: int = 0) -> list[Chunk]:
    r"""Windows of whole characters of at most ``chunk_size`` tokens, for a tokenizer without token offsets.

    What :func:`token_windows` does for a tokenizer that cannot say where its tokens are
    (a callable ``str -> int``, :attr:`~docchunk.tokenizers.Tokenizer.gives_offsets`
    False): each window is the longest run of characters from where the one before
    ends whose count fits, found by bisection over its end (a count that does not grow
    with the text may make a window shorter than it could be, never over the budget). A
    window never ends between ``"\r"`` and ``"\n"``; a single character (or CRLF) larger
    than ``chunk_size`` is a window of its own, oversized. The windows tile ``text``;
    offsets are shifted by ``base``; ``token_count`` is each window's exact count.
    """
    ends = [e for e in range(1, len(text) + 1) if not (e < len(text) and text[e - 1 : e + 1] == "\r\n")]
    out: list[Chunk] = []
    first = 0  # index into ends of the shortest window from start
    start = 0
    while first < len(ends):
        count = tokenizer.count_tokens(text[start : ends[first]])
        lo, hi = first, len(ends) - 1  # ends[lo] fits (``count``; or is the one-character window), ends[hi + 1:] do not
        while lo < hi and count <= chunk_size:
            mid = (lo + hi + 1) // 2
            n = tokenizer.count_tokens(text[start : ends[mid]])
            if n <= chunk_size:
                lo, count = mid, n
            else:
                hi = mid - 1
        end = ends[lo]
        out.append(Chunk(text=text[start:end], start_index=base + start, end_index=base + end,
                         token_count=count, oversized=count > chunk_size))  # fmt: skip
        start, first = end, lo + 1
    return out


class TokenChunker(TextChunker):
    """Fixed windows of ``chunk_size`` tokens, ``chunk_overlap`` tokens shared by neighbours.

    Args:
        tokenizer: Any spec :func:`docchunk.get_tokenizer` accepts that can give token
            offsets (``"character"``, ``"word"``, ``"hf:..."``, ``"tiktoken:..."``, or
            such tokenizer objects); callables cannot.
        chunk_size: Tokens per chunk; >= 1.
        chunk_overlap: Tokens shared by consecutive chunks; 0 <= overlap < chunk_size.

    Invariants of ``chunk(text)``: ``text[c.start_index:c.end_index] == c.text``;
    ``c.token_count == count_tokens(c.text) <= chunk_size`` unless one character
    alone is larger (``oversized``); boundaries fall on character boundaries; no
    chunk is empty; without overlap the chunks tile the text.

    Raises:
        ConfigError: Invalid sizes or ``chunk_overlap >= chunk_size``.
        TokenizerError: The tokenizer cannot give token offsets.

    Example:
        >>> [c.text for c in TokenChunker("character", chunk_size=4)("abcdefghij")]
        ['abcd', 'efgh', 'ij']
    """

    def __init__(self, tokenizer: TokenizerSpec = "character", chunk_size: int = 512, chunk_overlap: int = 0):
        super().__init__(tokenizer)
        self.chunk_size = check_size("chunk_size", chunk_size, 1)
        self.chunk_overlap = check_size("chunk_overlap", chunk_overlap, 0)
        if chunk_overlap >= chunk_size:
            raise ConfigError(f"chunk_overlap ({chunk_overlap!r}) must be smaller than chunk_size ({chunk_size!r})")
        self.tokenizer.token_offsets("")  # fail at construction when offsets are unsupported

    def with_budget(self, tokenizer: TokenizerSpec, chunk_size: int) -> TokenChunker:
        """A copy with another tokenizer and ``chunk_size`` (the overlap capped below it)."""
        return TokenChunker(tokenizer, chunk_size, min(self.chunk_overlap, chunk_size - 1))

    def chunk(self, text: str) -> list[Chunk]:
        """Split ``text`` into token windows (see the class invariants)."""
        text = self._check_text(text)
        chunks = token_windows(text, self.tokenizer, self.chunk_size, self.chunk_overlap)
        return absorb_whitespace_chunks(text, chunks, self.tokenizer, self.chunk_size)
