"""docchunk's chunking serializer against docling-core 2.104.0's ChunkingDocSerializer, item by item."""

from __future__ import annotations

import pytest

from tests.helpers import doc_params, load

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


@pytest.mark.parametrize("path", doc_params())
def test_excluded_refs_equal_docling_core(path):
    doc = load(path)
    ours = ChunkingSerializer(doc=doc)
    theirs = ChunkingDocSerializer(doc=doc)
    assert ours.get_excluded_refs() == theirs.get_excluded_refs()
    assert ours.get_excluded_refs(layers=set()) == theirs.get_excluded_refs(layers=set())


def test_unknown_mode_is_a_config_error():
    from docchunk.errors import ConfigError

    with pytest.raises(ConfigError, match="'faithful'"):
        ChunkingSerializerProvider(mode="faithful")
