"""The metadata fields docchunk adds to docling-core's DocMeta are all documented."""

from __future__ import annotations

import re

import pytest

import docchunk
from tests.helpers import ROOT


def added_fields() -> set[str]:
    from docling_core.transforms.chunker.doc_chunk import DocMeta as DoclingDocMeta

    return set(docchunk.DocMeta.model_fields) - set(DoclingDocMeta.model_fields)


def test_added_fields_are_excluded_from_embedding_and_llm_serialization():
    added = added_fields()
    assert {"token_count", "page_numbers", "oversized", "table_rows"} <= added
    assert added <= set(docchunk.DocMeta.excluded_embed) and added <= set(docchunk.DocMeta.excluded_llm)


@pytest.mark.parametrize("page", ["concepts.md", "compat.md"])
def test_every_added_meta_field_is_named_with_the_right_count(page):
    """Bug: concepts.md and compat.md named five added fields after a seventh had been added."""
    text = (ROOT / "docs" / page).read_text()
    added = added_fields()
    missing = sorted(f for f in added if f"`{f}`" not in text and f"`meta.{f}`" not in text)
    assert not missing, f"docs/{page} does not name {missing}"
    words = dict(enumerate(["five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen"], start=5))
    pattern = r"\b(three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen) (?:added )?fields\b"
    counts = set(re.findall(pattern, text, re.IGNORECASE))
    assert {c.lower() for c in counts} == {words[len(added)]}, counts
