"""Even out the last two pieces of a table split by rows (default mode, ``balance_tables``).

Packing a table's rows greedily fills each piece to ``max_tokens`` and leaves what
is left for the last piece: often one or two rows (a "Total" row). That small piece
is then a chunk of its own whose embedding, with few words besides the table's
labels, tends to win the top retrieval slot over the piece that holds the answer
(issue 28: on the first 40 annual-report documents of doc-qa, a lone last row was
ranked first for 21 questions the triplet form answered). :func:`balance_tables`
moves whole rows from the end of the second-to-last piece to the start of the last
one while the last piece still fits ``max_tokens`` (with its context) and stays no
larger than the piece before it. Rows are never cut or reordered, no text is lost
or added: the rows' lines move between the two pieces and ``table_rows`` follows.

Only pieces that are their rows' lines (as the table's serializer writes them: the
triplet and the record forms) are changed; a Markdown piece, which repeats its
header lines, and a row split between cells are left as they are. A lead-in at the
start of the first piece stays there. A row without text (a section row, whose
label prefixes the rows below it in records) moves with the boundary.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from docling_core.types.doc import TableItem

from docchunk.chunkers.doc.piece import Piece, replace
from docchunk.serialization.tables import rows_as_written

if TYPE_CHECKING:
    from docchunk.chunkers.doc.hybrid_run import HybridRun

__all__ = ["balance_tables"]


def _table(piece: Piece) -> TableItem | None:
    tables = [it for it in piece.items if isinstance(it, TableItem)]
    return tables[0] if piece.table_rows is not None and len(tables) == 1 else None


def balance_tables(run: HybridRun, pieces: list[Piece]) -> list[Piece]:
    """``pieces`` with the last two pieces of each table split by rows evened out (see the module docstring).

    Args:
        run: The ``chunk()`` call's state (``HybridRun``): ``serializer``,
            ``ctx_count``, ``max`` (tokens).
        pieces: The pieces in document order, after lead-ins are attached.

    Returns:
        The same number of pieces, in the same order; only the two last pieces of a
        table may differ (rows moved from the first to the second).
    """
    out = list(pieces)
    for i in range(len(out) - 1):
        a, b = out[i], out[i + 1]
        table = _table(a)
        if table is None or _table(b) is not table or (i + 2 < len(out) and _table(out[i + 2]) is table):
            continue
        assert a.table_rows is not None and b.table_rows is not None
        if a.table_rows[1] != b.table_rows[0] or b.table_rows[1] - a.table_rows[0] < 2:
            continue
        written = rows_as_written(table, run.serializer)
        lines = {row.index: row.text for row in written.rows if row.cells}
        moved = _even(run, a, b, lines, written.notes)
        if moved is not None:
            out[i], out[i + 1] = moved
    return out


def _joined(lines: dict[int, str], start: int, end: int) -> str:
    return "\n".join(lines[r] for r in range(start, end) if r in lines)


def _joined_sizes(run: HybridRun, lines: dict[int, str], start: int, end: int) -> Callable[[int, int], int] | None:
    r"""``(s, e) -> tokens of _joined(lines, s, e)`` by arithmetic on the rows' counts, or None.

    Only with a tokenizer that joins additively at ``"\n"`` (the size of joined rows is
    then the sum of theirs plus the line breaks'); the rows are counted in one batch
    (most already are, by the table's packing).
    """
    if not run.tok.joins_additively("\n"):
        return None
    present = [r for r in range(start, end) if r in lines]
    counts = run.count_many([lines[r] for r in present])
    newline = run.count("\n")
    rows_before: dict[int, int] = {}  # grid row -> the rows with lines before it, and their tokens
    tokens_before: dict[int, int] = {}
    n = total = 0
    for r in range(start, end + 1):
        rows_before[r], tokens_before[r] = n, total
        if r < end and r in lines:
            total += counts[n]
            n += 1

    def size(s: int, e: int) -> int:
        rows = rows_before[e] - rows_before[s]
        return tokens_before[e] - tokens_before[s] + newline * max(rows - 1, 0)

    return size


def _even(run: HybridRun, a: Piece, b: Piece, lines: dict[int, str], notes: str = "") -> tuple[Piece, Piece] | None:
    """``(a, b)`` with rows moved from the end of ``a`` to the start of ``b``, or None when none moves.

    ``lines``: grid row index -> the row's line (rows without text have none). Both
    pieces must be those lines (``a`` after a lead-in, ``b`` after the table-wide
    ``notes`` line, which it keeps), else they are left as they are.
    """
    (start, cut), (_, end) = a.table_rows, b.table_rows  # type: ignore[misc]
    rows_a, rows_b = _joined(lines, start, cut), _joined(lines, cut, end)
    opening = notes + "\n" if notes and b.text.startswith(notes + "\n") else ""
    if not rows_a or b.text != opening + rows_b:
        return None
    if a.text == rows_a:
        lead = ""
    elif a.text.endswith("\n" + rows_a):
        lead = a.text[: len(a.text) - len(rows_a)]  # a lead-in and its delimiter stay first
    else:
        return None
    sizes = _joined_sizes(run, lines, start, end)
    lead_tokens = run.text_count(a) - sizes(start, cut) if sizes is not None and lead else 0
    best: tuple[Piece, Piece] | None = None
    for k in range(cut - 1, start, -1):
        keep, give = _joined(lines, start, k), _joined(lines, k, end)
        if not keep:
            break
        a_tokens = b_tokens = None
        if sizes is not None:
            a_tokens = lead_tokens + sizes(start, k)
            b_tokens = None if opening else sizes(k, end)
        new_a = replace(a, text=lead + keep, table_rows=(start, k), text_tokens=a_tokens)
        new_b = replace(b, text=opening + give, table_rows=(k, end), text_tokens=b_tokens)
        size_b = run.ctx_count(new_b)
        if size_b > run.max or size_b > run.ctx_count(new_a):
            break
        best = (new_a, new_b)
    return best
