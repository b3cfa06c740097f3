"""Code read with tree-sitter: the grammars, and the definitions of a syntax tree as spans of the code.

What :class:`~docchunk.chunkers.doc.code.CodeChunkingStrategy` knows of a language's
syntax: which grammar parses it (:data:`GRAMMARS`, :func:`new_parser`), which nodes are
function and class definitions (through decorators and ``export``), and where a
definition starts and ends in the code's text (:func:`definitions`: from the start of
its line, with the comments right above it, to the end of its last line; UTF-8 byte
offsets mapped to ``str`` indices). Spans here are contiguous and cover what they
are asked to cover. Not here: the token budget, the text splitter and the chunk
models (:mod:`docchunk.chunkers.doc.code`), which imports this module after checking
that docling-core's code chunking is installed.
"""

from __future__ import annotations

import bisect
import importlib
from dataclasses import dataclass
from typing import Any

from docling_core.transforms.chunker.code_chunking.code_chunk import CodeChunkType

from docchunk._extras import extra_install
from docchunk.errors import MissingDependencyError

__all__ = ["GRAMMARS", "SUPPORTED_LANGUAGES", "Span", "absorb_whitespace", "class_body", "definitions", "new_parser"]

# language -> (grammar module, its language function, definition node types by kind)
GRAMMARS: dict[str, tuple[str, str]] = {
    "python": ("tree_sitter_python", "language"),
    "c": ("tree_sitter_c", "language"),
    "java": ("tree_sitter_java", "language"),
    "javascript": ("tree_sitter_javascript", "language"),
    "typescript": ("tree_sitter_typescript", "language_typescript"),
}
SUPPORTED_LANGUAGES = tuple(GRAMMARS)

_FUNCTIONS = {
    "function_definition", "function_declaration", "generator_function_declaration", "method_definition",
    "method_declaration", "constructor_declaration",
}  # fmt: skip
_CLASSES = {
    "class_definition", "class_declaration", "abstract_class_declaration", "interface_declaration",
    "enum_declaration", "record_declaration",
}  # fmt: skip
_WRAPPERS = {"decorated_definition", "export_statement"}  # a definition inside: decorators, `export`
_BODIES = {"block", "class_body", "declaration_list", "enum_body", "interface_body"}


@dataclass
class Span:
    """A span ``code[start:end]`` that becomes one chunk, or is fitted to the budget first.

    Attributes:
        start: Start offset (a ``str`` index) in the code.
        end: End offset, exclusive.
        kind: The chunk type (``PREAMBLE`` for code between definitions).
        name: The definition's name, or None.
        node: The definition's tree-sitter node (a class is split into its members), or None.
    """

    start: int
    end: int
    kind: CodeChunkType
    name: str | None = None
    node: Any = None


def new_parser(language: str) -> Any:
    """A tree-sitter parser of ``language`` (a key of :data:`GRAMMARS`).

    Raises:
        MissingDependencyError: tree-sitter or the language's grammar is not installed.
    """
    module, function = GRAMMARS[language]
    ts, grammar = _import("tree_sitter", language), _import(module, language)
    return ts.Parser(ts.Language(getattr(grammar, function)()))


def definitions(container: Any, code: str, start: int, end: int) -> list[Span]:
    """Contiguous spans covering ``code[start:end]``, definitions apart.

    One span per definition among the container's children (from the start of its
    line, with the comments right above it); the code between them as preamble spans.
    """
    to_char = _ByteToChar(code)
    spans: list[Span] = []
    pos = start
    children = list(container.named_children)
    for i, node in enumerate(children):
        kind, name = _kind(node)
        if kind is None:
            continue
        first, above = node, i - 1
        # comments right above a definition (no blank line between) belong to it
        while above >= 0 and children[above].type == "comment":
            if children[above].end_point[0] + 1 < first.start_point[0]:
                break
            first, above = children[above], above - 1
        lo = max(pos, _line_start(code, to_char(first.start_byte)))
        hi = min(end, _line_end(code, to_char(node.end_byte)))
        if lo > pos:
            spans.append(Span(pos, lo, CodeChunkType.PREAMBLE))
        spans.append(Span(lo, hi, kind, name, node))
        pos = hi
    if pos < end:
        spans.append(Span(pos, end, CodeChunkType.PREAMBLE))
    return spans


def _import(module: str, language: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingDependencyError(
            f"code chunking of {language} needs the package {module.replace('_', '-')!r}, which is not installed; "
            f"install the code extra with: {extra_install('code')}"
        ) from exc


def _kind(node: Any) -> tuple[CodeChunkType | None, str | None]:
    """The chunk type and name of a definition node (through decorators and ``export``), else (None, None)."""
    inner = node
    while inner.type in _WRAPPERS:
        named = [c for c in inner.named_children if c.type in _FUNCTIONS | _CLASSES | _WRAPPERS]
        if not named:
            return None, None
        inner = named[-1]
    if inner.type in _FUNCTIONS:
        kind = CodeChunkType.FUNCTION
    elif inner.type in _CLASSES:
        kind = CodeChunkType.CLASS
    else:
        return None, None
    name = inner.child_by_field_name("name")
    if name is None:  # C: the name sits in the declarator
        declarator = inner.child_by_field_name("declarator")
        while declarator is not None and declarator.child_by_field_name("declarator") is not None:
            declarator = declarator.child_by_field_name("declarator")
        name = declarator
    return kind, name.text.decode("utf-8", "replace") if name is not None and name.text else None


def class_body(node: Any) -> Any:
    """The body node of a class definition (through decorators and ``export``) that holds its members, or None."""
    inner = node
    while inner.type in _WRAPPERS:
        inner = inner.named_children[-1]
    body = inner.child_by_field_name("body")
    return body if body is not None and body.type in _BODIES else None


class _ByteToChar:
    """Maps UTF-8 byte offsets of ``code`` to ``str`` indices."""

    def __init__(self, code: str) -> None:
        self.ascii = code.isascii()
        if not self.ascii:
            self.starts = []
            pos = 0
            for ch in code:
                self.starts.append(pos)
                pos += len(ch.encode("utf-8"))
            self.starts.append(pos)

    def __call__(self, byte: int) -> int:
        return byte if self.ascii else bisect.bisect_left(self.starts, byte)


def _line_start(code: str, index: int) -> int:
    return code.rfind("\n", 0, index) + 1


def _line_end(code: str, index: int) -> int:
    end = code.find("\n", index)
    return len(code) if end < 0 else end + 1


def absorb_whitespace(spans: list[Span], code: str) -> list[Span]:
    """Join whitespace-only spans to the span before them (or after, at the start)."""
    out: list[Span] = []
    carry: int | None = None
    for span in spans:
        if not code[span.start : span.end].strip():
            if out:
                out[-1].end = span.end
            elif carry is None:
                carry = span.start
            continue
        if carry is not None:
            span.start, carry = carry, None
        out.append(span)
    return out
