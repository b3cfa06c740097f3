"""Unit rules for recursive context selection (chonkie's ``RecursiveRules`` style)."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from docchunk.errors import ConfigError
from docchunk.types.config import config_error

__all__ = ["RecursiveLevel", "RecursiveRules", "split_units"]


class _Rules(BaseModel):
    """Frozen, strict settings: an unknown or invalid field is a :class:`ConfigError`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    def __init__(self, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise config_error(type(self).__name__, exc) from None


class RecursiveLevel(_Rules):
    """One level of units: split at literal ``delimiters`` or at whitespace.

    Attributes:
        delimiters: Literal strings that end (``include_delim="prev"``) or start
            (``"next"``) a unit; None when ``whitespace`` is used.
        whitespace: Split at runs of whitespace (words); each run stays with the
            unit before it for ``"prev"``, after it for ``"next"``.
        include_delim: Which unit keeps the delimiter: ``"prev"`` or ``"next"``.
    """

    delimiters: list[str] | None = None
    whitespace: bool = False
    include_delim: Literal["prev", "next"] = "prev"

    @model_validator(mode="after")
    def _one_kind(self) -> RecursiveLevel:
        if self.whitespace == bool(self.delimiters):
            raise ConfigError(
                f"a RecursiveLevel has either delimiters or whitespace=True, got delimiters={self.delimiters!r}, "
                f"whitespace={self.whitespace!r}"
            )
        if self.delimiters and any(not d for d in self.delimiters):
            raise ConfigError(f"RecursiveLevel delimiters must be non-empty strings, got {self.delimiters!r}")
        return self


class RecursiveRules(_Rules):
    """Levels of units, coarsest first. Default: paragraphs, sentences, words."""

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
