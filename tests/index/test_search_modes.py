"""docchunk.index search modes: the full-text index, lexical (BM25), hybrid (reciprocal rank fusion), old indexes."""

from __future__ import annotations

import pytest

pytest.importorskip("lancedb")

from docchunk import ConfigError, EmbeddingsRefinery
from docchunk.index import IndexStore, Searcher, index_paths, search
from docchunk.index.fusion import DENSE_WEIGHT, LEXICAL_WEIGHT, hybrid_fusion
from docchunk.index.store import RRF_K
from tests.helpers import HashEmbeddings

TOPICS = ["harbour tides", "orchard pruning", "zeppelin quartermaster duties", "glacier retreat", "violin varnish",
          "desert irrigation"]  # fmt: skip


def _embedder():
    return EmbeddingsRefinery(HashEmbeddings(), model_name="hash-8")


@pytest.fixture
def db(tmp_path):
    src = tmp_path / "notes.md"
    parts = [f"## Part {i}\n\n" + f"This part is about {topic}, and {topic} only. " * 12
             for i, topic in enumerate(TOPICS)]  # fmt: skip
    src.write_text("# Notes\n\n" + "\n\n".join(parts), encoding="utf-8")
    db = tmp_path / "db"
    report = index_paths([src], db, model=_embedder())
    assert report.chunks >= len(TOPICS)
    return db


def test_index_builds_the_full_text_index_and_lexical_ranks_the_rare_words_first(db):
    assert IndexStore(db).has_fts()
    hits = search(db, "quartermaster of the zeppelin", k=3, model=_embedder(), mode="lexical")
    assert "zeppelin quartermaster" in hits[0].row["text"]
    assert all("zeppelin" in h.row["text"] or h.score < hits[0].score for h in hits)


def test_hybrid_is_the_weighted_reciprocal_rank_fusion_of_the_dense_and_lexical_rankings(db):
    n = IndexStore(db).count_rows()
    question = "zeppelin duties in the orchard"
    ranked = {mode: search(db, question, k=n, model=_embedder(), mode=mode) for mode in ("dense", "lexical")}
    expected: dict[str, float] = {}
    for mode, weight in (("dense", DENSE_WEIGHT), ("lexical", LEXICAL_WEIGHT)):
        for rank, hit in enumerate(ranked[mode], 1):
            expected[hit.row["id"]] = expected.get(hit.row["id"], 0.0) + weight / (RRF_K + rank)
    hybrid = search(db, question, k=n, model=_embedder(), mode="hybrid")
    assert len(ranked["lexical"]) < n  # some chunks hold no word of the question: dense alone ranks them
    assert {h.row["id"]: pytest.approx(h.score, abs=1e-6) for h in hybrid} == expected
    assert [h.score for h in hybrid] == sorted((h.score for h in hybrid), reverse=True)


@pytest.mark.parametrize("k", [1, 2, 3])
def test_hybrid_top_k_is_the_top_k_of_the_fusion_of_the_whole_rankings(db, k):
    """Regression: hybrid fused only the top k of each ranking, so a chunk just below k in both lost its terms."""
    n = IndexStore(db).count_rows()
    for question in ["zeppelin duties in the orchard", "tides of the glacier", "varnish for the desert"]:
        whole = {mode: [h.row["id"] for h in search(db, question, k=n, model=_embedder(), mode=mode)]
                 for mode in ("dense", "lexical")}  # fmt: skip
        expected = [i for i, _ in hybrid_fusion(whole["dense"], whole["lexical"])[:k]]
        hybrid = search(db, question, k=k, model=_embedder(), mode="hybrid")
        assert [h.row["id"] for h in hybrid] == expected, question


def test_lexical_search_loads_no_embedding_model(db):
    searcher = Searcher(db)  # the index records "hash-8", a name no library can load
    hits = searcher.search("glacier retreat", k=1, mode="lexical")
    assert "glacier retreat" in hits[0].row["text"]
    with pytest.raises(Exception, match="hash-8"):
        searcher.search("glacier retreat", k=1, mode="dense")


def test_an_index_built_before_the_full_text_index_and_roles_gets_them(db, tmp_path):
    """Regression: an index of the first version (no FTS index, no role column) is searched and re-indexed."""
    table = IndexStore(db).table()
    for index in table.list_indices():
        table.drop_index(index.name)
    table.drop_columns(["role"])
    assert not IndexStore(db).has_fts() and not IndexStore(db).has_role()
    hits = search(db, "violin varnish", k=6, model=_embedder(), mode="hybrid")
    assert IndexStore(db).has_fts() and len(hits) == 6
    assert any("violin varnish" in h.row["text"] and h.score >= 1 / (RRF_K + 1) for h in hits)
    (tmp_path / "more.md").write_text("# More\n\nA note on violin strings.\n", encoding="utf-8")
    index_paths([tmp_path / "more.md"], db, model=_embedder())
    rows = IndexStore(db).table().to_arrow().to_pylist()
    assert {r["role"] for r in rows} == {"content"}


@pytest.mark.parametrize(("mode", "message"), [("semantic", "not a ranking mode"), ("hybrid", "k")])
def test_a_bad_mode_or_k_is_a_config_error(db, mode, message):
    with pytest.raises(ConfigError, match=message):
        search(db, "tides", k=0 if message == "k" else 1, model=_embedder(), mode=mode)


def test_marked_chunks_are_stored_left_out_of_the_ranking_and_found_when_asked(tmp_path):
    pytest.importorskip("docling.document_converter", reason="the HTML page needs the [convert] extra")
    from tests.helpers import DATA

    db = tmp_path / "db"
    index_paths([DATA / "roles_wiki_page.html"], db, model=_embedder())
    rows = IndexStore(db).table().to_arrow().to_pylist()
    assert sorted(r["role"] for r in rows if r["role"] != "content") == ["contents", "links", "links"]
    n = len(rows)
    for mode in ("dense", "lexical", "hybrid"):
        default = search(db, "Deutsch Français Selby history", k=n, model=_embedder(), mode=mode)
        assert default and all(h.row["role"] == "content" for h in default)
        every = search(db, "Deutsch Français Selby history", k=n, model=_embedder(), mode=mode, roles=None)
        assert {h.row["role"] for h in every} >= {"links"}
