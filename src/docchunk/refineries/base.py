"""The shell every refinery shares: ``refinery(chunks)``, ``inplace``, and the source-run loop."""

from __future__ import annotations

import copy
from typing import TypeVar

from docchunk.errors import ConfigTypeError
from docchunk.refineries.runs import source_runs
from docchunk.types.chunk import ChunkLike, TextChunkLike
from docchunk.types.config import StrictConfig

__all__ = ["C", "Refinery", "SourceRunRefinery", "check_chunk_list"]

C = TypeVar("C", bound=ChunkLike)
"""The kind of chunk a refinery is given, and gives back."""


class Refinery(StrictConfig):
    """Base of docchunk's refineries: a callable that refines a list of chunks.

    A refinery takes any chunk list (text chunks from a text chunker, or document
    chunks) and adds context to the chunks; it never changes a chunk's text or offsets.
    ``refinery(chunks)`` is ``refinery.refine(chunks)``. With ``inplace`` True (the
    default) the given chunks are modified and the given list returned; with False
    the list and its chunks are deep copies and the input is left as it was.

    Settings are strict (:class:`docchunk.types.config.StrictConfig`). Subclasses implement
    :meth:`refine` and build their output list with :meth:`_working`.
    """

    inplace: bool = True

    def __call__(self, chunks: list[C]) -> list[C]:
        """Same as :meth:`refine`."""
        return self.refine(chunks)

    def refine(self, chunks: list[C]) -> list[C]:  # pragma: no cover - abstract
        """The refined chunks (see the subclass)."""
        raise NotImplementedError

    def _working(self, chunks: list[C]) -> list[C]:
        """The list to refine: ``chunks`` itself with ``inplace``, else deep copies of its chunks."""
        return chunks if self.inplace else [copy.deepcopy(c) for c in chunks]


class SourceRunRefinery(Refinery):
    """A refinery that reads the source text behind text chunks, one contiguous run at a time.

    :meth:`refine` rebuilds each run of chunks with offsets from their texts
    (:func:`docchunk.refineries.runs.source_runs`) and hands it to :meth:`refine_run`.
    """

    def refine(self, chunks: list[C]) -> list[C]:
        """Refine each source run of ``chunks`` (see the subclass); returns the refined list."""
        out = self._working(check_chunk_list(type(self).__name__, chunks))
        for run_start, run, members in source_runs(out):
            self.refine_run(run_start, run, members)
        return out

    def refine_run(self, run_start: int, run: str, members: list[TextChunkLike]) -> None:  # pragma: no cover - abstract
        """Add context to ``members``, the chunks of the run ``run`` that starts at offset ``run_start``."""
        raise NotImplementedError


def check_chunk_list(refinery: str, chunks: list[C]) -> list[C]:
    """``chunks`` when it is a list (or tuple) of chunks, each with a ``str`` ``text``.

    Raises:
        ConfigTypeError: (a ``ConfigError`` and a ``TypeError``) A ``str`` (one text, not
            chunks), anything that is not a list, or an item without a ``text`` str (a list
            of ``str``): chunk the text first.
    """
    listed = isinstance(chunks, (list, tuple))
    bad = next((c for c in chunks if isinstance(c, str) or not isinstance(getattr(c, "text", None), str)),
               None) if listed else chunks  # fmt: skip
    if bad is not None or not listed:
        raise ConfigTypeError(f"{refinery} refines chunks (docchunk.Chunk from a text chunker, or document chunks), "
                          f"got {type(bad).__name__}: {bad!r:.80}; chunk the text first, e.g. "
                          f"{refinery}()(RecursiveChunker()(text))")  # fmt: skip
    return chunks
