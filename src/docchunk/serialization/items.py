"""The default mode's component serializers for pictures, key-value and form items, formulas and the rest.

docling-core's Markdown serializer writes HTML-comment placeholders where it has
no text for an item: ``<!-- image -->`` (the chunking settings make it empty),
``<!-- 🖼️❌ Image not available ... -->`` (embedded images), ``<!-- missing-key-value-item -->``,
``<!-- missing-form-item -->``, ``<!-- formula-not-decoded -->``, ``<!-- missing-text -->``
(an item no component serializer knows) and, with ``page_break_placeholder`` set,
``#_#_DOCLING_DOC_PAGE_BREAK_..._#_#`` markers inside groups. It also leaves the text
items inside a picture (a scanned page, a chart's labels) out of the picture, and the
walk does not descend into pictures. The serializers here write text instead, so that
everything a document says reaches some chunk:

- :class:`PictureTextSerializer`: caption, annotations and chart data (docling-core's),
  then the picture's child items in reading order; never an image placeholder.
- :class:`KeyValueLinesSerializer`: key-value and form items as ``key: value`` lines.
- :class:`FaithfulFallbackSerializer`: an unknown item as its own text, never ``missing-text``.
- :class:`FaithfulChunkingSerializer`: the chunking serializer with formulas as their
  LaTeX ``text``, else their ``orig``, else nothing; notes (footnotes and endnotes) of
  the furniture layer written as body text; page headers and footers left out
  unless ``include_furniture``; and a body caption or footnote of an item left out
  (a furniture table) written alone after the body (:mod:`docchunk.serialization.orphans`).

``docling_compat=True`` uses none of them (docling-core's text, exactly).
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, TypeGuard

from docling_core.transforms.serializer.base import (
    BaseDocSerializer,
    BaseFormSerializer,
    BaseKeyValueSerializer,
    SerializationResult,
)
from docling_core.transforms.serializer.common import DocSerializer, create_ser_result
from docling_core.transforms.serializer.markdown import (
    MarkdownFallbackSerializer,
    MarkdownPictureSerializer,
)
from docling_core.types.doc import DocItemLabel, DoclingDocument
from docling_core.types.doc.document import (
    CodeItem,
    ContentLayer,
    DocItem,
    FieldItem,
    FieldRegionItem,
    FormItem,
    FormulaItem,
    GraphData,
    GroupItem,
    KeyValueItem,
    NodeItem,
    PictureItem,
    PictureTabularChartData,
    SectionHeaderItem,
    TextItem,
    TitleItem,
)
from docling_core.types.doc.labels import GraphLinkLabel

from docchunk.serialization.charts import chart_rows
from docchunk.serialization.chunking import ChunkingSerializer
from docchunk.serialization.fast import children_results
from docchunk.serialization.orphans import orphan_parts
from docchunk.serialization.tables.rows import TableFormat

__all__ = [
    "FURNITURE_LABELS",
    "PLACEHOLDERS",
    "FaithfulChunkingSerializer",
    "FaithfulFallbackSerializer",
    "KeyValueLinesSerializer",
    "PictureTextSerializer",
    "graph_lines",
    "is_furniture",
    "orig_only_formula",
]

FURNITURE_LABELS = frozenset({DocItemLabel.PAGE_HEADER, DocItemLabel.PAGE_FOOTER})
"""Labels of page furniture, left out of the default mode's chunks wherever the items sit."""


_EMPHASISED_BLOCK = re.compile(r"[*_~]+(`{3,}\n.*\n`{3,})[*_~]+", re.S)
"""A fenced code block inside emphasis marks, as docling-core writes a code item with ``formatting``."""


def is_furniture(item: NodeItem) -> bool:
    """Whether the default mode leaves ``item`` out as page furniture (unless ``include_furniture``).

    Page headers and footers (by label, wherever they sit) and every other item of the
    furniture layer, except notes: docling's DOCX converter puts a document's footnotes
    and endnotes (label ``footnote``) in the furniture layer, and they are body text.
    """
    if isinstance(item, DocItem) and item.label in FURNITURE_LABELS:
        return True
    return item.content_layer == ContentLayer.FURNITURE and not _is_note(item)


def _is_note(item: NodeItem) -> bool:
    return isinstance(item, DocItem) and item.label == DocItemLabel.FOOTNOTE


def _has_furniture_notes(doc: DoclingDocument) -> bool:
    return any(_is_note(t) and t.content_layer == ContentLayer.FURNITURE for t in doc.texts)


PLACEHOLDERS = (
    "<!-- image -->",
    "<!-- 🖼️❌ Image not available",
    "<!-- missing-key-value-item -->",
    "<!-- missing-form-item -->",
    "<!-- formula-not-decoded -->",
    "<!-- missing-text -->",
    "#_#_DOCLING_DOC_PAGE_BREAK_",
)
"""What docling-core's Markdown serializers write where they have no text (never in the default mode)."""


class PictureTextSerializer(MarkdownPictureSerializer):
    """A picture as its caption, annotations and chart data, then the text items inside it.

    The text of the picture's children (text items, lists, tables, nested pictures:
    a scanned page, a chart's labels) follows in reading order, each serialized by
    the document serializer and added to ``visited`` (so a walk that traverses
    pictures does not write them twice). No image placeholder is written, whatever
    the ``image_mode``. A child that the settings exclude (furniture, other layers)
    is left out as everywhere else.
    """

    writes_children_only: ClassVar[bool] = True
    """Read by :mod:`docchunk.serialization.fast`: for a picture without captions, annotations
    or meta data this class writes only its children, joined by blank lines (the fast path
    writes them so). A subclass must declare it again to keep that path."""

    def serialize(
        self, *, item: PictureItem, doc_serializer: BaseDocSerializer, doc: DoclingDocument, **kwargs: Any
    ) -> SerializationResult:
        """Caption, annotations, chart data, then the children of ``item``.

        Spans: the captions, and the picture for its own text and its children's
        (the children are in ``visited``, not in the spans).
        """
        tables = getattr(doc_serializer, "table_serializer", None)
        table_format: TableFormat = getattr(tables, "table_format", "markdown")
        charts = _legacy_charts(item) if table_format != "markdown" else []
        if charts:  # written below as the document's tables are (docling-core: a pipe table)
            kwargs["enable_chart_tables"] = False
        own = super().serialize(item=item, doc_serializer=doc_serializer, doc=doc, **kwargs)
        visited = kwargs.pop("visited", None)
        visited = visited if visited is not None else {item.self_ref}
        parts = [own] if own.text else []
        if charts and (rows := chart_rows(charts[0].chart_data, table_format)):
            parts.append(create_ser_result(text=rows, span_source=item))
        if item.self_ref not in doc_serializer.get_excluded_refs(**kwargs):
            children = _children_parts(item, doc_serializer, doc, visited, kwargs)
            if children:
                # spanned by the picture: the chunkers read a picture as one element, and
                # re-serialize it whole when they split at element boundaries
                parts.append(create_ser_result(text="\n\n".join(p.text for p in children), span_source=item))
        return create_ser_result(text="\n\n".join(p.text for p in parts), span_source=parts)

    def _serialize_image_part(self, item: PictureItem, doc: DoclingDocument, *args: Any, **kwargs: Any) -> Any:
        """No image text: no placeholder, no data URI, no "image not available" comment."""
        return create_ser_result()


def _legacy_charts(item: PictureItem) -> list[PictureTabularChartData]:
    """The picture's chart-data annotations, where docling-core's serializer writes them (no ``meta``)."""
    if item.meta:  # docling-core then reads meta.tabular_chart (ChartRowsMetaSerializer)
        return []
    return [a for a in item.__dict__.get("annotations") or () if isinstance(a, PictureTabularChartData)]


_UNSET = object()


def _children_parts(
    item: NodeItem, doc_serializer: BaseDocSerializer, doc: DoclingDocument, visited: set[str], kwargs: dict
) -> list[SerializationResult]:
    """The serialized children of ``item`` that have text, in order, not yet in ``visited``."""
    # only the settings that differ from the serializer's own (docling-core passes all of them
    # along): without any, a child takes the chunking serializer's fast path
    own = getattr(getattr(doc_serializer, "params", None), "__dict__", {})  # (no deprecated-field warnings)
    kwargs = {
        k: v
        for k, v in kwargs.items()
        if k not in ("level", "list_level", "is_inline_scope", "delim") and own.get(k, _UNSET) != v
    }
    return children_results(item, doc_serializer, doc, visited, **kwargs)


def graph_lines(graph: GraphData) -> list[str]:
    """The ``key: value`` lines of a key-value or form item's graph, in cell order.

    Each key is written with its values (links ``to_value`` from a key, or
    ``to_key`` from a value; several values joined by ``"; "``). A cell that is in
    no key-value link (an unlinked key, value or checkbox) is a line of its own
    text. A cell's text is its ``text``, else its ``orig``; cells without either
    are left out, and so is a key whose values all are.

    Args:
        graph: A docling-core ``GraphData`` (``cells``, ``links``).

    Returns:
        The lines; ``[]`` when no cell has text.
    """
    cells = {cell.cell_id: cell for cell in graph.cells}
    values_of: dict[int, list[int]] = {}
    for link in graph.links:
        if link.label == GraphLinkLabel.TO_VALUE:
            key, value = link.source_cell_id, link.target_cell_id
        elif link.label == GraphLinkLabel.TO_KEY:
            key, value = link.target_cell_id, link.source_cell_id
        else:
            continue
        if key in cells and value in cells and key != value:
            found = values_of.setdefault(key, [])
            if value not in found:
                found.append(value)
    written: set[int] = set()
    lines: list[str] = []
    for cell in graph.cells:
        cid = cell.cell_id
        if cid in written:
            continue
        written.add(cid)
        text = _cell_text(cell)
        values = [v for v in values_of.get(cid, []) if v not in written]
        written.update(values)
        value_texts = [t for v in values if (t := _cell_text(cells[v]))]
        if text and value_texts:
            lines.append(f"{text}: {'; '.join(value_texts)}")
        elif text or value_texts:
            lines.extend([text] if text else value_texts)
    return lines


def _cell_text(cell: Any) -> str:
    text = (cell.text or "").strip() or (cell.orig or "").strip()
    return " ".join(text.split("\n")) if "\n" in text else text


class KeyValueLinesSerializer(BaseKeyValueSerializer, BaseFormSerializer):
    """Key-value and form items as their captions, then ``key: value`` lines (:func:`graph_lines`).

    Serves as both the ``key_value_serializer`` and the ``form_serializer``; an
    item without cell text gives no text (never docling-core's ``missing-...``
    placeholder).
    """

    def serialize(
        self,
        *,
        item: KeyValueItem | FormItem,
        doc_serializer: BaseDocSerializer,
        doc: DoclingDocument,
        **kwargs: Any,
    ) -> SerializationResult:
        """Captions, then the lines of ``item``'s graph; spans: the captions and the item."""
        parts: list[SerializationResult] = []
        captions = doc_serializer.serialize_captions(item=item, **kwargs)
        if captions.text:
            parts.append(captions)
        if item.self_ref not in doc_serializer.get_excluded_refs(**kwargs):
            text = "\n".join(graph_lines(item.graph))
            if text:
                parts.append(create_ser_result(text=text, span_source=item))
        return create_ser_result(text="\n\n".join(p.text for p in parts), span_source=parts)


class FaithfulFallbackSerializer(MarkdownFallbackSerializer):
    """docling-core's fallback serializer, with an unknown item's own ``text`` instead of ``<!-- missing-text -->``."""

    writes_groups_as_markdown = True
    """Groups exactly as ``MarkdownFallbackSerializer`` (so :mod:`docchunk.serialization.fast` writes them directly)."""

    def serialize(
        self, *, item: NodeItem, doc_serializer: BaseDocSerializer, doc: DoclingDocument, **kwargs: Any
    ) -> SerializationResult:
        """Groups and field items as docling-core writes them; any other item as its text (or nothing)."""
        if isinstance(item, (GroupItem, FieldRegionItem, FieldItem)) or not isinstance(item, DocItem):
            return super().serialize(item=item, doc_serializer=doc_serializer, doc=doc, **kwargs)
        text = getattr(item, "text", "") or ""
        return create_ser_result(text=text, span_source=item) if text.strip() else create_ser_result()


def orig_only_formula(item: object) -> TypeGuard[FormulaItem]:
    """Whether ``item`` is a formula without LaTeX ``text`` but with its ``orig`` (docling-core: a placeholder)."""
    return isinstance(item, FormulaItem) and not item.text and bool((item.orig or "").strip())


def markup_only(item: object) -> TypeGuard[CodeItem | TitleItem | SectionHeaderItem | TextItem]:
    """Whether ``item`` is a heading, or a code block or paragraph without children, of blank text.

    docling-core writes its markup alone (``# ``, bare fences, a blank text's formatting
    marks ``**`` or link). A heading's children are parts of their own (docling-core
    writes the heading's line alone).
    """
    text = getattr(item, "text", None)
    if not isinstance(text, str) or text.strip():  # (most items: called for every one)
        return False
    if isinstance(item, (TitleItem, SectionHeaderItem)):
        return not item.text.strip()
    return (isinstance(item, CodeItem) or type(item) is TextItem) and not item.text.strip() and not item.children


def _visit(item: NodeItem, visited: set[str] | None) -> None:
    """Add ``item`` to the walk's ``visited`` refs (when the caller passed a set), as a serialization of it would."""
    if visited is not None:
        visited.add(item.self_ref)


_PART_ARGS = ("traverse_pictures", "list_level", "is_inline_scope", "visited")
"""``get_parts`` arguments that are no serializer settings (not passed on to :func:`orphan_parts`)."""


class FaithfulChunkingSerializer(ChunkingSerializer):
    """The default mode's document serializer: :class:`ChunkingSerializer` without placeholders or furniture.

    - A formula is its LaTeX ``text`` (``$$...$$``, as docling-core writes it), else
      its ``orig`` as plain text, else nothing (docling-core: ``<!-- formula-not-decoded -->``).
    - A heading, or a code block or paragraph without children, whose text is blank
      writes nothing: no bare fences, no bare ``# ``, no formatting marks ``**`` of a
      blank italic text (docling-core writes the markup alone).
    - A code block written with emphasis (a bold ``<pre>`` of an HTML page) is the
      fenced block alone: docling-core writes the marks around the fence lines, so
      neither is a fence line and the code reads as open Markdown.
    - Footnotes and endnotes in the furniture layer (where docling's DOCX converter
      puts them, after the body) are written as body text, where they sit.
    - Items labelled ``page_header`` or ``page_footer`` are excluded wherever they sit
      (the body layer included), and so is the rest of the furniture layer, unless
      ``include_furniture`` is set; then the whole furniture layer is serialized too.

    The fast path of :class:`ChunkingSerializer` stays on (it writes formulas the same
    way, see :attr:`writes_formula_orig`).
    """

    include_furniture: bool = False

    writes_formula_orig: ClassVar[bool] = True
    """Read by :mod:`docchunk.serialization.fast`: it writes an ``orig``-only formula as :meth:`serialize` does."""

    writes_no_bare_markup: ClassVar[bool] = True
    """Read by :mod:`docchunk.serialization.fast`: a blank text is written without formatting marks or link."""

    @classmethod
    def for_document(cls, doc: DoclingDocument, **fields: Any) -> ChunkingSerializer:
        """:meth:`ChunkingSerializer.for_document`, with ``include_furniture`` among ``fields``."""
        ser = super().for_document(doc, **fields)
        furniture = ser.include_furniture  # type: ignore[attr-defined]
        # notes in the furniture layer: only then do the layers leave the defaults (and the fast path)
        if furniture or (ContentLayer.FURNITURE not in ser.params.layers and _has_furniture_notes(doc)):
            ser.params.layers = {*ser.params.layers, ContentLayer.FURNITURE}
        return ser

    def serialize(self, *, item: NodeItem | None = None, **kwargs: Any) -> SerializationResult:
        """``ChunkingSerializer.serialize``; an ``orig``-only formula as its ``orig``; :func:`markup_only`: nothing."""
        if markup_only(item):  # its markup alone would be a chunk of bare fences or a bare "# " (issue 45)
            _visit(item, kwargs.get("visited"))
            return create_ser_result()
        if orig_only_formula(item):
            _visit(item, kwargs.get("visited"))
            if item.self_ref in self.get_excluded_refs() or item.content_layer not in self.params.layers:
                return create_ser_result()
            text = self.post_process(text=item.orig.strip(), formatting=item.formatting, hyperlink=item.hyperlink)
            return create_ser_result(text=text, span_source=item)
        res = super().serialize(item=item, **kwargs)
        if isinstance(item, CodeItem) and item.formatting is not None:
            block = _EMPHASISED_BLOCK.fullmatch(res.text)
            if block is not None:  # "**```\n...\n```**": the marks would leave both fence lines unbalanced
                return SerializationResult(text=block.group(1), spans=res.spans)
        return res

    def get_parts(self, item: NodeItem | None = None, **kwargs: Any) -> list[SerializationResult]:
        """docling-core's parts; for the body, then captions and footnotes of unwritten items (:func:`orphan_parts`)."""
        given = kwargs.get("visited")
        before = set(given) if given is not None else set()  # (the walk marks the skipped captions visited too)
        parts = super().get_parts(item, **kwargs)
        if item is None:
            extra = {k: v for k, v in kwargs.items() if k not in _PART_ARGS}
            parts += orphan_parts(self, before, **extra)
            if given is not None:
                given.update(before)
        return parts

    def _excluded_from_nodes(self, params: Any) -> set[str]:
        """docling-core's excluded references, plus furniture (:func:`is_furniture`) unless ``include_furniture``."""
        refs = super()._excluded_from_nodes(params)
        if not self.include_furniture:
            refs.update(node.self_ref for node in self._nodes if isinstance(node, DocItem) and is_furniture(node))
        return refs


# its get_parts adds parts to the body's only: every item's parts are docling-core's (fast path kept)
FaithfulChunkingSerializer.item_parts_as_docling = (DocSerializer.get_parts, FaithfulChunkingSerializer.get_parts)
