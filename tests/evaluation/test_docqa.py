"""The doc-qa scorer (``docchunk eval-docs``) on hand-checked cases and the shipped excerpt."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from docling_core.types.doc import DocItemLabel, DoclingDocument, TableCell, TableData

import docchunk
from docchunk.evaluation.docqa import (
    Held,
    evaluate_docs,
    held_by_chunk,
    held_by_range,
    load_docqa,
    markdown_export,
    score_held,
)
from tests.helpers import ROOT, letter_counts

DATA = ROOT / "tests" / "data" / "doc-qa"


def test_score_held_counts_characters_and_cells_by_hand():
    evidence = [{"ref": "#/texts/0", "kind": "text", "start": 10, "end": 20}]
    # 10..15 and 12..18 overlap: 8 of the 10 evidence characters, counted once
    held = [Held(chars={"#/texts/0": [(10, 15)]}), Held(chars={"#/texts/0": [(12, 18)]})]
    assert score_held(evidence, held) == pytest.approx(0.8)
    assert score_held(evidence, [Held(chars={"#/texts/1": [(0, 99)]})]) == 0.0
    cells = [{"ref": "#/tables/0", "kind": "cell", "row": r, "col": 1} for r in (1, 2, 3, 4)]
    assert score_held(cells, [Held(cells={("#/tables/0", 1, 1), ("#/tables/0", 3, 1), ("#/tables/0", 3, 0)})]) == 0.5
    # mixed: the mean of the two shares, (0.8 + 0.5) / 2
    both = [Held(chars={"#/texts/0": [(10, 18)]}, cells={("#/tables/0", 1, 1), ("#/tables/0", 2, 1)})]
    assert score_held(evidence + cells, both) == pytest.approx(0.65)


def _doc() -> DoclingDocument:
    doc = DoclingDocument(name="t")
    doc.add_heading(text="Revenue", level=1)
    doc.add_text(label=DocItemLabel.TEXT, text="Revenue grew. Costs fell.")
    cells = [TableCell(text=t, start_row_offset_idx=r, end_row_offset_idx=r + 1, start_col_offset_idx=c,
                       end_col_offset_idx=c + 1, column_header=r == 0)
             for r, row in enumerate([["", "2019"], ["Sales", "614"], ["Cost", "12"]])
             for c, t in enumerate(row)]  # fmt: skip
    doc.add_table(data=TableData(num_rows=3, num_cols=2, table_cells=cells))
    return doc


def test_markdown_export_offsets_by_hand():
    doc = _doc()
    md, offsets, cells = markdown_export(doc)
    assert md == "## Revenue\n\nRevenue grew. Costs fell.\n\n|  | 2019 |\n|---|---|\n| Sales | 614 |\n| Cost | 12 |"
    assert offsets == {"#/texts/0": 3, "#/texts/1": 12}  # a level-1 heading is "##" (the title is "#")
    assert md[slice(*cells[("#/tables/0", 1, 1)])] == "614" and md[slice(*cells[("#/tables/0", 2, 0)])] == "Cost"
    texts = {t.self_ref: t.text for t in doc.texts}
    held = held_by_range(12, 25, offsets, texts, cells)  # "Revenue grew."
    assert held.chars == {"#/texts/1": [(0, 13)]} and held.cells == set()
    start = md.index("| Sales")
    assert held_by_range(start, len(md), offsets, texts, cells).cells == {
        ("#/tables/0", 1, 0), ("#/tables/0", 1, 1), ("#/tables/0", 2, 0), ("#/tables/0", 2, 1)}  # fmt: skip


def test_held_by_chunk_reads_spans_and_table_rows():
    doc = _doc()
    chunks = list(docchunk.HybridChunker(tokenizer="word", max_tokens=4, merge_peers=False).chunk(doc))
    held = [held_by_chunk(c, doc) for c in chunks]
    chars = [h.chars for h in held if h.chars]
    assert chars == [{"#/texts/1": [(0, 14)]}, {"#/texts/1": [(14, 25)]}]
    rows = {c.meta.table_rows for c in chunks if c.meta.table_rows}
    cells = set().union(*(h.cells for h in held))
    # the rows held, and the header row (its texts label every row)
    assert cells == {("#/tables/0", r, c) for lo, hi in rows for r in (0, *range(lo, hi)) for c in (0, 1)}


def test_a_split_row_counts_each_cell_for_the_piece_that_holds_it():
    """Each piece of a table row split between cells held every cell of the row (by ``table_rows``)."""
    from tests.helpers import make_table

    header = ["Item"] + [f"Measure {k}" for k in range(1, 29)]
    doc, _ = make_table([header, ["Sample 1"] + [f"1{k}.5 units" for k in range(1, 29)]])
    chunks = list(docchunk.HybridChunker(max_tokens=120).chunk(doc))
    assert len(chunks) > 1 and all(c.meta.table_cols for c in chunks)
    held = [held_by_chunk(c, doc).cells for c in chunks]
    for col in range(1, 29):  # a value cell and its header: in one piece
        assert sum(("#/tables/0", 1, col) in h for h in held) == 1
        assert sum(("#/tables/0", 0, col) in h for h in held) == 1
    assert all(("#/tables/0", 1, 0) in h and ("#/tables/0", 0, 0) in h for h in held)  # the label: in every one
    for k, h in enumerate(held):  # each value cell held is in the piece's text
        assert all(f"Measure {col} = 1{col}.5 units" in chunks[k].text for _, r, col in h if r == 1 and col)


_fake_embed = letter_counts  # a bag-of-letters embedding: deterministic, no model


@pytest.mark.parametrize("route", ["doc", "flat"])
def test_evaluate_docs_on_the_excerpt(route):
    data = load_docqa(DATA)
    assert sorted(data) == ["fin", "legal", "wiki"] and all(qs for _, qs in data.values())
    report = evaluate_docs(data, _fake_embed, options={"max_tokens": 256}, route=route)
    summary = report.summary()
    assert summary["overall"]["questions"] == sum(len(qs) for _, qs in data.values())
    for row in report.rows:
        values = [row[f"{s}@{k}"] for s in ("doc", "all") for k in (1, 3, 5)]
        assert all(0 <= v <= 1 for v in values) and values[0] <= values[1] <= values[2]
    # ranking the whole document's chunks within a large budget holds all evidence of a small document
    full = evaluate_docs(data, _fake_embed, options={"max_tokens": 256}, route=route, budget=10**6)
    assert all(r["doc@budget"] == pytest.approx(1.0) for r in full.rows if r["genre"] != "legal")


def test_cli_writes_rows(tmp_path, monkeypatch):
    from docchunk.cli import eval_docs
    from docchunk.cli.main import cli

    monkeypatch.setattr(eval_docs, "_run", lambda *a, **k: evaluate_docs(load_docqa(DATA, ["fin"], 1), _fake_embed))
    out = tmp_path / "rows.json"
    result = CliRunner().invoke(cli, ["eval-docs", str(DATA), "--genre", "fin", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "fin" in result.output and "overall" in result.output
    rows = json.loads(out.read_text())["questions"]
    assert rows and {"qid", "doc@1", "all@budget"} <= set(rows[0])


def test_unknown_genre_says_which_exist():
    with pytest.raises(docchunk.ConfigError, match="the genres there are fin, legal, wiki"):
        load_docqa(DATA, ["news"])


def test_offset_skips_documents_then_limit_counts():
    whole = load_docqa(DATA, ["fin", "wiki"])
    for genre, (docs, questions) in load_docqa(DATA, ["fin", "wiki"], limit=1, offset=1).items():
        ids = list(whole[genre][0])
        assert list(docs) == ids[1:2]
        assert {q["doc_id"] for q in questions} == set(ids[1:2])
        assert questions == [q for q in whole[genre][1] if q["doc_id"] == ids[1]]
    with pytest.raises(docchunk.DocumentError, match=r"no question about the documents read .*offset 99.*nothing"):
        load_docqa(DATA, ["fin"], offset=99)  # past the last document: nothing to score (it was 0 questions, exit 0)
    with pytest.raises(docchunk.ConfigError, match="offset must be >= 0"):
        load_docqa(DATA, ["fin"], offset=-1)


def test_cli_passes_offset_and_half(tmp_path, monkeypatch):
    from docchunk.cli import eval_docs
    from docchunk.cli.main import cli

    seen = {}

    def fake(*args, **kwargs):
        seen["offset"], seen["half"] = args[-3], args[-1]
        return evaluate_docs(load_docqa(DATA, ["fin"], 1, args[-3], args[-1]), _fake_embed)

    monkeypatch.setattr(eval_docs, "_run", fake)
    result = CliRunner().invoke(cli, ["eval-docs", str(DATA), "--genre", "fin", "--offset", "2", "--half", "check"])
    assert result.exit_code == 0, result.output
    assert seen == {"offset": 2, "half": "check"}


def _award_doc() -> DoclingDocument:
    """A table whose values repeat across rows (a year, 'Won'), as Wikipedia tables do."""
    doc = DoclingDocument(name="t")
    grid = [["Year", "Award", "Result"], ["2017", "Tony", "Won"], ["2017", "Olivier", "Won"], ["2018", "Emmy", "Lost"]]
    cells = [TableCell(text=t, start_row_offset_idx=r, end_row_offset_idx=r + 1, start_col_offset_idx=c,
                       end_col_offset_idx=c + 1, column_header=r == 0)
             for r, row in enumerate(grid) for c, t in enumerate(row)]  # fmt: skip
    doc.add_table(data=TableData(num_rows=4, num_cols=3, table_cells=cells))
    return doc


def test_cells_by_position_reads_rows_in_order_not_repeated_values():
    from types import SimpleNamespace

    from docchunk.evaluation.docqa import cells_by_position

    doc = _award_doc()
    table = doc.tables[0]
    meta = SimpleNamespace(doc_items=[table], table_rows=None)
    # a window split of the triplets, as docling-core writes a table too long for one chunk
    chunks = [SimpleNamespace(text="2017, Award = Tony. 2017, Result = Won. 2017, Award = Oliv", meta=meta),
              SimpleNamespace(text="ier. 2017, Result = Won. 2018, Award = Emmy. 2018, Result = Lost", meta=meta)]
    placed = cells_by_position(chunks, doc)
    row = lambda r: {("#/tables/0", r, c) for c in range(3)}  # noqa: E731
    # row 2 begins in the first chunk (its year) and ends in the second: both hold it
    assert placed[0] == row(0) | row(1) | row(2)
    assert placed[1] == row(0) | row(2) | row(3)
    # the text approximation credits the second chunk with row 1 too ("2017", "Won" recur)
    assert ("#/tables/0", 1, 2) in held_by_chunk(chunks[1], doc).cells


def test_halves_split_the_documents_by_a_hash_of_doc_id():
    from docchunk.evaluation.docqa import docqa_half

    whole = load_docqa(DATA)
    # the excerpt's documents are all of the checking half: the tuning half has nothing to score, an input error
    assert {docqa_half(d) for docs, _ in whole.values() for d in docs} == {"check"}
    with pytest.raises(docchunk.DocumentError, match=r"no question about the documents read .*half 'tune'"):
        load_docqa(DATA, half="tune")
    check = load_docqa(DATA, half="check")
    for genre, (docs, questions) in whole.items():
        assert list(check[genre][0]) == list(docs) and check[genre][1] == questions
    # the rule is a property of the id alone, so it is the same on every machine and run
    assert docqa_half("fin-0001") == docqa_half("fin-0001")
    with pytest.raises(docchunk.ConfigError, match="half must be one of"):
        load_docqa(DATA, half="train")
