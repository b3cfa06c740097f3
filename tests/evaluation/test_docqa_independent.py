"""bench/docqa_independent.py: its scoring by hand, and its agreement with docchunk.evaluation on the excerpt."""

from __future__ import annotations

import pytest

from docchunk import HybridChunker
from docchunk.evaluation.docqa import evaluate_docs, load_docqa
from tests.evaluation.test_docqa import _fake_embed
from tests.helpers import ROOT, bench_script

DATA = ROOT / "tests" / "data" / "docqa_excerpt"


@pytest.fixture(scope="module")
def independent():
    with bench_script("docqa_independent") as module:
        yield module


def test_recall_counts_characters_and_cells_by_hand(independent):
    evidence = [{"ref": "#/texts/0", "kind": "text", "start": 0, "end": 10},
                {"ref": "#/tables/0", "kind": "cell", "row": 1, "col": 1},
                {"ref": "#/tables/0", "kind": "cell", "row": 2, "col": 1}]  # fmt: skip
    chars = {("#/texts/0", i) for i in range(5, 15)}  # 5 of the 10 characters
    cells = {("#/tables/0", 1, 1)}  # 1 of the 2 cells
    assert independent.recall(evidence, chars, cells) == pytest.approx((0.5 + 0.5) / 2)
    assert independent.recall(evidence[:1], set(), set()) == 0.0


def test_a_span_whose_text_is_not_in_the_chunk_is_reported(independent):
    doc = {"texts": [{"self_ref": "#/texts/0", "text": "The Customer pays within 30 days."}]}
    problems: list[str] = []
    chars, _ = independent.held({"spans": [{"ref": "#/texts/0", "start": 4, "end": 12}]}, "Customer", doc, problems)
    assert chars == {("#/texts/0", i) for i in range(4, 12)} and problems == []
    independent.held({"spans": [{"ref": "#/texts/0", "start": 13, "end": 17}]}, "Customer", doc, problems)
    assert len(problems) == 1 and "pays" in problems[0]


def test_independent_and_shipped_evaluators_agree_on_the_excerpt(independent):
    shipped = evaluate_docs(load_docqa(DATA), _fake_embed, options={"max_tokens": 256})
    rows, counts, problems = independent.evaluate(independent.load(DATA, None, 0), HybridChunker(max_tokens=256),
                                                  _fake_embed)  # fmt: skip
    assert problems == []
    assert counts == {g: int(st["chunks"]) for g, st in shipped.chunks.items()}
    assert set(rows) == {r["qid"] for r in shipped.rows}
    for r in shipped.rows:
        for name in ("doc@1", "doc@3", "doc@5", "all@1", "all@3", "all@5"):
            assert rows[r["qid"]][name] == pytest.approx(r[name]), (r["qid"], name)
