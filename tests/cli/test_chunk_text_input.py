"""docchunk chunk on text: .txt files, folders of them and standard input through every text chunker.

Every row's offsets slice its text out of the input as the file holds it (CRLF kept),
and the rows cover all of the input's text.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

import docchunk
from tests.helpers import DATA, rows, run
from tests.test_light_entry_points import HEAVY

TEXTS = {
    "notes.txt": "# Storage\n\nSamples were kept at 4 °C. They stayed there for a week.\n\n"
    "## Results\n\nThe first run failed; the second one worked. Naïve readings were discarded.\n"
    "year | sales | margin\n2007 | 10 | 3%\n2008 | 12 | 4%\n2009 | 15 | 5%\n\nThe end of the notes.\n",
    "windows.txt": "First paragraph, line one.\r\nLine two of it.\r\n\r\nSecond paragraph 🙂 with an emoji.\r\n"
    "\r\nThird paragraph, the last one, a bit longer than the two before it.\r\n",
    "sub/long.txt": " ".join(f"Sentence {i} talks about topic {i % 7} at some length." for i in range(60)),
}
TEXT_CHUNKERS = ["recursive", "token", "sentence", "window"]


@pytest.fixture
def text_folder(tmp_path):
    for name, text in TEXTS.items():
        path = tmp_path / "in" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    return tmp_path / "in"


def check_rows(data: list[dict], source_text: str, tokenizer: docchunk.Tokenizer) -> None:
    """Exact offsets, the usual fields, and every non-space character in some chunk."""
    assert data and [r["chunk_index"] for r in data] == list(range(len(data)))
    covered = [False] * len(source_text)
    for r in data:
        start, end = r["start_index"], r["end_index"]
        assert source_text[start:end] == r["text"] and r["text"]
        meta = r["meta"]
        assert r["contextualized"] == (meta["context_prefix"] or "") + r["text"] + (meta["context_suffix"] or "")
        assert r["token_count"] == tokenizer.count_tokens(r["contextualized"])
        assert r["page_numbers"] == []
        covered[start:end] = [True] * (end - start)
    assert all(ok or ch.isspace() for ok, ch in zip(covered, source_text, strict=True))


@pytest.mark.parametrize("kind", TEXT_CHUNKERS)
def test_a_folder_of_text_files_through_each_text_chunker(capsys, text_folder, kind):
    code, out, err = run(capsys, "chunk", str(text_folder), "--chunker", kind, "--tokenizer", "word",
                         "--chunk-size", "12")  # fmt: skip
    assert code == 0, err
    data = rows(out)
    by_source: dict[str, list[dict]] = {}
    for r in data:
        by_source.setdefault(r["source"], []).append(r)
    assert sorted(by_source) == sorted(str(text_folder / name) for name in TEXTS)
    for source, group in by_source.items():
        check_rows(group, (text_folder / source).read_bytes().decode("utf-8"), docchunk.get_tokenizer("word"))


@pytest.mark.parametrize("kind", TEXT_CHUNKERS)
def test_standard_input_through_each_text_chunker(capsys, monkeypatch, kind):
    text = TEXTS["windows.txt"] + TEXTS["notes.txt"]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8"))))
    code, out, err = run(capsys, "chunk", "-", "--chunker", kind, "--chunk-size", "16")
    assert code == 0, err
    data = rows(out)
    assert {r["source"] for r in data} == {"<stdin>"}
    check_rows(data, text, docchunk.get_tokenizer())  # the default tokenizer's tokens


@pytest.mark.fresh  # runs docchunk in a fresh interpreter
def test_standard_input_from_a_pipe_with_the_default_size(tmp_path):
    text = TEXTS["notes.txt"] * 20
    out = tmp_path / "o.jsonl"
    result = subprocess.run([sys.executable, "-m", "docchunk", "chunk", "-", "--chunker", "recursive", "-o", str(out)],
                            input=text.encode("utf-8"), capture_output=True)  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = rows(out.read_text(encoding="utf-8"))
    tokenizer = docchunk.get_tokenizer()
    check_rows(data, text, tokenizer)
    assert max(r["token_count"] for r in data) <= tokenizer.max_tokens  # the tokenizer's limit by default
    assert result.stderr.decode() == f"docchunk: wrote {out} ({len(data)} chunks from 1 of 1 inputs)\n"


def test_text_file_and_documents_together_with_a_text_chunker(capsys, text_folder):
    """A DoclingDocument among text files is chunked as its Markdown export; offsets are into that text."""
    doc_path = DATA / "md_deepseek__deepseek_title.md.json"
    code, out, err = run(capsys, "chunk", str(text_folder / "notes.txt"), str(doc_path), "--chunker", "sentence",
                         "--chunk-size", "30")  # fmt: skip
    assert code == 0, err
    exported = docchunk.load_document(doc_path).export_to_markdown()
    check_rows([r for r in rows(out) if r["source"] == str(doc_path)], exported, docchunk.get_tokenizer())


def test_refinery_options_add_context_but_keep_the_offsets(capsys, text_folder):
    path = text_folder / "notes.txt"
    text = path.read_text(encoding="utf-8")
    code, out, err = run(capsys, "chunk", str(path), "--chunker", "recursive", "--tokenizer", "word", "--chunk-size",
                         "8", "--context-size", "3", "--headings", "--table-header", "row")  # fmt: skip
    assert code == 0, err
    data = rows(out)
    check_rows(data, text, docchunk.get_tokenizer("word"))
    plain = rows(run(capsys, "chunk", str(path), "--chunker", "recursive", "--tokenizer", "word", "--chunk-size",
                     "8")[1])  # fmt: skip
    assert [(r["start_index"], r["end_index"]) for r in data] == [(r["start_index"], r["end_index"]) for r in plain]
    # context stops at blank lines and headings (OverlapRefinery's stop_at default), so not every chunk has it
    assert data[0]["meta"]["context_prefix"] is None and any(r["meta"]["context_suffix"] for r in data)
    assert data[-1]["meta"]["context_suffix"] is None
    in_table = [r for r in data if r["text"].lstrip().startswith(("2008", "2009"))]
    assert in_table and all("year | sales | margin\n" in r["meta"]["context_prefix"] for r in in_table)
    results = [r for r in data if "second one worked" in r["text"]]
    assert results and results[0]["meta"]["context_prefix"].startswith("Storage\nResults\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--context-size", "5"], "--context-size applies to --chunker recursive, token, sentence, window, semantic "
                                  "and sdpm only, not to --chunker hybrid"),
        (["--chunker", "recursive", "--max-tokens", "5"], "--max-tokens applies to --chunker hybrid, page and line"),
        (["--chunker", "token", "--threshold", "0.5"], "--threshold applies to --chunker semantic and sdpm only"),
        (["--chunker", "recursive", "--expand", "tree"], "--expand applies to --chunker hybrid, hierarchical, page"),
        (["--chunker", "recursive", "--engine", "ray", "-o", "out"], "--engine ray applies to --chunker hybrid"),
        (["--chunker", "recursive", "--no-headings"], None),
    ],
)
def test_options_that_do_not_apply_to_text_chunkers_are_refused(capsys, text_folder, args, message):
    code, out, err = run(capsys, "chunk", str(text_folder / "notes.txt"), *args)
    if message is None:  # a refinery option of the text chunkers: accepted
        assert code == 0 and rows(out), err
        return
    assert code == 2 and out == "" and message in err and len(err.splitlines()) == 1, err


def test_text_files_need_a_text_chunker(capsys, text_folder):
    code, out, err = run(capsys, "chunk", str(text_folder / "notes.txt"))
    assert code == 1 and "unsupported file type" in err and out == ""


def test_empty_and_undecodable_text_are_failed_inputs(capsys, tmp_path):
    (tmp_path / "empty.txt").write_text("")
    (tmp_path / "latin1.txt").write_bytes("caf\xe9".encode("latin-1"))
    (tmp_path / "ok.txt").write_text("Some text.")
    code, out, err = run(capsys, "chunk", str(tmp_path), "--chunker", "token")
    assert code == 1
    assert "empty.txt: nothing to chunk" in err and "latin1.txt: not UTF-8 text" in err
    assert [r["text"] for r in rows(out)] == ["Some text."]


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["semantic", "sdpm"])
def test_semantic_chunkers_on_text_files(capsys, text_folder, kind):
    pytest.importorskip("sentence_transformers", reason='needs the semantic extra: pip install ".[semantic]"')
    path = text_folder / "sub" / "long.txt"
    code, out, err = run(capsys, "chunk", str(path), "--chunker", kind, "--chunk-size", "64", "--boundaries",
                         "sentence", "--context-size", "4")  # fmt: skip
    assert code == 0, err
    check_rows(rows(out), path.read_text(encoding="utf-8"), docchunk.get_tokenizer())


@pytest.mark.fresh  # runs docchunk in a fresh interpreter
def test_text_chunking_loads_no_heavy_module(text_folder):
    """A text file through a text chunker: start-up stays light (no transformers, torch or docling-core chunkers)."""
    out = text_folder / "o.jsonl"
    args = ["chunk", str(text_folder / "notes.txt"), "--chunker", "recursive", "-o", str(out)]
    code = (
        "import json, sys\nfrom docchunk.cli.main import main\n"
        f"try:\n    main({args!r})\nexcept SystemExit as exc:\n    assert not exc.code\n"
        f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == []
    assert rows(out.read_text(encoding="utf-8"))
