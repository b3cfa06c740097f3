"""List the public functions, methods and fields of ``src/docchunk`` whose annotation holds ``Any``.

Usage:
    python bench/seam_any.py [--private] [--seams] [--quiet]

Reads the source with :mod:`ast` (nothing is imported). An entry is a module-level
function, a method of a class, or an annotated class attribute (a dataclass, pydantic,
NamedTuple or Protocol field) whose parameter, return or field annotation names
``Any`` (``Any``, ``typing.Any``, or inside a quoted annotation). Functions nested in
functions are left out. Public means that no part of its dotted name (the module's
path, the class, the name) starts with one underscore; dunder methods (``__init__``,
``__call__``) of a public class count as public. ``--private`` lists the private ones
too. ``--seams`` leaves out the annotations where ``Any`` is the honest type in every
case (docs/architecture.md, "Types at the seams"): a ``**`` parameter (``**kwargs``,
``**data``, ``**options``, forwarded to a third-party API), pydantic's ``__context`` of
``model_post_init``, the ``value`` of ``__setattr__`` and the ``memo`` of
``__deepcopy__``; what remains is the count to bring down. The listing is grouped by
module; the last line is the count of entries (and of annotations holding ``Any``, one
entry can have several).
"""

from __future__ import annotations

import argparse
import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _names_any(node: ast.expr | None) -> bool:
    """Whether the annotation ``node`` names ``Any``."""
    if node is None:
        return False
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id == "Any":
            return True
        if isinstance(sub, ast.Attribute) and sub.attr == "Any":
            return True
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            try:
                quoted = ast.parse(sub.value, mode="eval").body
            except SyntaxError:
                continue
            if _names_any(quoted):
                return True
    return False


def _function_sites(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """The parameters (and ``return``) of ``fn`` whose annotation names ``Any``."""
    args = fn.args
    params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    sites = [a.arg for a in params if _names_any(a.annotation)]
    if args.vararg is not None and _names_any(args.vararg.annotation):
        sites.append("*" + args.vararg.arg)
    if args.kwarg is not None and _names_any(args.kwarg.annotation):
        sites.append("**" + args.kwarg.arg)
    if _names_any(fn.returns):
        sites.append("return")
    return sites


def _legitimate(name: str, site: str) -> bool:
    """Whether the annotation ``site`` of the entry ``name`` is one that ``--seams`` leaves out."""
    method = name.rsplit(".", 1)[-1]
    return (
        site.startswith("**")
        or site == "__context"
        or (method == "__setattr__" and site == "value")
        or (method == "__deepcopy__" and site == "memo")
    )


def _class_entries(cls: ast.ClassDef, prefix: str, private: bool) -> list[tuple[str, list[str], bool]]:
    out: list[tuple[str, list[str], bool]] = []
    hidden = private or _private(cls.name)
    for node in cls.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            sites = _function_sites(node)
            if sites:
                out.append((f"{prefix}{cls.name}.{node.name}", sites, hidden or _private(node.name)))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if _names_any(node.annotation):
                out.append((f"{prefix}{cls.name}.{node.target.id}", ["field"], hidden or _private(node.target.id)))
        elif isinstance(node, ast.ClassDef):
            out.extend(_class_entries(node, f"{prefix}{cls.name}.", hidden))
    return out


def entries(path: Path) -> list[tuple[str, list[str], bool]]:
    """``(qualified name, annotation sites, private)`` of each entry of the module at ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: list[tuple[str, list[str], bool]] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            sites = _function_sites(node)
            if sites:
                out.append((node.name, sites, _private(node.name)))
        elif isinstance(node, ast.ClassDef):
            out.extend(_class_entries(node, "", False))
    return out


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--private", action="store_true", help="list private names too")
    parser.add_argument(
        "--seams",
        action="store_true",
        help="leave out **kwargs, __context, __setattr__'s value and __deepcopy__'s memo",
    )
    parser.add_argument("--quiet", action="store_true", help="print only the counts")
    args = parser.parse_args()
    grouped: dict[str, list[tuple[str, list[str], bool]]] = defaultdict(list)
    for path in sorted((SRC / "docchunk").rglob("*.py")):
        module = module_name(path)
        module_private = any(_private(part) for part in module.split("."))
        for name, sites, private in entries(path):
            private = private or module_private
            if args.seams:
                sites = [site for site in sites if not _legitimate(name, site)]
                if not sites:
                    continue
            if args.private or not private:
                grouped[module].append((name, sites, private))
    count = sum(len(found) for found in grouped.values())
    annotations = sum(len(sites) for found in grouped.values() for _, sites, _ in found)
    if not args.quiet:
        for module, found in grouped.items():
            print(module)
            for name, sites, private in found:
                mark = " (private)" if private else ""
                print(f"    {name}{mark}: {', '.join(sites)}")
    scope = "public and private" if args.private else "public"
    if args.seams:
        scope += " (seams: legitimate **kwargs/__context/__setattr__/__deepcopy__ left out)"
    print(f"{count} {scope} entries with Any in an annotation ({annotations} annotations) in {len(grouped)} modules")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
