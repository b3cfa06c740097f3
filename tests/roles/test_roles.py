"""docchunk.roles: boilerplate marked in meta.role by rules over the document's structure, never dropped."""

from __future__ import annotations

import json

import pytest

import docchunk
from docchunk.batch.rows import chunk_rows
from docchunk.roles import ROLES, chunk_roles, mark_roles
from tests.helpers import CORPUS, CORPUS_REASON, DATA

pytest.importorskip("docling.document_converter", reason="HTML and Markdown pages need the [convert] extra")


def _roles(path, **options) -> list[tuple[str, str]]:
    doc = docchunk.load_document(path)
    chunks = list(docchunk.HybridChunker(**options).chunk(doc))
    return [(role, chunk.text) for chunk, role in zip(chunks, chunk_roles(chunks, doc), strict=True)]


def test_a_wikipedia_like_page_marks_its_contents_see_also_and_languages_and_nothing_else():
    marked = {role: text for role, text in _roles(DATA / "roles_wiki_page.html") if role != "content"}
    assert set(marked) == {"contents", "links"}
    assert "1 History" in marked["contents"]
    content = [text for role, text in _roles(DATA / "roles_wiki_page.html") if role == "content"]
    assert any("market charter" in t for t in content) and any("2021" in t and "12,400" in t for t in content)
    assert not any("Deutsch" in t or "Selby\n" in t for t in content)


def test_a_link_menu_before_the_first_heading_is_navigation_and_a_notice_repeated_three_times_is_furniture():
    roles = _roles(DATA / "roles_manual_page.md", merge_peers=False)
    assert roles[0][0] == "navigation" and "Home" in roles[0][1]
    assert [r for r, t in roles if t.startswith("Confidential")] == ["furniture"] * 3
    assert all(r == "content" for r, t in roles[1:] if not t.startswith("Confidential"))


def test_merged_with_a_paragraph_the_notice_leaves_its_chunk_content():
    roles = _roles(DATA / "roles_manual_page.md")
    assert all(role == "content" for role, text in roles if "warranty" in text.lower() or "Troubleshoot" in text)


def test_regression_numbered_short_texts_are_not_furniture():
    """Bug: digits were ignored when comparing texts, so "Example 1", "Example 2", "Example 3" were furniture."""
    from docling_core.types.doc import DocItemLabel, DoclingDocument

    doc = DoclingDocument(name="examples")
    for i in range(1, 4):
        doc.add_text(label=DocItemLabel.TEXT, text=f"EXAMPLE {i}")
        doc.add_text(label=DocItemLabel.TEXT, text=f"A solution of {i * 10} g of salt was stirred for {i} hours.")
    chunks = list(docchunk.HybridChunker(merge_peers=False).chunk(doc))
    assert "furniture" not in chunk_roles(chunks, doc)


@pytest.mark.skipif(not CORPUS.is_dir(), reason=CORPUS_REASON)
def test_xbrl_concept_lists_are_concepts_and_facts_with_values_are_content():
    path = CORPUS / "docling" / "xbrl__mlac-20251231.xml.json"
    roles = _roles(path)
    concepts = [t for r, t in roles if r == "concepts"]
    assert len(concepts) >= 5
    assert all("value:" not in t for t in concepts)
    assert all(r == "content" for r, t in roles if "value:" in t)


@pytest.mark.skipif(not CORPUS.is_dir(), reason=CORPUS_REASON)
def test_the_corpus_outside_xbrl_has_no_marked_chunk():
    """Read by hand: no document of ../shared/corpus/docling but the XBRL filing holds boilerplate as chunks."""
    for path in sorted((CORPUS / "docling").glob("*.json")):
        if not path.name.startswith("xbrl"):
            assert {r for r, _ in _roles(path)} == {"content"}, path.name


def test_chunk_rows_carry_the_role_and_marking_changes_no_text():
    doc = docchunk.load_document(DATA / "roles_wiki_page.html")
    chunker = docchunk.HybridChunker()
    plain = [c.text for c in chunker.chunk(doc)]
    rows = chunk_rows(chunker, "page.html", doc)
    assert [r["text"] for r in rows] == plain
    assert [r["meta"].get("role") for r in rows].count("links") == 2
    assert all("role" not in r["meta"] for r in rows if r["meta"].get("role") is None)
    assert all(r["meta"].get("role") in (*ROLES, None) for r in rows)
    chunks = list(chunker.chunk(doc))
    assert [c.meta.role or "content" for c in chunks] == ["content"] * len(chunks)  # a chunker never marks
    assert mark_roles(chunks, doc) == [c.meta.role or "content" for c in chunks]
    assert json.loads(chunks[0].meta.model_dump_json()).get("role") is None


def test_regression_docling_core_chunks_whose_items_have_no_text():
    """Bug: docling-core's chunks may hold items as bare DocItems (no ``text``): chunk_roles raised AttributeError."""
    from docling_core.transforms.chunker.doc_chunk import DocChunk, DocMeta
    from docling_core.types.doc import DocItem, DocItemLabel

    doc = docchunk.load_document(DATA / "roles_wiki_page.html")
    items = [DocItem(label=DocItemLabel.LIST_ITEM, self_ref=f"#/texts/{i}") for i in range(4)]
    chunk = DocChunk(text="- History\n- Geography\n- Economy\n- Transport", meta=DocMeta(doc_items=items))
    assert chunk_roles([chunk], doc) == ["content"]


def test_regression_a_paragraph_merged_into_a_link_list_leaves_its_chunk_content():
    """Bug: a footer's link list and the council's address merged into one chunk was marked ``links``.

    The address is content (a question about it must find it); a list chunk's other items,
    headings aside, may hold at most ``LINK_WORDS`` words.
    """
    roles = _roles(DATA / "pages" / "council_news.html")
    address = [role for role, text in roles if "Town Hall, Market Street" in text]
    assert address == ["content"]
    assert [role for role, text in roles if "Contact the council" in text] == ["links"]


def test_regression_a_list_of_links_between_paragraphs_is_content():
    """Bug: an article's own list of linked names ("Principal keepers") was marked ``links``.

    Link lists are boilerplate only outside the document's prose (before its first or
    after its last paragraph of ``PROSE_WORDS`` words); the languages at the end still are.
    """
    roles = _roles(DATA / "pages" / "lighthouse_wiki.html")
    assert [role for role, text in roles if "Robert Oag" in text] == ["content"]
    assert [role for role, text in roles if "Deutsch" in text] == ["links"]
