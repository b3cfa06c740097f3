"""The walk looks for captions held in a container's text only under :func:`satellite_holders` (issue 46, speed).

Every item with text was walked (a docling-core ``iterate_items``) for captioned
floating items inside it; ``satellite_holders`` names, from the document's ``children``
links, the items that hold one. The walk skips the others: so every item under which
``iterate_items`` finds a floating item with captions or footnotes must be named. Checked
on the bundled documents and the shared corpus (every docling input format).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from docling_core.types.doc import DoclingDocument
from docling_core.types.doc.document import FloatingItem

from docchunk.chunkers.doc.satellites import satellite_holders

DATA = Path(__file__).resolve().parents[2] / "data"
CORPUS = Path(__file__).resolve().parents[3].parent / "shared" / "corpus" / "docling"
PATHS = sorted(DATA.glob("*.json")) + sorted(CORPUS.glob("*.json"))


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.name)
def test_every_item_holding_a_captioned_item_is_named(path: Path) -> None:
    doc = DoclingDocument.load_from_json(path)
    holders = satellite_holders(doc)
    found = 0
    for item, _ in doc.iterate_items(with_groups=True, traverse_pictures=True):
        inside = doc.iterate_items(root=item, with_groups=True, traverse_pictures=True)
        if any(n is not item and isinstance(n, FloatingItem) and (n.captions or n.footnotes) for n, _ in inside):
            assert item.self_ref in holders, f"{path.name}: {item.self_ref} holds a captioned item"
            found += 1
    assert found <= len(holders)


def test_the_corpus_has_captioned_items_inside_others() -> None:
    """The check above is not empty: some document holds a captioned item inside another item."""
    paths = [p for p in PATHS if p.parent == CORPUS]
    if not paths:
        pytest.skip("the shared corpus (../shared/corpus/docling) is not checked out here")
    assert any(satellite_holders(DoclingDocument.load_from_json(p)) - {"#/body"} for p in paths)
