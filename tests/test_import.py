"""``import docchunk`` stays light: no docling-core, tokenizers, tiktoken or frameworks."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = [
    "docling_core", "tokenizers", "tiktoken", "transformers", "torch", "langchain_core", "llama_index", "ray", "pandas",
]  # fmt: skip


def test_import_is_light():
    code = f"import sys, docchunk; print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "", f"import docchunk loaded: {out}"


def imported_by(statement: str) -> set[str]:
    """The modules that ``statement`` leaves in ``sys.modules`` of a fresh interpreter, beyond a bare start."""
    code = f"import sys; before = set(sys.modules); {statement}; print('\\n'.join(sorted(set(sys.modules) - before)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return set(out.split())


def test_text_chunker_import_loads_no_docling():
    loaded = imported_by("from docchunk import RecursiveChunker")
    assert "docchunk.chunkers.text.recursive" in loaded  # the statement did import the chunker
    heavy = {m for m in loaded if m.split(".")[0] in {"transformers", "torch", "tree_sitter", "semchunk", "numpy"}}
    assert not heavy, sorted(heavy)
    assert not {m for m in loaded if m.startswith("docling")}, "a text chunker needs nothing of docling"


def test_hybrid_chunker_import_loads_no_model_libraries_and_no_docling_core_chunker_package():
    loaded = imported_by("from docchunk import HybridChunker")
    assert "docchunk.chunkers.doc.hybrid" in loaded
    heavy = {m for m in loaded if m.split(".")[0] in {"transformers", "torch", "tree_sitter", "semchunk"}}
    assert not heavy, sorted(heavy)
    assert "docling_core.transforms.chunker" not in loaded, "the package __init__ of docling-core's chunkers ran"


def test_lazy_names_resolve_and_errors_subclass_builtins():
    import docchunk

    assert docchunk.HybridChunker.__name__ == "HybridChunker"
    assert issubclass(docchunk.ConfigError, ValueError)
    assert issubclass(docchunk.DocumentError, ValueError)
    assert issubclass(docchunk.TokenizerError, ValueError)
    assert issubclass(docchunk.MissingDependencyError, ImportError)
    assert all(issubclass(e, docchunk.DocchunkError) for e in (docchunk.ConfigError, docchunk.DocumentError))
    assert set(docchunk.__all__) <= set(dir(docchunk))


def test_unknown_attribute():
    import docchunk

    with pytest.raises(AttributeError):
        docchunk.NoSuchThing  # noqa: B018


def _modules_of(package: str) -> list[str]:
    import importlib
    import pkgutil

    path = importlib.import_module(package).__path__
    return [package, *(f"{package}.{m.name}" for m in pkgutil.iter_modules(path))]


TEXT_LAYER = ["docchunk.chunkers.text", "docchunk.refineries"]


def test_text_chunkers_and_refineries_import_nothing_from_docling():
    """Every module of the text chunkers and the refineries, imported in a fresh interpreter,
    and then used on text (each text chunker, then the overlap refinery): no docling module."""
    modules = [m for package in TEXT_LAYER for m in _modules_of(package)]
    assert "docchunk.chunkers.text.recursive" in modules and "docchunk.refineries.overlap" in modules
    statement = "; ".join(f"import {m}" for m in modules) + (
        "; import docchunk; text = 'One sentence here. Another one follows!\\n\\nA new paragraph.' * 20"
        "; chunkers = [docchunk.RecursiveChunker(40), docchunk.TokenChunker(chunk_size=40), "
        "docchunk.SentenceChunker(chunk_size=40), docchunk.WindowChunker()]"
        "; [docchunk.OverlapRefinery(context_size=5)(c(text)) for c in chunkers]"
    )
    loaded = imported_by(statement)
    assert "docchunk.chunkers.text.sentence" in loaded and "docchunk.refineries.rules" in loaded
    docling = sorted(m for m in loaded if m.split(".")[0] in {"docling", "docling_core"})
    assert not docling, docling


def test_text_chunkers_and_refineries_name_no_docling_module_in_their_source():
    """Not even a lazy import inside a function: docling-core is imported by loading,
    serialization and the document chunkers only (layers in the house style)."""
    import ast
    import importlib

    for name in (m for package in TEXT_LAYER for m in _modules_of(package)):
        source = importlib.import_module(name).__file__
        assert source is not None
        tree = ast.parse(open(source, encoding="utf-8").read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                targets = [node.module or ""]
            else:
                continue
            assert not any(t.split(".")[0] in {"docling", "docling_core"} for t in targets), (name, targets)


def test_refineries_and_markup_import_nothing_from_the_chunker_rooms():
    """Refineries take any chunk list: neither they nor the markup rules they share with the
    text chunkers name a ``docchunk.chunkers`` module, not even lazily."""
    import ast
    import importlib

    for name in (m for package in ("docchunk.refineries", "docchunk.markup") for m in _modules_of(package)):
        source = importlib.import_module(name).__file__
        assert source is not None
        tree = ast.parse(open(source, encoding="utf-8").read())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith("docchunk.chunkers"), (name, node.module)
            elif isinstance(node, ast.Import):
                assert not any(a.name.startswith("docchunk.chunkers") for a in node.names), name


def test_errors_module_holds_only_the_exception_tree(monkeypatch):
    """``docchunk.errors`` is a leaf of exceptions and warnings: it defines no function and
    imports nothing of docchunk (``require`` lives in ``docchunk._extras``)."""
    import ast
    import inspect

    import docchunk._extras
    import docchunk.errors as errors

    source = inspect.getsource(errors)
    tree = ast.parse(source)
    assert not [n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert not (node.module or "").startswith("docchunk"), node.module
    assert all(issubclass(getattr(errors, name), Exception | Warning) for name in errors.__all__)
    monkeypatch.setitem(docchunk._extras.EXTRAS, "absent-extra", ("docchunk_no_such_module",))  # the one table
    with pytest.raises(docchunk.errors.MissingDependencyError, match=r'pip install "\.\[absent-extra\]"'):
        docchunk._extras.require("docchunk_no_such_module", "absent-extra", "A test")


def _imports_in(name: str) -> list[tuple[str, str | None]]:
    """``(imported module, enclosing top-level function or None)`` for each import in module ``name``'s source."""
    import ast
    import importlib

    source = importlib.import_module(name).__file__
    assert source is not None
    tree = ast.parse(open(source, encoding="utf-8").read())
    found: list[tuple[str, str | None]] = []
    for top in tree.body:
        where = top.name if isinstance(top, ast.FunctionDef | ast.AsyncFunctionDef) else None
        for node in ast.walk(top):
            if isinstance(node, ast.Import):
                found.extend((alias.name, where) for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                found.append((node.module or "", where))
    return found


def test_batch_room_imports_no_click_and_nothing_of_the_cli():
    """``docchunk.batch`` runs without click: no module of it names ``click`` or ``docchunk.cli``,
    not even lazily, and importing all of them in a fresh interpreter loads no click."""
    modules = _modules_of("docchunk.batch")
    assert {f"docchunk.batch.{m}" for m in ("rows", "local", "ray", "output", "text")} <= set(modules)
    for name in modules:
        for target, _ in _imports_in(name):
            assert target.split(".")[0] != "click", (name, target)
            assert not target.startswith("docchunk.cli"), (name, target)
    loaded = imported_by("; ".join(f"import {m}" for m in modules))
    assert "docchunk.batch.local" in loaded
    assert not {m for m in loaded if m.split(".")[0] == "click"}, "importing docchunk.batch loaded click"


def test_serialization_imports_nothing_from_the_chunkers_or_the_batch_room():
    """The serializers sit below the chunkers and the batch room that runs them: no module of
    ``docchunk.serialization`` names ``docchunk.chunkers`` or ``docchunk.batch``, not even lazily
    (the row driver's names are importable only from their home, ``docchunk.batch.rows``)."""
    modules = _modules_of("docchunk.serialization")
    assert "docchunk.serialization.rows" in modules
    for name in modules:
        for target, where in _imports_in(name):
            assert not target.startswith(("docchunk.chunkers", "docchunk.batch")), (name, target, where)
    import docchunk.serialization
    import docchunk.serialization.rows

    moved = [(docchunk.serialization, "chunk_rows")]
    moved += [(docchunk.serialization.rows, name) for name in ("chunk_rows", "describe_failure", "text_rows")]
    for module, name in moved:
        with pytest.raises(AttributeError):
            getattr(module, name)
