"""Start-up: ``docchunk chunk`` on one small document against loading it with docling-core alone.

Usage:
    python bench/startup.py [--rounds 7] [--doc examples/docling_paper.json]

Runs, interleaved round by round (the order alternating, so that drift in the
machine's speed hits both alike), in fresh interpreters:

- ``docchunk chunk DOC -o out.jsonl`` (the console script next to this Python, or
  ``python -m docchunk``);
- ``python -c`` loading DOC with ``DoclingDocument.load_from_json``, the floor of any
  tool that reads DoclingDocument JSON.

Prints the median wall time and the median CPU time (user + system of the child)
of each and their ratio (target: within 1.6x), then, from one more run of the same
CLI command, which heavy modules it imported (target: none) and whether anything
was printed to stderr. The output is checked (rows, token counts within the
limit) before anything is reported.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEAVY = [
    "torch",
    "transformers",
    "tree_sitter",
    "semchunk",
    "huggingface_hub",
    "docling_core.transforms.chunker",
    "docling_core.transforms.chunker.line_chunker",
    "docling_core.transforms.chunker.hierarchical_chunker",
    "pyarrow",
]


def cli_command() -> list[str]:
    script = Path(sys.executable).with_name("docchunk")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "docchunk"]


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(cmd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{result.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def check_output(out: Path) -> int:
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    if not rows or any(not r["text"] or r["token_count"] > 256 for r in rows):
        sys.exit(f"bad CLI output in {out}")
    return len(rows)


def imported_by(code: str, env: dict[str, str]) -> tuple[list[str], str]:
    """Heavy modules in sys.modules after ``code``, and its stderr."""
    code += f"\nimport sys\nprint(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    return [m for m in result.stdout.strip().split(",") if m], result.stderr


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--doc", type=Path, default=ROOT / "examples" / "docling_paper.json")
    args = parser.parse_args()
    doc = args.doc.resolve()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "HF_HUB_OFFLINE": "1"}
    tmp = Path(tempfile.mkdtemp())
    out = tmp / "out.jsonl"
    runners = {
        "docchunk chunk": [*cli_command(), "chunk", str(doc), "-o", str(out)],
        "load_from_json": [
            sys.executable,
            "-c",
            f"from docling_core.types.doc import DoclingDocument; DoclingDocument.load_from_json({str(doc)!r})",
        ],
    }
    walls: dict[str, list[float]] = {name: [] for name in runners}
    cpus: dict[str, list[float]] = {name: [] for name in runners}
    timed(runners["docchunk chunk"], env)  # warm the file cache and the bytecode
    n_chunks = check_output(out)
    for r in range(args.rounds):
        order = list(runners) if r % 2 == 0 else list(reversed(runners))
        for name in order:
            wall, cpu = timed(runners[name], env)
            walls[name].append(wall)
            cpus[name].append(cpu)
    check_output(out)
    heavy, stderr = imported_by(
        "import runpy, sys\n"
        f"sys.argv = ['docchunk', 'chunk', {str(doc)!r}, '-o', {str(tmp / 'probe.jsonl')!r}]\n"
        "try:\n    runpy.run_module('docchunk', run_name='__main__')\nexcept SystemExit:\n    pass",
        env,
    )
    heavy_load, _ = imported_by(runners["load_from_json"][2], env)
    shutil.rmtree(tmp, ignore_errors=True)

    print(f"{doc.name}: {doc.stat().st_size / 1e3:.0f} kB, {n_chunks} chunks; median of {args.rounds} rounds")
    print(f"{'':16} {'wall s':>8} {'cpu s':>8}")
    for name in runners:
        print(f"{name:16} {statistics.median(walls[name]):8.2f} {statistics.median(cpus[name]):8.2f}")
    wall_ratio = statistics.median(walls["docchunk chunk"]) / statistics.median(walls["load_from_json"])
    cpu_ratio = statistics.median(cpus["docchunk chunk"]) / statistics.median(cpus["load_from_json"])
    print(f"ratio docchunk / load_from_json: wall {wall_ratio:.2f}x, cpu {cpu_ratio:.2f}x (target <= 1.6x)")
    print(f"heavy modules imported by the CLI: {', '.join(heavy) or 'none'}", end="")
    print(f" (by load_from_json too: {', '.join(heavy_load)})" if heavy_load else "")
    print(f"stderr of the CLI: {stderr.strip()!r}" if stderr.strip() else "stderr of the CLI: empty")


if __name__ == "__main__":
    main()
