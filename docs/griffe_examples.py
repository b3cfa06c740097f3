"""Griffe extension for the API pages: docchunk's ``Example:`` sections are read as ``Examples:``.

Griffe's Google-style parser knows only the plural title; under the singular one a
doctest would be rendered as Markdown (``>>>`` as quotes, ``['a']`` as a link).
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_SINGULAR = re.compile(r"^(\s*)Example:\s*$", flags=re.MULTILINE)


class ExampleSections(griffe.Extension):
    """Rename ``Example:`` section titles to ``Examples:`` before the docstrings are parsed."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Rewrite the docstring of every loaded object."""
        if obj.docstring is not None:
            obj.docstring.value = _SINGULAR.sub(r"\1Examples:", obj.docstring.value)
