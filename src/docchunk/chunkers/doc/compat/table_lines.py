"""Token-bounded splitting of serialized tables, line by line, repeating the header.

Decision-compatible with docling-core's ``LineBasedTokenChunker`` and
``HybridChunker._split_table_by_columns`` so that table chunks equal docling-core's;
our own implementation, with every count going through the caller's
:class:`~docchunk.tokenizers.Sizer` (cached counts, joins by arithmetic at clean boundaries).
"""

from __future__ import annotations

from collections.abc import Callable

from docling_core.transforms.serializer.markdown import MARKDOWN_SEPARATOR_ROW_RE

from docchunk.tokenizers import Sizer

__all__ = ["markdown_row", "parse_cells", "split_lines", "split_table_by_columns"]

def _split_by_limit(text: str, limit: int, sizer: Sizer, prefix: str = "") -> tuple[str, str]:
    """Split ``text`` into ``(head, tail)`` with ``count(prefix + head) <= limit``.

    Binary search over character positions, then back to the last space when that
    still fits; ``("", text)`` when not even one character fits.
    """
    if limit <= 0 or not text:
        return "", text
    prefix_n = sizer.count(prefix) if prefix else 0

    def size(head: str) -> int:
        return sizer.joined(prefix, prefix_n, head)

    if sizer.count_within(text, limit, prefix, prefix_n) is not None:
        return text, ""
    lo, hi, best = 0, len(text), None
    while lo <= hi:
        mid = (lo + hi) // 2
        if sizer.count_within(text[:mid], limit, prefix, prefix_n) is not None:
            best, lo = mid, mid + 1
        else:
            hi = mid - 1
    if not best:
        best = _last_fitting_prefix(text, limit, size, sizer.clean)
        if best is None:
            return "", text
    space = text[:best].rfind(" ")
    if space > 0 and size(text[:space]) <= limit:
        best = space
    return text[:best], text[best:]


def _last_fitting_prefix(
    text: str, limit: int, size: Callable[[str], int], clean: Callable[[str, str], bool]
) -> int | None:
    """The largest ``i`` in ``[1, len(text))`` with ``size(text[:i]) <= limit``, or None.

    docling-core scans every ``i`` from the top (quadratic on long lines). At a clean
    token boundary ``k`` the size of ``text[:i]`` for ``i >= k`` is at least that of
    ``text[:k]``, so the first clean boundary whose prefix is too large bounds the
    answer from above: it is found by galloping over clean boundaries from the
    start, and only the positions just below it are scanned. Same answer.
    """
    top = len(text) - 1
    bounds: list[int] = []
    scan = 1

    def bound(index: int) -> int | None:
        nonlocal scan
        while len(bounds) <= index and scan < len(text):
            if clean(text[scan - 1], text[scan]):
                bounds.append(scan)
            scan += 1
        return bounds[index] if index < len(bounds) else None

    step, lo, hi = 1, 0, None  # first boundary index whose prefix is too large, in [lo, hi]
    while True:
        k = bound(lo + step - 1)
        if k is None:
            break
        if size(text[:k]) > limit:
            hi = lo + step - 1
            break
        lo, step = lo + step, step * 2
    if hi is None:  # none within reach of the gallop: finish with a plain search of the rest
        hi = len(bounds)
    while lo < hi:
        mid = (lo + hi) // 2
        if size(text[: bounds[mid]]) > limit:
            hi = mid
        else:
            lo = mid + 1
    if lo < len(bounds):
        top = min(top, bounds[lo] - 1)
    return next((i for i in range(top, 0, -1) if size(text[:i]) <= limit), None)


def split_lines(
    lines: list[str],
    max_tokens: int,
    sizer: Sizer,
    prefix: str = "",
    omit_prefix: bool = False,
) -> list[str]:
    """Pack whole lines into chunks of at most ``max_tokens``, each starting with ``prefix``.

    A line that does not fit even in a fresh chunk is cut at a space (or anywhere)
    so that the budget holds. A prefix of ``max_tokens`` or more is emitted alone
    first (split if needed) and not repeated.

    Args:
        lines: The lines, with or without line ends; they are concatenated as given.
        max_tokens: Budget per chunk in tokens of the sizer's tokenizer.
        sizer: The call's :class:`~docchunk.tokenizers.Sizer` (cached counts, joins by arithmetic).
        prefix: Text repeated at the start of every chunk, e.g. a table header.
        omit_prefix: Leave the prefix out for a line that fits only without it.

    Returns:
        The chunk texts. A character that alone exceeds the budget is emitted alone.
    """
    count = sizer.count
    prefix_len = 0
    chunks: list[str] = []
    if prefix:
        n = count(prefix)
        if n >= max_tokens:
            chunks.extend(split_lines([prefix], max_tokens, sizer))
        else:
            prefix_len = n
    fresh = prefix if prefix_len else ""
    current, cur_n = fresh, prefix_len
    if omit_prefix and prefix_len and lines and sizer.joined(prefix, prefix_len, lines[0]) > max_tokens:
        chunks.append(prefix)
        current, cur_n = "", 0
    for line in lines:
        remaining = line
        while True:
            joined = sizer.count_within(remaining, max_tokens, current, cur_n)
            if joined is not None:
                current, cur_n = current + remaining, joined
                break
            if sizer.count_within(remaining, max_tokens, fresh, prefix_len) is not None:
                if current:
                    chunks.append(current)
                current, cur_n = fresh, prefix_len
                continue
            if omit_prefix and prefix_len and sizer.count_within(remaining, max_tokens) is not None:
                if current and current != prefix:
                    chunks.append(current)
                current, cur_n = "", 0
                continue
            take, remaining = _split_by_limit(remaining, max_tokens - cur_n, sizer)
            while take and sizer.joined(current, cur_n, take) > max_tokens:
                take, back = _split_by_limit(take, count(take) - 1, sizer)
                remaining = back + remaining
            if not take:
                take, remaining = _split_by_limit(remaining, max_tokens, sizer, prefix=current)
            if not take:
                if current and current != fresh:
                    chunks.append(current)
                    current, cur_n = (prefix, prefix_len) if prefix_len and not omit_prefix else ("", 0)
                    continue
                if current:  # not one character fits after the prefix: this piece goes without it
                    if not any(chunk.startswith(prefix) for chunk in chunks):
                        chunks.append(prefix)  # the prefix's own content (a table header) is kept
                    take, remaining = _split_by_limit(remaining, max_tokens, sizer)
                    current, cur_n = "", 0
                if not take:  # docling-core raises here; we keep the character, alone and oversized
                    take, remaining = remaining[0], remaining[1:]
            current += take
            chunks.append(current)
            current, cur_n = (prefix, prefix_len) if prefix_len and not omit_prefix else ("", 0)
            if not remaining:
                break
    if current and (not prefix_len or current != prefix):
        chunks.append(current)
    return chunks


def parse_cells(row: str) -> list[str]:
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


def markdown_row(cells: list[str], lo: int, hi: int) -> str:
    """The Markdown table line of ``cells[lo:hi]``: ``| a | b |`` and a line end."""
    return "| " + " | ".join(cells[lo:hi]) + " |\n"


def split_table_by_columns(
    header_lines: list[str],
    body_lines: list[str],
    preamble: str,
    max_tokens: int,
    sizer: Sizer,
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
        parse_cells(line) for line in header_lines if not MARKDOWN_SEPARATOR_ROW_RE.match(line.rstrip("\n"))
    ]
    body_rows = [parse_cells(line) for line in body_lines if line.strip()]
    n_cols = min((len(r) for r in header_rows + body_rows), default=0)
    if n_cols == 0:
        return ["".join(body_lines)]
    if any(len(r) != n_cols for r in header_rows + body_rows):
        return None

    count = sizer.count

    def header(lo: int, hi: int, first: bool) -> str:
        rows = [markdown_row(h, lo, hi) for h in header_rows]
        return (preamble if first and preamble else "") + "".join(rows) + markdown_row(["-"] * (hi - lo), 0, hi - lo)

    def subtable_parts(lo: int, hi: int, first: bool) -> list[str]:
        return [header(lo, hi, first), *(markdown_row(b, lo, hi) for b in body_rows)]

    def rows_fit(lo: int, hi: int, first: bool) -> bool:
        hdr = header(lo, hi, first)
        hdr_n = count(hdr)
        if hdr_n >= max_tokens:
            return False
        return all(sizer.joined(hdr, hdr_n, markdown_row(b, lo, hi)) <= max_tokens for b in body_rows)

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
        end = widest(col, lambda m: sizer.concat(subtable_parts(col, m, first)) <= max_tokens)  # noqa: B023 (called at once)
        if end is not None:
            segments.append("".join(subtable_parts(col, end, first)))
        else:
            end = widest(col, lambda m: rows_fit(col, m, first)) or col + 1  # noqa: B023 (called at once)
            sub_header = header(col, end, first)
            parts = split_lines(
                [markdown_row(b, col, end) for b in body_rows], max_tokens, sizer, sub_header, omit_prefix
            )
            if preamble and first:
                parts = parts[:1] + [p[len(preamble) :] if p.startswith(sub_header) else p for p in parts[1:]]
            segments.extend(parts)
        col, first = end, False
    return segments
