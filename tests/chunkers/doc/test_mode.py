"""The two modes are two ``Mode`` objects, picked in one place from the public ``docling_compat`` switch."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import docchunk
from docchunk.chunkers.doc.mode import COMPAT, STRUCTURED, mode_for
from docchunk.chunkers.doc.piece import Piece


def _trees(package: str) -> list[tuple[str, ast.Module]]:
    """The parsed source files of ``package`` and its subpackages (read from disk, not imported)."""
    root = Path(docchunk.__file__).parent.joinpath(*package.split(".")[1:])
    trees = [(str(p), ast.parse(p.read_text(encoding="utf-8"))) for p in sorted(root.rglob("*.py"))]
    assert trees, root  # the checks below would pass vacuously
    return trees


def test_docling_compat_is_read_only_where_the_mode_is_picked():
    """Every read of a ``docling_compat`` attribute in the document chunkers is ``mode_for(self.docling_compat)``."""
    reads = []
    for path, tree in _trees("docchunk.chunkers.doc"):
        picked = {
            id(arg)
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "mode_for"
            for arg in node.args
        }
        reads += [
            (Path(path).name, node.lineno)
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr == "docling_compat" and isinstance(node.ctx, ast.Load)
            and id(node) not in picked
        ]  # fmt: skip
    assert reads == []


def test_no_run_parameter_is_typed_any():
    """The hybrid chunker's run state is a ``HybridRun`` wherever it is passed (no ``run: Any``)."""
    untyped = [
        (Path(path).name, node.lineno)
        for path, tree in _trees("docchunk")
        for node in ast.walk(tree)
        if isinstance(node, ast.arg) and node.arg == "run"
        and isinstance(node.annotation, ast.Name) and node.annotation.id == "Any"
    ]  # fmt: skip
    assert untyped == []


def test_the_parity_package_imports_nothing_of_the_default_mode():
    """``chunkers/doc/compat/`` follows the docling-core pin: it needs only ``Piece``, itself and the tokenizers."""
    allowed = ("docchunk.chunkers.doc.compat", "docchunk.chunkers.doc.piece", "docchunk.tokenizers")
    for path, tree in _trees("docchunk.chunkers.doc.compat"):
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("docchunk"):
                assert (node.module or "").startswith(allowed), (path, node.module)


@pytest.mark.parametrize(
    "make",
    [
        lambda compat: docchunk.HybridChunker(max_tokens=64, docling_compat=compat),
        lambda compat: docchunk.HierarchicalChunker(docling_compat=compat),
        lambda compat: docchunk.PageChunker(docling_compat=compat),
        lambda compat: docchunk.LineBasedTokenChunker(max_tokens=64, docling_compat=compat),
        lambda compat: docchunk.TreeChunkExpander(docling_compat=compat),
        lambda compat: docchunk.PageChunkExpander(docling_compat=compat),
    ],
)
def test_each_chunker_and_expander_picks_its_mode_from_the_switch(make):
    assert make(True).mode is COMPAT
    assert make(False).mode is STRUCTURED
    assert mode_for(True) is COMPAT and mode_for(False) is STRUCTURED


def test_no_chunker_asks_which_mode_it_is_in():
    """``Mode.exact`` was branched on at 9 points; each chunker now reads the decision it needs of the mode."""
    import ast
    from pathlib import Path

    root = Path(docchunk.__file__).resolve().parent
    asked = [
        f"{path.relative_to(root)}:{node.lineno} reads .{node.attr}"
        for path in root.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and node.attr in {"exact", "name"}
        and isinstance(node.value, ast.Attribute) and node.value.attr == "mode"
    ]  # fmt: skip
    assert not asked
    assert COMPAT.refuses == {"table_format", "min_tokens", "merge_across_pages"} and not STRUCTURED.refuses
    assert (COMPAT.pages, COMPAT.line_items, COMPAT.expansion) == ("serialized", "all", "docling")
    assert (STRUCTURED.pages, STRUCTURED.line_items, STRUCTURED.expansion) == ("packed", "own", "items")


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: docchunk.HybridChunker(docling_compat=True, min_tokens=8), "min_tokens"),
        (lambda: docchunk.HybridChunker(docling_compat=True, merge_across_pages=False), "merge_across_pages"),
        (lambda: docchunk.HybridChunker(docling_compat=True, table_format="markdown"), "table_format"),
        (lambda: docchunk.PageChunkExpander(docling_compat=True, table_format="markdown"), "table_format"),
    ],
)
def test_compat_refuses_the_options_its_table_says(make, message):
    with pytest.raises(docchunk.ConfigError, match=message):
        make()


def test_piece_has_a_module_of_its_own():
    assert Piece.__module__ == "docchunk.chunkers.doc.piece"
