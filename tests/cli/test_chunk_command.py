"""The docchunk chunk command: output rows, exit codes, one-line errors."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

import docchunk
from tests.helpers import DATA, rows, run

DOC = DATA / "md_deepseek__deepseek_title.md.json"
FIELDS = {"text", "contextualized", "token_count", "meta", "source", "chunk_index", "page_numbers"}


def test_chunks_to_stdout_with_all_fields(capsys):
    code, out, err = run(capsys, "chunk", str(DOC))
    assert code == 0, err
    data = rows(out)
    assert data and all(FIELDS <= set(r) for r in data)
    assert [r["chunk_index"] for r in data] == list(range(len(data)))
    import docchunk

    tok = docchunk.get_tokenizer()
    for r in data:
        assert r["source"] == str(DOC)
        assert r["token_count"] == tok.count_tokens(r["contextualized"]) <= 256
        assert r["meta"]["schema_name"] == "docling_core.transforms.chunker.DocMeta"
        assert r["meta"]["doc_items"]
        assert r["contextualized"].endswith(r["text"])


def test_options_and_output_file(capsys, tmp_path):
    out_file = tmp_path / "out.jsonl"
    code, out, err = run(
        capsys, "chunk", str(DATA / "pdf__multi_page.json"), "-o", str(out_file), "--tokenizer", "word",
        "--max-tokens", "40", "--no-merge-peers",
    )  # fmt: skip
    assert code == 0, err
    assert out == ""
    data = rows(out_file.read_text())
    assert all(r["token_count"] <= 40 for r in data)
    assert any(r["page_numbers"] for r in data)
    code, out, _ = run(capsys, "chunk", str(DATA / "pdf__multi_page.json"), "--chunker", "hierarchical")
    assert code == 0 and len(rows(out)) >= len(data) // 4


def test_folder_input_and_progress(capsys, tmp_path, monkeypatch):
    from docchunk.batch import progress
    from docchunk.cli import chunk as cli_chunk

    for i in range(12):
        shutil.copy(DOC, tmp_path / f"doc{i:02d}.json")
    monkeypatch.setattr(cli_chunk, "stderr_is_terminal", lambda: True)
    monkeypatch.setattr(progress, "DELAY", 0)  # on a terminal the display waits DELAY seconds; this run is quicker
    code, out, err = run(capsys, "chunk", str(tmp_path))
    assert code == 0
    sources = [r["source"] for r in rows(out)]
    assert sorted(set(sources)) == [str(tmp_path / f"doc{i:02d}.json") for i in range(12)]
    assert "12/12" in err  # the progress display


@pytest.mark.fresh  # runs docchunk in a fresh interpreter
def test_no_progress_bar_by_default_when_stderr_is_not_a_terminal(capsys, tmp_path):
    """A log file got the progress bar's carriage-return updates (stderr redirected, 10+ files)."""
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(12):
        shutil.copy(DOC, folder / f"doc{i:02d}.json")
    out = tmp_path / "o.jsonl"
    with open(tmp_path / "log.txt", "w") as log:
        result = subprocess.run([sys.executable, "-m", "docchunk", "chunk", str(folder), "-o", str(out)],
                                stderr=log, stdout=subprocess.DEVNULL)  # fmt: skip
    assert result.returncode == 0
    count = len(rows(out.read_text()))
    assert (tmp_path / "log.txt").read_text() == f"docchunk: wrote {out} ({count} chunks from 12 of 12 inputs)\n"
    code, _, err = run(capsys, "chunk", str(folder), "--progress", "-o", str(out))  # asked for: shown anyway
    assert code == 0 and "12/12" in err


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda d: d / "missing.json", "no such file"),
        (lambda d: (d / "bad.json").write_text("{oops") and d / "bad.json", "invalid JSON"),
        (lambda d: (d / "list.json").write_text("[]") and d / "list.json", "not a DoclingDocument"),
        (lambda d: (d / "notes.txt").write_text("hi") and d / "notes.txt", "unsupported file type"),
    ],
    ids=["missing", "invalid-json", "not-docling", "unsupported"],
)
def test_bad_input_is_one_line_and_others_still_written(capsys, tmp_path, make, message):
    bad = make(tmp_path)
    code, out, err = run(capsys, "chunk", str(DOC), str(bad), str(DOC))
    assert code == 1
    lines = err.strip().splitlines()
    assert len(lines) == 2 and str(bad) in lines[0] and message in lines[0]
    assert "Traceback" not in err
    assert {r["source"] for r in rows(out)} == {str(DOC)}
    code, out, err = run(capsys, "chunk", str(DOC), str(bad))
    assert len(rows(out)) == len(rows(run(capsys, "chunk", str(DOC))[1]))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--max-tokens", "0"], "--max-tokens"),
        (["--max-tokens", "-5"], "--max-tokens"),
        (["--tokenizer", "nonsense"], "unknown tokenizer"),
        (["--chunker", "nonsense"], "--chunker"),
        (["--tokenizer", "character"], "give --max-tokens"),
        (["--chunker", "hierarchical", "--max-tokens", "5"], "applies to --chunker hybrid, page and line only"),
    ],
)
def test_usage_errors_exit_2(capsys, args, message):
    code, out, err = run(capsys, "chunk", str(DOC), *args)
    assert code == 2
    assert out == ""
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_no_paths_is_usage_error(capsys):
    code, _, err = run(capsys, "chunk")
    assert code == 2 and "PATHS" in err


@pytest.mark.fresh  # runs docchunk in a fresh interpreter
def test_entry_point_subprocess(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "docchunk", "chunk", str(DOC), "-o", str(tmp_path / "o.jsonl")],
        capture_output=True, text=True,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    written = rows((tmp_path / "o.jsonl").read_text())
    assert result.stderr == f"docchunk: wrote {tmp_path / 'o.jsonl'} ({len(written)} chunks from 1 of 1 inputs)\n"


@pytest.mark.fresh  # runs docchunk in a fresh interpreter
def test_chunk_to_file_prints_a_summary_like_inspect(tmp_path):
    """``chunk -o FILE`` printed nothing on success, while ``inspect`` says what it wrote; to stdout, nothing."""
    out = tmp_path / "o.jsonl"
    to_file = subprocess.run([sys.executable, "-m", "docchunk", "chunk", str(DOC), str(DOC), "-o", str(out)],
                             capture_output=True, text=True)  # fmt: skip
    assert to_file.returncode == 0, to_file.stderr
    count = len(rows(out.read_text()))
    assert to_file.stderr.splitlines() == [f"docchunk: wrote {out} ({count} chunks from 2 of 2 inputs)"]
    to_stdout = subprocess.run([sys.executable, "-m", "docchunk", "chunk", str(DOC)], capture_output=True, text=True)
    assert to_stdout.returncode == 0 and to_stdout.stderr == ""
    assert len(rows(to_stdout.stdout)) * 2 == count


def test_dangling_ref_deep_json_and_undecodable_name_are_per_file_errors(capsys, tmp_path):
    """Bugs: a dangling "$ref" or deeply nested JSON printed a traceback and stopped the run;
    a file name that is not UTF-8 broke writing to -o."""
    data = json.loads(DOC.read_text())
    data["body"]["children"].append({"$ref": "#/texts/9999"})
    (tmp_path / "b_dangling.json").write_text(json.dumps(data))
    deep = '{"schema_name": "DoclingDocument", "x": ' + "[" * 100000 + "]" * 100000 + "}"
    (tmp_path / "c_deep.json").write_text(deep)
    shutil.copy(DOC, tmp_path / "a.json")
    shutil.copy(DOC, tmp_path / "d.json")
    odd = tmp_path / "x\udcff.json"  # the bytes b"x\xff.json" as Python decodes them
    try:
        shutil.copy(DOC, odd)
    except (UnicodeEncodeError, OSError):
        odd = None
    out = tmp_path / "out.jsonl"
    code, _, err = run(capsys, "chunk", str(tmp_path), "-o", str(out))
    assert code == 1 and "Traceback" not in err
    assert "b_dangling.json" in err and "c_deep.json" in err
    per_doc = len(rows(run(capsys, "chunk", str(DOC))[1]))
    assert len(out.read_bytes().splitlines()) == per_doc * (3 if odd else 2)


def test_undecodable_file_name_gives_valid_utf8_json_lines(capsys, tmp_path):
    """The name was written back as its raw bytes: lines that were not UTF-8, so not JSON text.
    Now the line escapes it, and the source gives the name's bytes back."""
    import os

    odd = tmp_path / "e\udcff\udcfe.json"  # b"e\xff\xfe.json" as Python decodes it
    try:
        shutil.copy(DOC, odd)
    except (UnicodeEncodeError, OSError):
        pytest.skip("this file system does not take a name that is not UTF-8")
    out = tmp_path / "out.jsonl"
    code, stdout, err = run(capsys, "chunk", str(odd))
    assert code == 0, err
    code, _, err = run(capsys, "chunk", str(odd), "-o", str(out))
    assert code == 0, err
    for text in (out.read_bytes().decode("utf-8"), stdout):  # strict UTF-8
        lines = [json.loads(line) for line in text.splitlines()]
        assert lines and all(os.fsencode(row["source"]) == os.fsencode(str(odd)) for row in lines)
        assert lines[0]["text"] == rows(run(capsys, "chunk", str(DOC))[1])[0]["text"]  # text as usual


def test_bad_callable_tokenizer_is_a_tokenizer_error():
    import docchunk

    doc = docchunk.load_document(DOC)
    for counter in (lambda t: -1, lambda t: None, lambda t: 1 / 0):
        with pytest.raises(docchunk.TokenizerError):
            list(docchunk.HybridChunker(tokenizer=counter, max_tokens=10).chunk(doc))


def test_page_chunks_over_the_model_limit_warn_once(capsys, tmp_path):
    """``--chunker page`` without --max-tokens gave 296-508-token chunks for a 256-token model, silently."""
    pages = DATA / "pdf__multi_page.json"
    limit = docchunk.get_tokenizer().max_tokens
    code, out, err = run(capsys, "chunk", str(pages), "--chunker", "page")
    counts = [row["token_count"] for row in rows(out)]
    over = [c for c in counts if c > limit]
    assert code == 0 and over, counts
    warnings = [line for line in err.splitlines() if line.startswith("docchunk: warning:")]
    assert warnings == [line for line in err.splitlines() if line]
    assert len(warnings) == 1 and f"{len(over)} of {len(counts)} page chunks exceed" in warnings[0]
    assert f"({limit} tokens for" in warnings[0] and f"the largest has {max(over)}" in warnings[0]
    assert not any(row["meta"].get("oversized") for row in rows(out))  # no budget: nothing is over it
    code, out, err = run(capsys, "chunk", str(pages), "--chunker", "page", "--max-tokens", str(limit))
    assert code == 0 and "warning" not in err and max(row["token_count"] for row in rows(out)) <= limit
    report = tmp_path / "r.html"
    code, _, err = run(capsys, "inspect", str(pages), "--chunker", "page", "-o", str(report))
    assert code == 0 and f"{len(over)} of {len(counts)} page chunks exceed" in err


_CYCLE = (
    "class Report:\n"
    "    def __init__(self, path):\n"
    "        self.out, self.me = open(path, 'w'), self  # a reference cycle holding an unflushed file\n"
    "    def __del__(self):\n"
    "        self.out.close()\n"
    "report = Report(sys.argv[1])\n"
    "report.out.write('results\\n' * 10)\n"
)


@pytest.mark.fresh  # runs docchunk in a fresh interpreter
def test_exit_skips_the_final_collections_and_still_writes_everything(tmp_path):
    """Interpreter shutdown spent 0.5 s collecting docling-core's import-time objects on every run.

    The command's entry point collects once and freezes the rest at exit: exit handlers
    registered before it still run after it (here: the check), the output file is
    complete, and a file held by a reference cycle that is garbage is still flushed.
    """
    out = tmp_path / "o.jsonl"
    script = (
        "import atexit, gc, sys\n"
        "atexit.register(lambda: print('frozen at exit:', gc.get_freeze_count() > 0, file=sys.stderr))\n"
        + _CYCLE
        + "gc.disable()  # no collection before exit: only the one at exit can finalize the garbage\n"
        "del report\n"
        "from docchunk.cli.main import run\n"
        f"sys.argv = ['docchunk', 'chunk', {str(DOC)!r}, '-o', {str(out)!r}]\n"
        "run()\n"
    )
    report = tmp_path / "report.txt"
    result = subprocess.run([sys.executable, "-c", script, str(report)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    written = rows(out.read_text())
    assert written and all(row["text"] for row in written)
    assert result.stderr.splitlines() == [
        f"docchunk: wrote {out} ({len(written)} chunks from 1 of 1 inputs)",
        "frozen at exit: True",
    ]
    assert report.read_text() == "results\n" * 10


@pytest.mark.fresh  # runs docchunk in a fresh interpreter
def test_a_program_calling_main_keeps_its_own_shutdown(tmp_path):
    """``main`` froze the calling program's objects at exit: a file held by a reference cycle lost its data.

    Nor does it touch the program's collector while it starts (that is only for the command's own process).
    """
    out = tmp_path / "o.jsonl"
    script = (
        "import atexit, gc, sys\n"
        "atexit.register(lambda: print('frozen at exit:', gc.get_freeze_count() > 0, file=sys.stderr))\n"
        + _CYCLE
        + "from docchunk.cli.main import main\n"
        f"main(['chunk', {str(DOC)!r}, '-o', {str(out)!r}])\n"
        "print('collector on:', gc.isenabled(), 'frozen:', gc.get_freeze_count() > 0, file=sys.stderr)\n"
    )
    report = tmp_path / "report.txt"
    result = subprocess.run([sys.executable, "-c", script, str(report)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[1:] == ["collector on: True frozen: False", "frozen at exit: False"]
    assert report.read_text() == "results\n" * 10


@pytest.mark.fresh  # runs docchunk in a fresh interpreter
def test_the_command_starts_without_collections_and_collects_while_chunking(tmp_path):
    """``run`` builds the chunker with the collector off, then freezes what start-up made and turns it back on."""
    out = tmp_path / "o.jsonl"
    script = (
        "import gc, sys\n"
        "import docchunk.cli.main as cli\n"
        "import docchunk.cli.chunk as chunk_cmd\n"
        "real = chunk_cmd.make_chunker\n"
        "def make(*args, **kwargs):\n"
        "    print('during start-up:', gc.isenabled(), file=sys.stderr)\n"
        "    return real(*args, **kwargs)\n"
        "chunk_cmd.make_chunker = make\n"
        "import docchunk.batch.local as local\n"
        "real_lines = local._chunk_rows\n"
        "def lines(*args):\n"
        "    print('while chunking:', gc.isenabled(), gc.get_freeze_count() > 10000, file=sys.stderr)\n"
        "    return real_lines(*args)\n"
        "local._chunk_rows = lines\n"
        f"sys.argv = ['docchunk', 'chunk', {str(DOC)!r}, '-o', {str(out)!r}]\n"
        "cli.run()\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[:2] == ["during start-up: False", "while chunking: True True"]
    assert rows(out.read_text())


@pytest.mark.parametrize("workers", ["1", "2"])
def test_debug_stops_at_the_first_bad_input_with_any_number_of_workers(capsys, tmp_path, workers):
    """With --workers 2, --debug printed one-line errors and went on, unlike one worker."""
    for i in range(3):
        shutil.copy(DOC, tmp_path / f"doc{i}.json")
    (tmp_path / "doc1.json").write_text("{oops")
    with pytest.raises(docchunk.DocumentError, match=r"doc1\.json: invalid JSON") as info:
        run(capsys, "chunk", str(tmp_path), "--workers", workers, "--debug", "--no-progress")
    assert not isinstance(info.value, SystemExit)  # the error itself, with its traceback


def test_format_parquet_writes_parquet_locally_with_the_ray_schema(capsys, tmp_path):
    """``--format parquet`` without ``--engine ray`` wrote JSON Lines into x.parquet and exited 0."""
    pq = pytest.importorskip("pyarrow.parquet", reason='needs pyarrow: pip install ".[parquet]"')
    out = tmp_path / "x.parquet"
    code, stdout, err = run(capsys, "chunk", str(DOC), str(DATA / "pdf__multi_page.json"), "--format", "parquet",
                            "-o", str(out))  # fmt: skip
    assert code == 0 and stdout == "", err
    table = pq.read_table(out)
    expected = rows(run(capsys, "chunk", str(DOC), str(DATA / "pdf__multi_page.json"))[1])
    assert err == f"docchunk: wrote {out} ({len(expected)} chunks from 2 of 2 inputs)\n"
    from docchunk.integrations.ray import row_schema

    assert table.schema.equals(row_schema(error=False))
    got = table.to_pylist()
    assert [{**r, "meta": json.loads(r["meta"])} for r in got] == expected


def test_format_parquet_to_stdout_is_refused(capsys):
    code, out, err = run(capsys, "chunk", str(DOC), "--format", "parquet")
    assert code == 2 and out == "" and "--format parquet needs -o FILE" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--address", "ray://head:10001"], "--address applies to --engine ray only (this run: --engine local)"),
        (["--num-workers", "3"], "--num-workers applies to --engine ray only"),
        (["--engine", "ray", "--workers", "2"], "--workers applies to --engine local only (this run: --engine ray)"),
        (["--engine", "ray", "--no-progress"], "--no-progress applies to --engine local only"),
        (["--chunker", "hierarchical", "--max-tokens", "5"], "--max-tokens applies to --chunker hybrid, page and line"),
        (["--chunk-size", "50"], "--chunk-size applies to --chunker recursive, token, sentence, window, semantic"),
        (["--chunker", "page", "--min-tokens", "5"], "--min-tokens applies to --chunker hybrid only"),
    ],
)
def test_options_that_do_not_apply_are_refused_by_one_rule(capsys, tmp_path, args, message):
    """``--address`` and ``--num-workers`` without ``--engine ray`` were accepted and ignored, exit 0,
    while ``--max-tokens`` with ``--chunker hierarchical`` was refused."""
    out = tmp_path / "out"
    code, stdout, err = run(capsys, "chunk", str(DOC), "-o", str(out), *args)
    assert code == 2 and stdout == "" and not out.exists()
    assert err.splitlines() == [f"docchunk: error: {err.splitlines()[0].removeprefix('docchunk: error: ')}"]
    assert message in err, err


@pytest.mark.parametrize("chunker", ["line", "page"])
def test_every_document_chunker_takes_include_furniture_and_docling_compat(capsys, chunker):
    """Regression (issue 45): ``--chunker line --include-furniture`` was refused (the line chunker takes
    ``include_furniture`` since it chunks the default serializer's text), and so was ``--docling-compat``
    with ``--chunker line`` and ``page``; each chunks as the API does with the same settings."""
    path = DATA / "notes" / "docx__notes.docx.json"  # a page header and footer in the furniture layer
    doc = docchunk.load_document(path)
    cls = docchunk.LineBasedTokenChunker if chunker == "line" else docchunk.PageChunker
    budget = {"max_tokens": 20} if chunker == "line" else {}  # (the word tokenizer has no limit of its own)
    for flags, settings in (
        ([], {}),
        (["--include-furniture"], {"include_furniture": True}),
        (["--docling-compat"], {"docling_compat": True}),
    ):
        options = [f"--{k.replace('_', '-')}={v}" for k, v in budget.items()]
        code, out, err = run(capsys, "chunk", str(path), "--chunker", chunker, "--tokenizer", "word", *options, *flags)
        assert code == 0, err
        expected = list(cls(tokenizer="word", **budget, **settings).chunk(doc))
        assert [r["text"] for r in rows(out)] == [c.text for c in expected]
        header = any("Coastal field notes" in r["text"] for r in rows(out))
        assert header == bool(flags == ["--include-furniture"]), (flags, out)


def test_page_chunker_max_tokens_with_docling_compat_is_refused(capsys):
    """docling-core's PageChunker keeps each page whole: ``--max-tokens`` would be ignored, so it is refused."""
    code, out, err = run(capsys, "chunk", str(DOC), "--chunker", "page", "--docling-compat", "--max-tokens", "64")
    assert code == 2 and out == ""
    assert "--max-tokens splits pages in the default mode" in err and "keeps each page whole" in err


_PROBE = """
import json, sys
from docchunk.cli.main import main
try:
    main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
heavy = [m for m in ("docling_core", "tokenizers", "tiktoken", "transformers", "ray") if m in sys.modules]
print(json.dumps({"code": code, "heavy": heavy}))
"""


@pytest.mark.fresh  # runs docchunk in a fresh interpreter
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--tokenizer", "foo"], "--tokenizer 'foo': unknown tokenizer spec"),
        (["--docling-compat", "--no-merge-across-pages"], "--no-merge-across-pages is not a docling-core option"),
        (["--docling-compat", "--min-tokens", "20"], "--min-tokens is not a docling-core option"),
        # records written out too: docling-core's tables are no records (stop 56's new-user tester, finding 19)
        (["--docling-compat", "--table-format", "records"], "--table-format records is a default-mode option"),
        (["-o", "{missing}/x.jsonl"], "does not exist"),
        (["--max-tokens", "0"], "--max-tokens"),
        (["--max-tokens", "64", "--min-tokens", "100"], "--min-tokens 100 is above --max-tokens 64"),
        (["--format", "parquet"], "--format parquet needs -o FILE"),
        (["--embed-device", "cpu"], "--embed-device cpu is the device of --embed; give --embed MODEL too"),
    ],
)
def test_usage_errors_come_before_the_start_up(tmp_path, args, message):
    """These were reported only after seconds of start-up (docling-core and the tokenizer imported)."""
    args = [a.replace("{missing}", str(tmp_path / "no_such_folder")) for a in args]
    result = subprocess.run([sys.executable, "-c", _PROBE, "chunk", str(DOC), *args], capture_output=True, text=True)
    probe = json.loads(result.stdout.strip().splitlines()[-1])
    assert probe == {"code": 2, "heavy": []}, result.stderr
    assert message in result.stderr and len(result.stderr.splitlines()) == 1, result.stderr


@pytest.mark.fresh  # runs docchunk in a fresh interpreter
def test_min_tokens_over_the_tokenizers_limit_comes_before_docling_core():
    """``--min-tokens 300`` above the default tokenizer's limit (256) is checked before docling-core loads."""
    result = subprocess.run([sys.executable, "-c", _PROBE, "chunk", str(DOC), "--min-tokens", "300"],
                            capture_output=True, text=True)  # fmt: skip
    probe = json.loads(result.stdout.strip().splitlines()[-1])
    limit = docchunk.get_tokenizer().max_tokens
    assert probe["code"] == 2 and "docling_core" not in probe["heavy"], result.stderr
    assert f"--min-tokens 300 is above the limit of --tokenizer hf:sentence-transformers/all-MiniLM-L6-v2 " \
           f"({limit} tokens per chunk)" in result.stderr  # fmt: skip


def test_a_failed_run_leaves_no_file_behind(capsys, tmp_path):
    """``chunk no/such/file.json -o o.jsonl`` left an empty o.jsonl behind."""
    out = tmp_path / "o.jsonl"
    code, _, err = run(capsys, "chunk", str(tmp_path / "no" / "such" / "file.json"), "-o", str(out))
    assert code == 1 and "no such file" in err
    assert list(tmp_path.iterdir()) == []  # neither the output nor a temporary file
    out.write_text("an older run's output\n")
    code, _, _ = run(capsys, "chunk", str(tmp_path / "missing.json"), "-o", str(out))
    assert code == 1 and out.read_text() == "an older run's output\n"  # not replaced by nothing
    code, _, err = run(capsys, "chunk", str(tmp_path / "missing.json"), str(DOC), "-o", str(out))
    assert code == 1 and rows(out.read_text()) == rows(run(capsys, "chunk", str(DOC))[1])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.jsonl"]


def test_a_run_stopped_by_an_error_leaves_no_partial_file(capsys, tmp_path):
    (tmp_path / "bad.json").write_text("{oops")
    out = tmp_path / "out" / "o.jsonl"
    out.parent.mkdir()
    with pytest.raises(docchunk.DocumentError):
        run(capsys, "chunk", str(DOC), str(tmp_path / "bad.json"), "-o", str(out), "--debug")
    assert list(out.parent.iterdir()) == []


def test_expand_writes_the_matched_chunk_and_its_expansion(capsys):
    """``--expand tree|page`` wrote only the expansion: no field held the small chunk that was matched."""
    pages = DATA / "pdf__multi_page.json"
    small = rows(run(capsys, "chunk", str(pages), "--max-tokens", "32")[1])
    for mode in ("tree", "page"):
        code, out, err = run(capsys, "chunk", str(pages), "--max-tokens", "32", "--expand", mode)
        assert code == 0, err
        data = rows(out)
        keys = ["text", "contextualized", "token_count", "page_numbers", "chunk_index"]
        assert [{k: r[k] for k in keys} for r in data] == [{k: r[k] for k in keys} for r in small]
        assert all(r["token_count"] <= 32 for r in data)  # the small chunk is what is embedded
        assert all(r["text"] in r["expanded_text"] and r["meta"]["expanded"] is True for r in data)
        assert any(len(r["expanded_text"]) > len(r["text"]) for r in data)
        assert all(set(r["page_numbers"]) <= set(r["expanded_page_numbers"]) for r in data)
        assert all(r["expanded_token_count"] >= r["token_count"] for r in data)


def test_a_document_on_standard_input(capsys, monkeypatch):
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(DOC.read_bytes())))
    code, out, err = run(capsys, "chunk", "-")
    assert code == 0, err
    from_file = rows(run(capsys, "chunk", str(DOC))[1])
    assert [{**r, "source": str(DOC)} for r in rows(out)] == from_file
    assert {r["source"] for r in rows(out)} == {"<stdin>"}
