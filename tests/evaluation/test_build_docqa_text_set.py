"""bench/build_docqa_text_set.py on a two-document excerpt of doc-qa (tests/data/docqa_excerpt)."""

from __future__ import annotations

import gzip
import json

import pytest

from docchunk.evaluation import load_eval_set
from tests.helpers import ROOT, bench_script

EXCERPT = ROOT / "tests" / "data" / "docqa_excerpt"


@pytest.fixture(scope="module")
def builder():
    with bench_script("build_docqa_text_set") as module:
        yield module


def source(genre):
    with gzip.open(EXCERPT / genre / "docs.jsonl.gz", "rt", encoding="utf-8") as handle:
        docs = {row["doc_id"]: row["doc"] for row in map(json.loads, handle)}
    questions = [json.loads(line) for line in (EXCERPT / genre / "questions.jsonl").open(encoding="utf-8")]
    return docs, questions


def expected_contents(doc, question):
    """The text of each non-empty evidence unit, read from the DoclingDocument itself."""
    texts = {t["self_ref"]: t["text"] for t in doc["texts"]}
    tables = {t["self_ref"]: t for t in doc["tables"]}
    out = set()
    for unit in question["evidence"]:
        if unit["kind"] == "text":
            piece = texts[unit["ref"]][unit["start"] : unit["end"]]
        else:
            piece = tables[unit["ref"]]["data"]["grid"][unit["row"]][unit["col"]]["text"].replace("\n", " ")
        if piece:
            out.add(piece)
    return out


def test_references_hold_the_evidence_text_of_the_source_document(builder, tmp_path):
    counts = builder.build(EXCERPT, tmp_path, fin_docs=1, legal_docs=1)
    eval_set = load_eval_set(tmp_path)  # checks corpus[start:end] == content for every reference
    rows = [json.loads(q) for q in _csv_refs(tmp_path)]
    assert counts["fin"]["questions"] + counts["legal"]["questions"] == len(eval_set.questions) == len(rows)
    for genre in ("fin", "legal"):
        docs, questions = source(genre)
        (doc,) = docs.values()
        wanted = [expected_contents(doc, q) for q in questions if expected_contents(doc, q)]
        got = [{r["content"] for r in refs} for refs, q in zip(rows, eval_set.questions, strict=True)
               if q.corpus_id.split("-")[0] == genre]  # fmt: skip
        assert got == wanted


def test_every_body_text_is_written_once_at_its_recorded_offset(builder):
    for genre in ("fin", "legal"):
        docs, _ = source(genre)
        (doc,) = docs.values()
        flat = builder.flatten(doc)
        body_texts = [t for t in doc["texts"] if t["self_ref"] in flat.items]
        assert len(body_texts) == len(doc["texts"])  # nothing dropped (both documents keep all texts in the body)
        for t in body_texts:
            start = flat.items[t["self_ref"]]
            assert flat.text[start : start + len(t["text"])] == t["text"]


def test_headings_lists_and_tables_are_written_as_markdown(builder):
    docs, _ = source("legal")
    flat = builder.flatten(next(iter(docs.values())))
    lines = flat.text.split("\n")
    assert lines[0].startswith("# ")
    assert any(line.startswith("## ") for line in lines)
    docs, _ = source("fin")
    doc = next(iter(docs.values()))
    flat = builder.flatten(doc)
    grid = doc["tables"][0]["data"]["grid"]
    table = [line for line in flat.text.split("\n") if line.startswith("|")]
    assert len(table) == len(grid) + 1 and table[1] == "|" + " --- |" * len(grid[0])
    for (_, r, c), (s, e) in flat.cells.items():
        assert flat.text[s:e] == grid[r][c]["text"].replace("\n", " ").replace("|", "/")


def test_missing_source_is_reported_not_a_traceback(builder, tmp_path, capsys):
    assert builder.main([str(tmp_path / "nowhere"), str(tmp_path / "out")]) == 1
    assert "docs.jsonl.gz" in capsys.readouterr().err


def _csv_refs(folder):
    import csv

    with (folder / "questions_df.csv").open(encoding="utf-8", newline="") as handle:
        return [row["references"] for row in csv.DictReader(handle)]
