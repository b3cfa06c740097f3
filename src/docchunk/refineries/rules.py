"""Unit rules for recursive context selection (chonkie's ``RecursiveRules`` style)."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from docchunk.errors import ConfigError
from docchunk.markup.sentences import sentence_spans
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
    """One level of units: split at literal ``delimiters``, at whitespace, or at sentence ends.

    Exactly one of ``delimiters``, ``whitespace`` and ``sentences`` is given.

    Attributes:
        delimiters: Literal strings that end (``include_delim="prev"``) or start
            (``"next"``) a unit; None when ``whitespace`` or ``sentences`` is used.
        whitespace: Split at runs of whitespace (words); each run stays with the
            unit before it for ``"prev"``, after it for ``"next"``.
        sentences: Split into sentences by docchunk's sentence rules
            (:func:`docchunk.chunkers.text.sentence_spans`: not after ``Dr.``, ``e.g.``
            or a section number, never inside ``12.5``); the whitespace after a sentence
            stays with it, so ``include_delim`` must be ``"prev"``.
        include_delim: Which unit keeps the delimiter: ``"prev"`` or ``"next"``.

    Raises:
        ConfigError: None or more than one kind of split, an empty delimiter, or
            ``sentences=True`` with ``include_delim="next"``.
    """

    delimiters: list[str] | None = None
    whitespace: bool = False
    sentences: bool = False
    include_delim: Literal["prev", "next"] = "prev"

    @model_validator(mode="after")
    def _one_kind(self) -> RecursiveLevel:
        if self.whitespace + bool(self.delimiters) + self.sentences != 1:
            raise ConfigError(
                "a RecursiveLevel has one of delimiters, whitespace=True or sentences=True, got "
                f"delimiters={self.delimiters!r}, whitespace={self.whitespace!r}, sentences={self.sentences!r}"
            )
        if self.delimiters and any(not d for d in self.delimiters):
            raise ConfigError(f"RecursiveLevel delimiters must be non-empty strings, got {self.delimiters!r}")
        if self.sentences and self.include_delim != "prev":
            raise ConfigError('RecursiveLevel(sentences=True) keeps the whitespace after a sentence with it: '
                              f'include_delim must be "prev", got {self.include_delim!r}')  # fmt: skip
        return self


class RecursiveRules(_Rules):
    """Levels of units, coarsest first. Default: paragraphs, sentences (docchunk's sentence rules), words."""

    levels: list[RecursiveLevel] = Field(
        default_factory=lambda: [
            RecursiveLevel(delimiters=["\n\n"], include_delim="prev"),
            RecursiveLevel(sentences=True),
            RecursiveLevel(whitespace=True),
        ]
    )


def split_units(text: str, level: RecursiveLevel) -> list[str]:
    """Units of ``text`` at ``level``; they concatenate back to ``text``."""
    if level.sentences:
        return [text[start:end] for start, end in sentence_spans(text)]  # they tile the text
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
