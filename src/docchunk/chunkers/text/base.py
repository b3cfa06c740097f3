"""Base of the text chunkers: validation, batching and the shared size check."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from typing import Any

from docchunk.errors import ConfigError, ConfigTypeError
from docchunk.tokenizers import Tokenizer, TokenizerSpec, get_tokenizer
from docchunk.types import Chunk
from docchunk.types.config import StrictConfig, check_size

__all__ = ["TextChunker", "absorb_whitespace_chunks", "check_size", "cut_in_two"]


def absorb_whitespace_chunks(
    text: str, chunks: list[Chunk], tokenizer: Tokenizer, limit: int, recut: bool = False
) -> list[Chunk]:
    """Join each whitespace-only chunk to a neighbour, so that no chunk is only whitespace.

    The whitespace goes to the previous chunk when the result fits ``limit``, else to
    the next one when that fits. Else, with ``recut``, the span of the previous chunk
    and the whitespace is cut in two again at the latest token start where both parts
    fit and hold more than whitespace (:func:`cut_in_two`), or failing that the span of
    the whitespace and the next chunk at the earliest such token start. Else the
    whitespace goes to the previous chunk (the next for the first chunk) anyway: the
    joined chunk is then over the limit by whitespace alone, and flagged ``oversized``.
    ``token_count`` is the exact count of each chunk's own text. A text that is only
    whitespace stays one chunk. Chunks must be in order and touch or overlap their
    neighbours, so a joined span is still a slice of ``text``.

    Args:
        text: The text the chunks are slices of.
        chunks: The chunks, in order.
        tokenizer: Counts the tokens of the joined chunks; with ``recut``, a chunk is cut
            again at its token starts (:meth:`~docchunk.tokenizers.Tokenizer.token_offsets`),
            or at its characters for a tokenizer without offsets.
        limit: The budget in tokens of ``tokenizer``.
        recut: Whether to cut a neighbour again rather than put it over ``limit``.
    """
    if len(chunks) < 2 or not any(c.text.isspace() for c in chunks):
        return chunks
    todo = list(chunks)
    out: list[Chunk] = []
    for i, chunk in enumerate(todo):
        if not chunk.text.isspace():
            out.append(chunk)
            continue
        before = _join(text, out[-1], chunk, tokenizer) if out else None
        if before is not None and before.token_count <= limit:
            out[-1] = before
            continue
        after = _join(text, chunk, todo[i + 1], tokenizer) if i + 1 < len(todo) else None
        if recut and (after is None or after.token_count > limit):
            if before is not None and (parts := cut_in_two(before, tokenizer, limit, latest=True)):
                out[-1:] = parts
                continue
            if after is not None and (parts := cut_in_two(after, tokenizer, limit, latest=False)):
                out.append(parts[0])
                todo[i + 1] = parts[1]
                continue
        if after is not None and (after.token_count <= limit or before is None):
            todo[i + 1] = after.model_copy(update={"oversized": after.token_count > limit})
        elif before is not None:
            out[-1] = before.model_copy(update={"oversized": before.token_count > limit})
        else:
            out.append(chunk)
    return out


def cut_in_two(chunk: Chunk, tokenizer: Tokenizer, limit: int, latest: bool) -> list[Chunk] | None:
    """``chunk`` cut at one of its token starts into two chunks that fit ``limit``, neither only whitespace.

    Args:
        chunk: The chunk to cut.
        tokenizer: Counts the parts; gives the token starts of the chunk's own text (a
            tokenizer without offsets, a callable ``str -> int``: every character start is tried).
        limit: The budget in tokens of ``tokenizer``.
        latest: Try the token starts from the last one back (True) or from the first on.

    Returns:
        The two chunks (exact offsets and counts, tiling ``chunk``) at the first token
        start tried where both fit, or None where none does.
    """
    s, body = chunk.start_index, chunk.text
    cuts = sorted({p for p in _cut_points(tokenizer, body) if body[:p].strip() and body[p:].strip()}, reverse=latest)
    for p in cuts:
        head, tail = tokenizer.count_tokens(body[:p]), tokenizer.count_tokens(body[p:])
        if head <= limit and tail <= limit:
            return [Chunk(text=body[:p], start_index=s, end_index=s + p, token_count=head, oversized=False),
                    Chunk(text=body[p:], start_index=s + p, end_index=chunk.end_index, token_count=tail,
                          oversized=False)]  # fmt: skip
    return None


def _cut_points(tokenizer: Tokenizer, text: str) -> Iterable[int]:
    """Where ``text`` may be cut: its token starts, or its character starts (not inside a CRLF).

    The characters for a tokenizer without offsets (:attr:`~docchunk.tokenizers.Tokenizer.gives_offsets`).
    """
    if tokenizer.gives_offsets:
        return tokenizer.token_offsets(text)
    return (p for p in range(1, len(text)) if text[p - 1 : p + 1] != "\r\n")


def _join(text: str, a: Chunk, b: Chunk, tokenizer: Tokenizer) -> Chunk:
    s, e = a.start_index, max(a.end_index, b.end_index)
    n = tokenizer.count_tokens(text[s:e])
    return Chunk(text=text[s:e], start_index=s, end_index=e, token_count=n, oversized=False)


class TextChunker(StrictConfig, ABC):
    """A chunker of plain text: ``chunker(text)`` (same as ``chunk(text)``) and ``chunk_batch(texts)``.

    Calling a chunker takes exactly one ``str`` and returns ``list[Chunk]``; the
    return type never depends on the input. Several texts go through
    :meth:`chunk_batch`, which returns one list per text.

    Every chunk it returns satisfies ``text[start_index:end_index] == chunk.text``
    (the offsets are always ints).

    Configuration is strict (:class:`docchunk.types.config.StrictConfig`): an unknown
    keyword argument raises :class:`ConfigError` naming the accepted ones, and a
    setting assigned after construction is validated as the constructor validates it.
    """

    tokenizer: Tokenizer

    def __init__(self, tokenizer: TokenizerSpec = "character"):
        self.tokenizer = get_tokenizer(tokenizer)

    @abstractmethod
    def chunk(self, text: str) -> list[Chunk]:
        """Split ``text`` into chunks, in order."""

    def chunk_batch(self, texts: Iterable[str]) -> list[list[Chunk]]:
        """Chunk each of several texts: ``[self.chunk(t) for t in texts]``.

        Args:
            texts: An iterable of ``str`` (a list, a tuple, a generator ...).

        Returns:
            One list of chunks per text, in the order of ``texts``; each as
            :meth:`chunk` returns it.

        Raises:
            ConfigError: ``texts`` is a single ``str`` (call :meth:`chunk` or the
                chunker itself for one text), or one of its items is not a ``str``.

        Example:
            >>> [[c.text for c in cs] for cs in RecursiveChunker(5).chunk_batch(["ab", "cd ef"])]  # doctest: +SKIP
            [['ab'], ['cd ef']]
        """
        if isinstance(texts, str):
            raise ConfigError(
                f"chunk_batch(texts) takes an iterable of str, got one str, {texts[:40]!r}; "
                "for one text call chunker(text) or chunker.chunk(text)"
            )
        return [self.chunk(t) for t in texts]

    def __call__(self, text: str) -> list[Chunk]:
        """Chunk one text: the same as :meth:`chunk`.

        Args:
            text: The text to split (one ``str``).

        Returns:
            The chunks of ``text``, in order (see :meth:`chunk`).

        Raises:
            ConfigError: ``text`` is not a ``str``; for several texts the message
                names :meth:`chunk_batch`, which returns one list of chunks per text.
        """
        return self.chunk(self._check_text(text))

    def with_budget(self, tokenizer: TokenizerSpec, chunk_size: int) -> TextChunker:
        """A copy of this chunker that counts with ``tokenizer`` and packs to ``chunk_size``.

        Used by :class:`docchunk.HybridChunker` to split oversized text with the
        remaining token budget. Overlap is capped below the new size.

        Raises:
            ConfigError: This chunker has no token budget to set (``WindowChunker``).
        """
        raise ConfigError(f"{type(self).__name__} cannot be used with a token budget")

    @staticmethod
    def _check_text(text: Any) -> str:
        if not isinstance(text, str):
            if isinstance(text, (bytes, bytearray)):
                hint = ": decode it first, e.g. text.decode('utf-8')"
            elif type(text).__name__ == "DoclingDocument":
                hint = (": text chunkers take strings; chunk a DoclingDocument with docchunk.HybridChunker or "
                        "HierarchicalChunker, or pass doc.export_to_markdown()")  # fmt: skip
            elif isinstance(text, (list, tuple, Iterator)):
                hint = (": a chunker takes one text; to chunk several, call chunker.chunk_batch(texts), "
                        "which returns one list of chunks per text")  # fmt: skip
            else:
                hint = ": pass one str (or call chunker.chunk_batch(texts) for several)"
            raise ConfigTypeError(f"text must be a str, got {type(text).__name__}{hint}")
        return text

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if not k.startswith("_") and k != "tokenizer")
        return f"{type(self).__name__}({fields}, tokenizer={self.tokenizer.name!r})"
