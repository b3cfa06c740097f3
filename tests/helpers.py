"""Shared test helpers (no fixtures here: those live in conftest.py)."""

from __future__ import annotations

import re

_DEBRIS_LINE = re.compile(r"^[|\-: \t]+$")


def debris_lines(text: str) -> list[str]:
    """Lines of ``text`` made only of ``|``, ``-``, ``:`` and spaces: Markdown table remnants."""
    return [line for line in text.splitlines() if _DEBRIS_LINE.match(line)]


def collapse(text: str) -> str:
    """``text`` with every run of whitespace turned into one space, stripped."""
    return " ".join(text.split())
