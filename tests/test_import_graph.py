"""No import cycle among docchunk's modules: the graph of their module-level imports is acyclic.

The graph is read from the source with :mod:`ast` (nothing is imported): an edge
``a -> b`` is an import of ``docchunk`` module ``b`` that runs when module ``a`` is
imported, that is a statement outside every function and outside
``if TYPE_CHECKING:``. ``from p import n`` is an edge to ``p``, and to ``p.n`` when
that is a module. Importing ``p.m`` also runs the ``__init__`` of the package ``p``
(and of every package above it): an edge to each, but for the packages that hold the
importing module (they are already being imported then; a package that imports its
own submodules is no circle).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

import docchunk

SRC = Path(docchunk.__file__).resolve().parent


def _module_names() -> dict[str, Path]:
    names = {}
    for path in SRC.rglob("*.py"):
        parts = ["docchunk", *path.relative_to(SRC).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(body: list[ast.stmt], in_function: bool) -> list[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Each import statement under ``body``, and whether it sits in a function (runs only when called)."""
    out: list[tuple[ast.Import | ast.ImportFrom, bool]] = []
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            out.append((node, in_function))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            out.extend(_import_nodes(node.body, True))
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            out.extend(_import_nodes(node.orelse, in_function))
        else:
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                children = getattr(node, field, None) or []
                for child in children:
                    inner = child.body if isinstance(child, ast.ExceptHandler | ast.match_case) else [child]
                    out.extend(_import_nodes(inner, in_function))
    return out


def _packages_above(module: str) -> set[str]:
    parts = module.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))}


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool, known: set[str]) -> set[str]:
    """The docchunk modules an import statement in ``module`` loads, with the packages above them."""
    named = _named(node, module, is_package, known)
    return {m for target in named for m in {target} | _packages_above(target)} - _packages_above(module) - {module}


def _named(node: ast.Import | ast.ImportFrom, module: str, is_package: bool, known: set[str]) -> set[str]:
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in known}
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        source = ".".join([*base, node.module] if node.module else base)
    else:
        source = node.module or ""
    found = {source} if source in known else set()
    found |= {f"{source}.{alias.name}" for alias in node.names if f"{source}.{alias.name}" in known}
    return found


def import_graph() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """``(module-level edges, function-level edges)`` of every docchunk module, by module name."""
    paths = _module_names()
    known = set(paths)
    eager: dict[str, set[str]] = {name: set() for name in paths}
    lazy: dict[str, set[str]] = {name: set() for name in paths}
    for name, path in paths.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node, in_function in _import_nodes(tree.body, False):
            targets = _targets(node, name, path.name == "__init__.py", known)
            (lazy if in_function else eager)[name] |= targets
    return eager, lazy


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` (its modules in order, the first repeated at the end), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def _reaches(graph: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, todo = {start}, [start]
    while todo:
        for nxt in graph[todo.pop()]:
            if nxt == goal:
                return True
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return False


def test_the_graph_sees_module_level_imports_and_leaves_out_functions_and_type_checking():
    eager, lazy = import_graph()
    assert "docchunk.errors" in eager["docchunk._extras"]
    assert "docchunk.serialization.rows" in eager["docchunk.integrations.langchain"]
    # the packages above an imported module, but not those above the importing one
    assert "docchunk.integrations" not in eager["docchunk.integrations.langchain"]
    assert "docchunk.serialization" in eager["docchunk.integrations.langchain"]
    assert "docchunk" not in eager["docchunk.integrations.langchain"]
    # lazily imported in the function that runs the rows
    assert "docchunk.batch.rows" in lazy["docchunk.batch.local"]
    assert "docchunk.batch.rows" not in eager["docchunk.batch.local"]


def test_no_import_cycle_among_docchunk_modules():
    """No chain of module-level imports leads from a docchunk module back to itself."""
    eager, _ = import_graph()
    assert _cycle(eager) is None, " -> ".join(_cycle(eager) or [])


def test_no_function_level_import_dodges_a_cycle():
    """A function-level import ``a -> b`` where ``b`` imports ``a`` back at module level would
    be a cycle if written at the top: such a lazy import hides a circle (a lazy re-export, say)
    instead of removing it. Lazy imports that only defer a heavy module are fine."""
    eager, lazy = import_graph()
    dodges = sorted((a, b) for a, targets in lazy.items() for b in targets if _reaches(eager, b, a))
    assert not dodges


def test_the_document_wing_is_layered_even_for_the_type_checker():
    """No circle among ``chunkers/doc``'s modules, counting every import: module level, in
    functions and under ``if TYPE_CHECKING:``. Issue 50: the hybrid run, the mode and the
    default mode's passes (``structure``, ``lead_in``, ``list_split``, ``tables/pieces``,
    ``tables/balance``) formed a 7-module circle closed through ``TYPE_CHECKING`` imports, and
    ``piece`` / ``provenance`` a 2-module one; the run now gets its mode's hooks as plain
    functions (``hybrid_run.RunHooks``) and imports no mode."""
    assert _cycle(wing_imports()) is None, " -> ".join(_cycle(wing_imports()) or [])


def test_the_wing_check_finds_a_type_only_circle():
    """The check can fail: the run naming its mode under ``TYPE_CHECKING`` again (as it did) closes a circle."""
    imports = wing_imports()
    imports["docchunk.chunkers.doc.hybrid_run"].add("docchunk.chunkers.doc.mode")
    found = _cycle(imports)
    assert found is not None and "docchunk.chunkers.doc.hybrid_run" in found and "docchunk.chunkers.doc.mode" in found


def test_the_checks_find_a_cycle_and_what_a_module_reaches():
    """The checks can fail: a three-module circle is found, and whether a module reaches another."""
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
    assert _reaches({"a": {"b"}, "b": set()}, "a", "b")
    assert not _reaches({"a": {"b"}, "b": set()}, "b", "a")



# -- the architecture page's "may import" table, held against every import ------------------
PAGE = SRC.parents[1] / "docs" / "architecture.md"
_ALWAYS = re.compile(r"Every room but (.*?) may also import (.*?)\. ")


def _token_module(token: str) -> str:
    """A room as the page writes it (``types/``, ``errors.py``, ``chunkers/__init__.py``) as a module name."""
    path = token.removesuffix("/").removesuffix(".py").removesuffix("__init__").removesuffix("/")
    return "docchunk" + ("." + path.replace("/", ".") if path else "")


def _covers(token: str, module: str) -> bool:
    """Whether the room ``token`` holds ``module`` (a package's ``__init__.py`` holds only the package module)."""
    name = _token_module(token)
    return module == name if token.endswith("__init__.py") else module == name or module.startswith(name + ".")


def _allowed(cell: str) -> list[str]:
    """The rooms a "may import" cell allows: its backticked rooms, leaving out parentheses and what follows ; or —."""
    while re.search(r"\([^()]*\)", cell):
        cell = re.sub(r"\([^()]*\)", "", cell)
    return re.findall(r"`([^`]+)`", re.split(r";| — ", cell)[0])


def page_rules(text: str) -> tuple[dict[str, list[str] | None], list[str]]:
    """``(room -> the rooms it may import or None for every room, the rooms every other room may import)``."""
    lines = text.splitlines()
    start = lines.index("| room | holds | may import |") + 2
    rules: dict[str, list[str] | None] = {}
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        may = cells[-1]
        for room in re.findall(r"`([^`]+)`", cells[0]):
            rules[room] = None if may.startswith("every room") else [] if may.startswith("nothing") else _allowed(may)
    found = _ALWAYS.search(" ".join(text.split()))
    assert found is not None, "the page lost its sentence 'Every room but ... may also import ...'"
    return rules, re.findall(r"`([^`]+)`", found.group(2))


def _room_of(module: str, rooms: Iterable[str]) -> str | None:
    """The most specific room of the page that holds ``module``."""
    holding = [r for r in rooms if _covers(r, module)]
    return max(holding, key=lambda r: (len(_token_module(r)), r.endswith(".py")), default=None)


def all_imports() -> dict[str, set[str]]:
    """The docchunk modules each module names in an import: at module level, in functions, under TYPE_CHECKING."""
    paths = _module_names()
    known = set(paths)
    out: dict[str, set[str]] = {name: set() for name in paths}
    for name, path in paths.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                out[name] |= _named(node, name, path.name == "__init__.py", known) - {name}
    return out


def broken_rules(text: str, imports: dict[str, set[str]]) -> list[str]:
    """Each import the page's table does not allow, as ``a -> b (room A may not import room B)``."""
    rules, always = page_rules(text)
    named = {t for allowed in rules.values() for t in allowed or []} | set(always)
    unheld = sorted(t for t in named if _room_of(_token_module(t), rules) is None)
    assert not unheld, f"the may-import column names rooms (or modules) the table lacks: {unheld}"
    broken = []
    for module, targets in sorted(imports.items()):
        room = _room_of(module, rules)
        assert room is not None, f"{module} is in no room of docs/architecture.md: add its row"
        allowed = rules[room]
        for target in sorted(targets):
            other = _room_of(target, rules)
            if other == room or allowed is None or any(_covers(t, target) for t in allowed):
                continue
            if room not in always and any(_covers(t, target) for t in always):
                continue
            broken.append(f"{module} -> {target} (room {room} may not import {other})")
    return broken


def test_every_import_keeps_the_architecture_pages_rules():
    """docs/architecture.md's table says what each room may import; the code had broken three of its rules unseen
    (refineries -> serialization, types -> serialization/_docling, loading -> types)."""
    assert broken_rules(PAGE.read_text(encoding="utf-8"), all_imports()) == []


def test_the_rules_check_finds_a_broken_rule():
    page = PAGE.read_text(encoding="utf-8")
    imports = all_imports()
    imports["docchunk.types.chunk"] = {"docchunk.serialization._docling"}
    imports["docchunk.serialization.chunk"] = {"docchunk.batch.rows"}
    assert broken_rules(page, imports) == [
        "docchunk.serialization.chunk -> docchunk.batch.rows (room serialization/ may not import batch/)",
        "docchunk.types.chunk -> docchunk.serialization._docling (room types/ may not import serialization/)",
    ]
    rules, always = page_rules(page)
    assert rules["cli/"] is None and rules["errors.py"] == [] and "chunkers/text/" in (rules["chunkers/doc/"] or [])
    assert always == ["errors.py", "_extras.py", "_versions.py"]
    assert _room_of("docchunk.embeddings.models", rules) == "embeddings/models.py"
    assert _room_of("docchunk.chunkers", rules) == "chunkers/__init__.py"
    assert _room_of("docchunk", rules) == "__init__.py"


def wing_imports(wing: str = "docchunk.chunkers.doc") -> dict[str, set[str]]:
    """Every import (module level, in functions, under TYPE_CHECKING) among the modules of ``wing``."""
    inside = {m: targets for m, targets in all_imports().items() if m == wing or m.startswith(wing + ".")}
    return {m: {t for t in targets if t in inside} for m, targets in inside.items()}
