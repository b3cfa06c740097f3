"""Counting the instructions of one call under callgrind: the shared part of the ``*_instructions.py`` benches.

A bench runs each measured case as a subprocess of its own script under
``valgrind --tool=callgrind --instr-atstart=no`` (:func:`counted`); the subprocess warms
up, then wraps the one call to count in :func:`instrumented`, which switches callgrind's
instrumentation on (``callgrind_control -i on <pid>``) for that call only, and prints a
line starting ``chunks `` that :func:`counted` returns with the count. Outside valgrind,
``callgrind_control`` finds no run and the call runs as it is. Needs ``valgrind``
(``apt-get install valgrind``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

_COLLECTED = re.compile(r"Collected : (\d+)")
_T = TypeVar("_T")


def instrumented(call: Callable[[], _T]) -> _T:
    """``call()``, with callgrind's instrumentation on for it alone (this process must run under callgrind)."""
    control = ["callgrind_control", "-i"]
    subprocess.run([*control, "on", str(os.getpid())], check=True, capture_output=True)
    try:
        return call()
    finally:
        subprocess.run([*control, "off", str(os.getpid())], check=True, capture_output=True)


def counted(worker_args: list[str], env: dict[str, str], out: Path, label: str) -> tuple[int, str]:
    """(instructions counted, the worker's ``chunks ...`` line) of ``python <worker_args>`` under callgrind.

    Exits with the worker's output when valgrind fails, the worker fails, or it prints
    no ``chunks`` line (``label`` names the case in that message).
    """
    cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
           sys.executable, *worker_args]  # fmt: skip
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    found = _COLLECTED.findall(done.stderr)
    chunks = [line for line in done.stdout.splitlines() if line.startswith("chunks ")]
    if done.returncode or not found or not chunks:
        sys.exit(f"{label}: callgrind run failed (exit {done.returncode})\n{done.stdout[-500:]}{done.stderr[-2000:]}")
    return int(found[-1]), chunks[-1]
