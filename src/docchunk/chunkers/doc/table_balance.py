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

Only pieces of whole rows, one row per line, are moved between (the triplet and
the record forms; a Markdown piece, which repeats its header lines, and a row split
between cells are left as they are); a lead-in at the start of the first piece
stays there.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from docling_core.types.doc import TableItem

from docchunk.chunkers.doc.walk import Piece

__all__ = ["balance_tables"]


def _table(piece: Piece) -> TableItem | None:
    tables = [it for it in piece.items if isinstance(it, TableItem)]
    return tables[0] if piece.table_rows is not None and len(tables) == 1 else None


def _row_lines(piece: Piece) -> list[str] | None:
    """The lines of ``piece``'s text that are its rows (the last ``end - start`` lines), or None when not one a row."""
    assert piece.table_rows is not None
    start, end = piece.table_rows
    lines = piece.text.split("\n")
    if end - start < 1 or len(lines) < end - start:
        return None
    return lines[len(lines) - (end - start) :]


def balance_tables(run: Any, pieces: list[Piece]) -> list[Piece]:
    """``pieces`` with the last two pieces of each table split by rows evened out (see the module docstring).

    Args:
        run: The ``chunk()`` call's state (``hybrid._Run``): ``ctx_count``, ``max`` (tokens).
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
        if a.table_rows[1] != b.table_rows[0]:
            continue
        moved = _even(run, a, b)
        if moved is not None:
            out[i], out[i + 1] = moved
    return out


def _even(run: Any, a: Piece, b: Piece) -> tuple[Piece, Piece] | None:
    """``(a, b)`` with rows moved from the end of ``a`` to the start of ``b``, or None when none moves."""
    rows_a, rows_b = _row_lines(a), _row_lines(b)
    if rows_a is None or rows_b is None or len(rows_b) != len(b.text.split("\n")):
        return None  # b must be rows only (its rows start its text)
    lead = a.text.split("\n")[: len(a.text.split("\n")) - len(rows_a)]
    best: tuple[Piece, Piece] | None = None
    for m in range(1, len(rows_a)):
        keep, give = rows_a[: len(rows_a) - m], rows_a[len(rows_a) - m :]
        start_a, end_a = a.table_rows  # type: ignore[misc]
        new_a = replace(a, text="\n".join([*lead, *keep]), table_rows=(start_a, end_a - m), text_tokens=None)
        new_b = replace(b, text="\n".join([*give, *rows_b]), table_rows=(end_a - m, b.table_rows[1]),  # type: ignore[index]
                        text_tokens=None)  # fmt: skip
        size_b = run.ctx_count(new_b)
        if size_b > run.max or size_b > run.ctx_count(new_a):
            break
        best = (new_a, new_b)
    return best
