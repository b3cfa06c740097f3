"""docchunk's chunking serializer against docling-core's ChunkingDocSerializer, item by item."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from tests.helpers import doc_params, examples, load
from tests.property.strategies import structured_documents

pytest.importorskip("semchunk", reason="docling-core's chunker package needs docling-core[chunking]")

from docling_core.transforms.chunker.hierarchical_chunker import ChunkingDocSerializer

from docchunk.serialization import ChunkingSerializer, ChunkingSerializerProvider


def _results(serializer, doc, shared_visited: bool) -> list[tuple]:
    """(ref, text, span refs) of every node, serialized alone or in one walk sharing ``visited``."""
    visited: set[str] | None = set() if shared_visited else None
    out = []
    for item, _level in doc.iterate_items(with_groups=True, traverse_pictures=True, included_content_layers=None):
        res = serializer.serialize(item=item, visited=visited) if shared_visited else serializer.serialize(item=item)
        out.append((item.self_ref, res.text, [span.item.self_ref for span in res.spans]))
    return out


@pytest.mark.parametrize("shared_visited", [False, True], ids=["alone", "walk"])
@pytest.mark.parametrize("path", doc_params())
def test_item_texts_equal_docling_core(path, shared_visited):
    doc = load(path)
    theirs = _results(ChunkingDocSerializer(doc=doc), doc, shared_visited)
    ours = _results(ChunkingSerializerProvider().get_serializer(doc), doc, shared_visited)
    assert len(ours) == len(theirs)
    for expected, got in zip(theirs, ours, strict=True):
        assert got == expected, f"item {expected[0]} differs"


def _check_refs_equal_docling_core(doc) -> None:
    """Excluded references (several settings), captions and footnotes of floating items, satellites."""
    from docling_core.types.doc import ContentLayer

    ours = ChunkingSerializer.for_document(doc)
    theirs = ChunkingDocSerializer(doc=doc)
    settings = ({}, {"layers": set()}, {"layers": set(ContentLayer)}, {"pages": {1}}, {"start_idx": 2, "stop_idx": 7})
    for kwargs in settings:
        assert ours.get_excluded_refs(**kwargs) == theirs.get_excluded_refs(**kwargs), kwargs
    assert ours._captions_of_some_item == theirs._captions_of_some_item
    assert ours._footnotes_of_some_item == theirs._footnotes_of_some_item
    assert ours._satellite_descendants == theirs._satellite_descendants


@pytest.mark.parametrize("path", doc_params())
def test_excluded_refs_equal_docling_core(path):
    """docchunk reads these sets from one walk of the document, docling-core from one walk each."""
    _check_refs_equal_docling_core(load(path))


@settings(deadline=None, max_examples=examples(60), suppress_health_check=[HealthCheck.too_slow])
@given(doc=structured_documents())
def test_excluded_refs_equal_docling_core_on_generated_documents(doc):
    _check_refs_equal_docling_core(doc)


def test_unknown_mode_is_a_config_error():
    from docchunk.errors import ConfigError

    with pytest.raises(ConfigError, match="'faithful'"):
        ChunkingSerializerProvider(mode="faithful")
