"""A user's own Markdown table serializer in the default mode: whole rows under the header, never columns.

docling-core's ``HybridChunker`` splits a Markdown table whose row does not fit beside its
header into sub-tables of columns (``_split_table_by_columns``, docling-core#535): a
value then stands in a chunk without its row's label. Compat mode keeps that
(:mod:`docchunk.chunkers.doc.compat.table_lines`). In the default mode, a user's
table serializer that writes Markdown table lines (one with docling-core's
``get_header_and_body_lines``, as ``MarkdownTableSerializer``) is split here:

- whole body lines are packed greedily under the header and separator lines, which
  every piece repeats; the text before the header (the caption the serializer writes)
  opens the first piece, or is a piece of its own when it leaves no room for a row;
- a line too large for the budget beside the header is written again without the
  serializer's padding (``| a | b |``, as docling-core's column split writes its
  sub-tables); if still too large, it is split within the row: each
  piece is a sub-table of the label column (the first) and the next columns that
  fit, with their header cells; a column too large alone is cut by characters
  under its sub-header (:func:`~docchunk.chunkers.doc.compat.table_lines.split_lines`).
  Its pieces list their columns in ``meta.table_cols``. A piece of rows without its
  header (a header larger than the budget, which then goes alone) says so in
  ``meta.table_context_dropped``.

``meta.table_rows`` is set when the body lines map one to one onto the grid rows below
the header line (as ``MarkdownTableSerializer`` writes them); else the pieces are text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docling_core.transforms.serializer.markdown import MARKDOWN_SEPARATOR_ROW_RE
from docling_core.types.doc import TableItem

from docchunk.chunkers.doc.compat.table_lines import markdown_row, parse_cells, split_lines
from docchunk.chunkers.doc.piece import replace
from docchunk.serialization import is_chunking_serializer
from docchunk.serialization.tables import col_ranges

if TYPE_CHECKING:
    from docchunk.chunkers.doc.hybrid_run import HybridRun
    from docchunk.chunkers.doc.piece import Piece

__all__ = ["split_user_table"]


def _markdown_lines(run: HybridRun) -> Any | None:
    """The run's table serializer when it is a user's one that writes Markdown lines with a header to repeat."""
    if not run.settings.repeat_table_header or not is_chunking_serializer(run.serializer):
        return None
    own = getattr(run.serializer, "table_serializer", None)
    return own if callable(getattr(own, "get_header_and_body_lines", None)) else None


def split_user_table(run: HybridRun, piece: Piece, table: TableItem) -> list[Piece] | None:
    """Pieces of whole rows of a table written by a user's Markdown table serializer (see the module docstring).

    Args:
        run: The hybrid chunker's run state (``max`` tokens, ``sizer``, ``ctx_count``, ``settings``).
        piece: The walked piece of ``table`` (its text the serializer's: caption, then the table).
        table: The ``TableItem`` the piece holds.

    Returns:
        The pieces, each within ``run.max`` tokens with its headings unless one
        character alone is larger; the whole piece when it fits. None when the
        serializer writes no Markdown lines, the text has no header line, or the
        headings leave no room: the caller splits the piece as any other.
    """
    lines_of = _markdown_lines(run)
    if lines_of is None or piece.plain_only:
        return None
    if run.ctx_count(piece) <= run.max:
        return [replace(piece, captions=None)]
    text = piece.text
    header, body = lines_of.get_header_and_body_lines(table_text=text)
    if not header:
        return None
    preamble = text[: len(text) - len("".join(header)) - len("".join(body))]
    available = run.max - (run.ctx_count(replace(piece, text="", text_tokens=0)) if piece.headings else 0)
    if available < 1:
        return None
    body = [line for line in body if line.strip()]
    first_row = 1 if len(body) == table.data.num_rows - 1 else None  # the grid row of body line 0, when known
    parts = _pack(run, preamble, "".join(header), body, available)
    out: list[Piece] = []
    for part_text, lines, cols in parts:
        rows = table_cols = None
        if first_row is not None and lines is not None:
            rows = (first_row + lines[0], first_row + lines[1])
            table_cols = col_ranges(rows[0], cols) if cols else None
        # a piece of rows without a header line (one larger than the budget went alone)
        headless = lines is not None and not any(MARKDOWN_SEPARATOR_ROW_RE.match(t) for t in part_text.splitlines())
        out.append(
            replace(
                piece, text=part_text, text_tokens=None, captions=None, table_rows=rows, table_cols=table_cols,
                table_context_dropped=("headers",) if headless else None,
            )
        )  # fmt: skip
    return out


def _pack(
    run: HybridRun, preamble: str, head: str, body: list[str], available: int
) -> list[tuple[str, tuple[int, int] | None, tuple[int, ...] | None]]:
    """``(text, (first, end) body lines or None, columns of a split row or None)`` of each piece, in order."""
    sizer = run.sizer
    head_n = sizer.count(head)
    out: list[tuple[str, tuple[int, int] | None, tuple[int, ...] | None]] = []
    opening = preamble  # the caption before the header: the first piece's only
    current: list[int] = []
    current_text, current_n = "", 0

    def flush() -> None:
        nonlocal current, current_text
        if current:
            out.append((current_text, (current[0], current[-1] + 1), None))
        current, current_text = [], ""

    for i, line in enumerate(body):
        if current:
            joined = sizer.count_within(line, available, current_text, current_n)
            if joined is not None:
                current.append(i)
                current_text, current_n = current_text + line, joined
                continue
            flush()
        prefix = opening + head
        joined = sizer.count_within(line, available, prefix, sizer.count(prefix)) if opening else None
        if joined is None and opening:  # the caption leaves no room for the row: a piece of its own
            out.append((opening.rstrip("\n"), None, None))
            prefix = head
        opening = ""
        if joined is None:
            joined = sizer.count_within(line, available, head, head_n)
        if joined is not None:
            current, current_text, current_n = [i], prefix + line, joined
            continue
        out.extend((t, (i, i + 1), cols) for t, cols in _split_row(run, head, line, available))
    flush()
    if opening:  # no body line: the caption and the header
        out.append((opening + head, None, None))
    return out


def _split_row(run: HybridRun, head: str, line: str, available: int) -> list[tuple[str, tuple[int, ...] | None]]:
    """Sub-tables of one body ``line`` too large beside ``head``: the label column and the next columns that fit.

    Returns ``(text, columns)`` per piece; the line cut by characters under the whole
    header (columns None) when its cells do not match the header's.
    """
    sizer = run.sizer
    header = [parse_cells(h) for h in head.splitlines(True) if not MARKDOWN_SEPARATOR_ROW_RE.match(h.rstrip("\n"))]
    cells = parse_cells(line)
    if len(cells) < 2 or any(len(h) != len(cells) for h in header):
        return [(t, None) for t in split_lines([line], available, sizer, head)]

    def sub_head(cols: list[int]) -> str:
        picked = [[h[j] for j in cols] for h in header]
        return "".join(markdown_row(h, 0, len(cols)) for h in picked) + markdown_row(["-"] * len(cols), 0, len(cols))

    def sub_row(cols: list[int]) -> str:
        return markdown_row([cells[j] for j in cols], 0, len(cols))

    def fits(cols: list[int]) -> bool:
        return sizer.count(sub_head(cols) + sub_row(cols)) <= available

    groups: list[list[int]] = []
    group: list[int] = []
    for j in range(1, len(cells)):
        if group and not fits([0, *group, j]):
            groups.append(group)
            group = []
        group.append(j)
    groups.append(group)
    if len(groups) == 1 and fits([0, *group]):  # the row fits once written without the serializer's padding
        return [(sub_head([0, *group]) + sub_row([0, *group]), None)]
    out: list[tuple[str, tuple[int, ...] | None]] = []
    for group in groups:
        cols = [0, *group]
        texts = (
            [sub_head(cols) + sub_row(cols)]
            if fits(cols)
            else split_lines([sub_row(cols)], available, sizer, sub_head(cols))
        )
        out.extend((t, tuple(cols)) for t in texts)
    return out
