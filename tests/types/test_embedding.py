"""``checked_vectors``: the messages name what its caller's user called and the extra to install."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from docchunk.errors import ConfigError, MissingDependencyError
from docchunk.types.embedding import checked_vectors


def test_messages_name_the_source_the_caller_gives():
    with pytest.raises(ConfigError, match=r"^the model 'm' given to X must return an array of shape \(2, d\)"):
        checked_vectors([[1.0], [np.nan]], ["a", "b"], source="the model 'm' given to X")


def test_regression_missing_numpy_names_the_extra_and_feature_the_caller_gives(monkeypatch):
    monkeypatch.setitem(sys.modules, "numpy", None)  # import fails as if not installed
    with pytest.raises(MissingDependencyError, match=r"^The embedding cache needs .*\.\[eval\]") as info:
        checked_vectors([[1.0]], ["a"], extra="eval", feature="The embedding cache")
    assert "semantic" not in str(info.value)
    with pytest.raises(MissingDependencyError, match=r"^Semantic chunking needs .*\.\[semantic\]"):
        checked_vectors([[1.0]], ["a"])  # the semantic chunkers' default


def test_an_extra_that_does_not_install_numpy_is_a_bug_caught_at_once():
    with pytest.raises(KeyError, match="does not install 'numpy'"):
        checked_vectors([[1.0]], ["a"], extra="tiktoken", feature="x")
