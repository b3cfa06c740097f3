"""The docling-core release that ``docling_compat=True`` reproduces, named once.

Docstrings say "docling-core's" and mean this release; messages, the CLI's help
and the tests read :data:`DOCLING_CORE_VERSION`. It changes only together with the
compat code (the walk, the semchunk port, the column splitting), the test extra's
pin in ``pyproject.toml`` and docling-core's expected outputs the tests compare
against; ``tests/test_versions.py`` checks that they agree.
"""

from __future__ import annotations

__all__ = ["DOCLING_CORE_VERSION"]

DOCLING_CORE_VERSION = "2.104.0"
"""The docling-core release whose chunks ``docling_compat=True`` equals, chunk for chunk."""
