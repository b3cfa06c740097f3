"""The chunking serializer's fast path against docling-core's serializer path, item by item.

``ChunkingSerializer`` writes plain text, headings and lists directly; with
``fast_path=False`` every item goes through docling-core's Markdown
serializer. Both must give the same text, spans and visited references, for every
item of the corpus and of generated documents with nested, enumerated and marked
lists, formatted and linked text (also against docling-core's own ``ChunkingDocSerializer``).
"""

from __future__ import annotations

import pytest
from docling_core.types.doc import ContentLayer, DocItemLabel, DoclingDocument
from docling_core.types.doc.document import Formatting, Script
from hypothesis import given
from hypothesis import strategies as st

from docchunk.serialization import ChunkingSerializer
from docchunk.serialization.faithful import faithful_serializer
from docchunk.serialization.tables import RowTableSerializer
from tests.helpers import doc_params, load


def _results(serializer, doc, shared_visited: bool) -> list[tuple]:
    """(ref, text, span refs, visited) of every node, alone or in one walk sharing ``visited``."""
    shared: set[str] = set()
    out = []
    for item, _level in doc.iterate_items(
        with_groups=True, traverse_pictures=True, included_content_layers=set(ContentLayer)
    ):
        visited = shared if shared_visited else set()
        res = serializer.serialize(item=item, visited=visited)
        out.append((item.self_ref, res.text, [span.item.self_ref for span in res.spans], sorted(visited)))
    return out


def _assert_same(doc, shared_visited: bool, by_rows: bool | str = False) -> None:
    if by_rows == "faithful":  # the default mode's whole serializer (pictures with their children, key-values)
        fast_ser = faithful_serializer(doc)
        slow_ser = faithful_serializer(doc)
        slow_ser.fast_path = False
    elif by_rows:  # the default mode's serializer: tables by rows (rich cells through the walk's serializer)
        fast_ser = ChunkingSerializer.model_construct(doc=doc, table_serializer=RowTableSerializer())
        slow_ser = ChunkingSerializer.model_construct(doc=doc, table_serializer=RowTableSerializer(), fast_path=False)
    else:
        fast_ser = ChunkingSerializer.for_document(doc)
        slow_ser = ChunkingSerializer.model_construct(doc=doc, fast_path=False)
    fast = _results(fast_ser, doc, shared_visited)
    slow = _results(slow_ser, doc, shared_visited)
    assert len(fast) == len(slow)
    for expected, got in zip(slow, fast, strict=True):
        assert got == expected, f"item {expected[0]} differs"


@pytest.mark.parametrize("by_rows", [False, True, "faithful"], ids=["triplets", "rows", "faithful"])
@pytest.mark.parametrize("shared_visited", [False, True], ids=["alone", "walk"])
@pytest.mark.parametrize("path", doc_params())
def test_fast_path_equals_docling_path_on_corpus(path, shared_visited, by_rows):
    _assert_same(load(path), shared_visited, by_rows)


_WORDS = st.sampled_from(["alpha", "beta_gamma", "x<y>&z", "*star*", "1.", "two\nlines", "a\n\nb", "", " pad "])
# code with backtick runs that a span or fence must outlast
_CODE = st.sampled_from(["x = 1", "a`b", "`lead", "trail`", "``", "f(``)`", "l1\nl2", "```\nfence\n```", "", "a_b <c>"])
_MARKERS = st.sampled_from(["", "-", "*", "+", "1.", "12.", "a)", "(iv)", "•", "◦", "①", " 3.", "1)"])


@st.composite
def _formatting(draw):
    """None, plain, or any mix of docling-core's text formatting."""
    if draw(st.integers(0, 2)) == 0:
        return None
    script = draw(st.sampled_from(list(Script)))
    flags = {name: draw(st.integers(0, 3)) == 0 for name in ("bold", "italic", "underline", "strikethrough")}
    return Formatting(script=script, **flags)


# safe and unsafe (dropped with a warning) schemes, a relative path
_LINKS = st.sampled_from([None, None, None, "https://example.com/a b?x=1", "javascript:alert(1)", "docs/a (1).md"])


def _decorations(draw) -> dict:
    return {"formatting": draw(_formatting()), "hyperlink": draw(_LINKS)}


@st.composite
def _list_documents(draw):
    """Headings, paragraphs and (nested, enumerated, marked) lists, formatted, linked, in inline groups."""
    doc = DoclingDocument(name="lists")
    if draw(st.booleans()):
        doc.add_title(text=draw(_WORDS))

    def add_list(parent, depth: int) -> None:
        group = doc.add_list_group(parent=parent)
        for _ in range(draw(st.integers(0, 4))):
            kind = draw(st.sampled_from(["item", "item", "item", "group", "text"] if depth < 3 else ["item"]))
            if kind == "group":
                add_list(group, depth + 1)
                continue
            if kind == "text":
                doc.add_text(label=DocItemLabel.TEXT, text=draw(_WORDS), parent=group)
                continue
            inline = draw(st.integers(0, 4)) == 0  # an item written as an inline group of texts
            item = doc.add_list_item(
                text="" if inline else draw(_WORDS),
                enumerated=draw(st.booleans()),
                marker=draw(_MARKERS),
                parent=group,
                **_decorations(draw),
            )
            if inline:
                add_inline(item)
            if depth < 3 and draw(st.integers(0, 3)) == 0:
                add_list(item, depth + 1)

    def add_inline(parent) -> None:
        group = doc.add_inline_group(parent=parent)
        for _ in range(draw(st.integers(0, 3))):
            kind = draw(st.sampled_from(["text", "text", "text", "code", "formula", "nested"]))
            if kind == "code":
                doc.add_code(text=draw(_CODE), parent=group, **_decorations(draw))
            elif kind == "formula":
                add_formula(group)
            elif kind == "nested":
                add_inline(doc.add_text(label=DocItemLabel.TEXT, text="", parent=group))
            else:
                doc.add_text(label=DocItemLabel.TEXT, text=draw(_WORDS), parent=group, **_decorations(draw))

    def add_formula(parent) -> None:
        text = draw(st.sampled_from(["E = mc^2", "a_1 < b", "", ""]))
        doc.add_formula(text=text, orig=draw(st.sampled_from([None, "", "x^2"])), parent=parent, **_decorations(draw))

    def add_code(parent) -> None:
        caption = doc.add_text(label=DocItemLabel.CAPTION, text=draw(_WORDS)) if draw(st.integers(0, 3)) == 0 else None
        doc.add_code(text=draw(_CODE), caption=caption, parent=parent, **_decorations(draw))

    for _ in range(draw(st.integers(1, 4))):
        kinds = ["list", "heading", "text", "checkbox", "inline", "inline text", "code", "formula"]
        kind = draw(st.sampled_from(kinds))
        if kind == "code":
            add_code(None)
        elif kind == "formula":
            add_formula(None)
        elif kind == "list":
            add_list(None, 0)
        elif kind == "inline":
            add_inline(None)
        elif kind == "inline text":  # a paragraph or heading written as an inline group
            if draw(st.booleans()):
                add_inline(doc.add_text(label=DocItemLabel.TEXT, text="", **_decorations(draw)))
            else:
                add_inline(doc.add_heading(text="", level=draw(st.integers(1, 3))))
        elif kind == "heading":
            doc.add_heading(text=draw(_WORDS), level=draw(st.integers(1, 7)), **_decorations(draw))
        elif kind == "checkbox":
            doc.add_text(label=DocItemLabel.CHECKBOX_SELECTED, text=draw(_WORDS), **_decorations(draw))
        else:
            doc.add_text(label=DocItemLabel.TEXT, text=draw(_WORDS), **_decorations(draw))
    return doc


@given(doc=_list_documents(), shared_visited=st.booleans())
def test_fast_path_equals_docling_path_on_generated_lists(doc, shared_visited):
    _assert_same(doc, shared_visited)


@given(doc=_list_documents())
def test_fast_path_equals_docling_core_chunking_serializer(doc):
    hierarchical_chunker = pytest.importorskip("docling_core.transforms.chunker.hierarchical_chunker")
    theirs = _results(hierarchical_chunker.ChunkingDocSerializer(doc=doc), doc, True)
    ours = _results(ChunkingSerializer.for_document(doc), doc, True)
    assert ours == theirs


@st.composite
def _picture_documents(draw):
    """Pictures with 0-2 captions (formatted, linked, empty, furniture) and children, some nested or furniture."""
    doc = DoclingDocument(name="pictures")

    def add_picture(parent, depth: int) -> None:
        layer = ContentLayer.FURNITURE if draw(st.integers(0, 5)) == 0 else ContentLayer.BODY
        picture = doc.add_picture(parent=parent, content_layer=layer)
        for _ in range(draw(st.integers(0, 2))):
            caption = doc.add_text(label=DocItemLabel.CAPTION, text=draw(_WORDS), parent=parent, **_decorations(draw))
            if draw(st.integers(0, 5)) == 0:
                caption.content_layer = ContentLayer.FURNITURE
            picture.captions.append(caption.get_ref())
        for _ in range(draw(st.integers(0, 3))):
            kind = draw(st.sampled_from(["text", "text", "footer", "list", "picture"] if depth < 2 else ["text"]))
            if kind == "picture":
                add_picture(picture, depth + 1)
            elif kind == "list":
                group = doc.add_list_group(parent=picture)
                doc.add_list_item(text=draw(_WORDS), parent=group, **_decorations(draw))
            else:
                label = DocItemLabel.PAGE_FOOTER if kind == "footer" else DocItemLabel.TEXT
                doc.add_text(label=label, text=draw(_WORDS), parent=picture, **_decorations(draw))

    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            doc.add_text(label=DocItemLabel.TEXT, text=draw(_WORDS))
        add_picture(None, 0)
    return doc


@given(doc=_picture_documents(), shared_visited=st.booleans())
def test_fast_path_equals_docling_path_on_generated_pictures(doc, shared_visited):
    """The default mode's pictures (captions, then the text inside) are written alike by both paths."""
    _assert_same(doc, shared_visited, "faithful")


def test_fast_path_keeps_the_users_component_serializers():
    """A ChunkingSerializer with its own picture, inline or fallback serializer uses it, fast path or not.

    The generic-group path once stood in for any fallback serializer; each path now
    checks the component it replaces.
    """
    from docling_core.transforms.serializer.common import create_ser_result
    from docling_core.transforms.serializer.markdown import (
        MarkdownFallbackSerializer,
        MarkdownInlineSerializer,
        MarkdownPictureSerializer,
    )
    from docling_core.types.doc import GroupLabel

    class Described(MarkdownPictureSerializer):
        def serialize(self, *, item, doc_serializer, doc, **kwargs):
            return create_ser_result(text="A described picture.", span_source=item)

    class Inline(MarkdownInlineSerializer):
        def serialize(self, *, item, doc_serializer, doc, **kwargs):
            return create_ser_result(text="inline!", span_source=[])

    class Fallback(MarkdownFallbackSerializer):
        def serialize(self, *, item, doc_serializer, doc, **kwargs):
            return create_ser_result(text="group!", span_source=[])

    doc = DoclingDocument(name="components")
    picture = doc.add_picture()
    inline = doc.add_inline_group()
    doc.add_text(label=DocItemLabel.TEXT, text="in line", parent=inline)
    section = doc.add_group(label=GroupLabel.SECTION)
    doc.add_text(label=DocItemLabel.TEXT, text="in a section", parent=section)
    for component, item, expected in (
        ({"picture_serializer": Described()}, picture, "A described picture."),
        ({"inline_serializer": Inline()}, inline, "inline!"),
        ({"fallback_serializer": Fallback()}, section, "group!"),
    ):
        for fast_path in (True, False):
            ser = ChunkingSerializer.model_construct(doc=doc, fast_path=fast_path, **component)
            assert ser.serialize(item=item).text == expected, (component, fast_path)
    # and the defaults take the fast path with docling-core's text
    ser = ChunkingSerializer.for_document(doc)
    assert [ser.serialize(item=it).text for it in (picture, inline, section)] == ["", "in line", "in a section"]
