"""Where the table model's rules fire, and which tables' written rows a change alters.

Usage:
    python bench/table_rules_fire.py [PATH ...] [--show N] [--dump OUT.json] [--compare BEFORE.json]

PATH: DoclingDocument JSON files, folders of them (searched recursively), or doc-qa
``docs.jsonl.gz`` files (default: ``../shared/corpus/docling``,
``../shared/corpus/docling-core-tests`` and every genre of ``../shared/eval/doc-qa``).
For every table it reads the model (:func:`docchunk.serialization.tables.read_table`)
and counts the tables each rule of issue 46 fires on, per source (issue 46 Build 5: a
rule is measured on data it was not written on):

- ``sub_header_row``: an unflagged row dividing a merged header cell read as a header row;
- ``restart``: a header block that restarts mid-table (``restarted_header_rows``), and
  ``restart label``: one whose restart row names its labels (``block_headers`` gives
  the rows below a corner of their own);
- ``title_row``: a title merged over the table's top;
- ``title_block``: two or three merged one-cell rows, a title block (``is_title_block``);
- ``key_value``: keys flagged as row headers (``is_key_value_table``) in a table without
  column headers and with a prose cell, where the layout rule would otherwise look;
- ``parallel_text``: every body row a sentence or more in two cells (``is_parallel_text_table``:
  a bilingual table side by side), read as layout;
- ``layout``: tables of that kind;
- ``continued``: a table without a caption that repeats the header of the table directly
  before it, its continuation (``continued_from``: a page-broken table's second part), and
  ``continued across heading``: those with a heading between the two in reading order
  (the rule must never fire so: 0 expected).

``--show N`` prints the first N tables of each rule (source, document, table, first
rows). ``--dump`` writes each table's rows in the three forms (``table_rows``) to a
JSON file; ``--compare`` reads such a file written by another tree (run the script with
that tree's ``src`` first on ``PYTHONPATH``) and prints how many tables' rows changed,
per form, with a few of them, before and after.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import warnings
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
warnings.simplefilter("ignore")

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
if not SHARED.is_dir():
    SHARED = Path("/work/shared")
FORMATS = ("records", "triplets", "markdown")


def default_paths() -> list[Path]:
    corpus = [SHARED / "corpus" / "docling", SHARED / "corpus" / "docling-core-tests"]
    return [*corpus, *sorted((SHARED / "eval" / "doc-qa").glob("*/docs.jsonl.gz"))]


def documents(paths: list[Path]) -> Iterator[tuple[str, str, Any]]:
    """``(source, name, document)`` for every document the paths name; unreadable JSON is skipped."""
    from docling_core.types.doc import DoclingDocument

    for path in paths:
        if path.name.endswith(".jsonl.gz"):
            with gzip.open(path, "rt") as lines:
                for line in lines:
                    row = json.loads(line)
                    yield f"doc-qa/{path.parent.name}", row["doc_id"], DoclingDocument.model_validate(row["doc"])
            continue
        files = sorted(path.rglob("*.json")) if path.is_dir() else [path]
        for file in files:
            try:
                doc = DoclingDocument.load_from_json(file)
            except Exception:  # not a DoclingDocument (an expected-chunks file, a fixture of another shape)
                continue
            yield path.name, file.name, doc


def fired(table: Any, doc: Any) -> list[str]:
    """The rules of issue 46 that fire on ``table`` (see the module docstring)."""
    from docchunk.serialization.tables import read_table, rules

    model = read_table(table, doc)
    if not model.grid:
        return []
    out = []
    flagged = min(rules.header_row_count(table.data, model.grid), model.n_rows)
    if model.title is not None:
        flagged = max(flagged, 2)
    if model.start > flagged:  # the rule found one more header row than the converter flagged
        out.append("sub_header_row")
    if model.restarts:
        out.append("restart")
        labels = [r for r in model.restarts if any(model.text_of(c) for c in model.grid[r][: model.label_cols])]
        if labels:
            out.append("restart label")
    if model.title is not None:
        out.append("title_row")
    if getattr(rules, "is_title_block", None) and rules.is_title_block(model.grid, model.text_of):
        out.append("title_block")
    if getattr(rules, "is_key_value_table", None) and rules.is_key_value_table(model.grid, model.text_of):
        prose = any(len(model.text_of(cell).split()) >= rules.PROSE_WORDS for row in model.grid for cell in row)
        if model.start == 0 and prose:  # where the layout rule would look at it
            out.append("key_value")
    if getattr(rules, "is_parallel_text_table", None) and rules.is_parallel_text_table(
        model.grid, model.start, model.text_of
    ):
        out.append("parallel_text")
    if model.kind == "layout":
        out.append("layout")
    try:
        from docchunk.serialization.tables.continued import continued_from
    except ImportError:  # a tree from before the rule (--compare's other run)
        continued_from = None
    first = continued_from(table, doc) if continued_from else None
    if first is not None:
        out.append("continued")
        if _heading_between(doc, first, table):
            out.append("continued across heading")
    return out


def _heading_between(doc: Any, first: Any, table: Any) -> bool:
    """Whether a heading (or the title) stands between ``first`` and ``table`` in reading order."""
    between = False
    for item, _ in doc.iterate_items():
        if item is table:
            return False
        if item is first:
            between = True
        elif between and getattr(item, "label", None) in ("section_header", "title"):
            return True
    return False


def preview(table: Any) -> str:
    """The table's first four grid rows, cells cut to 24 characters."""
    rows = [" | ".join(cell.text[:24] for cell in row) for row in table.data.grid[:4]]
    return " // ".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path)
    parser.add_argument("--show", type=int, default=0, help="print the first N tables of each rule")
    parser.add_argument("--dump", type=Path, help="write every table's rows (three forms) to this JSON file")
    parser.add_argument("--compare", type=Path, help="a --dump of another tree: print the tables whose rows changed")
    args = parser.parse_args(argv)
    if "PYTHONPATH" not in os.environ:  # this tree's src, unless a tree is named (--compare's other run)
        sys.path.insert(0, str(ROOT / "src"))
    from docchunk.serialization.tables import table_rows

    counts: dict[str, Counter[str]] = defaultdict(Counter)
    shown: dict[str, list[str]] = defaultdict(list)
    dump: dict[str, dict[str, str]] = {}
    for source, name, doc in documents(args.paths or default_paths()):
        for table in doc.tables:
            counts[source]["tables"] += 1
            for rule in fired(table, doc):
                counts[source][rule] += 1
                if len(shown[rule]) < args.show:
                    shown[rule].append(f"{source} {name} {table.self_ref}: {preview(table)}")
            if args.dump or args.compare:
                key = f"{source}/{name}{table.self_ref}"
                dump[key] = {fmt: table_rows(table, doc, table_format=fmt).text for fmt in FORMATS}
    rules = ["sub_header_row", "restart", "restart label", "title_row", "title_block", "key_value"]
    rules += ["parallel_text", "layout", "continued", "continued across heading"]
    print("| source | tables | " + " | ".join(rules) + " |")
    print("|---|---:|" + "---:|" * len(rules))
    for source, c in counts.items():
        print(f"| {source} | {c['tables']} | " + " | ".join(str(c[r]) for r in rules) + " |")
    for rule, lines in shown.items():
        print(f"\n{rule}:")
        for line in lines:
            print("  " + line[:300])
    if args.dump:
        args.dump.write_text(json.dumps(dump, ensure_ascii=False))
    if args.compare:
        before = json.loads(args.compare.read_text())
        for fmt in FORMATS:
            changed = [k for k, forms in dump.items() if k in before and before[k][fmt] != forms[fmt]]
            print(f"\n{fmt}: {len(changed)} of {len(dump)} tables' rows changed")
            for key in changed[: max(args.show, 3)]:
                print(f"  {key}\n    before: {before[key][fmt][:400]!r}\n    after:  {dump[key][fmt][:400]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
