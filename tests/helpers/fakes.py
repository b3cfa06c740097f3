"""Stand-ins for outside parts: a conversion backend, text chunks cut by hand, a deterministic embedding model."""

from __future__ import annotations

import itertools
from typing import Any


class JsonConverter:
    """A conversion backend for langchain-docling's ``DoclingLoader`` that reads DoclingDocument JSON (no models)."""

    class _Result:
        def __init__(self, document: Any):
            self.document = document

    def convert(self, source: Any, **kwargs: Any) -> Any:
        import docchunk

        return self._Result(docchunk.load_document(source))


# -- text chunks cut by hand (refinery tests) ----------------------------------
def sliced_chunks(text: str, cuts: Any) -> list[Any]:
    """Adjacent text chunks of ``text`` between the cut positions ``cuts`` (ascending), exact offsets."""
    from docchunk import Chunk

    bounds = [0, *cuts, len(text)]
    return [Chunk(text=text[a:b], start_index=a, end_index=b) for a, b in itertools.pairwise(bounds)]


def line_chunks(text: str) -> list[Any]:
    """One text chunk per line of ``text`` (``str.splitlines``, line break included), exact offsets."""
    ends = list(itertools.accumulate(len(line) for line in text.splitlines(keepends=True)))
    return sliced_chunks(text, ends[:-1])


# -- a deterministic embedding model without torch (refinery and index tests) ----
class HashEmbeddings:
    """``list[str] -> (n, dim)`` float32: a vector drawn from a seed that is the SHA-256 of each text.

    Equal texts get equal vectors whatever the batch; ``delay`` seconds of sleep per call
    make a run slow enough to interrupt. ``calls`` counts the calls.
    """

    def __init__(self, dim: int = 8, delay: float = 0.0, max_seq_length: int | None = None):
        self.dim = dim
        self.delay = delay
        self.calls = 0
        if max_seq_length is not None:
            self.max_seq_length = max_seq_length

    def __call__(self, texts: list[str]) -> Any:
        import hashlib
        import time

        import numpy as np

        self.calls += 1
        time.sleep(self.delay)
        seeds = [int(hashlib.sha256(t.encode("utf-8", "surrogatepass")).hexdigest()[:16], 16) for t in texts]
        return np.array([np.random.default_rng(s).standard_normal(self.dim) for s in seeds], dtype=np.float32)


def letter_counts(texts: list[str]) -> Any:
    """A bag-of-letters embedding, ``(n, 26)`` float32: deterministic, no model (a weak ranker on purpose)."""
    import numpy as np

    out = np.zeros((len(texts), 26), dtype=np.float32)
    for i, text in enumerate(texts):
        for ch in text.lower():
            if "a" <= ch <= "z":
                out[i, ord(ch) - 97] += 1
    return out
