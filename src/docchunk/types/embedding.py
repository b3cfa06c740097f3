"""``EmbedBatch``: what embeds a batch of texts, a callable ``list[str] -> (n, d)`` vectors.

:func:`checked_vectors` checks what one returned: ``(n, d)`` finite floats, or a
:class:`~docchunk.errors.ConfigError` that says why not.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeAlias

from docchunk._extras import require
from docchunk.errors import ConfigError, ConfigTypeError

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["EmbedBatch", "checked_vectors"]

EmbedBatch: TypeAlias = "Callable[[list[str]], ArrayLike]"
"""A callable ``list[str] -> (n, d)``: one vector of ``d`` floats per text, in order.

Anything ``numpy.asarray`` turns into an ``(n, d)`` float array: a numpy array (a
sentence-transformers model's ``encode``), a list of lists of floats. The semantic
chunkers and :class:`~docchunk.embeddings.CachedEmbedder` (``docchunk eval``, ``index``)
check it with :func:`checked_vectors`; :class:`docchunk.EmbeddingsRefinery` checks its model's
output with it too (naming the model instead of ``embed_batch``).
"""


def checked_vectors(
    raw: Any,
    batch: list[str],
    dtype: Any = float,
    *,
    source: str = "embed_batch",
    extra: str = "semantic",
    feature: str = "Semantic chunking",
) -> Any:
    """``raw``, what ``embed_batch(batch)`` returned, as a float array of shape ``(len(batch), d)``.

    Args:
        raw: The return value of ``embed_batch(batch)``: anything :func:`numpy.asarray`
            reads as floats (a numpy array, a list of lists of floats).
        batch: The texts it was called with (their count is ``n``; a text is quoted
            when its vector is not finite).
        dtype: The numpy float type of the array returned (``float``: float64); a value
            too large for it (``1e39`` as float32) is an infinity.
        source: What returned ``raw``, as the caller's user knows it: every message says
            ``"{source} must return ..."`` (``"embed_batch"``, the parameter of the
            semantic chunkers and :class:`~docchunk.embeddings.CachedEmbedder`; e.g.
            ``"the model 'm' given to EmbeddingsRefinery"`` for the refinery).
        extra: The docchunk extra (a key of ``docchunk._extras.EXTRAS`` that installs
            numpy) that the missing-numpy message tells the caller's user to install.
        feature: What needed numpy, as that message says it (``"Semantic chunking"``).

    Returns:
        A numpy array of ``dtype`` of shape ``(n, d)`` with ``d >= 1``, every value finite.

    Raises:
        ConfigError: The vectors are ragged (of unequal lengths), of the wrong shape
            (not one vector per text, or ``d == 0``), or one holds NaN or an infinity.
        ConfigTypeError: numpy cannot read ``raw`` as numbers at all (a generator per
            text, an object). Every message names ``source`` and the shape it must
            return.
        MissingDependencyError: numpy is not installed (the message names ``feature``
            and the ``pip install`` of ``extra``).

    Example:
        >>> checked_vectors([[1.0, 0.0], [0.0, 1.0]], ["a", "b"]).shape
        (2, 2)
    """
    np = require("numpy", extra, feature)
    n = len(batch)
    expected = (f"{source} must return an array of shape ({n}, d) for {n} texts: one vector of d >= 1 "
                "finite floats per text, all of one length (a numpy array or a list of lists of floats)")  # fmt: skip
    try:
        with np.errstate(over="ignore", invalid="ignore"):  # a value too large for dtype: an infinity, refused below
            out = np.asarray(raw, dtype=dtype)
    except (TypeError, ValueError) as exc:
        error = ConfigTypeError if isinstance(exc, TypeError) else ConfigError
        raise error(f"{expected}; it returned a {type(raw).__name__} that numpy cannot read as floats: {exc}") from exc
    if out.ndim != 2 or out.shape[0] != n or out.shape[1] < 1:
        raise ConfigError(f"{expected}; got shape {out.shape}")
    finite = np.isfinite(out).all(axis=1)
    if not finite.all():
        i = int(np.argmin(finite))
        raise ConfigError(f"{expected}; the vector of text {i} of the batch ({batch[i][:60]!r}) holds NaN or an "
                          "infinity: check the model's output for that text")  # fmt: skip
    return out
