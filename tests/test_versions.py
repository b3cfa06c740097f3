"""The docling-core release that ``docling_compat=True`` reproduces is named once.

:data:`docchunk._versions.DOCLING_CORE_VERSION` is the one place; the installed
docling-core, the test extra's pin and every version the docs name agree with it, and
no module of ``src`` repeats it in prose.
"""

from __future__ import annotations

import re
from importlib.metadata import version
from pathlib import Path

from docchunk._versions import DOCLING_CORE_VERSION

ROOT = Path(__file__).resolve().parents[1]
_NAMED = re.compile(r"docling-core\s+(\d+\.\d+(?:\.\d+)?)")
_NOT_YET: set[str] = set()


def test_installed_docling_core_is_the_pinned_release():
    """Parity is claimed against one release: the installed one must be it."""
    assert version("docling-core") == DOCLING_CORE_VERSION


def test_the_test_extra_pins_the_release():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert f'"docling-core[chunking]=={DOCLING_CORE_VERSION}"' in pyproject


def test_the_docs_name_only_the_pinned_release():
    """README and docs may name the release (compat.md's title); any version they name is it."""
    short = ".".join(DOCLING_CORE_VERSION.split(".")[:2])
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for named in _NAMED.findall(page.read_text(encoding="utf-8")):
            assert named in (DOCLING_CORE_VERSION, short), (page.name, named)


def test_src_names_the_release_only_in_the_versions_module():
    """Docstrings say "docling-core's"; messages and help read the constant."""
    src = ROOT / "src" / "docchunk"
    found = []
    for path in sorted(src.rglob("*.py")):
        where = path.relative_to(src).as_posix()
        if where == "_versions.py" or where in _NOT_YET:
            continue
        text = path.read_text(encoding="utf-8")
        found += [(where, n) for n in re.findall(re.escape(DOCLING_CORE_VERSION[:5]) + r"[\d.]*", text)]
    assert found == []
