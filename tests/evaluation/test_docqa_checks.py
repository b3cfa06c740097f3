"""Regression (session 8's hostile finding 2): ``docchunk eval-docs`` checks each line of a doc-qa folder.

A malformed set gave raw tracebacks (a question without text, a line that is not JSON, a
docs file that is not gzip, a document that is not a DoclingDocument) or was scored with
exit 0 (evidence naming no item or no characters, no evidence, a question about no
document, an empty set). Each is now a ``DocumentError`` naming the file and line, and
``docchunk eval-docs`` exits 2 with it on one line, as ``docchunk eval`` does.
"""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from docling_core.types.doc import DocItemLabel, DoclingDocument

from docchunk.errors import DocumentError
from docchunk.evaluation.docqa import load_docqa
from docchunk.evaluation.question import find_question
from tests.helpers import make_table, run


def _doc() -> dict[str, Any]:
    doc = DoclingDocument(name="d1")
    doc.add_heading("Warranty")
    doc.add_text(label=DocItemLabel.TEXT, text="The warranty lasts two years from the date of purchase.")
    make_table([["Plan", "Years"], ["Basic", "2"]], doc=doc)
    return {"doc_id": "d1", "doc": doc.export_to_dict()}


Q = {"qid": "q1", "doc_id": "d1", "question": "How long is the warranty?", "answer": ["two years"], "kind": "mixed",
     "evidence": [{"ref": "#/texts/1", "kind": "text", "start": 20, "end": 29},
                  {"ref": "#/tables/0", "kind": "cell", "row": 1, "col": 1}]}  # fmt: skip


def _unit(**changes: Any) -> dict[str, Any]:
    q = copy.deepcopy(Q)
    q["evidence"][0].update(changes)
    return q


def _write(root: Path, docs: list[Any] | bytes, questions: list[Any] | str) -> Path:
    folder = root / "set" / "fin"
    folder.mkdir(parents=True)
    raw = docs if isinstance(docs, bytes) else "".join(json.dumps(d) + "\n" for d in docs).encode()
    (folder / "docs.jsonl.gz").write_bytes(raw if isinstance(docs, bytes) else gzip.compress(raw))
    text = questions if isinstance(questions, str) else "".join(json.dumps(q) + "\n" for q in questions)
    (folder / "questions.jsonl").write_text(text, encoding="utf-8")
    return root / "set"


QUESTIONS = "questions.jsonl:1: "
UNIT = QUESTIONS + "question 'q1': evidence .*"
CASES = {
    "no question key": ([_doc()], [{k: v for k, v in Q.items() if k != "question"}],
                        QUESTIONS + "question 'q1' has question None; it needs the question's text"),
    "empty question": ([_doc()], [dict(Q, question="  ")], QUESTIONS + "question 'q1' has question '  '"),
    "no qid": ([_doc()], [dict(Q, qid="")], QUESTIONS + "qid is ''; each question needs a non-empty string 'qid'"),
    "not JSON": ([_doc()], "{not json\n", QUESTIONS + "not JSON .* each line must be one JSON object"),
    "a JSON list": ([_doc()], "[1, 2]\n", QUESTIONS + "a JSON list, not an object"),
    "not gzip": (b"plain text", [Q], r"docs.jsonl.gz: cannot read it as gzip-compressed UTF-8 JSON lines"),
    "not a document": ([{"doc_id": "d1", "doc": {"bad": 1}}], [Q],
                       r"docs.jsonl.gz:1: the doc of 'd1' is not a DoclingDocument \(name: Field required"),
    "no doc_id": ([{"doc": {}}], [Q], r"docs.jsonl.gz:1: doc_id is None; each line needs a non-empty string"),
    "doc_id twice": ([_doc(), _doc()], [Q], r"docs.jsonl.gz:2: doc_id 'd1' is already on line 1"),
    "unknown ref": ([_doc()], [_unit(ref="#/texts/99")],
                    UNIT + r"names no text item of 'd1' \(no item '#/texts/99' in it\)"),
    "text unit on a table": ([_doc()], [_unit(ref="#/tables/0")],
                             UNIT + r"names no text item of 'd1' \('#/tables/0' is a TableItem\)"),
    "start after end": ([_doc()], [_unit(start=40, end=5)],
                        UNIT + r"start 40, end 5 are not a range of its text \(55 characters\)"),
    "end past the text": ([_doc()], [_unit(end=56)], UNIT + "start 20, end 56 are not a range of its text"),
    "null start": ([_doc()], [_unit(start=None)], UNIT + "start None, end 29 are not a range"),
    "cell out of the grid": ([_doc()], [dict(Q, evidence=[{"ref": "#/tables/0", "kind": "cell", "row": 2, "col": 0}])],
                             UNIT + r"row 2, col 0 are not a cell of its 2x2 grid"),
    "unknown kind": ([_doc()], [_unit(kind="span")],
                     QUESTIONS + "question 'q1' has the evidence unit .* needs a string \"ref\""),
    "no evidence": ([_doc()], [dict(Q, evidence=[])],
                    QUESTIONS + r"question 'q1' has evidence \[\]; it needs a non-empty"),
    "unknown doc_id": ([_doc()], [dict(Q, doc_id="nope")],
                       QUESTIONS + "question 'q1' is about doc_id 'nope', which is on no line of .*docs.jsonl.gz"),
    "empty set": ([], [], r"set: no question about the documents read \(genres fin; .*\): nothing to score"),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
def test_regression_a_malformed_docqa_set_names_the_file_and_line(tmp_path, case):
    docs, questions, message = CASES[case]
    folder = _write(tmp_path, docs, questions)
    with pytest.raises(DocumentError, match=message):
        load_docqa(folder)


def test_a_wellformed_set_loads_and_questions_outside_the_selection_are_skipped(tmp_path):
    """The control: the same set without a mistake loads; a question of a document left out by --limit is no error."""
    other = _doc()
    other["doc_id"] = "d2"
    folder = _write(tmp_path, [_doc(), other], [Q, dict(Q, qid="q2", doc_id="d2")])
    (docs, questions), = load_docqa(folder).values()  # fmt: skip
    assert list(docs) == ["d1", "d2"] and [q["qid"] for q in questions] == ["q1", "q2"]
    (docs, questions), = load_docqa(folder, limit=1).values()  # fmt: skip
    assert list(docs) == ["d1"] and [q["qid"] for q in questions] == ["q1"]


def test_the_question_page_checks_its_question_too(tmp_path):
    """``eval-docs --question QID`` reads the same lines: its evidence outside the document is refused there too."""
    folder = _write(tmp_path, [_doc()], [_unit(start=40, end=5)])
    with pytest.raises(DocumentError, match=UNIT + "start 40, end 5 are not a range"):
        find_question(folder, "q1")


@pytest.mark.parametrize("case", ["not gzip", "no evidence", "empty set"])
def test_regression_eval_docs_exits_2_with_one_line(capsys, tmp_path, case):
    """The command line: exit 2, ``docchunk: error: FILE:LINE: ...`` on one line, no traceback, nothing scored."""
    pytest.importorskip("sentence_transformers", reason='needs sentence-transformers: pip install "docchunk[eval]"')
    docs, questions, _ = CASES[case]
    folder = _write(tmp_path, docs, questions)
    code, out, err = run(capsys, "eval-docs", str(folder), "--ranker", "lexical", "--no-cache")
    assert (code, out) == (2, ""), err
    assert err.startswith("docchunk: error: ") and len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
