"""``CachedEmbedder`` checks what its ``embed_batch`` returned before it stores it (stop 58).

It read the output with an unchecked ``np.asarray``: ragged vectors or strings gave numpy's
bare ``ValueError``, and NaN or infinite vectors (or floats too large for float32) were
returned and written to the cache, where every later run read them back.
"""

from __future__ import annotations

import re
import sys

import numpy as np
import pytest

from docchunk.embeddings import CachedEmbedder
from docchunk.errors import ConfigError, ConfigTypeError, MissingDependencyError

TEXTS = ["first text", "second text", "third text"]

MALFORMED = {
    "ragged vectors": (lambda xs: [[1.0] * (i + 1) for i, _ in enumerate(xs)], ConfigError, "cannot read as floats"),
    "strings": (lambda xs: [["a", "b"] for _ in xs], ConfigError, "cannot read as floats"),
    "an object per text": (lambda xs: [object() for _ in xs], ConfigTypeError, "cannot read as floats"),
    "one row too few": (lambda xs: np.zeros((len(xs) - 1, 4)), ConfigError, r"got shape \(2, 4\)"),
    "zero-length vectors": (lambda xs: np.zeros((len(xs), 0)), ConfigError, r"got shape \(3, 0\)"),
    "NaN vectors": (lambda xs: np.full((len(xs), 3), np.nan), ConfigError, "'first text'.*NaN or an infinity"),
    "too large for float32": (lambda xs: [[1.0, 0.0], [1e39, 0.0], [0.0, 1.0]], ConfigError, "'second text'"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_regression_malformed_vectors_are_a_config_error_and_not_cached(tmp_path, name):
    embed, error, detail = MALFORMED[name]
    calls: list[list[str]] = []

    def recording(texts: list[str]):
        calls.append(list(texts))
        return embed(texts)

    with pytest.raises(error, match=r"embed_batch must return an array of shape \(3, d\)") as info:
        CachedEmbedder(recording, "broken", cache_dir=tmp_path)(TEXTS)
    assert isinstance(info.value, ConfigError)  # (ConfigTypeError is one)
    assert re.search(detail, str(info.value)), str(info.value)
    good = CachedEmbedder(lambda xs: np.ones((len(xs), 2)), "broken", cache_dir=tmp_path)
    assert np.array_equal(good(TEXTS), np.ones((3, 2), dtype=np.float32))  # nothing of the bad batch was read back
    assert good.embedded == 3
    assert calls == [TEXTS]


def test_well_formed_vectors_are_returned_as_float32_and_cached(tmp_path):
    vectors = [[0.5, -1.0], [2.0, 0.25], [1e-3, 3.0]]
    first = CachedEmbedder(lambda xs: vectors[: len(xs)], "fine", cache_dir=tmp_path)
    out = first(TEXTS)
    assert out.dtype == np.float32 and np.array_equal(out, np.asarray(vectors, dtype=np.float32))
    again = CachedEmbedder(lambda xs: pytest.fail("the cache was not read"), "fine", cache_dir=tmp_path)
    assert np.array_equal(again(TEXTS), out)


def test_regression_missing_numpy_names_the_eval_extra_not_semantic(monkeypatch):
    embedder = CachedEmbedder(lambda xs: np.ones((len(xs), 2)), "fine")
    monkeypatch.setitem(sys.modules, "numpy", None)  # import fails as if not installed
    with pytest.raises(MissingDependencyError, match=r"^The embedding cache \(CachedEmbedder\) needs") as info:
        embedder(TEXTS)
    assert '".[eval]"' in str(info.value) and "semantic" not in str(info.value)
