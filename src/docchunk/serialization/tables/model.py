"""The table model: a ``TableItem`` read once, with what its rules infer, for every writer.

:func:`read_table` reads docling-core's grid (:mod:`.grid`), the cell texts (a rich
cell's content written by the document serializer) and runs the rules (:mod:`.rules`):
the column-header rows, the row-label columns, the table-wide headers, the table's kind.
The writers (:mod:`.records`, :mod:`.triplets`, :mod:`.markdown`) read only the model.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from docling_core.types.doc import GroupItem

from docchunk.serialization.inline import only_inline_group, plain_inline_text
from docchunk.serialization.tables.blocks import restart_block, restarted_header_rows
from docchunk.serialization.tables.grid import EmptyCell, read_grid
from docchunk.serialization.tables.rows import TableRow, clean, readable
from docchunk.serialization.tables.rules import (
    TableKind,
    header_row_count,
    label_column_count,
    sub_header_row,
    table_kind,
    table_wide_headers,
    title_row,
)

if TYPE_CHECKING:
    from docling_core.transforms.serializer.base import BaseDocSerializer
    from docling_core.types.doc import DoclingDocument, TableItem

__all__ = [
    "TableModel",
    "cell_paragraphs",
    "header_row",
    "holds_nested_list",
    "indented_lines",
    "joined",
    "read_table",
    "text_cols",
    "value_cells",
]


@dataclass
class TableModel:
    """One table as the writers read it: its grid, its cell texts and what the rules infer.

    Attributes:
        grid: docling-core's grid (:func:`~.grid.read_grid`): ``n_rows`` rows of
            ``n_cols`` cells, a merged cell the same object over its span.
        text_of: A cell's text on one line (whitespace runs as one space; a rich
            cell's content as the document serializer writes it), read once per cell.
        start: The number of column-header rows (:func:`~.rules.header_row_count`,
            one more for a sub-header row, :func:`~.rules.sub_header_row`), at most
            ``n_rows``; the body rows are ``start .. n_rows - 1``.
        label_cols: The number of leading row-label columns
            (:func:`~.rules.label_column_count`), 0 for a one-column table.
        title: The text of a title row over the whole table (:func:`~.rules.title_row`),
            or None; with a title, row 1 is a header row (``start`` at least 2) and the
            title is the first table-wide note (:attr:`wide`).
        paragraphs_of: A cell's text as its paragraphs, each on one line, Markdown
            heading marks dropped (a rich cell's headings and paragraphs, for a layout
            table's text); ``[text_of(cell)]`` or ``[]`` for a plain cell.
    """

    grid: list[list[Any]]
    text_of: Callable[[Any], str]
    start: int
    label_cols: int
    title: str | None = None
    paragraphs_of: Callable[[Any], list[str]] | None = None

    @property
    def n_rows(self) -> int:
        """The number of grid rows (header rows included)."""
        return len(self.grid)

    @property
    def n_cols(self) -> int:
        """The number of grid columns (0 for an empty grid)."""
        return len(self.grid[0]) if self.grid else 0

    @property
    def all_header(self) -> bool:
        """Whether every row is a column-header row (a non-empty table without body rows)."""
        return bool(self.grid) and self.start == self.n_rows

    @cached_property
    def kind(self) -> TableKind:
        """``"data"``, ``"layout"`` or ``"title"`` (:func:`~.rules.table_kind`), read when first asked."""
        return table_kind(self.grid, self.start, self.text_of)

    @cached_property
    def restarts(self) -> list[int]:
        """Body rows that start a new header block (:func:`~.blocks.restarted_header_rows`), read when first asked."""
        return restarted_header_rows(self.grid, self.start, self.label_cols, self.text_of)

    @cached_property
    def blocks(self) -> dict[int, range]:
        """Each restarted header block (:func:`~.blocks.restart_block`) by its first grid row, read when first asked."""
        found = (restart_block(self.grid, r, self.start, self.label_cols, self.text_of) for r in self.restarts)
        return {block.start: block for block in found}

    @cached_property
    def wide(self) -> tuple[list[list[Any]], list[str]]:
        """``(grid, notes)``: the grid without its table-wide header rows, and their texts.

        See :func:`~.rules.table_wide_headers`; a title row (:attr:`title`) is
        emptied too and its text is the first note. Read when a writer first asks.
        """
        grid = self.grid
        if self.title is not None:
            grid = [[EmptyCell(0, j) for j in range(self.n_cols)], *grid[1:]]
        grid, notes = table_wide_headers(grid, self.start, self.label_cols, self.text_of)
        return grid, [self.title, *notes] if self.title is not None else notes


def read_table(
    item: TableItem,
    doc: DoclingDocument | None = None,
    serializer: BaseDocSerializer | None = None,
    visited: set[str] | None = None,
    keep_links: bool = False,
    table_lines: bool = False,
) -> TableModel:
    """Read ``item`` into a :class:`TableModel`: its grid, its cell texts, and the rules' findings.

    Args:
        item: A docling-core ``TableItem``.
        doc: The ``DoclingDocument`` holding ``item``; needed for the text of rich cells.
        serializer: The document serializer that turns a rich cell's content into
            text (the chunker's; docling-core builds a Markdown one when None).
        visited: Refs the serializer has already walked; a rich cell's content is
            added to it (a fresh set when None, leaving the caller's walk untouched).
        keep_links: Whether a link in a rich cell keeps its URL (Markdown) or is
            written as its text alone (records, triplets; see :func:`without_urls`).
        table_lines: Whether a rich cell holding a table (:func:`holds_table`) is its
            records, each on a line of its own indented by one space (two cost a cl100k
            token a line), after a line break (records); else one line, as any cell.

    Returns:
        The model; cell texts are read when a writer first asks for them.
    """
    grid = read_grid(item.data)
    texts: dict[int, str] = {}
    raws: dict[int, str] = {}

    def text_of(cell: Any) -> str:
        key = id(cell)
        if key not in texts:
            raw, nested, inner = cell.text, False, False
            if doc is not None and type(cell).__name__ == "RichTableCell":
                seen = set() if visited is None else visited
                raw = cell._get_text(doc=doc, doc_serializer=serializer, visited=seen)
                root = cell.ref.resolve(doc)
                walk = _walk(root, doc)  # the cell's content, walked once for every rule below
                items = [item for item in walk if not isinstance(item, GroupItem)]
                nested = holds_nested_list(root, doc, walk)
                inner = table_lines and holds_table(root, doc)
                if not keep_links:
                    run = only_inline_group(root, doc)  # one sentence of fragments: written as in a paragraph
                    plain = plain_inline_text(run, doc) if run is not None else ""
                    raw = plain or without_marks(without_urls(raw, root, doc, serializer, items), root, doc, items)
                raw = with_checkboxes(raw, root, doc, items)
            raws[key] = raw
            if nested or not inner:
                texts[key] = indented_lines(raw) if nested else clean(raw)
            else:  # the inner table's records, each on a line of its own, indented under the cell
                texts[key] = "".join(f"\n {line}" for line in cell_paragraphs(raw))
        return texts[key]

    def paragraphs_of(cell: Any) -> list[str]:
        text_of(cell)
        return cell_paragraphs(raws[id(cell)])

    n_rows = len(grid)
    start = min(header_row_count(item.data, grid), n_rows) if grid else 0
    title = title_row(grid, start, text_of)
    if title is not None:
        start = max(start, 2)
    if sub_header_row(grid, start, text_of):
        start += 1
    label_cols = label_column_count(grid, start, len(grid[0])) if grid else 0
    return TableModel(grid, text_of, start, label_cols, title, paragraphs_of)


_HEADING_MARK = re.compile(r"^#{1,6}\s+")


def cell_paragraphs(raw: str) -> list[str]:
    """A cell's text as its paragraphs (its lines), each on one line, without Markdown heading marks.

    A rich cell's content is written by the document serializer as Markdown: a heading
    ``## News item 0`` and its paragraph on lines of their own. Written on one line, the
    marks stood in the middle of a line (a tester's web page laid out as one table,
    issue 46 finding 4); each line is a paragraph here, a heading without its ``#``.
    """
    out = []
    for line in raw.split("\n"):
        text = clean(_HEADING_MARK.sub("", line.strip()))
        if text:
            out.append(text)
    return out


def holds_nested_list(root: Any, doc: Any, walk: list[Any] | None = None) -> bool:
    """Whether the content under ``root`` (a rich cell's) holds a list nested in a list item or a list.

    docling's HTML converter puts a ``<ul>`` inside an ``<li>`` as a list group under
    the list item; other converters put the inner group directly under the outer one.
    """
    for item in walk if walk is not None else _walk(root, doc):
        if type(item).__name__ == "ListGroup" and item.parent is not None and item.parent.cref != root.self_ref:
            if type(item.parent.resolve(doc)).__name__ in ("ListItem", "ListGroup"):
                return True
    return False


def _walk(root: Any, doc: Any, groups: bool = True) -> list[Any]:
    """The items (and groups) under ``root`` (a rich cell's content), pictures' content included, in document order."""
    return [item for item, _ in doc.iterate_items(root=root, with_groups=groups, traverse_pictures=True)]


def holds_table(root: Any, doc: Any) -> bool:
    """Whether the content under ``root`` (a rich cell's) holds a table: a table nested in a cell.

    Its records, written on one line, ran together (``Contents = Brush (Item): Qty = 2
    Paint (Item): Qty = 3``, the round-2 tester's ``docx_nested_table``, 1.35x compat's
    tokens, issue 46): :func:`read_table` writes them one a line, indented under the cell.
    """
    return any(type(item).__name__ == "TableItem" for item, _ in doc.iterate_items(root=root, with_groups=True))


def indented_lines(raw: str) -> str:
    r"""A rich cell's text with its lines and their indentation kept: a nested list as the serializer writes it.

    Written on one line, a nested list in a cell read ``- Install - Install on Linux -
    Uninstall``: the sub-items as siblings of their parent (a tester's requirements
    matrix, issue 45 "0 nested items flattened"). Each line keeps its leading
    whitespace (the nesting), its other whitespace runs become one space, and empty
    lines go: ``"- Install\n    - Install on Linux\n- Uninstall"``, docling-core's
    own form of the cell in its triplets.
    """
    lines = []
    for line in raw.split("\n"):
        if text := clean(line):
            lines.append(line[: len(line) - len(line.lstrip())] + text)
    return "\n".join(lines)


def joined(cells: Sequence[Any], text_of: Callable[[Any], str]) -> str:
    """Distinct non-empty texts of distinct cells (a merged cell counts once), joined by a space."""
    seen: set[int] = set()
    texts: dict[str, None] = {}
    for cell in cells:
        if id(cell) not in seen:
            seen.add(id(cell))
            if text := text_of(cell):
                texts[text] = None
    return " ".join(texts)


def header_row(r: int, row: list[Any], text_of: Callable[[Any], str], sep: str) -> TableRow:
    """A body row that restarts the header (:attr:`TableModel.restarts`), as a row of its own.

    Its distinct texts in column order, joined by ``sep`` (``Accumulated depreciation;
    Land and buildings; Total``); the columns of each text are its entry's ``cols``.
    """
    at: dict[str, list[int]] = {}
    for j, cell in enumerate(row):
        if text := text_of(cell):
            at.setdefault(text, []).append(j)
    cells = tuple(("", readable(t)) for t in at)
    return TableRow(r, cells, sep=sep, cols=tuple(tuple(js) for js in at.values()))


def text_cols(row: list[Any], cols: range, text_of: Callable[[Any], str]) -> tuple[int, ...]:
    """The columns of ``cols`` whose cell (in ``row``) has text."""
    return tuple(j for j in cols if text_of(row[j]))


def value_cells(
    row: list[Any], label_cols: int, seen: set[int], text_of: Callable[[Any], str], used: set[int]
) -> Iterator[tuple[str, range]]:
    """``(text, columns)`` of each value cell of a body row with text, a merged cell once.

    ``seen`` holds the ids of the cells already read (the label cells) and gets the
    value cells' ids; ``used`` gets the columns each value spans, whose headers it carries.
    """
    for j in range(label_cols, len(row)):
        cell = row[j]
        if id(cell) in seen:
            continue
        seen.add(id(cell))
        value = text_of(cell)
        if not value:
            continue
        span = range(max(cell.start_col_offset_idx, label_cols), min(cell.end_col_offset_idx, len(row)))
        used.update(span)
        yield value, span


_MARKS = (("bold", "**"), ("italic", "*"), ("strikethrough", "~~"))


def without_marks(text: str, root: Any, doc: Any, items: list[Any] | None = None) -> str:
    """A rich cell's ``text`` without the Markdown marks of its bold, italic, struck-through and inline code items.

    The document serializer writes a bold item of a rich cell as ``**text**``; records
    and triplets are plain text, so the marks go (a tester's HTML title cell
    ``<b>Schedule A: Fees payable</b>`` read ``**Schedule A: Fees payable**`` in every
    record, issue 46 finding 2). So do the backticks of an inline code item, as in the
    default mode's inline runs (:func:`~docchunk.serialization.inline.plain_inline_text`):
    one MiniLM token each, they put 12 rows of Node.js' ``api/dns.md`` (``'A'`` and
    ``dnsPromises.resolve4()`` in backticks: ten a row) over 64 tokens under a three-level path.
    Each formatted item's marked text is found once, in document order, and replaced by
    its text; literal asterisks and backticks of other text stay.
    """
    pos = 0
    for item in items if items is not None else _walk(root, doc, groups=False):
        formatting, own = getattr(item, "formatting", None), getattr(item, "text", "")
        if not own:
            continue
        marked = f"`{own}`" if getattr(item, "label", None) == "code" and "\n" not in own else own
        for name, mark in _MARKS:
            if formatting is not None and getattr(formatting, name, False):
                marked = f"{mark}{marked}{mark}"
        if marked == own:
            continue
        at = text.find(marked, pos)  # the serializer's own output, rewritten; no offsets are recovered
        if at < 0:
            continue
        text = text[:at] + own + text[at + len(marked) :]
        pos = at + len(own)
    return text


_BOXES = {"checkbox_selected": "[x]", "checkbox_unselected": "[ ]"}
"""A checkbox's state as the default mode writes a checkbox of the body (``- [x] text``), without the list marker."""


def with_checkboxes(text: str, root: Any, doc: Any, items: list[Any] | None = None) -> str:
    """A rich cell's ``text`` with the state of each checkbox without text it holds: ``[x] yes``, ``[ ] no``.

    docling's HTML backend makes ``<input type="checkbox" checked> yes`` a checkbox item
    with no text, then a text item; the serializer writes nothing for the checkbox, so
    the record read ``OK = yes`` and which box was ticked was lost (round-3 documents
    tester, finding 11). The state goes before the text of the next item that has text
    (found in the serializer's output, in document order), or at the end of the cell
    when none follows.
    """
    pos, marks = 0, []
    for item in items if items is not None else _walk(root, doc, groups=False):
        label, own = str(getattr(item, "label", "")), getattr(item, "text", "") or ""
        if label in _BOXES and not own.strip():
            marks.append(_BOXES[label])
            continue
        if not marks or not own.strip():
            continue
        at = text.find(own.strip(), pos)  # the serializer's own output, rewritten; no offsets are recovered
        if at < 0:
            continue
        state = " ".join(marks) + " "
        text, pos, marks = text[:at] + state + text[at:], at + len(state) + len(own.strip()), []
    return f"{text} {' '.join(marks)}".strip() if marks else text


def without_urls(text: str, root: Any, doc: Any, serializer: Any, items: list[Any] | None = None) -> str:
    """A rich cell's ``text`` with each link of its content written as its text alone (records and triplets).

    A link item under ``root`` (the cell's content) is written by ``serializer`` as
    ``[text](url)``; the URL, often longer than the row it sits in, stays on the item
    (``hyperlink``) and out of the plain-text forms, as in the default mode's inline
    runs. Each link's written form is found once, in document order, by its end
    ``](url)`` and the ``[`` before it, and replaced by what stands between them: the
    item's text with its own marks (``**bold**``; an inline code item's backticks,
    which the code serializer adds inside the link, ``[`normalize()`](url)``: issue
    46 found these URLs cutting 26 rows of Node.js' Markdown tables at MiniLM 64).
    ``serializer`` is unused (kept for the callers).
    """
    pos = 0
    for item in items if items is not None else _walk(root, doc, groups=False):
        link = getattr(item, "hyperlink", None)
        if link is None or not getattr(item, "text", ""):
            continue
        tail = f"]({link})"
        end = text.find(tail, pos)  # the serializer's own output, rewritten; no offsets are recovered
        at = text.rfind("[", pos, end) if end >= 0 else -1
        if at < 0 or item.text not in text[at + 1 : end]:
            continue
        text = text[:at] + text[at + 1 : end] + text[end + len(tail) :]
        pos = end - 1
    return text
