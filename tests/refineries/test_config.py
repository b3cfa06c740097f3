"""Strict configuration of OverlapRefinery."""

from __future__ import annotations

import pytest

import docchunk


def chunks():
    return docchunk.TokenChunker("character", chunk_size=10)("abcdefghijklmnopqrst")


def test_misspelt_keyword_is_a_config_error_naming_the_accepted_ones():
    with pytest.raises(docchunk.ConfigError, match=r"'context_sise'; did you mean 'context_size'\? Accepted: "):
        docchunk.OverlapRefinery(context_sise=3)


def test_assigned_context_size_takes_effect():
    refinery = docchunk.OverlapRefinery(context_size=3, inplace=False)
    refinery.context_size = 5
    assert [c.text for c in refinery(chunks())] == ["abcdefghijklmno", "klmnopqrst"]


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("method", "both", 'method must be "suffix" or "prefix"'),
        ("mode", "sentence", 'mode must be "token" or "recursive"'),
        ("context_size", 0, "context_size as an int is a number of tokens"),
        ("max_tokens", 0, "max_tokens must be an int >= 1"),
        ("merge", "no", r"merge must be True or False, got 'no' \(str\)"),
        ("inplace", None, "inplace must be True or False, got None"),
    ],
)
def test_invalid_assignment_is_an_error_and_leaves_the_refinery_unchanged(name, value, message):
    refinery = docchunk.OverlapRefinery(context_size=3, inplace=False)
    with pytest.raises(docchunk.ConfigError, match=message):
        setattr(refinery, name, value)
    assert [c.text for c in refinery(chunks())] == ["abcdefghijklm", "klmnopqrst"]


def test_assigning_an_unknown_setting_is_an_error():
    refinery = docchunk.OverlapRefinery()
    with pytest.raises(docchunk.ConfigError, match="no setting 'size' to assign"):
        refinery.size = 3


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"delimiter": ["."]}, "invalid delimiter=\\['.'\\]: Extra inputs are not permitted"),
        ({"delimiters": [""]}, "non-empty strings"),
        ({"whitespace": True, "include_delim": "after"}, "invalid include_delim='after'"),
    ],
)
def test_recursive_level_rejects_unknown_and_invalid_fields(kwargs, message):
    """Bug: ``RecursiveLevel(delimiter=["."])`` ignored the misspelt field (pydantic's default
    ``extra="ignore"``) and failed later with an unrelated message."""
    with pytest.raises(docchunk.ConfigError, match=message):
        docchunk.RecursiveLevel(**kwargs)
    with pytest.raises(docchunk.ConfigError, match="Extra inputs"):
        docchunk.RecursiveRules(level=[])


@pytest.mark.parametrize("name", ["merge", "inplace"])
@pytest.mark.parametrize("value", ["False", 0, 1, None, [True]])
def test_merge_and_inplace_must_be_bools(name, value):
    with pytest.raises(docchunk.ConfigError, match=f"{name} must be True or False, got {value!r}".replace("[", r"\[")):
        docchunk.OverlapRefinery(context_size=3, **{name: value})
    assert isinstance(docchunk.ConfigError("x"), ValueError)
