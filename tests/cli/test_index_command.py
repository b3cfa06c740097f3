"""docchunk index / search, and docchunk chunk --embed, with the bundled all-MiniLM-L6-v2."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest

from tests.helpers import DATA, rows, run

pytest.importorskip("sentence_transformers")

DOCS = [DATA / "wiki.md", DATA / "pdf__multi_page.json", DATA / "docx__word_sample.docx.json"]
# (question, a phrase the chunk holding the answer contains); each answer is in one chunk only
QUESTIONS = [
    ("In which year was IBM founded and under what name?", "Computing-Tabulating-Recording"),
    ("Which company introduced the first commercially available word processor?", "IBM MT/ST"),
    ("What do ducks eat?", "Berries"),
]


@pytest.fixture(scope="module")
def index_db(tmp_path_factory, minilm_dir):
    db = tmp_path_factory.mktemp("index") / "db"
    from docchunk.cli.main import main

    try:
        main(["index", *map(str, DOCS), "--db", str(db)])
    except SystemExit as exc:
        assert not exc.code
    return db


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["hybrid", "dense", "lexical"])
@pytest.mark.parametrize(("question", "answer"), QUESTIONS)
def test_search_finds_the_chunk_with_the_answer_in_the_top_5(index_db, capsys, question, answer, mode):
    code, out, err = run(capsys, "search", str(index_db), question, "-k", "5", "--json", "--mode", mode)
    assert code == 0, err
    hits = json.loads(out)  # lexical ranks only the chunks holding a word of the question
    assert len(hits) == 5 or (mode == "lexical" and hits)
    assert [h["score"] for h in hits] == sorted((h["score"] for h in hits), reverse=True)
    holders = [i for i, h in enumerate(hits) if answer in h["text"]]
    assert holders, [h["text"][:80] for h in hits]


@pytest.mark.slow
def test_search_prints_score_source_pages_headings_and_text(index_db, capsys):
    code, out, err = run(capsys, "search", str(index_db), "swimming ducks", "-k", "2")
    assert code == 0, err
    first = out.split("\n\n")[0].splitlines()
    assert first[0].startswith("1. 0.") and "#" in first[0]
    assert any(line.strip() for line in first[1:])


@pytest.mark.slow
def test_reindex_is_idempotent_and_says_what_it_skipped(index_db, capsys):
    from docchunk.index import IndexStore

    before = IndexStore(index_db).count_rows()
    code, _, err = run(capsys, "index", *map(str, DOCS), "--db", str(index_db))
    assert code == 0, err
    assert "indexed 0 file(s) (0 chunks), skipped 3 unchanged" in err and f"holds {before} chunks" in err
    table = IndexStore(index_db).table().to_arrow()
    assert table.num_rows == before and len(set(table.column("id").to_pylist())) == before


def test_search_of_a_folder_that_is_no_index_is_one_line(tmp_path, capsys):
    code, _, err = run(capsys, "search", str(tmp_path), "anything")
    assert code == 2 and "is not a docchunk index" in err and len(err.splitlines()) == 1


@pytest.mark.slow
def test_chunk_embed_adds_the_vector_of_contextualized_and_workers_give_the_same_rows(
    tmp_path, capsys, minilm_refinery
):
    local, pooled = tmp_path / "local.jsonl", tmp_path / "pooled.jsonl"
    code, _, err = run(capsys, "chunk", *map(str, DOCS), "--embed", "all-MiniLM-L6-v2", "-o", str(local))
    assert code == 0, err
    code, _, err = run(capsys, "chunk", *map(str, DOCS), "--embed", "all-MiniLM-L6-v2", "--workers", "2",
                       "-o", str(pooled))  # fmt: skip
    assert code == 0, err
    assert local.read_text() == pooled.read_text()
    data = rows(local.read_text())
    assert all(list(r)[-1] == "embedding" and len(r["embedding"]) == 384 for r in data)
    for source in {r["source"] for r in data}:  # embedded per file, in batches of that file's chunks
        mine = [r for r in data if r["source"] == source]
        direct = minilm_refinery.embed([r["contextualized"] for r in mine])
        assert np.array_equal(np.array([r["embedding"] for r in mine], dtype=np.float32), direct)


def test_chunk_embed_with_a_text_chunker_embeds_contextualized_in_jsonl_and_parquet(tmp_path, capsys, minilm_refinery):
    """--embed applies to text chunkers too: their rows have contextualized (here with the neighbours' context)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    args = ["chunk", str(DATA / "wiki.md"), "--chunker", "sentence", "--chunk-size", "64", "--context-size", "8",
            "--embed", "all-MiniLM-L6-v2"]  # fmt: skip
    code, out, err = run(capsys, *args)
    assert code == 0, err
    data = rows(out)
    assert len(data) > 1 and any(r["contextualized"] != r["text"] for r in data)
    assert all(list(r)[-1] == "embedding" and "start_index" in r for r in data)
    direct = minilm_refinery.embed([r["contextualized"] for r in data])
    assert np.array_equal(np.array([r["embedding"] for r in data], dtype=np.float32), direct)
    code, _, err = run(capsys, *args, "--format", "parquet", "-o", str(tmp_path / "rows.parquet"))
    assert code == 0, err
    table = pq.read_table(tmp_path / "rows.parquet")
    assert table.schema.field("embedding").type == pa.list_(pa.float32())
    assert np.array_equal(np.array(table.column("embedding").to_pylist(), dtype=np.float32), direct)


def test_chunk_without_embed_has_no_embedding_column(capsys):
    code, out, err = run(capsys, "chunk", str(DOCS[1]))
    assert code == 0, err
    assert all("embedding" not in r for r in rows(out))


def test_index_without_lancedb_names_the_extra_in_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "lancedb", None)  # import fails as if not installed
    code, _, err = run(capsys, "index", str(DOCS[1]), "--db", str(tmp_path / "db"))
    assert code == 2 and '".[index]"' in err and "lancedb" in err and len(err.splitlines()) == 1


def test_index_of_another_model_is_refused_before_loading_it(tmp_path, capsys):
    from docchunk.index import IndexStore

    IndexStore(tmp_path).write_record("all-MiniLM-L6-v2", 384, "HybridChunker()")
    code, _, err = run(capsys, "index", str(DOCS[1]), "--db", str(tmp_path), "--embed", "no-such/model")
    assert code == 2 and "built with the model 'all-MiniLM-L6-v2', not 'no-such/model'" in err


def test_index_with_a_model_that_cannot_load_is_one_line(tmp_path, capsys):
    code, _, err = run(capsys, "index", str(DOCS[1]), "--db", str(tmp_path / "db"), "--embed", str(tmp_path / "none"))
    assert code == 2 and "load the sentence-transformers model" in err and len(err.splitlines()) == 1


def test_index_of_text_only_names_what_index_can_do_and_leaves_no_folder(tmp_path, capsys):
    """Regression (a new user's report): indexing a folder of plain text hinted at
    ``--chunker recursive``, which ``index`` refuses, and the failed run left an empty
    folder that ``search`` then called no index."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "notes.txt").write_text("The warranty lasts two years.\n", encoding="utf-8")
    db = tmp_path / "db"
    code, _, err = run(capsys, "index", str(folder), "--db", str(db))
    assert "the index takes documents only" in err and "--chunker recursive, token" not in err
    assert not db.exists() and "no index written" in err
    code, _, err = run(capsys, "index", str(folder / "notes.txt"), "--db", str(db))
    assert code == 1 and not db.exists() and "no index written" in err
