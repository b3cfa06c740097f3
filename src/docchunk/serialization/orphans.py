"""Captions and footnotes whose floating item is not written: the default serializer writes them alone.

docling-core's serializers write a caption or footnote only with its table or picture
(the walk skips every caption and footnote of some floating item). When that item is
left out (a table or picture of the furniture layer, a label the settings exclude),
a caption or footnote of the body was in no part: ``PageChunker`` and
``LineBasedTokenChunker`` lost it (hostile tester s9, finding 2). The structural walk
of ``HybridChunker`` and ``HierarchicalChunker`` keeps such an orphan as a text of its
own at the end (``docs/compat.md``, "Footnotes and orphan captions");
:func:`orphan_parts` gives the same texts as parts of their own, after the body's
parts, for those chunkers that join the serializer's parts.
"""

from __future__ import annotations

from typing import Any

from docling_core.transforms.serializer.base import SerializationResult
from docling_core.transforms.serializer.common import create_ser_result
from docling_core.types.doc.document import FloatingItem, TextItem

__all__ = ["orphan_parts"]


def orphan_parts(ser: Any, visited: set[str] | None = None, **kwargs: Any) -> list[SerializationResult]:
    """Parts of the body's captions and footnotes whose floating item ``ser`` does not write, in document order.

    Args:
        ser: A default-mode serializer (a ``ChunkingSerializer``: its ``_nodes``,
            ``params``, ``get_excluded_refs`` and ``post_process`` are read).
        visited: References already written; those are left out (and the orphans written are added).
        **kwargs: The settings of the ``get_parts`` call (``pages={n}`` writes the orphans of page ``n`` only).

    Returns:
        One part per caption or footnote with text that is in the serialized layers,
        not excluded by these settings, and belongs only to floating items that are
        excluded by the serializer's own settings (not by a page filter: a caption on
        another page than its table is placed by ``PageChunker``). Its text is the
        item's text as the serializer writes a plain text, its span the item.
    """
    layers = ser.params.layers
    excluded = ser.get_excluded_refs()
    written: set[str] = set()  # satellites of a float that is written: not orphans
    candidates: dict[str, None] = {}
    for node in ser._nodes:
        if not isinstance(node, FloatingItem):
            continue
        refs = [ref.cref for ref in (*node.captions, *node.footnotes)]
        if node.content_layer not in layers or node.self_ref in excluded:
            candidates.update(dict.fromkeys(refs))
        else:
            written.update(refs)
    if not candidates:
        return []
    here = ser.get_excluded_refs(**kwargs) if kwargs else excluded
    seen = visited if visited is not None else set()
    order = {node.self_ref: i for i, node in enumerate(ser._nodes)}
    out = []
    for ref in sorted((r for r in candidates if r in order and r not in written), key=order.__getitem__):
        item = ser._nodes[order[ref]]
        if not isinstance(item, TextItem) or not item.text.strip() or item.content_layer not in layers:
            continue
        if ref in here or ref in seen:
            continue
        seen.add(ref)
        out.append(create_ser_result(text=ser.post_process(text=item.text), span_source=item))
    return out
