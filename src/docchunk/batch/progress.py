"""The progress display of a local run: per file for many files, per phase for a few big ones.

Drawn with tqdm on stderr. The command decides whether to draw (a terminal, or
``--progress``); a display that is not forced waits :data:`DELAY` seconds before it
appears, so a run of a few seconds prints nothing.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["DELAY", "PHASES_MAX_FILES", "Progress"]

DELAY = 2.0
"""Seconds before a display that was not asked for (``--progress``) appears."""

PHASES_MAX_FILES = 10
"""Runs of fewer inputs show each input's phases; longer runs count files."""


class Progress:
    """A progress bar over a run's inputs, or over their phases (load, chunk, embed, write).

    Args:
        names: One name per input (a path, or ``<stdin>``), in order.
        phases: The phases of each input, in order, e.g. ``("load", "chunk", "write")``;
            shown when there are fewer than :data:`PHASES_MAX_FILES` inputs.
        show: Draw at all (False: every method does nothing).
        forced: Drawn at once (``--progress``); else after :data:`DELAY` seconds.

    Call :meth:`phase` when an input enters a phase, :meth:`done` when it is finished,
    :meth:`close` at the end. With phases the bar counts phases, its description naming
    the input and the phase (``report.json: chunk``); else it counts files.
    """

    def __init__(self, names: Sequence[str], phases: Sequence[str], show: bool, forced: bool = False):
        self.names = list(names)
        self.by_phase = len(self.names) < PHASES_MAX_FILES
        self.phases = list(phases)
        self._bar: Any = None
        self._index = 0  # the input now running
        self._steps = 0  # phases finished of it
        if show and self.names:
            from tqdm import tqdm

            total = len(self.names) * len(self.phases) if self.by_phase else len(self.names)
            unit = "phase" if self.by_phase else "file"
            self._bar = tqdm(total=total, desc="chunking", unit=unit, file=sys.stderr, delay=0 if forced else DELAY)

    def phase(self, name: str) -> None:
        """The current input enters phase ``name`` (the phases before it are counted as done)."""
        if self._bar is None or not self.by_phase:
            return
        if name in self.phases:
            reached = self.phases.index(name)
            if reached > self._steps:
                self._bar.update(reached - self._steps)
                self._steps = reached
        source = self.names[min(self._index, len(self.names) - 1)]
        self._bar.set_description_str(f"{Path(source).name}: {name}", refresh=True)

    def done(self) -> None:
        """The current input is finished (written, or failed): the next one starts."""
        if self._bar is None:
            return
        self._bar.update(len(self.phases) - self._steps if self.by_phase else 1)
        self._index += 1
        self._steps = 0

    def close(self) -> None:
        """Take the bar down (its last state stays on the terminal)."""
        if self._bar is not None:
            self._bar.close()
