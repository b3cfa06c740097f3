"""The source text behind a list of text chunks, rebuilt from their offsets."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import cast

from docchunk.types.chunk import ChunkLike, TextChunkLike

__all__ = ["lone_cr_as_lf", "source_runs"]

_LONE_CR = re.compile(r"\r(?!\n)")  # a classic Mac line break


def source_runs(chunks: Sequence[ChunkLike]) -> list[tuple[int, str, list[TextChunkLike]]]:
    """Contiguous runs of chunks with offsets: (start offset, the text they cover, the chunks).

    A chunk that starts after the covered end (a gap) or before the run's start opens a new run; overlapping
    chunks extend it by their part beyond the covered end.
    """
    runs: list[tuple[int, str, list[TextChunkLike]]] = []
    parts: list[str] = []
    members: list[TextChunkLike] = []
    run_start = run_end = -1
    for chunk in chunks:
        start, end = getattr(chunk, "start_index", None), getattr(chunk, "end_index", None)
        if start is None or end is None:
            continue
        if start > run_end or start < run_start:
            if members:
                runs.append((run_start, "".join(parts), members))
            parts, members, run_start, run_end = [], [], start, start
        if end > run_end:
            parts.append(chunk.text[run_end - start :])
            run_end = end
        members.append(cast(TextChunkLike, chunk))  # a chunk with offsets: a text chunk
    if members:
        runs.append((run_start, "".join(parts), members))
    return runs


def lone_cr_as_lf(text: str) -> str:
    r"""``text`` with each lone ``\r`` (a classic Mac line break) made ``\n``: same length, same offsets."""
    return _LONE_CR.sub("\n", text) if "\r" in text else text
