"""Asking an index questions: :class:`Searcher` keeps the index and the query model open between questions.

``docchunk search`` answers one question per process, and loading the embedding
model (sentence-transformers, torch) costs most of its time; a program that asks
many questions opens one :class:`Searcher` and calls :meth:`Searcher.search` in a
loop, paying that once. ``mode="lexical"`` needs no model at all.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from docchunk.errors import ConfigError, MissingDependencyError
from docchunk.index.store import CONTENT_ROLE, MODES, IndexRecord, IndexStore, SearchHit

if TYPE_CHECKING:
    from docchunk.integrations.embedding_refinery import EmbeddingsRefinery

__all__ = ["DEFAULT_MODE", "Searcher"]

DEFAULT_MODE = "hybrid"
"""The default ranking: BM25 and the vectors, fused (:func:`~docchunk.index.fusion.hybrid_fusion`)."""


class Searcher:
    """An open index: ask it any number of questions with :meth:`search`.

    The embedding model loads on the first ``dense`` or ``hybrid`` question and stays
    loaded; the table stays open.

    Args:
        db: The index folder.
        model: The embedding model; default the one recorded in the index (by name).
            Give it when the index was built with a model object or callable.
        device: Torch device for a model name.

    Raises:
        ConfigError: ``db`` is not an index.
        MissingDependencyError: lancedb or pyarrow is missing (``pip install ".[index]"``).

    Example:
        >>> from docchunk.index import Searcher
        >>> searcher = Searcher("my-index")  # doctest: +SKIP
        >>> for question in ["How long is the warranty?", "Who signs the contract?"]:  # doctest: +SKIP
        ...     print([hit.row["source"] for hit in searcher.search(question, k=3)])
    """

    def __init__(self, db: str | Path, model: Any = None, device: str | None = None):
        self.store = IndexStore(db)
        record = self.store.record()
        if record is None:
            raise ConfigError(f"{str(db)!r} is not a docchunk index (no {db}/docchunk-index.json); build one with: "
                              "docchunk index PATH --db DIR")  # fmt: skip
        self.record: IndexRecord = record
        self.model = model
        self.device = device
        self._embedder: EmbeddingsRefinery | None = None

    @property
    def embedder(self) -> EmbeddingsRefinery:
        """The query model (loaded on first use): the given ``model``, else the index's by name."""
        if self._embedder is None:
            from docchunk.integrations.embedding_refinery import EmbeddingsRefinery

            model, name = self.model, self.record["model"]
            self._embedder = model if isinstance(model, EmbeddingsRefinery) else EmbeddingsRefinery(
                name if model is None else model, model_name=name, device=self.device
            )  # fmt: skip
        return self._embedder

    def search(self, query: str, k: int = 5, mode: str = DEFAULT_MODE,
               roles: tuple[str, ...] | None = (CONTENT_ROLE,)) -> list[SearchHit]:  # fmt: skip
        """The ``k`` chunks best ranked for ``query``, best first.

        Args:
            query: The question.
            k: How many hits; >= 1.
            mode: ``hybrid`` (default: BM25 and vectors fused by weighted reciprocal rank),
                ``dense`` (cosine similarity of the vectors) or ``lexical`` (BM25 over
                the full-text index; loads no model).
            roles: Rank only chunks of these ``meta.role`` s; the default, content,
                leaves out chunks marked as boilerplate (navigation, contents, links,
                furniture, concepts; :mod:`docchunk.roles`). None: every chunk.

        Returns:
            :class:`SearchHit` s, highest ``score`` first (its meaning depends on ``mode``).

        Raises:
            ConfigError: ``k`` < 1, an unknown ``mode``, or a query vector of another
                dimension than the index's.
        """
        from docchunk.types.config import check_size

        check_size("k", k, 1)
        if mode not in MODES:
            raise ConfigError(f"mode={mode!r} is not a ranking mode; choose one of {', '.join(MODES)}")
        vector = None
        if mode != "lexical":
            try:
                vector = self.embedder.embed([query])[0]
            except (MissingDependencyError, ConfigError, OSError) as exc:
                if self.model is not None:
                    raise
                raise type(exc)(
                    f"{exc}\n(the index was built with the model {self.record['model']!r}, loaded here by that name: "
                    "if it is no sentence-transformers model, pass model= the same embedding callable or model "
                    "object; mode='lexical' needs no model)"
                ) from exc
            if len(vector) != self.record["dimension"]:
                raise ConfigError(
                    f"the query vector has {len(vector)} dimensions, the index {self.record['dimension']}: "
                    f"search with the index's model {self.record['model']!r}"
                )
        return self.store.search(vector, k, mode=mode, text=query, roles=roles)
