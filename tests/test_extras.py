"""The one table of extras (docchunk._extras.EXTRAS): pyproject's extras, and every hint names the right one."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import subprocess
import sys

import pytest

from docchunk._extras import EXTRAS, extra_install, require
from tests.helpers import DATA, ROOT

SRC = ROOT / "src" / "docchunk"
tomllib = pytest.importorskip("tomllib", reason="reading pyproject.toml needs Python 3.11's tomllib")
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]


def _distribution(requirement: str) -> str:
    return re.split(r"[\[<>=!~; ]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def test_the_table_holds_every_user_extra_of_pyproject():
    # test, docs and bench (the peers of bench/ scripts) are the developers' extras: no hint names them
    assert set(EXTRAS) == set(PYPROJECT) - {"test", "docs", "bench"}


@pytest.mark.parametrize("extra", sorted(EXTRAS))
def test_each_module_of_an_extra_comes_from_a_package_of_that_extra(extra):
    providers = importlib.metadata.packages_distributions()
    listed = {_distribution(r) for r in PYPROJECT[extra]}
    for module in EXTRAS[extra]:
        installed = {d.lower().replace("_", "-") for d in providers.get(module, [])}
        if not installed:
            continue  # not installed here: nothing to compare with
        if extra == "pdf" and "docling" not in installed:
            continue  # docling-slim provides the module here; the pdf extra's docling is not installed
        if (extra, module) == ("ray", "pyarrow"):
            continue  # installed by ray[data]
        assert installed & listed, (extra, module, installed, listed)


def _calls(name: str):
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == name:
                yield path, node


def test_every_require_call_names_an_extra_that_installs_its_module():
    seen = 0
    for path, call in _calls("require"):
        module, extra = (a.value if isinstance(a, ast.Constant) else None for a in call.args[:2])
        if module is None or extra is None:
            continue
        seen += 1
        assert module.split(".")[0] in EXTRAS[extra], f"{path.name}:{call.lineno} require({module!r}, {extra!r})"
    assert seen > 20


def test_no_hint_writes_an_extra_by_hand():
    """Messages name extras through extra_install() (or require()), which read the table; docstrings may cite them."""
    literal = re.compile(r"""pip install \\?["']\.\[""")
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                if path.name == "_extras.py":
                    continue  # the table itself
                assert not literal.search(node.value), f"{path.relative_to(SRC)}:{node.lineno}: {node.value[:80]}"


def test_a_wrong_extra_is_a_bug_caught_even_when_the_module_is_installed():
    with pytest.raises(KeyError, match="does not install 'numpy'"):
        require("numpy", "langchain", "a test")
    with pytest.raises(KeyError, match="no docchunk extra 'evals'"):
        extra_install("evals")


def test_an_extra_that_brings_torch_installs_its_cpu_build_first():
    """Regression (stop 56's new-user tester, finding 6): the hint for [semantic] was a bare
    `pip install ".[semantic]"`, which resolves torch to a CUDA build of several GB."""
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    for extra in EXTRAS:
        brings_torch = any(re.match(r"(sentence-transformers|docling|torch)\b(?!-)", dep) for dep in extras[extra])
        hint = extra_install(extra)
        assert ("download.pytorch.org/whl/cpu" in hint) == brings_torch, (extra, hint)
        if brings_torch:
            assert hint.index("torch==2.13.0") < hint.index(f".[{extra}]") and hint.count("torch==2.13.0") == 2


@pytest.mark.fresh
@pytest.mark.parametrize(("command", "data"), [("eval", "eval"), ("eval-docs", "doc-qa")])
def test_eval_hint_names_the_eval_extra(command, data):
    """Regression (issue 48): without sentence-transformers, `docchunk eval` said to install [semantic]."""
    pytest.importorskip("numpy")
    code = (
        "import sys; sys.modules['sentence_transformers'] = None\n"
        "from docchunk.cli.main import main\n"
        f"main([{command!r}, {str(DATA / data)!r}])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode != 0
    assert 'pip install ".[eval]"' in done.stderr and "[semantic]" not in done.stderr, done.stderr
