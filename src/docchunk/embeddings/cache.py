"""The on-disk embedding cache: one SQLite file per model, keyed by content hash.

The key of a text is the SHA-256 of the model name and the text, so any change to
either misses. ``docchunk eval``, ``eval-docs``, ``index --embed-cache`` and
:class:`docchunk.EmbeddingsRefinery` (``cache_dir=``) share it.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from docchunk._extras import require
from docchunk.types import EmbedBatch
from docchunk.types.embedding import checked_vectors

if TYPE_CHECKING:
    import sqlite3

    import numpy as np

__all__ = ["CachedEmbedder", "default_cache_dir"]

_NUMPY = ("eval", "The embedding cache (CachedEmbedder)")  # the missing-numpy hint: the extra of docchunk eval's cache


def default_cache_dir() -> Path:
    """The embedding cache folder.

    ``$DOCCHUNK_CACHE/embeddings``, else ``$XDG_CACHE_HOME/docchunk/embeddings``, else
    ``~/.cache/docchunk/embeddings``.
    """
    if os.environ.get("DOCCHUNK_CACHE"):
        return Path(os.environ["DOCCHUNK_CACHE"]) / "embeddings"
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "docchunk" / "embeddings"


class CachedEmbedder:
    """Embeds texts through ``embed_batch``, reading and writing an on-disk cache.

    Args:
        embed_batch: ``list[str] -> array of shape (n, d)``; called only for texts not
            in the cache, in batches of ``batch_size``.
        model_name: Part of every cache key: two models must never share a name.
        cache_dir: Folder of the cache files; None disables the disk cache.
        batch_size: Texts per call of ``embed_batch``; >= 1.
        progress: Show a tqdm bar on stderr while embedding uncached texts.

    Calling it with ``list[str]`` returns a float32 array of shape ``(n, d)``, row i
    the embedding of text i (as ``embed_batch`` returned it, not normalized).

    Raises:
        ConfigError: ``embed_batch`` returned vectors that are not one row of ``d >= 1``
            finite floats per text, all of one length (ragged, the wrong number of rows,
            NaN or an infinity): nothing of that batch is cached.
        ConfigTypeError: numpy cannot read what ``embed_batch`` returned as numbers.
        MissingDependencyError: numpy is not installed (the message names the ``eval``
            extra, which installs it with the default model).
    """

    def __init__(self, embed_batch: EmbedBatch, model_name: str, cache_dir: str | Path | None = None,
                 batch_size: int = 256, progress: bool = False):  # fmt: skip
        self.embed_batch = embed_batch
        self.model_name = model_name
        self.batch_size = max(1, int(batch_size))
        self.progress = progress
        self.embedded = 0  # texts passed to embed_batch so far (cache misses)
        self._db: sqlite3.Connection | None = None
        if cache_dir is not None:
            import sqlite3

            path = Path(cache_dir)
            path.mkdir(parents=True, exist_ok=True)
            name = hashlib.sha256(model_name.encode()).hexdigest()[:16]
            self._db = sqlite3.connect(path / f"{name}.sqlite", timeout=60)
            self._db.execute("CREATE TABLE IF NOT EXISTS emb (key TEXT PRIMARY KEY, vec BLOB)")

    def key(self, text: str) -> str:
        """The cache key of ``text``: SHA-256 of the model name, a NUL and the text."""
        return hashlib.sha256(f"{self.model_name}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()

    def __call__(self, texts: list[str]) -> np.ndarray:
        """Embeddings of ``texts``, shape ``(n, d)``: cached rows read, the others embedded and stored."""
        np = require("numpy", *_NUMPY)  # numpy loads with the first texts: importing the room stays light

        texts = list(texts)
        keys = [self.key(t) for t in texts]
        found = self._lookup(set(keys))
        todo = list(dict.fromkeys(k for k in keys if k not in found))
        if todo:
            first = {k: t for k, t in zip(keys, texts, strict=False)}
            found.update(self._embed(todo, [first[k] for k in todo]))
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([found[k] for k in keys]).astype(np.float32, copy=False)

    def _lookup(self, keys: set[str]) -> dict[str, np.ndarray]:
        if self._db is None or not keys:
            return {}
        import numpy as np

        out: dict[str, np.ndarray] = {}
        listed = list(keys)
        for i in range(0, len(listed), 500):
            part = listed[i : i + 500]
            rows = self._db.execute(f"SELECT key, vec FROM emb WHERE key IN ({','.join('?' * len(part))})", part)
            out.update((k, np.frombuffer(v, dtype=np.float32)) for k, v in rows)
        return out

    def _embed(self, keys: list[str], texts: list[str]) -> dict[str, np.ndarray]:
        import numpy as np

        bar = None
        if self.progress:
            from tqdm import tqdm

            bar = tqdm(total=len(texts), desc="embedding", unit="text", file=sys.stderr)
        out: dict[str, np.ndarray] = {}
        for i in range(0, len(texts), self.batch_size):
            batch = texts[i : i + self.batch_size]
            vectors = checked_vectors(self.embed_batch(batch), batch, np.float32,  # checked before it is cached
                                      extra=_NUMPY[0], feature=_NUMPY[1])  # fmt: skip
            self.embedded += len(batch)
            fresh = dict(zip(keys[i : i + self.batch_size], vectors, strict=False))
            out.update(fresh)
            self._store(fresh)
            if bar is not None:
                bar.update(len(batch))
        if bar is not None:
            bar.close()
        return out

    def _store(self, vectors: dict[str, np.ndarray]) -> None:
        if self._db is None:
            return
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO emb VALUES (?, ?)",
                                 [(k, v.tobytes()) for k, v in vectors.items()])  # fmt: skip
