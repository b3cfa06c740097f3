"""The compat mode's structural pass: one piece per element.

Follows docling-core's ``HierarchicalChunker`` walk: document order, headings by
level (a heading drops the headings at its level and deeper), lists and inline
groups serialized as one element, text from the configured serializer.
"""

from __future__ import annotations

from collections.abc import Iterator

from docling_core.transforms.serializer.base import BaseDocSerializer
from docling_core.transforms.serializer.common import DocSerializer
from docling_core.types.doc.document import (
    CodeItem,
    DocItem,
    DoclingDocument,
    InlineGroup,
    ListGroup,
    SectionHeaderItem,
    TitleItem,
)

from docchunk.chunkers.doc.piece import CodeStrategy, Piece

__all__ = ["walk"]

_Heading = TitleItem | SectionHeaderItem


def walk(
    doc: DoclingDocument,
    serializer: BaseDocSerializer,
    always_emit_headings: bool = False,
    code_strategy: CodeStrategy | None = None,
) -> Iterator[Piece]:
    """Yield the hierarchical pieces of ``doc`` in document order.

    Args:
        doc: The document.
        serializer: Turns an element into text (docling-core's chunking serializer by default).
        always_emit_headings: Also yield a heading-only piece (empty text) for each
            leaf heading whose section has no content.
        code_strategy: None, or a code chunking strategy: each code item then gives
            one piece whose ``code_chunks`` are the strategy's chunks, called as
            docling-core's ``HierarchicalChunker`` calls it (no headings).

    Yields:
        :class:`Piece` objects; only heading-only pieces have empty text.
    """
    heading_by_level: dict[int, _Heading] = {}
    all_headings: list[_Heading] = []
    yielded = False
    emitted: set[str] = set()
    visited: set[str] = set()
    doc_ser = serializer if isinstance(serializer, DocSerializer) else None
    excluded = serializer.get_excluded_refs()
    for item, _level in doc.iterate_items(
        with_groups=True,
        traverse_pictures=doc_ser.params.traverse_pictures if doc_ser is not None else False,
        included_content_layers=doc_ser.params.layers if doc_ser is not None else None,
    ):
        if item.self_ref in excluded or (doc_ser is not None and doc_ser._skip_in_walk(node=item, root=None)):
            continue
        if isinstance(item, (TitleItem, SectionHeaderItem)):
            level = item.level if isinstance(item, SectionHeaderItem) else 0
            keys = sorted(heading_by_level)
            if always_emit_headings and any(k >= level for k in keys):
                piece = _heading_piece(heading_by_level, keys, emitted)
                if piece is not None:
                    yield piece
            for k in keys:
                if k >= level:
                    del heading_by_level[k]
            heading_by_level[level] = item
            all_headings.append(item)
            continue
        if not isinstance(item, (ListGroup, InlineGroup, DocItem)) or item.self_ref in visited:
            continue
        if code_strategy is not None and isinstance(item, CodeItem):
            chunks = list(code_strategy.chunk_code_item(item=item, doc=doc, doc_serializer=serializer, visited=visited))
            yielded = yielded or bool(item.text.strip())  # not a headings-only document, whatever the strategy gave
            if chunks:
                yield Piece(text="", items=[item], headings=None, origin=doc.origin, code_chunks=chunks)
            continue
        res = serializer.serialize(item=item, visited=visited)
        items = [span.item for span in res.spans]
        if not res.text or not items:
            continue
        keys = sorted(heading_by_level)
        headings = [heading_by_level[k].text for k in keys] or None
        if not res.text.strip():
            # whitespace only: docling-core keeps it, and merging peers joins it to the next text (its
            # whitespace then in that chunk's text); the chunkers drop it where it stays a chunk of its own
            yield Piece(text=res.text, items=items, headings=headings, origin=doc.origin)
            continue
        if always_emit_headings and keys:
            emitted.add(heading_by_level[keys[-1]].self_ref)
        yielded = True
        yield Piece(text=res.text, items=items, headings=headings, origin=doc.origin)
    if always_emit_headings and heading_by_level:
        piece = _heading_piece(heading_by_level, sorted(heading_by_level), emitted)
        if piece is not None:
            yield piece
    elif not yielded and not always_emit_headings:
        # docchunk invariant (docling-core yields nothing here): a document whose only
        # text is its headings still gives a chunk, holding those headings as text.
        texts = [h.text for h in all_headings if h.text]
        if texts:
            yield Piece(
                text="\n".join(texts), items=list(all_headings), headings=None, origin=doc.origin, from_headings=True
            )


def _heading_piece(heading_by_level: dict[int, _Heading], keys: list[int], emitted: set[str]) -> Piece | None:
    leaf = heading_by_level[keys[-1]].self_ref
    if leaf in emitted:
        return None
    emitted.add(leaf)
    return Piece(
        text="",
        items=[heading_by_level[k] for k in keys],
        headings=[heading_by_level[k].text for k in keys],
        heading_only=True,
    )
