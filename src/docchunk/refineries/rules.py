"""Unit rules for recursive context selection (chonkie's ``RecursiveRules`` style)."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = ["RecursiveLevel", "RecursiveRules", "split_units"]


class RecursiveLevel(BaseModel):
    """One level of units: split at literal ``delimiters`` or at whitespace.

    Attributes:
        delimiters: Literal strings that end (``include_delim="prev"``) or start
            (``"next"``) a unit; None when ``whitespace`` is used.
        whitespace: Split at runs of whitespace (words); each run stays with the
            unit before it for ``"prev"``, after it for ``"next"``.
        include_delim: Which unit keeps the delimiter: ``"prev"`` or ``"next"``.
    """

    model_config = ConfigDict(frozen=True)

    delimiters: list[str] | None = None
    whitespace: bool = False
    include_delim: Literal["prev", "next"] = "prev"

    @model_validator(mode="after")
    def _one_kind(self) -> RecursiveLevel:
        if self.whitespace == bool(self.delimiters):
            raise ValueError("a RecursiveLevel has either delimiters or whitespace=True")
        if self.delimiters and any(not d for d in self.delimiters):
            raise ValueError("delimiters must be non-empty strings")
        return self


class RecursiveRules(BaseModel):
    """Levels of units, coarsest first. Default: paragraphs, sentences, words."""

    model_config = ConfigDict(frozen=True)

    levels: list[RecursiveLevel] = Field(
        default_factory=lambda: [
            RecursiveLevel(delimiters=["\n\n"], include_delim="prev"),
            RecursiveLevel(delimiters=["."], include_delim="prev"),
            RecursiveLevel(whitespace=True),
        ]
    )


def split_units(text: str, level: RecursiveLevel) -> list[str]:
    """Units of ``text`` at ``level``; they concatenate back to ``text``."""
    if level.whitespace:
        pattern = r"\s+"
    else:
        pattern = "|".join(re.escape(d) for d in sorted(level.delimiters or (), key=len, reverse=True))
    units: list[str] = []
    start = 0
    for match in re.finditer(pattern, text):
        cut = match.end() if level.include_delim == "prev" else match.start()
        if cut > start:
            units.append(text[start:cut])
            start = cut
    if start < len(text):
        units.append(text[start:])
    return units
