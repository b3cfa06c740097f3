"""``ChunkingSerializer.for_document``: the default serializer of one document, cheap to make, sharing no state."""

from __future__ import annotations

from docling_core.transforms.serializer.markdown import MarkdownParams, MarkdownTextSerializer
from docling_core.types.doc import DocItemLabel, DoclingDocument
from pydantic import Field

from docchunk.serialization import ChunkingSerializer
from docchunk.serialization.tables import RowTableSerializer


def _doc() -> DoclingDocument:
    doc = DoclingDocument(name="d")
    doc.add_heading(text="Title")
    doc.add_text(label=DocItemLabel.TEXT, text="Body text.")
    doc.add_text(label=DocItemLabel.PAGE_FOOTER, text="page 1")
    return doc


def test_for_document_has_the_fields_of_a_validated_serializer():
    doc = _doc()
    made = ChunkingSerializer.for_document(doc)
    validated = ChunkingSerializer(doc=doc)
    for name in ChunkingSerializer.model_fields:
        assert type(getattr(made, name)) is type(getattr(validated, name)), name
    assert made.params == validated.params
    assert made.fast_path is validated.fast_path is True
    assert made.doc is doc
    assert made.serialize().text == validated.serialize().text


def test_serializers_of_for_document_share_no_mutable_state():
    """Regression: shared parameters would let one document's settings leak into the next serializer's."""
    doc = _doc()
    first, second = ChunkingSerializer.for_document(doc), ChunkingSerializer.for_document(doc)
    assert first.params is not second.params
    for name in ("labels", "layers", "blocked_meta_names"):
        assert getattr(first.params, name) is not getattr(second.params, name)
    before = second.get_excluded_refs()
    first.params.labels.discard(DocItemLabel.TEXT)
    first.params.layers.clear()
    assert second.get_excluded_refs() == before
    assert "Body text." in second.serialize().text
    assert ChunkingSerializer.for_document(doc).serialize().text == second.serialize().text
    first.picture_serializer.marker = "set on one serializer"  # a plain object takes any attribute
    assert not hasattr(second.picture_serializer, "marker")
    assert not hasattr(ChunkingSerializer(doc=doc).picture_serializer, "marker")


def test_for_document_keeps_given_fields_and_copies_components_with_state():
    doc = _doc()
    rows = RowTableSerializer()
    assert ChunkingSerializer.for_document(doc, table_serializer=rows).table_serializer is rows

    class Stateful(MarkdownTextSerializer):
        calls: list[str] = Field(default_factory=list)

    class WithStateful(ChunkingSerializer):
        text_serializer: MarkdownTextSerializer = Stateful(calls=["x"])

    first, second = WithStateful.for_document(doc), WithStateful.for_document(doc)
    assert first.text_serializer is not second.text_serializer  # pydantic's own copy, as for any default
    assert first.text_serializer.calls == ["x"]
    first.text_serializer.calls.append("y")
    assert second.text_serializer.calls == ["x"]
    assert isinstance(first.params, MarkdownParams)
