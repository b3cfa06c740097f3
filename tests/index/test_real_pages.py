"""Questions about real pages: the answer's chunk ranks above every chunk marked as boilerplate (issue 49).

The pages: four HTML pages written for this test after real ones, each with the
boilerplate of its kind (``tests/data/pages``: an encyclopedia article with its
contents list, "See also" and list of languages; a council news page with its
related-news and footer link lists; a documentation page with its "On this page"
list; a blog post under a site menu with its share, recent-posts, archive and tag
lists), plus an XBRL filing and a paper from ``../shared/corpus``. One LanceDB index
of them all, built with the bundled all-MiniLM-L6-v2, is asked each question with
:class:`docchunk.index.Searcher` (and once with ``docchunk search``); the answer's
chunk is found by its text.
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("lancedb")
pytest.importorskip("sentence_transformers")
pytest.importorskip("docling.document_converter", reason="the HTML pages need the [convert] extra")

from click.testing import CliRunner

from docchunk.cli.main import cli
from docchunk.index import IndexStore, Searcher, index_paths
from tests.helpers import CORPUS, CORPUS_REASON, DATA

PAGES = DATA / "pages"
XBRL = CORPUS / "docling" / "xbrl__mlac-20251231.xml.json"
PAPER = CORPUS / "docling" / "pdf__2203.01017v2.json"

QUESTIONS = [  # (question, a text that only the answer's chunk holds)
    ("When was Skerrow Point lighthouse automated?", "automated in 1988"),
    ("Who was the longest-serving keeper of the lighthouse?", "longest-serving principal keeper was Duncan MacRae"),
    ("Who were the principal keepers of Skerrow Point lighthouse?", "Robert Oag"),
    ("What was the Skerrow Point tower built of?", "granite quarried on the island of Mull"),
    ("When will Harwick libraries open on Sundays?", "open on Sundays from 11am to 4pm"),
    ("How are the longer library opening hours paid for?", "grant of 180,000 pounds"),
    ("How often should I rotate my Quillbase access keys?", "rotating them every 90 days"),
    ("How long does a revoked access key keep working?", "within 60 seconds"),
    ("How should dahlia tubers be stored over winter?", "crates of dry compost"),
    ("How much did the sponsor pay for the founder shares?", "capital contribution of $25,000"),
    ("How much did TableFormer improve the TEDS score on simple tables?", "from 91% to 98.5% on simple tables"),
]

BOILERPLATE = [  # (role, a text of a chunk that the rules must mark)
    ("contents", "1 History"), ("links", "Deutsch"), ("links", "Free library cards"),
    ("links", "Contact the council"), ("contents", "Switch your programs\n- Revoke"), ("links", "Vegetables"),
    ("links", "Facebook\n- X\n- Email"), ("links", "Making leaf mould"), ("links", "- November 2025\n- October"),
]  # fmt: skip


@pytest.fixture(scope="module")
def db(tmp_path_factory, minilm_refinery):
    if not XBRL.is_file():
        pytest.skip(CORPUS_REASON)
    db = tmp_path_factory.mktemp("pages") / "db"
    index_paths([PAGES, XBRL, PAPER], db, model=minilm_refinery)
    return db


@pytest.fixture(scope="module")
def rows(db) -> list[dict]:
    return IndexStore(db).table().to_arrow().drop(["vector"]).to_pylist()


@pytest.mark.skipif(not CORPUS.is_dir(), reason=CORPUS_REASON)
def test_the_boilerplate_of_every_page_is_marked_and_no_answer_is(rows):
    for role, text in BOILERPLATE:
        holding = [r for r in rows if text in r["text"]]
        assert holding and {r["role"] for r in holding} == {role}, text
    assert sum(r["role"] == "concepts" for r in rows) >= 5  # the XBRL filing's presentation lists
    for _, answer in QUESTIONS:
        holding = [r for r in rows if answer in r["text"]]
        assert holding and all(r["role"] == "content" for r in holding), answer


@pytest.mark.skipif(not CORPUS.is_dir(), reason=CORPUS_REASON)
@pytest.mark.parametrize("mode", ["hybrid", "dense", "lexical"])
def test_the_answers_chunk_ranks_above_every_marked_chunk(db, rows, minilm_refinery, mode):
    """The default search (content only) ranks the answer in its top 3 in every mode.

    Asked for every role (``roles=None``), dense still ranks every answer above every
    marked chunk; lexical and hybrid (whose fusion weighs the words more) rank the blog's
    tag list ("dahlias", "cold frame", "winter", "tubers"), which holds every word of its
    question, above the answer: the reason the default leaves marked chunks out.
    """
    searcher = Searcher(db, model=minilm_refinery)
    marked = {r["id"] for r in rows if r["role"] != "content"}
    outranked = []
    for question, answer in QUESTIONS:
        top = searcher.search(question, k=3, mode=mode)
        assert all(h.row["role"] == "content" for h in top)
        assert any(answer in h.row["text"] for h in top), (question, [h.row["text"][:60] for h in top])
        every = searcher.search(question, k=len(rows), mode=mode, roles=None)  # boilerplate ranked too
        first = next(i for i, h in enumerate(every) if answer in h.row["text"])
        if marked & {h.row["id"] for h in every[:first]}:
            outranked.append(question)
    assert outranked == ([] if mode == "dense" else ["How should dahlia tubers be stored over winter?"])


@pytest.mark.skipif(not CORPUS.is_dir(), reason=CORPUS_REASON)
def test_docchunk_search_answers_with_content_only(db):
    question, answer = QUESTIONS[3]
    result = CliRunner().invoke(cli, ["search", str(db), question, "-k", "3", "--json"])
    assert result.exit_code == 0, result.output
    hits = json.loads(result.output)
    assert answer in hits[0]["text"] and all(h["role"] == "content" for h in hits)
