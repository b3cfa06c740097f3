"""Invariants over generated documents with pictures, key-value and form items, formulas and furniture.

Default mode, all-MiniLM-L6-v2 (the bundled tokenizer): every text item, picture child
text, key and value reaches some chunk (its text, or ``contextualize()``), except page
headers and footers, which are left out (and come back with ``include_furniture``); no
placeholder comment; no empty chunk; a document with text gives a chunk.
"""

from __future__ import annotations

import pytest
from docling_core.types.doc import DocItemLabel, DoclingDocument
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import docchunk
from docchunk.serialization.items import PLACEHOLDERS
from tests.chunkers.doc.item_docs import graph, prov
from tests.helpers import examples, squash
from tests.property.strategies import WORDS

_words = st.lists(st.sampled_from([w for w in WORDS if len(w) < 40] + ["Name", "Total", "42", "x+y"]), min_size=1)
phrases = _words.map(" ".join)


@st.composite
def item_documents(draw) -> tuple[DoclingDocument, list[str], list[str]]:
    """A document and the texts that must reach a chunk, and the furniture texts that must not."""
    from docling_core.types.doc import Size

    doc = DoclingDocument(name="items")
    for page in (1, 2, 3):
        doc.add_page(page_no=page, size=Size(width=600, height=800))
    must: list[str] = []
    furniture: list[str] = []
    page = 1
    ops = ["text", "heading", "picture", "kv", "form", "formula", "furniture", "next_page"]
    for op in draw(st.lists(st.sampled_from(ops), min_size=1, max_size=8)):
        text = draw(phrases)
        if op == "next_page":
            page = min(page + 1, 3)
        elif op == "text":
            doc.add_text(label=DocItemLabel.TEXT, text=text, prov=prov(page))
            must.append(text)
        elif op == "heading":
            doc.add_heading(text=text, level=draw(st.integers(1, 2)), prov=prov(page))
            must.append(text)
        elif op == "picture":
            caption = (
                doc.add_text(label=DocItemLabel.CAPTION, text=text, prov=prov(page)) if draw(st.booleans()) else None
            )
            pic = doc.add_picture(caption=caption, prov=prov(page))
            if caption is not None:
                must.append(text)
            for child in draw(st.lists(phrases, max_size=4)):
                # a picture's text items may lack provenance of their own (OCR of a figure)
                child_prov = prov(page) if draw(st.booleans()) else None
                doc.add_text(label=DocItemLabel.TEXT, text=child, parent=pic, prov=child_prov)
                must.append(child)
        elif op in ("kv", "form"):
            pairs = draw(st.lists(st.tuples(phrases, phrases), min_size=1, max_size=3))
            loose = tuple(draw(st.lists(phrases, max_size=2)))
            data = graph(pairs, loose=loose, to_key=draw(st.booleans()))
            (doc.add_key_values if op == "kv" else doc.add_form)(graph=data, prov=prov(page))
            must += [t for pair in pairs for t in pair] + list(loose)
        elif op == "formula":
            kind = draw(st.sampled_from(["latex", "orig", "empty"]))
            if kind == "latex":
                doc.add_formula(text=text, prov=prov(page))
                must.append(text)
            elif kind == "orig":
                doc.add_formula(text="", orig=text, prov=prov(page))
                must.append(text)
            else:
                doc.add_formula(text="", orig="", prov=prov(page))
        else:
            label = draw(st.sampled_from([DocItemLabel.PAGE_HEADER, DocItemLabel.PAGE_FOOTER]))
            marker = f"Furniture{len(furniture)}Marker"
            doc.add_text(label=label, text=f"{marker} {text}", prov=prov(page))
            furniture.append(marker)
    return doc, must, furniture


CHUNKERS = {
    "hybrid16": lambda **kw: docchunk.HybridChunker(max_tokens=16, **kw),
    "hybrid64": lambda **kw: docchunk.HybridChunker(max_tokens=64, **kw),
    "hierarchical": lambda **kw: docchunk.HierarchicalChunker(**kw),
    "page": lambda **kw: docchunk.PageChunker(**kw),
    "page16": lambda **kw: docchunk.PageChunker(max_tokens=16, **kw),
}


@pytest.mark.parametrize("kind", list(CHUNKERS))
@settings(
    deadline=None,
    max_examples=examples(40),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=item_documents(), include_furniture=st.booleans())
def test_every_item_reaches_a_chunk_without_placeholders(kind, data, include_furniture):
    doc, must, furniture = data
    chunker = CHUNKERS[kind](include_furniture=include_furniture)
    try:
        chunks = list(chunker.chunk(doc))
    except docchunk.errors.DocumentError as exc:
        # only a document whose every text is left-out furniture
        assert not must and furniture and not include_furniture, exc
        return
    contexts = [chunker.contextualize(c) for c in chunks]
    body = squash("".join(c.text for c in chunks))
    # a split display formula balances its $$ in each part (markup.formulas): markup between the parts
    unfenced = squash("".join(_without_math_fences(c) for c in chunks))
    squashed = [squash(t) for t in contexts]
    for text in must:
        s = squash(text)
        assert s in body or s.replace("$$", "") in unfenced or any(s in t for t in squashed), (text, contexts)
    joined = "\n".join(contexts)
    for marker in furniture:
        assert (marker in joined) == include_furniture, marker
    for text in [*contexts, *(c.text for c in chunks)]:
        assert not any(p in text for p in PLACEHOLDERS), text
    for chunk in chunks:
        assert chunk.text.strip(), "empty chunk"
    assert chunks or not must


def _without_math_fences(chunk) -> str:
    """A chunk's text without ``$$`` when it holds a formula (the delimiters each part of a split formula gets)."""
    formula = any(getattr(it, "label", None) == "formula" for it in getattr(chunk.meta, "doc_items", ()))
    return chunk.text.replace("$$", "") if formula else chunk.text
