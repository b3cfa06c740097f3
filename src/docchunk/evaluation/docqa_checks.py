"""Reading a doc-qa folder's files line by line, each line checked: a mistake is a :class:`DocumentError` naming it.

What :func:`~docchunk.evaluation.docqa_data.load_docqa` (``docchunk eval-docs``) reads,
checked as :func:`~docchunk.evaluation.data.load_eval_set` checks ``docchunk eval``'s
set (session 8's hostile finding 2): a file that is not gzip or not JSON lines, a
document that is not a DoclingDocument, a question without its text or evidence, and
evidence that points at no item of its document or at no characters of it each raise a
:class:`~docchunk.errors.DocumentError` whose message starts with ``FILE:LINE:`` and says
what was wrong, the value, and what is allowed. Scored, such a question would count as
0 % held (or be left out without a word), and the figures would be wrong.
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from docchunk.errors import DocumentError

if TYPE_CHECKING:
    from docling_core.types.doc import DoclingDocument

    from docchunk.evaluation.docqa_data import DocQaQuestion

__all__ = ["check_evidence", "read_doc_lines", "read_question_lines", "to_document"]

_HELP = "see the doc-qa README for the layout"


def _json_lines(path: Path, lines: Iterator[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` of each non-blank line of ``lines``; a line that is not a JSON object raises."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DocumentError(f"{path}:{number}: not JSON ({exc.msg} at column {exc.colno}): {line[:60]!r}; "
                                f"each line must be one JSON object ({_HELP})") from exc  # fmt: skip
        if not isinstance(row, dict):
            raise DocumentError(f"{path}:{number}: a JSON {type(row).__name__}, not an object: {line[:60]!r}; "
                                f"each line must be one JSON object ({_HELP})")  # fmt: skip
        yield number, row


def read_doc_lines(path: Path) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """``(line number, doc_id, doc)`` of each line of a ``docs.jsonl.gz``, ``doc`` as JSON (not yet validated).

    Raises:
        DocumentError: The file is not gzip-compressed UTF-8; a line is not a JSON object,
            lacks a non-empty string ``doc_id`` or an object ``doc``, or repeats a ``doc_id``.
    """
    seen: dict[str, int] = {}
    try:
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for number, row in _json_lines(path, fh):
                doc_id, doc = row.get("doc_id"), row.get("doc")
                if not isinstance(doc_id, str) or not doc_id:
                    raise DocumentError(f"{path}:{number}: doc_id is {doc_id!r}; each line needs a non-empty "
                                        f'string "doc_id" and its "doc" ({_HELP})')  # fmt: skip
                if not isinstance(doc, dict):
                    raise DocumentError(f"{path}:{number}: document {doc_id!r} has no \"doc\" object (got "
                                        f"{type(doc).__name__}); it must hold the DoclingDocument's JSON")  # fmt: skip
                if doc_id in seen:
                    raise DocumentError(f"{path}:{number}: doc_id {doc_id!r} is already on line {seen[doc_id]}; "
                                        "each document needs its own doc_id")  # fmt: skip
                seen[doc_id] = number
                yield number, doc_id, doc
    except (OSError, EOFError, zlib.error, UnicodeDecodeError) as exc:
        raise DocumentError(f"{path}: cannot read it as gzip-compressed UTF-8 JSON lines ({exc}); "
                            f"compress the JSON lines with gzip ({_HELP})") from exc  # fmt: skip


def to_document(doc: dict[str, Any], doc_id: str, where: str) -> DoclingDocument:
    """``doc`` validated as a ``DoclingDocument``; a :class:`DocumentError` at ``where`` (``FILE:LINE``) if not."""
    from docling_core.types.doc import DoclingDocument

    try:
        return DoclingDocument.model_validate(doc)
    except (ValueError, TypeError) as exc:  # pydantic's ValidationError is a ValueError
        errors = exc.errors() if hasattr(exc, "errors") else []
        if errors:  # the first of pydantic's errors: where in the JSON, and what
            where_in = ".".join(map(str, errors[0].get("loc", ()))) or "its top level"
            more = f", and {len(errors) - 1} more" if len(errors) > 1 else ""
            detail = f"{where_in}: {errors[0].get('msg', '')}{more}"
        else:
            detail = str(exc)
        raise DocumentError(f"{where}: the doc of {doc_id!r} is not a DoclingDocument ({detail}); "
                            "write it with DoclingDocument.export_to_dict()") from exc  # fmt: skip


def read_question_lines(path: Path) -> Iterator[tuple[int, DocQaQuestion]]:
    """``(line number, question)`` of each line of a ``questions.jsonl``, its form checked (not its evidence).

    Raises:
        DocumentError: The file is not UTF-8; a line is not a JSON object; ``qid`` or
            ``doc_id`` is not a non-empty string, ``question`` not a string with text, or
            ``evidence`` not a non-empty list of objects whose ``kind`` is ``text`` or ``cell``.
    """
    try:
        with open(path, encoding="utf-8") as fh:
            for number, row in _json_lines(path, fh):
                _check_question(row, f"{path}:{number}")
                yield number, cast("DocQaQuestion", row)
    except UnicodeDecodeError as exc:
        raise DocumentError(f"{path}: not UTF-8 text ({exc}); write the questions as UTF-8 JSON lines") from exc


def _check_question(row: dict[str, Any], where: str) -> None:
    for key in ("qid", "doc_id"):
        if not isinstance(row.get(key), str) or not row[key]:
            raise DocumentError(f"{where}: {key} is {row.get(key)!r}; each question needs a non-empty string "
                                f"{key!r} ({_HELP})")  # fmt: skip
    text = row.get("question")
    if not isinstance(text, str) or not text.strip():
        raise DocumentError(f"{where}: question {row['qid']!r} has question {text!r}; it needs the question's "
                            "text, a non-empty string (the query that is ranked)")  # fmt: skip
    evidence = row.get("evidence")
    if not isinstance(evidence, list) or not evidence:
        raise DocumentError(f"{where}: question {row['qid']!r} has evidence {evidence!r}; it needs a non-empty "
                            'list of units, each {"ref", "kind": "text", "start", "end"} or '
                            '{"ref", "kind": "cell", "row", "col"}: without one it cannot be scored')  # fmt: skip
    for unit in evidence:
        well_formed = isinstance(unit, dict) and unit.get("kind") in ("text", "cell")
        if not well_formed or not isinstance(unit.get("ref"), str):
            raise DocumentError(f"{where}: question {row['qid']!r} has the evidence unit {unit!r}; each unit "
                                'needs a string "ref" and "kind" "text" (with "start", "end") or "cell" '
                                '(with "row", "col")')  # fmt: skip


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_evidence(question: DocQaQuestion, doc: DoclingDocument, where: str) -> None:
    """Raise :class:`DocumentError` at ``where`` unless each evidence unit of ``question`` is in ``doc``.

    A text unit names a text item (``#/texts/N``) and a non-empty character range of its
    ``text``, ``0 <= start < end <= len(text)``; a cell unit names a table (``#/tables/N``)
    and a cell of its grid, ``0 <= row < num_rows`` and ``0 <= col < num_cols``.
    """
    from docling_core.types.doc import TableItem, TextItem
    from docling_core.types.doc.document import RefItem

    for unit in question["evidence"]:
        ref = unit["ref"]
        try:
            item = RefItem(cref=ref).resolve(doc)
        except (ValueError, IndexError, KeyError, AttributeError):
            item = None
        lead = f"{where}: question {question['qid']!r}: evidence {unit!r}"
        if unit["kind"] == "text":
            if not isinstance(item, TextItem):
                raise DocumentError(f"{lead} names no text item of {question['doc_id']!r} "
                                    f"({_what(item, ref)}); a text unit's ref is a text item, #/texts/N")  # fmt: skip
            start, end = unit.get("start"), unit.get("end")
            if not (_whole(start) and _whole(end) and 0 <= start < end <= len(item.text)):  # type: ignore[operator]
                raise DocumentError(f"{lead}: start {start!r}, end {end!r} are not a range of its text "
                                    f"({len(item.text)} characters); they must be integers with "
                                    "0 <= start < end <= len(text), Python str indices")  # fmt: skip
        else:
            if not isinstance(item, TableItem):
                raise DocumentError(f"{lead} names no table of {question['doc_id']!r} "
                                    f"({_what(item, ref)}); a cell unit's ref is a table, #/tables/N")  # fmt: skip
            row, col, rows, cols = unit.get("row"), unit.get("col"), item.data.num_rows, item.data.num_cols
            if not (_whole(row) and _whole(col) and 0 <= row < rows and 0 <= col < cols):  # type: ignore[operator]
                raise DocumentError(f"{lead}: row {row!r}, col {col!r} are not a cell of its {rows}x{cols} grid; "
                                    "they must be integers, 0 <= row < num_rows, 0 <= col < num_cols")  # fmt: skip


def _what(item: Any, ref: str) -> str:
    return f"no item {ref!r} in it" if item is None else f"{ref!r} is a {type(item).__name__}"
