"""Lead-in sentences go with the table they introduce (default mode).

A paragraph directly before a table that ends with ``:`` ("The results are shown
below:") or names a table ("Table 3 shows ...", "The following table ...", "...
in the table below") introduces that table. :func:`attach_lead_ins` moves it into
the table's first piece: as the start of its text when the piece still fits
``max_tokens`` with it, else as the first of its captions (context of the piece:
``contextualize()`` shows it) when that fits, else as that caption of a first piece
cut to the rows that fit with it (a piece of whole rows: the other rows go on in a
piece of their own); only when not even one row fits with it does the lead-in stay
a piece of its own.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from docling_core.types.doc import DocItemLabel, TableItem
from docling_core.types.doc.document import TextItem

from docchunk.chunkers.doc.piece import Piece

if TYPE_CHECKING:
    from docchunk.chunkers.doc.hybrid_run import HybridRun

__all__ = ["attach_lead_ins", "is_lead_in"]

_NAMES_TABLE = re.compile(
    r"^\s*(?:table|tab\.)\s*[\dIVX]+|\b(?:following|below|next)\s+tables?\b|\btables?\s+(?:below|that follows)\b",
    re.IGNORECASE,
)


def is_lead_in(text: str) -> bool:
    """Whether a paragraph reads as the lead-in of a table: it ends with ``:`` or names a table."""
    stripped = text.strip()
    return bool(stripped) and (stripped.endswith(":") or _NAMES_TABLE.search(stripped) is not None)


def attach_lead_ins(run: HybridRun, pieces: list[Piece]) -> list[Piece]:
    """``pieces`` with each table's lead-in paragraph moved into the table's first piece (see the module docstring).

    Args:
        run: The ``chunk()`` call's state (``HybridRun``): ``ctx_count``, ``max``, ``delim``, ``item_text``.
        pieces: Split pieces in document order; table pieces have ``table_rows`` set.

    Returns:
        The pieces; no text is dropped (a lead-in moves, whole, into the next piece).
    """
    out: list[Piece] = []
    for piece in pieces:
        previous = out[-1] if out else None
        if piece.table_rows is not None and previous is not None and previous.table_rows is None:
            moved = _with_lead_in(run, previous, piece)
            if moved is not None:
                rest, table_pieces = moved
                out[-1:] = [rest] if rest is not None else []
                out.extend(table_pieces)
                continue
        out.append(piece)
    return out


def _with_lead_in(run: HybridRun, before: Piece, table_piece: Piece) -> tuple[Piece | None, list[Piece]] | None:
    """(what stays of ``before``, the table piece(s) with the lead-in), or None when there is no lead-in to move."""
    if before.heading_only or before.from_headings or before.code_chunks is not None or not before.items:
        return None
    if before.headings != table_piece.headings:
        return None
    last = before.items[-1]
    if not isinstance(last, TextItem) or last.label not in (DocItemLabel.TEXT, DocItemLabel.PARAGRAPH):
        return None
    if any(isinstance(it, TableItem) for it in before.items):
        return None
    lead = run.item_text(last)
    if not is_lead_in(lead):
        return None
    if before.text == lead:
        rest = None
    elif before.text.endswith(run.delim + lead) and len(before.items) > 1:
        rest = replace(before, text=before.text[: -len(run.delim + lead)], items=before.items[:-1], text_tokens=None)
    else:
        return None
    items = [last, *table_piece.items]
    in_text = replace(table_piece, text=lead + run.delim + table_piece.text, items=items, text_tokens=None)
    if run.ctx_count(in_text) <= run.max:
        return rest, [in_text]
    as_context = replace(table_piece, captions=[lead, *(table_piece.captions or [])], items=items)
    if run.ctx_count(as_context) <= run.max:
        return rest, [as_context]
    cut = _fewer_rows(run, as_context)
    if cut is not None:
        return rest, cut
    return None


def _fewer_rows(run: HybridRun, piece: Piece) -> list[Piece] | None:
    """``piece`` (a table piece with the lead-in as its first caption) cut in two so that the lead-in fits.

    Only for a piece of whole rows, one per line (``table_rows`` says how many): the
    first part holds the rows that fit with the lead-in, the second the others,
    without it (as the table's other pieces). None when not even one row fits.
    """
    if piece.table_rows is None:
        return None
    start, end = piece.table_rows
    lines = piece.text.split("\n")
    if len(lines) != end - start or len(lines) < 2:
        return None
    for k in range(len(lines) - 1, 0, -1):
        head = replace(piece, text="\n".join(lines[:k]), table_rows=(start, start + k), text_tokens=None)
        if run.ctx_count(head) <= run.max:
            tail_captions = piece.captions[1:] or None if piece.captions else None
            tail = replace(piece, text="\n".join(lines[k:]), table_rows=(start + k, end), captions=tail_captions,
                           items=piece.items[1:], text_tokens=None)  # fmt: skip
            return [head, tail]
    return None
