"""Markdown tables from ``bench/recommend_run.py``'s JSON lines: size for size, per group, knob effects.

    python bench/recommend_report.py OUT.jsonl --set chroma=../shared/eval/chroma-general \\
        --set docqa=/tmp/docqa-text > tables.md

Every figure is a mean over questions ± its standard error (std / sqrt(n), ddof=1), in percent.
A knob's effect is the paired difference per question (with the knob minus without it, all else
equal), its mean ± the standard error of the paired differences; ``*`` marks an effect larger
than twice its standard error.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

from recommend_run import groups_of, label

from docchunk.evaluation import load_eval_set

Rows = dict[tuple[str, str], dict[str, Any]]
"""(set name, configuration label) -> one JSON line of recommend_run.py."""

KNOB_NAMES = ("ctx", "headings", "table")
ALL_KNOBS = ((False, False, False), (True, False, False), (False, True, False), (False, False, True),
             (True, True, False), (True, False, True), (False, True, True), (True, True, True))  # fmt: skip


def configs_at(size: int, families: list[str]) -> list[str]:
    """docchunk with every combination of knobs, then each peer plain and with the three refineries."""
    names = [label("docchunk", size, *k) for k in ALL_KNOBS]
    return names + [label(f, size, *k) for f in families if f != "docchunk" for k in (ALL_KNOBS[0], ALL_KNOBS[-1])]


def fmt(cell: dict[str, float]) -> str:
    return f"{cell['mean']:.1f} ± {cell['se']:.1f}"


def paired(a: list[float], b: list[float], picked: list[bool]) -> tuple[float, float, int]:
    diffs = [x - y for x, y, p in zip(a, b, picked, strict=True) if p]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var / n), n


def effect(a: list[float], b: list[float], picked: list[bool]) -> str:
    mean, se, _ = paired(a, b, picked)
    star = "*" if abs(mean) > 2 * se and se > 0 else ""
    return f"{mean:+.1f} ± {se:.1f}{star}"


def size_table(rows: Rows, set_name: str, sizes: list[int], families: list[str]) -> list[str]:
    out = ["| size | configuration | recall @1k | IoU @k5 | recall @k5 | precision_Ω | chunks |", "|---" * 7 + "|"]
    for size in sizes:
        names = [label("docchunk", size, False, False, False), label("docchunk", size, True, True, True)]
        names += [label(f, size, False, False, False) for f in families if f != "docchunk"]
        names += [label("semchunk", size, True, True, True)]
        for name in names:
            r = rows.get((set_name, name))
            if r is None:
                continue
            o = r["overall"]
            out.append(f"| {size} | {name} | {fmt(o['recall_budget'])} | {fmt(o['iou_k'])} | {fmt(o['recall_k'])} "
                       f"| {o['precision_omega']['mean']:.1f} | {r['chunks']} |")  # fmt: skip
    return out


def group_table(rows: Rows, set_name: str, names: list[str], figure: str) -> list[str]:
    present = [n for n in names if (set_name, n) in rows]
    if not present:
        return []
    groups = sorted(rows[(set_name, present[0])]["groups"])
    n = {g: rows[(set_name, present[0])]["groups"][g][figure]["n"] for g in groups}
    out = ["| configuration | " + " | ".join(f"{g} (n={n[g]})" for g in groups) + " |",
           "|---" * (len(groups) + 1) + "|"]  # fmt: skip
    for name in present:
        cells = [fmt(rows[(set_name, name)]["groups"][g][figure]) for g in groups]
        out.append(f"| {name} | " + " | ".join(cells) + " |")
    return out


def knob_table(rows: Rows, set_name: str, groups: list[str], sizes: list[int], figure: str) -> list[str]:
    """Each knob's paired effect: alone (over plain) and last (over the other two knobs)."""
    names = sorted(set(groups))
    out = ["| size | knob | added to | overall | " + " | ".join(names) + " |", "|---" * (len(names) + 4) + "|"]
    for size in sizes:
        for i, knob in enumerate(KNOB_NAMES):
            for base_name, base in (("plain", [False, False, False]), ("the other two", [True, True, True])):
                on = list(base)
                on[i] = True
                off = list(base)
                off[i] = False
                a = rows.get((set_name, label("docchunk", size, *on)))
                b = rows.get((set_name, label("docchunk", size, *off)))
                if a is None or b is None:
                    continue
                qa, qb = a["per_question"][figure], b["per_question"][figure]
                cells = [effect(qa, qb, [True] * len(qa))]
                cells += [effect(qa, qb, [g == name for g in groups]) for name in names]
                out.append(f"| {size} | {knob} | {base_name} | " + " | ".join(cells) + " |")
    return out


def peer_table(rows: Rows, set_name: str, sizes: list[int], families: list[str]) -> list[str]:
    """docchunk (plain, and with the three knobs) minus each peer at the same size, paired per question."""
    out = ["| size | docchunk | peer | recall @1k | IoU @k5 |", "|---" * 5 + "|"]
    for size in sizes:
        for knobs in (ALL_KNOBS[0], ALL_KNOBS[-1]):
            mine = rows.get((set_name, label("docchunk", size, *knobs)))
            for family in families:
                theirs = rows.get((set_name, label(family, size, False, False, False)))
                if family == "docchunk" or mine is None or theirs is None:
                    continue
                cells = []
                for figure in ("recall_budget", "iou_k"):
                    a, b = mine["per_question"][figure], theirs["per_question"][figure]
                    cells.append(effect(a, b, [True] * len(a)))
                out.append(f"| {size} | {mine['label']} | {theirs['label']} | " + " | ".join(cells) + " |")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("--set", action="append", required=True, help="NAME=DATA_DIR (repeatable)")
    args = parser.parse_args()
    rows: Rows = {}
    for line in args.results.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        rows[(r["set"], r["label"])] = r
    sizes = sorted({r["size"] for r in rows.values()})
    families = list(dict.fromkeys(r["family"] for r in rows.values()))
    for spec in args.set:
        set_name, _, folder = spec.partition("=")
        folder, _, ids = folder.partition("@")
        groups = groups_of(Path(folder), load_eval_set(folder, ids.split(",") if ids else None))
        print(f"\n### {set_name}: size for size\n")
        print("\n".join(size_table(rows, set_name, sizes, families)))
        print(f"\n### {set_name}: docchunk minus each peer, same size (paired)\n")
        print("\n".join(peer_table(rows, set_name, sizes, families)))
        for figure, title in (("recall_budget", "recall @1k"), ("iou_k", "IoU @k5")):
            names = [n for size in sizes for n in configs_at(size, families)]
            print(f"\n### {set_name}: {title} per group\n")
            print("\n".join(group_table(rows, set_name, names, figure)))
            print(f"\n### {set_name}: knob effects on {title} (paired, with minus without)\n")
            print("\n".join(knob_table(rows, set_name, groups, sizes, figure)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
