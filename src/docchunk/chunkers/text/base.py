"""Base of the text chunkers: validation, batching and the shared size check."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from typing import Any

from docchunk.errors import ConfigError
from docchunk.tokenizers import Tokenizer, get_tokenizer
from docchunk.types import Chunk

__all__ = ["TextChunker", "absorb_whitespace_chunks", "check_size"]


def check_size(name: str, value: Any, minimum: int) -> int:
    """Validate an integer size parameter.

    Raises:
        ConfigError: ``value`` is not an int >= ``minimum``.
    """
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ConfigError(f"{name} must be an int >= {minimum}, got {value!r}")
    return value


def absorb_whitespace_chunks(text: str, chunks: list[Chunk], tokenizer: Tokenizer, limit: int) -> list[Chunk]:
    """Join each whitespace-only chunk to its previous (else next) neighbour when the result fits.

    A whitespace-only chunk stays only when the text is whitespace or when joining it
    to either neighbour would exceed ``limit``. Chunks must be in order and touch or
    overlap their neighbours, so a joined span is still a slice of ``text``.
    """
    if len(chunks) < 2 or not any(c.text.isspace() for c in chunks):
        return chunks
    todo = list(chunks)
    out: list[Chunk] = []
    for i, chunk in enumerate(todo):
        if chunk.text.isspace():
            joined = _join(text, out[-1], chunk, tokenizer, limit) if out else None
            if joined is not None:
                out[-1] = joined
                continue
            joined = _join(text, chunk, todo[i + 1], tokenizer, limit) if i + 1 < len(todo) else None
            if joined is not None:
                todo[i + 1] = joined
                continue
        out.append(chunk)
    return out


def _join(text: str, a: Chunk, b: Chunk, tokenizer: Tokenizer, limit: int) -> Chunk | None:
    assert a.start_index is not None and a.end_index is not None and b.end_index is not None  # slices
    s, e = a.start_index, max(a.end_index, b.end_index)
    n = tokenizer.count_tokens(text[s:e])
    if n > limit:
        return None
    return Chunk(text=text[s:e], start_index=s, end_index=e, token_count=n, context=None,
                                 oversized=False)  # fmt: skip


class TextChunker(ABC):
    """A chunker of plain text: callable, with ``chunk(text)`` and ``chunk_batch(texts)``.

    Every chunk it returns satisfies ``text[start_index:end_index] == chunk.text``
    (unless its offsets are None, for chunks whose separators were removed).
    """

    tokenizer: Tokenizer

    def __init__(self, tokenizer: Any = "character"):
        self.tokenizer = get_tokenizer(tokenizer)

    @abstractmethod
    def chunk(self, text: str) -> list[Chunk]:
        """Split ``text`` into chunks, in order."""

    def chunk_batch(self, texts: Iterable[str]) -> list[list[Chunk]]:
        """``[self.chunk(t) for t in texts]``."""
        return [self.chunk(t) for t in texts]

    def __call__(self, text: str | Iterable[str]) -> Any:
        """Chunk one text (``list[Chunk]``) or, given an iterable of texts, each of them."""
        if isinstance(text, str):
            return self.chunk(text)
        if isinstance(text, (list, tuple, Iterator)):
            return self.chunk_batch(text)
        self._check_text(text)  # raises with what was passed and what to do
        raise AssertionError("unreachable")  # pragma: no cover

    def with_budget(self, tokenizer: Any, chunk_size: int) -> TextChunker:
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
            else:
                hint = " (or a list of str for several texts)"
            raise ConfigError(f"text must be a str, got {type(text).__name__}{hint}")
        return text

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if not k.startswith("_") and k != "tokenizer")
        return f"{type(self).__name__}({fields}, tokenizer={self.tokenizer.name!r})"
