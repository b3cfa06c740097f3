"""A text retrieval set for ``docchunk eval`` from the doc-qa documents (fin and legal genres).

    python bench/build_docqa_text_set.py ../shared/eval/doc-qa OUT_DIR [--fin-docs 120] [--legal-docs 30]

doc-qa (``../shared/eval/doc-qa``, see its README) holds DoclingDocuments and questions whose
evidence is a character range of a text item or one table cell:

- ``fin``: TAT-QA (NExTplusplus/TAT-QA), CC BY 4.0: annual-report paragraphs and one table each;
- ``legal``: ContractNLI (stanfordnlp/contract-nli-bert), CC BY 4.0: non-disclosure agreements
  with headings and list items, the query a hypothesis, evidence its annotated spans.

Each document is flattened to Markdown-like text while its offsets are recorded: the title as
``# ``, section headers as ``##`` + one ``#`` per level below 1, paragraphs separated by a blank
line, the items of one list on consecutive lines, a table as a GitHub pipe table (header row,
``| --- |`` delimiter row, one line per grid row; a spanned cell written once, at its first
column; line breaks inside a cell become spaces and ``|`` becomes ``/``, so cell text keeps its
length). Every evidence unit becomes a reference span by arithmetic on the recorded offsets (a
text unit: the item's start plus its ``start``/``end``; a cell unit: the span where the cell's
text was written), never by searching the text. Units that are empty (an empty cell, an empty
range) are dropped; a question left without a unit is dropped and counted.

Output, the layout of Chroma's general evaluation set that :func:`docchunk.evaluation.load_eval_set`
reads:

- ``corpora/fin.md``: the first ``--fin-docs`` fin documents (sorted by ``doc_id``) joined by a
  blank line, one corpus, so a question ranks the chunks of every report (the genre, as the
  doc-qa README suggests for fin);
- ``corpora/legal-<doc_id>.md``: one corpus per legal document (the same 17 hypotheses recur
  in every agreement, so a question ranks its own agreement only);
- ``questions_df.csv``: ``question``, ``references`` (JSON list of ``{content, start_index,
  end_index}``), ``corpus_id``, ``kind`` (text / table / mixed), ``qid``;
- ``README.md``: sources, licences and counts.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

GENRES = ("fin", "legal")


@dataclass
class Flat:
    """A document's flat text and where each item's and cell's text was written.

    Attributes:
        text: The flat text.
        items: ``self_ref`` of a text item -> offset of its first character.
        cells: ``(table self_ref, row, col)`` -> ``(start, end)`` of the cell's text.
    """

    text: str = ""
    items: dict[str, int] = field(default_factory=dict)
    cells: dict[tuple[str, int, int], tuple[int, int]] = field(default_factory=dict)


class _Writer:
    """Appends blocks separated by blank lines, and lines of one block, keeping the offset."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.length = 0
        self.open_block = False

    def write(self, piece: str) -> int:
        start = self.length
        self.parts.append(piece)
        self.length += len(piece)
        return start

    def block(self) -> None:
        """Start a new block (a blank line after the previous one)."""
        if self.open_block:
            self.write("\n\n")
        self.open_block = True

    def line(self) -> None:
        """Start a new line of the current block."""
        if self.open_block:
            self.write("\n")
        self.open_block = True


def _cell_text(text: str) -> str:
    """Cell text on one line and without pipes, same length (so offsets stay exact)."""
    return text.replace("\r", " ").replace("\n", " ").replace("|", "/")


def flatten(doc: dict[str, Any]) -> Flat:
    """Flatten a DoclingDocument (JSON dict) in body order.

    Raises:
        ValueError: A ``$ref`` points to nothing.
    """
    out = Flat()
    writer = _Writer()
    nodes = {}
    for kind in ("texts", "tables", "groups", "pictures"):
        for node in doc.get(kind) or []:
            nodes[node["self_ref"]] = node

    def visit(ref: str, place: str) -> None:
        """Write ``ref``; ``place``: ``block`` (a new block), ``line`` (a new line) or ``here``."""
        node = nodes.get(ref)
        if node is None:
            raise ValueError(f"dangling reference {ref!r} in document {doc.get('name')!r}")
        children = [child["$ref"] for child in node.get("children") or []]
        if ref.startswith("#/groups/"):
            if node.get("label") in ("list", "ordered_list"):
                for i, child in enumerate(children):  # the items of one list: one block, a line each
                    visit(child, place if i == 0 else "line")
            else:
                for child in children:
                    visit(child, place)
            return
        if ref.startswith("#/tables/"):
            table(ref, node)
            return
        if ref.startswith("#/pictures/"):
            for child in children:
                visit(child, "block")
            return
        if place == "block":
            writer.block()
        elif place == "line":
            writer.line()
        label = node.get("label")
        if label == "title":
            writer.write("# ")
        elif label == "section_header":
            writer.write("#" * min(6, 1 + max(1, int(node.get("level") or 1))) + " ")
        out.items[ref] = writer.write(node.get("text") or "")
        for child in children:
            visit(child, "line")

    def table(ref: str, node: dict[str, Any]) -> None:
        grid = node["data"].get("grid") or []
        if not grid:
            return
        writer.block()
        for r, row in enumerate(grid):
            if r:
                writer.write("\n")
            writer.write("|")
            for c, cell in enumerate(row):
                writer.write(" ")
                first = (cell.get("start_row_offset_idx", r), cell.get("start_col_offset_idx", c)) == (r, c)
                text = _cell_text(cell.get("text") or "") if first else ""  # a spanned cell: written once
                start = writer.write(text)
                if text:
                    out.cells[(ref, r, c)] = (start, start + len(text))
                writer.write(" |")
            if r == 0:
                writer.write("\n|" + " --- |" * len(row))
        for r, row in enumerate(grid):  # evidence on a covered grid position points to the spanning cell
            for c, cell in enumerate(row):
                key = (ref, cell.get("start_row_offset_idx", r), cell.get("start_col_offset_idx", c))
                if key in out.cells:
                    out.cells.setdefault((ref, r, c), out.cells[key])

    for child in doc["body"].get("children") or []:
        visit(child["$ref"], "block")
    out.text = "".join(writer.parts)
    return out


def references(flat: Flat, evidence: list[dict[str, Any]], item_texts: dict[str, str]) -> list[tuple[int, int]]:
    """Character spans of ``flat.text`` for the evidence units (empty units dropped, duplicates once).

    Args:
        flat: The flattened document.
        evidence: doc-qa evidence units (``kind`` ``text`` with ``ref``, ``start``, ``end``;
            ``cell`` with ``ref``, ``row``, ``col``).
        item_texts: ``self_ref`` -> the item's text, to check ranges against.

    Raises:
        ValueError: A text range does not lie inside its item, or a unit names an unknown item.
    """
    spans: list[tuple[int, int]] = []
    for unit in evidence:
        if unit["kind"] == "text":
            ref, start, end = unit["ref"], int(unit["start"]), int(unit["end"])
            if ref not in flat.items:
                raise ValueError(f"evidence names {ref!r}, which is not in the document body")
            if not 0 <= start <= end <= len(item_texts[ref]):
                length = len(item_texts[ref])
                raise ValueError(f"evidence range ({start}, {end}) outside item {ref!r} of {length} characters")
            span = (flat.items[ref] + start, flat.items[ref] + end)
        elif unit["kind"] == "cell":
            found = flat.cells.get((unit["ref"], int(unit["row"]), int(unit["col"])))
            if found is None:
                continue  # an empty cell: nothing to retrieve
            span = found
        else:
            raise ValueError(f"unknown evidence kind {unit['kind']!r}; expected 'text' or 'cell'")
        if span[1] > span[0] and span not in spans:
            spans.append(span)
    return sorted(spans)


def _load(genre_dir: Path) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    with gzip.open(genre_dir / "docs.jsonl.gz", "rt", encoding="utf-8") as handle:
        docs = {row["doc_id"]: row["doc"] for row in map(json.loads, handle)}
    with (genre_dir / "questions.jsonl").open(encoding="utf-8") as handle:
        questions = [json.loads(line) for line in handle]
    return docs, questions


def build(source: Path, out: Path, fin_docs: int, legal_docs: int) -> dict[str, Any]:
    """Write the set (module docstring) and return its counts."""
    (out / "corpora").mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, Any]] = []
    counts: dict[str, Any] = {}
    for genre, limit in (("fin", fin_docs), ("legal", legal_docs)):
        docs, questions = _load(source / genre)
        chosen = sorted(docs)[:limit]
        corpus_of: dict[str, tuple[str, int, Flat]] = {}
        fin_parts: list[str] = []
        offset = 0
        for doc_id in chosen:
            flat = flatten(docs[doc_id])
            if genre == "fin":
                if fin_parts:
                    fin_parts.append("\n\n")
                    offset += 2
                corpus_of[doc_id] = ("fin", offset, flat)
                fin_parts.append(flat.text)
                offset += len(flat.text)
            else:
                corpus_id = f"legal-{doc_id}"
                (out / "corpora" / f"{corpus_id}.md").write_text(flat.text, encoding="utf-8", newline="")
                corpus_of[doc_id] = (corpus_id, 0, flat)
        if genre == "fin":
            (out / "corpora" / "fin.md").write_text("".join(fin_parts), encoding="utf-8", newline="")
        dropped = 0
        kept = 0
        for q in questions:
            if q["doc_id"] not in corpus_of:
                continue
            corpus_id, base, flat = corpus_of[q["doc_id"]]
            item_texts = {t["self_ref"]: t.get("text") or "" for t in docs[q["doc_id"]].get("texts") or []}
            spans = references(flat, q["evidence"], item_texts)
            if not spans:
                dropped += 1
                continue
            refs = [{"content": flat.text[s:e], "start_index": base + s, "end_index": base + e} for s, e in spans]
            rows.append({"question": q["question"], "references": json.dumps(refs, ensure_ascii=False),
                         "corpus_id": corpus_id, "kind": q.get("kind", "text"), "qid": q["qid"]})  # fmt: skip
            kept += 1
        counts[genre] = {"documents": len(chosen), "questions": kept, "dropped_without_evidence": dropped}
    with (out / "questions_df.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=["question", "references", "corpus_id", "kind", "qid"])
        writer.writeheader()
        writer.writerows(rows)
    (out / "README.md").write_text(_readme(counts), encoding="utf-8")
    return counts


def _readme(counts: dict[str, Any]) -> str:
    fin, legal = counts["fin"], counts["legal"]
    fin_row = f"annual-report paragraphs and tables | CC BY 4.0 | {fin['documents']} | {fin['questions']}"
    legal_row = f"non-disclosure agreements | CC BY 4.0 | {legal['documents']} | {legal['questions']}"
    return f"""# doc-qa as text: fin and legal

Built by `bench/build_docqa_text_set.py` from `../shared/eval/doc-qa` (see its README and the
script's docstring for the flattening and the offset mapping).

| corpus | source | licence | documents | questions |
|---|---|---|---:|---:|
| `fin.md` | TAT-QA (NExTplusplus/TAT-QA), {fin_row} |
| `legal-*.md` | ContractNLI (stanfordnlp/contract-nli-bert), {legal_row} |

Questions dropped because all their evidence was empty cells: fin {fin['dropped_without_evidence']},
legal {legal['dropped_without_evidence']}. The first documents by sorted `doc_id` are taken.
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="the doc-qa folder (fin/, legal/)")
    parser.add_argument("out", type=Path)
    parser.add_argument("--fin-docs", type=int, default=120, help="fin documents to take (default 120)")
    parser.add_argument("--legal-docs", type=int, default=30, help="legal documents to take (default 30)")
    args = parser.parse_args(argv)
    missing = [g for g in GENRES if not (args.source / g / "docs.jsonl.gz").is_file()]
    if missing:
        print(f"{args.source}: no {missing[0]}/docs.jsonl.gz; give the doc-qa folder (../shared/eval/doc-qa)",
              file=sys.stderr)  # fmt: skip
        return 1
    print(json.dumps(build(args.source, args.out, args.fin_docs, args.legal_docs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
