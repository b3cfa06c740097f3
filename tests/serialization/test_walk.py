"""docchunk's ``iterate_items`` against docling-core's, walk for walk.

:func:`docchunk.serialization.walk.iterate_items` replaces docling-core's
generator-per-level walk in the default mode's passes; it must yield the same nodes
at the same depths, in the same order, for every combination of its settings.
"""

from __future__ import annotations

import itertools

import pytest
from docling_core.types.doc import ContentLayer, DocItemLabel, DoclingDocument, GroupLabel

from docchunk.serialization.walk import iterate_items
from tests.helpers import doc_params, load

_LAYERS = [None, set(ContentLayer), {ContentLayer.FURNITURE}]


def _same_walks(doc: DoclingDocument, root=None) -> None:
    for groups, pictures, layers in itertools.product([False, True], [False, True], _LAYERS):
        settings = {"with_groups": groups, "traverse_pictures": pictures, "included_content_layers": layers}
        theirs = [(node.self_ref, depth) for node, depth in doc.iterate_items(root=root, **settings)]
        ours = [(node.self_ref, depth) for node, depth in iterate_items(doc, root, **settings)]
        assert ours == theirs, settings


@pytest.mark.parametrize("path", doc_params())
def test_walk_matches_docling_core_on_every_document(path):
    doc = load(path)
    _same_walks(doc)
    for node in [*doc.tables[:3], *doc.groups[:3], *doc.pictures[:3]]:
        _same_walks(doc, node)


def test_walk_matches_docling_core_with_pictures_furniture_and_groups():
    """A picture with a caption and a child of its own, a list, and furniture: each setting walks them alike."""
    doc = DoclingDocument(name="walk")
    doc.add_heading("Results")
    picture = doc.add_picture(caption=doc.add_text(label=DocItemLabel.CAPTION, text="Figure 1: a plot"))
    doc.add_text(label=DocItemLabel.TEXT, text="a label inside the plot", parent=picture)
    group = doc.add_group(label=GroupLabel.LIST)
    for text in ("one", "two"):
        doc.add_list_item(text, parent=group)
    doc.add_text(label=DocItemLabel.PAGE_HEADER, text="Page 1", content_layer=ContentLayer.FURNITURE)
    doc.add_text(label=DocItemLabel.TEXT, text="The end.")
    _same_walks(doc)
    _same_walks(doc, picture)
    walked = [node.self_ref for node, _ in iterate_items(doc, with_groups=True, traverse_pictures=True)]
    assert picture.self_ref in walked and group.self_ref in walked
