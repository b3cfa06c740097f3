"""The inspect page built by docchunk.report: one element per chunk, exact panel text, escaping, no network."""

from __future__ import annotations

import base64
import hashlib
import re

import pytest

import docchunk
from docchunk.report import TINY_FRACTION, inspect_document, render_html
from tests.helpers import DATA, ReportPage, load, shipped_docs

HOSTILE = (
    'start </script><script>window.pwned = 1</script> <img src=x onerror="window.pwned = 2"> '
    '<!-- --> ]]> data-chunk="99" &amp; &lt;b&gt; \u2028 end'
)

DOC_CHUNKERS = {
    "hybrid": lambda: docchunk.HybridChunker(),
    "hierarchical": lambda: docchunk.HierarchicalChunker(),
    "hybrid-word-40": lambda: docchunk.HybridChunker(tokenizer="word", max_tokens=40, merge_peers=False),
}
TEXT_CHUNKERS = {
    "recursive": lambda tok: docchunk.RecursiveChunker(chunk_size=48, tokenizer=tok),
    "token-overlap": lambda tok: docchunk.TokenChunker(tok, chunk_size=48, chunk_overlap=12),
    "sentence": lambda tok: docchunk.SentenceChunker(tok, chunk_size=48),
    "window": lambda tok: docchunk.WindowChunker(offset=30, overlap=10, unit="token", tokenizer=tok),
}


def hostile_document():
    from docling_core.types.doc import DocItemLabel, DoclingDocument

    doc = DoclingDocument(name="hostile")
    doc.add_heading(text="<script>window.pwned = 3</script> heading")
    doc.add_text(label=DocItemLabel.PARAGRAPH, text=HOSTILE)
    doc.add_text(label=DocItemLabel.PARAGRAPH, text="second </SCRIPT ><svg onload=window.pwned=4>")
    return doc


@pytest.mark.parametrize("kind", DOC_CHUNKERS)
@pytest.mark.parametrize("path", shipped_docs(), ids=lambda p: p.name)
def test_one_element_per_document_chunk_and_the_panel_text_is_contextualize(path, kind):
    chunker = DOC_CHUNKERS[kind]()
    doc = load(path)
    chunks = list(chunker.chunk(doc))
    page = ReportPage(render_html([inspect_document(chunker, path.name, doc)]))
    assert page.chunks == [(0, i) for i in range(len(chunks))]
    assert page.texts == [c.text for c in chunks]
    assert [page.contextualized(i) for i in range(len(chunks))] == [chunker.contextualize(c) for c in chunks]


@pytest.mark.parametrize("kind", TEXT_CHUNKERS)
def test_one_element_per_text_chunk_with_its_exact_text(kind, cl100k):
    text = (DATA / "wiki.md").read_text(encoding="utf-8")
    chunker = TEXT_CHUNKERS[kind](cl100k)
    chunks = chunker.chunk(text)
    page = ReportPage(render_html([inspect_document(chunker, "wiki.md", text)]))
    assert len(page.chunks) == len(chunks) > 10
    assert page.texts == [c.text for c in chunks]
    assert [page.contextualized(i) for i in range(len(chunks))] == [c.text for c in chunks]


def test_text_that_html_parsing_rewrites_is_kept_exactly_for_the_panel():
    text = "line one\r\nline two\r\n\r\nline three\0 with a NUL\rend"
    chunker = docchunk.RecursiveChunker(chunk_size=12, tokenizer="character")
    chunks = chunker.chunk(text)
    page = ReportPage(render_html([inspect_document(chunker, "crlf.txt", text)]))
    records = page.data["docs"][0]["chunks"]
    assert [r["x"] for r in records] == [c.text if ("\r" in c.text or "\0" in c.text) else ["", ""] for c in chunks]


def test_page_is_self_contained_and_only_its_own_script_may_run():
    chunker = docchunk.HybridChunker()
    html = render_html([inspect_document(chunker, "paper", load(DATA / "pdf__multi_page.json"))])
    page = ReportPage(html)
    for tag, attrs in page.tags:
        for name in ("src", "href", "action", "srcset", "poster", "data"):
            value = attrs.get(name)
            assert value is None or value.startswith(("#", "data:")), (tag, name, value)
    assert not re.search(r"url\(\s*['\"]?(?!data:)", html)
    assert "@import" not in html
    metas = [a for t, a in page.tags if t == "meta"]
    policy = next(a["content"] for a in metas if a.get("http-equiv") == "Content-Security-Policy")
    assert "default-src 'none'" in policy
    code = [body for attrs, body in page.scripts if "type" not in attrs]
    assert len(code) == 1
    digest = base64.b64encode(hashlib.sha256(code[0].encode("utf-8")).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in policy


@pytest.mark.parametrize("source", ["text", "document"])
def test_chunk_text_is_escaped_and_never_markup(source):
    if source == "text":
        chunker, document = docchunk.RecursiveChunker(chunk_size=40, tokenizer="word"), HOSTILE * 3
        expected = [c.text for c in chunker.chunk(document)]
    else:
        chunker, document = docchunk.HybridChunker(), hostile_document()
        expected = [c.text for c in chunker.chunk(document)]
    page = ReportPage(render_html([inspect_document(chunker, "<b>name</b>", document)], title="<i>t</i>"))
    assert len(page.scripts) == 2  # the JSON blob and the page's own script, nothing from the text
    assert not [t for t, a in page.tags if t == "img" or any(k.startswith("on") for k in a)]
    assert [t for t, _ in page.tags].count("svg") == 1  # the histogram
    assert len(page.chunks) == len(expected)
    assert page.texts == expected
    assert any("</script>" in t for t in page.texts)
    assert page.data["docs"][0]["source"] == "<b>name</b>"


def test_summary_counts_histogram_tiny_and_oversized():
    chunker = docchunk.HierarchicalChunker()  # no budget of its own: the tokenizer's limit, 256
    views = [inspect_document(chunker, p.name, load(p)) for p in shipped_docs()]
    html = render_html(views)
    counts = [(c.token_count, c.oversized) for v in views for c in v.chunks]
    bins = [int(n) for n in re.findall(r"tokens[^<]*: (\d+) chunks?</title>", html)]
    assert sum(bins) == len(counts) == int(re.search(r'<b id="n-chunks">(\d+)</b>', html).group(1))
    tiny = sum(n < 256 * TINY_FRACTION for n, _ in counts)
    over = sum(n > 256 or flag for n, flag in counts)
    assert over > 0 and tiny > 0
    assert int(re.search(r'<b id="n-tiny">(\d+)</b>', html).group(1)) == tiny
    assert int(re.search(r'<b id="n-oversized">(\d+)</b>', html).group(1)) == over
    links = re.findall(r'<details class="(tiny|oversized)".*?</details>', html, flags=re.DOTALL)
    assert links == ["tiny", "oversized"]
    listed = re.findall(r'<details class="tiny".*?</details>', html, flags=re.DOTALL)[0]
    assert len(re.findall(r'href="#c\d+-\d+"', listed)) == tiny


def test_half_open_row_ranges_read_as_one_based_inclusive_rows():
    """``meta.table_rows`` (2, 3), one row, was shown as "rows [2, 3]", which reads as two rows."""
    from docchunk.report import rows_label

    assert [rows_label(r) for r in [(0, 1), (2, 3), (2, 4), (0, 10)]] == ["row 1", "row 3", "rows 3–4", "rows 1–10"]
    doc = load(DATA / "html__html_rich_table_cells.html.json")  # tables of 5 rows, split row by row at 24 words
    chunker = docchunk.HybridChunker(tokenizer="word", max_tokens=24)
    view = inspect_document(chunker, "doc", doc)
    ranges = [c.meta.table_rows for c in chunker.chunk(doc)]
    labelled = [(v, r) for v, r in zip(view.chunks, ranges, strict=True) if r is not None]
    assert any(end - start == 1 for _, (start, end) in labelled)
    html = render_html([view])
    for chunk_view, (start, end) in labelled:
        words = f"row {end}" if end - start == 1 else f"rows {start + 1}–{end}"
        assert chunk_view.table_rows == (start, end) and f'<span class="rows">{words}</span>' in html


def test_the_chunker_is_described_without_object_addresses():
    view = inspect_document(docchunk.HybridChunker(max_tokens=100), "doc", load(DATA / "pdf__multi_page.json"))
    assert view.chunker.startswith("HybridChunker(") and "max_tokens=100" in view.chunker
    assert " at 0x" not in view.chunker and view.budget == 100


def test_table_rows_and_pages_are_labelled():
    from docchunk.report import ChunkView, DocumentView

    views = [
        ChunkView(index=0, text="| a | b |", contextualized="T\n| a | b |", token_count=10, pages=[2, 3, 4],
                  labels=["table"], table_rows=(2, 3)),
        ChunkView(index=1, text="| c | d |", contextualized="| c | d |", token_count=300, oversized=True,
                  labels=["table"], table_rows=(7, 9), pages=[4, 6]),
    ]  # fmt: skip
    html = render_html([DocumentView(source="t", chunker="C()", tokenizer="word", budget=100, chunks=views)])
    assert '<span class="rows">row 3</span>' in html
    assert '<span class="rows">rows 8–9</span>' in html
    assert '<span class="pg">p. 2–4</span>' in html and '<span class="pg">p. 4, 6</span>' in html
    assert '<span class="flag">oversized</span>' in html
    page = ReportPage(html)
    assert page.data["docs"][0]["chunks"][0]["r"] == "row 3"
    assert page.contextualized(0) == "T\n| a | b |"
