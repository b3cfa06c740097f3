"""EmbeddingsRefinery: what it embeds, where the vector goes, batching, the shared cache, its errors."""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pytest

import docchunk
from docchunk import ConfigError, EmbeddingsRefinery, MissingDependencyError, ModelLimitWarning
from docchunk.embeddings import CachedEmbedder
from docchunk.integrations.embedding_refinery import embedding_text
from tests.helpers import DATA, HashEmbeddings

DOC = DATA / "pdf__multi_page.json"
TEXT = "Apples are red. Pears are green and sweet.\n\nPlums are purple. Figs grow in the south of Europe. " * 6


@pytest.fixture(scope="module")
def doc_chunks():
    return list(docchunk.HybridChunker(max_tokens=64).chunk(docchunk.load_document(DOC)))


def _fields(chunk):
    return chunk.model_dump(exclude={"embedding"})


def test_document_chunks_get_the_vector_of_contextualize_and_keep_everything_else(doc_chunks):
    embed = HashEmbeddings()
    before = [_fields(c) for c in doc_chunks]
    out = EmbeddingsRefinery(embed, batch_size=4)(doc_chunks)
    assert out == doc_chunks and len(out) > 4
    assert [_fields(c) for c in out] == before  # text, meta (token_count, doc_items ...) untouched
    expected = embed([docchunk.contextualize(c) for c in doc_chunks])
    assert np.array_equal(np.array([c.embedding for c in out], dtype=np.float32), expected)
    assert all("embedding" not in c.meta.export_json_dict() for c in out)  # meta stays docling-core's JSON
    assert embed.calls == 1 + -(-len(doc_chunks) // 4)  # batches of 4 (the expected call above is one more)


def test_text_chunks_embed_their_refinery_context_and_keep_offsets():
    chunks = docchunk.OverlapRefinery(context_size=4, merge=False)(docchunk.RecursiveChunker(chunk_size=16)(TEXT))
    assert any(c.context_suffix for c in chunks)
    before = [(c.text, c.start_index, c.end_index, c.token_count) for c in chunks]
    embed = HashEmbeddings()
    out = EmbeddingsRefinery(embed)(chunks)
    assert [(c.text, c.start_index, c.end_index, c.token_count) for c in out] == before
    for c in out:
        assert TEXT[c.start_index : c.end_index] == c.text
        with_context = (c.context_prefix or "") + c.text + (c.context_suffix or "")
        assert np.array_equal(np.asarray(c.embedding, dtype=np.float32), embed([with_context])[0])


def test_vectors_equal_the_bundled_model_run_directly_on_contextualize(doc_chunks, minilm_refinery):
    """Vectors equal the model's own on ``contextualize(chunk)``."""
    out = minilm_refinery([c.model_copy() for c in doc_chunks])
    texts = [docchunk.contextualize(c) for c in doc_chunks]
    model = minilm_refinery._embed_batch.model  # the SentenceTransformer itself
    size = minilm_refinery.batch_size
    direct = np.concatenate([model.encode(texts[i : i + size], batch_size=size, convert_to_numpy=True)
                             for i in range(0, len(texts), size)])  # fmt: skip
    got = np.array([c.embedding for c in out], dtype=np.float32)
    assert got.shape == (len(texts), 384) and np.array_equal(got, direct)
    # one call over all texts batches them differently (sorted by length): equal up to float rounding
    np.testing.assert_allclose(got, model.encode(texts, convert_to_numpy=True), atol=1e-6)


def test_cache_is_the_eval_cache_keyed_by_model_and_text(tmp_path, doc_chunks):
    first = HashEmbeddings()
    EmbeddingsRefinery(first, model_name="hash-8", cache_dir=tmp_path)([c.model_copy() for c in doc_chunks])
    again = HashEmbeddings()
    out = EmbeddingsRefinery(again, model_name="hash-8", cache_dir=tmp_path)([c.model_copy() for c in doc_chunks])
    assert again.calls == 0 and all(c.embedding for c in out)  # every vector came from the cache
    texts = [docchunk.contextualize(c) for c in doc_chunks]
    eval_side = HashEmbeddings()
    vectors = CachedEmbedder(eval_side, "hash-8", cache_dir=tmp_path)(texts)  # docchunk eval's reader
    assert eval_side.calls == 0 and np.array_equal(vectors, first(texts))
    other = HashEmbeddings()
    EmbeddingsRefinery(other, model_name="another-model", cache_dir=tmp_path).embed(texts[:2])
    assert other.calls == 1  # another model name never reads these vectors


def test_model_over_input_limit_warns_with_the_counts(doc_chunks):
    largest = max(c.meta.token_count for c in doc_chunks)
    over = sum(c.meta.token_count > 20 for c in doc_chunks)
    with pytest.warns(ModelLimitWarning) as caught:
        EmbeddingsRefinery(HashEmbeddings(max_seq_length=20))([c.model_copy() for c in doc_chunks])
    message = str(caught[0].message)
    assert f"{over} of {len(doc_chunks)} chunks" in message and "limit is 20 tokens" in message
    assert f"largest chunk has {largest} tokens" in message
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        EmbeddingsRefinery(HashEmbeddings(max_seq_length=largest))([c.model_copy() for c in doc_chunks])


@pytest.mark.parametrize(
    ("output", "what"),
    [
        (lambda texts: np.zeros(len(texts)), "shape (3,)"),  # one number per text
        (lambda texts: np.zeros((len(texts) - 1, 4)), "shape (2, 4)"),  # a row missing
        (lambda texts: np.zeros((len(texts), 0)), "shape (3, 0)"),  # empty vectors
        (lambda texts: [["a", "b"]] * len(texts), "cannot read as floats"),
    ],
)
def test_callable_with_the_wrong_shape_is_a_config_error(output, what):
    chunks = docchunk.RecursiveChunker(chunk_size=8)(TEXT)[:3]
    with pytest.raises(ConfigError, match="for 3 texts") as info:
        EmbeddingsRefinery(output)(chunks)
    assert what in str(info.value)
    assert all(c.embedding is None for c in chunks)


@pytest.mark.parametrize("bad", [np.nan, np.inf, 1e39])  # 1e39: an infinity as float32
def test_regression_nan_or_infinite_vectors_name_the_refinerys_model_not_embed_batch(tmp_path, bad):
    chunks = docchunk.RecursiveChunker(chunk_size=8)(TEXT)[:3]

    def broken(texts: list[str]):
        vectors = np.ones((len(texts), 4)).tolist()
        vectors[1][2] = bad
        return vectors

    refinery = EmbeddingsRefinery(broken, cache_dir=tmp_path, model_name="broken")
    with pytest.raises(ConfigError, match=r"NaN or an infinity") as info:
        refinery(chunks)
    message = str(info.value)
    assert "the model 'broken' given to EmbeddingsRefinery must return an array of shape (3, d)" in message
    assert repr(embedding_text(chunks[1])[:60]) in message and "embed_batch" not in message
    assert all(c.embedding is None for c in chunks)
    asked: list[str] = []
    good = EmbeddingsRefinery(lambda texts: asked.extend(texts) or np.ones((len(texts), 4)),
                              cache_dir=tmp_path, model_name="broken")  # fmt: skip
    good(chunks)
    assert asked == [embedding_text(c) for c in chunks]  # nothing of the bad batch was cached
    assert all(c.embedding == [1.0] * 4 for c in chunks)


def test_vectors_of_another_length_in_a_later_batch_are_a_config_error():
    sizes = iter([4, 5])
    chunks = docchunk.RecursiveChunker(chunk_size=8)(TEXT)[:4]
    with pytest.raises(ConfigError, match=r"shape \(2, 5\).*shape \(2, 4\)"):
        EmbeddingsRefinery(lambda texts: np.ones((len(texts), next(sizes))), batch_size=2)(chunks)


def test_bad_settings_are_config_errors():
    with pytest.raises(ConfigError, match="model must be"):
        EmbeddingsRefinery(42)
    with pytest.raises(ConfigError, match="batch_size"):
        EmbeddingsRefinery(HashEmbeddings(), batch_size=0)
    with pytest.raises(ConfigError, match="model_name"):
        EmbeddingsRefinery(HashEmbeddings(), cache_dir="somewhere")
    with pytest.raises(ConfigError, match="did you mean 'batch_size'"):
        EmbeddingsRefinery(HashEmbeddings(), batch_sise=8)


def test_model_name_without_sentence_transformers_names_the_extra(monkeypatch, minilm_dir):
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # import fails as if not installed
    with pytest.raises(MissingDependencyError, match=r'pip install "\.\[semantic\]"|\.\[semantic\]'):
        EmbeddingsRefinery(str(minilm_dir))


def test_exported_lazily_from_docchunk():
    assert docchunk.EmbeddingsRefinery is EmbeddingsRefinery and "EmbeddingsRefinery" in docchunk.__all__
