"""``docchunk eval-docs --question QID --html FILE``: one question's chunks ranked, the evidence highlighted.

The ranking is checked against ``evaluate_docs`` (the same recall figures for the
question), the marks against the evidence, and the page in a real headless Chromium
(it renders, shows no console error, runs no text of the data).
"""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner
from docling_core.types.doc import RefItem

from docchunk.evaluation.docqa import evaluate_docs, load_docqa
from docchunk.evaluation.question import find_question, rank_question
from docchunk.report.question import render_question
from tests.cli.test_inspect_browser import HOSTILE, pixel_spread
from tests.evaluation.test_docqa import DATA, _fake_embed
from tests.helpers import Chromium

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
GENRES = ("fin", "wiki", "legal")


def first_qids(genre: str, n: int = 3) -> list[str]:
    with open(DATA / genre / "questions.jsonl", encoding="utf-8") as fh:
        return [json.loads(line)["qid"] for line, _ in zip(fh, range(n), strict=False)]


@pytest.mark.parametrize("genre", GENRES)
def test_the_ranking_gives_eval_docs_figures_and_marks_only_evidence(genre):
    data = load_docqa(DATA, [genre])
    rows = {r["qid"]: r for r in evaluate_docs(data, _fake_embed, options={"max_tokens": 256}).rows}
    for qid in first_qids(genre):
        found, question, doc = find_question(DATA, qid)
        assert found == genre
        ranking = rank_question(doc, question, _fake_embed, "hybrid", {"max_tokens": 256}, genre)
        for k in (1, 3, 5):
            assert ranking.recall[f"doc@{k}"] == pytest.approx(rows[qid][f"doc@{k}"])
        assert [c.rank for c in ranking.chunks] == list(range(1, len(ranking.chunks) + 1))
        assert sorted(c.index for c in ranking.chunks) == list(range(len(ranking.chunks)))
        scores = [c.score for c in ranking.chunks]
        assert scores == sorted(scores, reverse=True)
        texts = [RefItem(cref=e["ref"]).resolve(doc).text[e["start"] : e["end"]]
                 for e in question["evidence"] if e["kind"] == "text"]  # fmt: skip
        cells = [" ".join(RefItem(cref=e["ref"]).resolve(doc).data.grid[e["row"]][e["col"]].text.split())
                 for e in question["evidence"] if e["kind"] == "cell"]  # fmt: skip
        for c in ranking.chunks:
            assert bool(c.marks) == (c.share > 0) or not cells  # a held header cell may have no mark of its own
            for start, end, kind in c.marks:
                marked = c.text[start:end]
                if kind == "text":
                    assert any(marked in t for t in texts), marked
                else:
                    assert marked in cells, marked
        if any(e["kind"] == "text" for e in question["evidence"]) and ranking.recall["doc@5"] > 0:
            assert any(k == "text" for c in ranking.chunks for *_, k in c.marks)


def test_unknown_question_says_so():
    import docchunk

    with pytest.raises(docchunk.ConfigError, match="no question 'nope'"):
        find_question(DATA, "nope")


def test_cli_writes_the_page_and_checks_its_options(tmp_path, monkeypatch):
    from docchunk.cli import eval_docs
    from docchunk.cli.main import cli

    monkeypatch.setattr(eval_docs, "_embedder", lambda *a: _fake_embed)
    qid = first_qids("wiki", 1)[0]
    out = tmp_path / "q.html"
    result = CliRunner().invoke(cli, ["eval-docs", str(DATA), "--question", qid, "--html", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    _, question, doc = find_question(DATA, qid)
    ranking = rank_question(doc, question, _fake_embed, "hybrid", {"max_tokens": 256})
    assert page.count('data-rank="') == len(ranking.chunks) and "<script" not in page
    assert "wrote" in result.output and "doc@1" in result.output
    alone = CliRunner().invoke(cli, ["eval-docs", str(DATA), "--question", qid])
    assert alone.exit_code == 2 and "--question and --html go together" in alone.output
    peer = CliRunner().invoke(cli, ["eval-docs", str(DATA), "--question", qid, "--html", str(out), "--peer", "flat"])
    assert peer.exit_code == 2 and "leave out --peer" in peer.output


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install -y chromium)")
def test_the_page_renders_in_chromium_with_the_evidence_highlighted(tmp_path):
    pages = []
    for genre in ("fin", "wiki"):
        _, question, doc = find_question(DATA, first_qids(genre, 1)[0])
        ranking = rank_question(doc, question, _fake_embed, "hybrid", {"max_tokens": 256}, genre)
        path = tmp_path / f"{genre}.html"
        path.write_text(render_question(ranking), encoding="utf-8")
        pages.append((path, ranking))
    _, question, doc = find_question(DATA, first_qids("fin", 1)[0])
    hostile = rank_question(doc, {**question, "question": HOSTILE, "answer": [HOSTILE]}, _fake_embed)
    (tmp_path / "hostile.html").write_text(render_question(hostile), encoding="utf-8")
    with Chromium(CHROMIUM, str(tmp_path / "profile")) as browser:
        for path, ranking in pages:
            session = browser.open(path.as_uri())
            assert browser.evaluate(session, "document.querySelectorAll('[data-rank]').length") == len(ranking.chunks)
            marks = sum(len(c.marks) for c in ranking.chunks)
            assert marks and browser.evaluate(session, "document.querySelectorAll('main mark').length") == marks
            first = browser.evaluate(session, "document.querySelector('[data-rank=\"1\"]').dataset.chunk")
            assert first == str(ranking.chunks[0].index)
            shown = browser.evaluate(session, "[...document.querySelectorAll('main mark')].map(m => m.textContent)")
            assert shown == [c.text[s:e] for c in ranking.chunks for s, e, _ in c.marks]
            color = browser.evaluate(session, "getComputedStyle(document.querySelector('main mark')).backgroundColor")
            assert color in ("rgb(255, 229, 138)", "rgb(167, 227, 181)")
            assert pixel_spread(browser.screenshot(session)) > 20
        session = browser.open((tmp_path / "hostile.html").as_uri())
        assert browser.evaluate(session, "typeof window.pwned") == "undefined"
        assert browser.evaluate(session, "document.querySelector('.question').textContent") == HOSTILE
        assert browser.evaluate(session, "document.querySelectorAll('img, script').length") == 0
        assert browser.errors() == []
