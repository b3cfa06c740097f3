"""``docchunk chunk --expand page`` on a document without page provenance says so, once a document.

A new user's finding 19b (stop 57): on a DOCX, HTML or Markdown conversion (no ``prov``,
no pages) every row came out unexpanded and the command said nothing; with
``--docling-compat`` docling-core printed a warning with the whole chunk's repr for
every chunk instead. The rows stay as they were: ``expanded_text`` is the chunk's text.
"""

from __future__ import annotations

import subprocess
import sys
import warnings

import pytest

from tests.helpers import DATA, rows, run

UNPAGED = [DATA / "docx__word_sample.docx.json", DATA / "html__html_rich_table_cells.html.json"]
PAGED = DATA / "pdf__multi_page.json"


def _warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("docchunk: warning:")]


def test_regression_expand_page_warns_once_per_document_without_pages(capsys, tmp_path):
    out = tmp_path / "out.jsonl"
    code, _, err = run(capsys, "chunk", *map(str, UNPAGED), str(PAGED), "--expand", "page", "-o", str(out))
    assert code == 0, err
    data = rows(out.read_text())
    lines = _warnings(err)
    assert len(lines) == len(UNPAGED), err
    for path, line in zip(UNPAGED, lines, strict=True):
        count = sum(r["source"] == str(path) for r in data)
        assert f"docchunk: warning: {path}: --expand page expanded none of its {count} chunk(s)" in line
        assert "no page provenance" in line and "--expand tree" in line
    for r in data:  # the rows as before: unexpanded chunks of the unpaged documents, expanded ones of the paged
        if r["source"] == str(PAGED):
            assert r["expanded_page_numbers"] and r["meta"]["expanded"] is True
        else:
            assert r["expanded_text"] == r["text"] and r["expanded_page_numbers"] == [] and "expanded" not in r["meta"]


def test_expand_tree_and_paged_documents_give_no_warning(capsys):
    for args in ([str(UNPAGED[0]), "--expand", "tree"], [str(PAGED), "--expand", "page"], [str(UNPAGED[0])]):
        code, _, err = run(capsys, "chunk", *args)
        assert code == 0 and not _warnings(err), err


@pytest.mark.fresh  # docling-core's warnings reach stderr only outside pytest's warning capture
def test_regression_docling_compat_gives_one_line_not_a_chunk_repr_per_chunk():
    result = subprocess.run([sys.executable, "-m", "docchunk", "chunk", str(UNPAGED[0]), "--expand", "page",
                             "--docling-compat"], capture_output=True, text=True)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "Cannot expand to page" not in result.stderr
    assert len(result.stderr.splitlines()) == 1 and "no page provenance" in result.stderr, result.stderr


@pytest.mark.parametrize("expand", ["page", "tree", None])
@pytest.mark.parametrize("compat", [True, False])
def test_regression_make_doc_chunker_leaves_the_warnings_filters_as_they_were(expand, compat):
    """A library caller of ``make_doc_chunker`` kept a process-wide filter for docling-core's warning (stop 58)."""
    from docling_core.types.doc import DoclingDocument

    from docchunk.cli.options import make_doc_chunker
    from docchunk.cli.settings import ChunkSettings

    doc = DoclingDocument.load_from_json(UNPAGED[0])
    # first, what adds filters of its own when first imported (a library's import-time filters)
    list(make_doc_chunker(ChunkSettings(docling_compat=compat), debug=False).chunk(doc))
    before = list(warnings.filters)
    chunker = make_doc_chunker(ChunkSettings(expand=expand, docling_compat=compat), debug=False)
    assert warnings.filters == before
    assert list(chunker.chunk(doc))
    assert not [f for f in warnings.filters if f[1] is not None and "Cannot expand" in f[1].pattern]
    if expand == "page" and compat:  # silenced while the expander runs, and only then
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            list(chunker.chunk(doc))
            warnings.warn("Cannot expand to page: the caller's own warning", UserWarning, stacklevel=1)
        assert [str(w.message) for w in caught] == ["Cannot expand to page: the caller's own warning"]
