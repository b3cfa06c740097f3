"""Token-bounded splitting of serialized tables, line by line, repeating the header.

Decision-compatible with docling-core 2.104's ``LineBasedTokenChunker`` and
``HybridChunker._split_table_by_columns`` so that table chunks equal docling-core's;
our own implementation, with every count going through the caller's cached counter.
"""

from __future__ import annotations

from collections.abc import Callable

from docling_core.transforms.serializer.markdown import MARKDOWN_SEPARATOR_ROW_RE

__all__ = ["split_lines", "split_table_by_columns"]

Count = Callable[[str], int]


def _split_by_limit(text: str, limit: int, count: Count, prefix: str = "") -> tuple[str, str]:
    """Split ``text`` into ``(head, tail)`` with ``count(prefix + head) <= limit``.

    Binary search over character positions, then back to the last space when that
    still fits; ``("", text)`` when not even one character fits.
    """
    if limit <= 0 or not text:
        return "", text
    if count(prefix + text) <= limit:
        return text, ""
    lo, hi, best = 0, len(text), None
    while lo <= hi:
        mid = (lo + hi) // 2
        if count(prefix + text[:mid]) <= limit:
            best, lo = mid, mid + 1
        else:
            hi = mid - 1
    if not best:
        best = next((i for i in range(len(text) - 1, 0, -1) if count(prefix + text[:i]) <= limit), None)
        if best is None:
            return "", text
    space = text[:best].rfind(" ")
    if space > 0 and count(prefix + text[:space]) <= limit:
        best = space
    return text[:best], text[best:]


def split_lines(lines: list[str], max_tokens: int, count: Count, prefix: str = "", omit_prefix: bool = False) -> list[str]:
    """Pack whole lines into chunks of at most ``max_tokens``, each starting with ``prefix``.

    A line that does not fit even in a fresh chunk is cut at a space (or anywhere)
    so that the budget holds. A prefix of ``max_tokens`` or more is emitted alone
    first (split if needed) and not repeated.

    Args:
        lines: The lines, with or without line ends; they are concatenated as given.
        max_tokens: Budget per chunk in tokens of ``count``.
        count: Cached token counter.
        prefix: Text repeated at the start of every chunk, e.g. a table header.
        omit_prefix: Leave the prefix out for a line that fits only without it.

    Returns:
        The chunk texts. A character that alone exceeds the budget is emitted alone.
    """
    prefix_len = 0
    chunks: list[str] = []
    if prefix:
        n = count(prefix)
        if n >= max_tokens:
            chunks.extend(split_lines([prefix], max_tokens, count))
        else:
            prefix_len = n
    fresh = prefix if prefix_len else ""
    current = fresh
    if omit_prefix and prefix_len and lines and count(prefix + lines[0]) > max_tokens:
        chunks.append(prefix)
        current = ""
    for line in lines:
        remaining = line
        while True:
            if count(current + remaining) <= max_tokens:
                current += remaining
                break
            if count(fresh + remaining) <= max_tokens:
                if current:
                    chunks.append(current)
                current = fresh
                continue
            if omit_prefix and prefix_len and count(remaining) <= max_tokens:
                if current and current != prefix:
                    chunks.append(current)
                current = ""
                continue
            available = max_tokens - count(current)
            take, remaining = _split_by_limit(remaining, available, count)
            while take and count(current + take) > max_tokens:
                take, back = _split_by_limit(take, count(take) - 1, count)
                remaining = back + remaining
            if not take:
                take, remaining = _split_by_limit(remaining, max_tokens, count, prefix=current)
            if not take:
                if current:
                    chunks.append(current)
                    current = prefix if prefix_len and not omit_prefix else ""
                    continue
                # docling-core raises here; we keep the character, alone and oversized
                take, remaining = remaining[0], remaining[1:]
            current += take
            chunks.append(current)
            current = prefix if prefix_len and not omit_prefix else ""
            if not remaining:
                break
    if current and (not prefix_len or current != prefix):
        chunks.append(current)
    return chunks


def _parse_cells(row: str) -> list[str]:
    """Cells of a Markdown table row; ``|`` escaped by an odd number of backslashes is kept."""
    line = row.strip()
    if not line:
        return []
    if line.startswith("|"):
        line = line[1:]
    if line.endswith("|"):
        body = line[:-1]
        if (len(body) - len(body.rstrip("\\"))) % 2 == 0:
            line = body
    cells: list[str] = []
    current: list[str] = []
    backslashes = 0
    for char in line:
        if char == "|" and backslashes % 2 == 0:
            cells.append("".join(current).strip())
            current = []
            backslashes = 0
            continue
        backslashes = backslashes + 1 if char == "\\" else 0
        current.append(char)
    cells.append("".join(current).strip())
    return cells


def _row(cells: list[str], lo: int, hi: int) -> str:
    return "| " + " | ".join(cells[lo:hi]) + " |\n"


def split_table_by_columns(
    header_lines: list[str],
    body_lines: list[str],
    preamble: str,
    max_tokens: int,
    count: Count,
    omit_prefix: bool = False,
) -> list[str] | None:
    """Split a Markdown table into sub-tables of whole columns that fit the budget.

    Finds by binary search the widest column range whose sub-table (header,
    separator and all rows) fits; when even one column with all rows is too
    tall, the widest range where each row fits beside the header is split row
    by row with :func:`split_lines`. The preamble (e.g. a caption) opens the first
    sub-table only.

    Returns:
        The sub-table texts, in column order; None when rows have different numbers
        of cells (e.g. text with ``|`` in it), where docling-core would drop the
        cells beyond the shortest row: the caller then splits by lines instead.
    """
    header_rows = [
        _parse_cells(line) for line in header_lines if not MARKDOWN_SEPARATOR_ROW_RE.match(line.rstrip("\n"))
    ]
    body_rows = [_parse_cells(line) for line in body_lines if line.strip()]
    n_cols = min((len(r) for r in header_rows + body_rows), default=0)
    if n_cols == 0:
        return ["".join(body_lines)]
    if any(len(r) != n_cols for r in header_rows + body_rows):
        return None

    def header(lo: int, hi: int, first: bool) -> str:
        rows = [_row(h, lo, hi) for h in header_rows]
        return (preamble if first and preamble else "") + "".join(rows) + _row(["-"] * (hi - lo), 0, hi - lo)

    def subtable(lo: int, hi: int, first: bool) -> str:
        return header(lo, hi, first) + "".join(_row(b, lo, hi) for b in body_rows)

    def rows_fit(lo: int, hi: int, first: bool) -> bool:
        hdr = header(lo, hi, first)
        if count(hdr) >= max_tokens:
            return False
        return all(count(hdr + _row(b, lo, hi)) <= max_tokens for b in body_rows)

    def widest(col: int, fits: Callable[[int], bool]) -> int | None:
        lo, hi, best = col + 1, n_cols, None
        while lo <= hi:
            mid = (lo + hi) // 2
            if fits(mid):
                best, lo = mid, mid + 1
            else:
                hi = mid - 1
        return best

    segments: list[str] = []
    col, first = 0, True
    while col < n_cols:
        end = widest(col, lambda m: count(subtable(col, m, first)) <= max_tokens)
        if end is not None:
            segments.append(subtable(col, end, first))
        else:
            end = widest(col, lambda m: rows_fit(col, m, first)) or col + 1
            sub_header = header(col, end, first)
            parts = split_lines([_row(b, col, end) for b in body_rows], max_tokens, count, sub_header, omit_prefix)
            if preamble and first:
                parts = parts[:1] + [p[len(preamble) :] if p.startswith(sub_header) else p for p in parts[1:]]
            segments.extend(parts)
        col, first = end, False
    return segments
