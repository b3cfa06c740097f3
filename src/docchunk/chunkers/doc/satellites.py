"""Captions and footnotes of floating items in the default mode's walk: which its pieces already hold.

:func:`unserialized_satellites` gives those an item's serialization left out (the walk
writes them after it); :func:`held_satellites` those a container's text already holds (a
picture's caption written in a table cell), so that they are not written again at the
document's end. :func:`satellite_holders` names the containers worth looking into, found
once per walk from the document's links, so that items holding no captioned item are
not walked (each walk of an item's content is a docling-core ``iterate_items``: a PDF
paper of the corpus walked 530 items' content a call, finding nothing in most).
"""

from __future__ import annotations

from collections.abc import Iterator

from docling_core.types.doc.document import DoclingDocument, FloatingItem, NodeItem, TextItem

__all__ = ["held_satellites", "satellite_holders", "unserialized_satellites"]


def unserialized_satellites(item: NodeItem, doc: DoclingDocument, covered: set[str]) -> list[TextItem]:
    """Captions and footnotes of a floating item that its serialization left out."""
    if not isinstance(item, FloatingItem):
        return []
    out = []
    for ref in [*item.captions, *item.footnotes]:
        sat = ref.resolve(doc)
        if isinstance(sat, TextItem) and sat.text.strip() and sat.self_ref not in covered:
            covered.add(sat.self_ref)
            out.append(sat)
    return out


def satellite_holders(doc: DoclingDocument) -> set[str]:
    """The refs of the nodes that hold, at any depth of their children, a floating item with captions or footnotes.

    Found from every node's ``children`` links (those the walks follow), up from each
    such floating item: the nodes under which :func:`held_satellites` can find one.
    Every node list of the document is read (each field of ``DoclingDocument`` holding
    nodes), so that no link is missed.
    """
    parents: dict[str, list[str]] = {}
    floats: list[str] = []
    for nodes in _node_lists(doc):
        for node in nodes:
            for ref in node.children:
                parents.setdefault(ref.cref, []).append(node.self_ref)
            if isinstance(node, FloatingItem) and (node.captions or node.footnotes):
                floats.append(node.self_ref)
    holders: set[str] = set()
    todo = [parent for at in floats for parent in parents.get(at, ())]
    while todo:
        at = todo.pop()
        if at not in holders:
            holders.add(at)
            todo.extend(parents.get(at, ()))
    return holders


def _node_lists(doc: DoclingDocument) -> Iterator[list[NodeItem]]:
    """Each node list of ``doc`` (a one-node list for the body and the furniture), whatever its fields."""
    for name in type(doc).model_fields:
        value = doc.__dict__.get(name)  # not getattr: a deprecated field (furniture) warns
        if isinstance(value, NodeItem):
            yield [value]
        elif isinstance(value, list) and value and isinstance(value[0], NodeItem):
            yield value


def held_satellites(item: NodeItem, text: str, doc: DoclingDocument, holders: set[str]) -> Iterator[str]:
    """References of the captions and footnotes of floating items inside ``item`` that ``text`` already holds.

    A picture in a table cell has its caption (an ``<img alt>``) written in the cell,
    so in the table's text (a record's label): that caption is not left over to be
    written again, at the document's end, as an orphan (round-3 tester's finding 10).
    Texts are compared with their whitespace runs made one space. ``holders``
    (:func:`satellite_holders`) names the items worth walking; others hold none.
    """
    if not item.children or item.self_ref not in holders:  # nothing captioned inside it
        return
    held = " ".join(text.split())
    for node, _ in doc.iterate_items(root=item, with_groups=True, traverse_pictures=True):
        if node is item or not isinstance(node, FloatingItem):
            continue
        for ref in [*node.captions, *node.footnotes]:
            sat = ref.resolve(doc)
            if isinstance(sat, TextItem) and sat.text.strip() and " ".join(sat.text.split()) in held:
                yield sat.self_ref
