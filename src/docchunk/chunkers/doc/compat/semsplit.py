"""Recursive semantic splitting, decision-compatible with semchunk 3.x.

docling-core's ``HybridChunker`` splits oversized text with ``semchunk``; this is
our own implementation of the same decision procedure (Umar Butler, semchunk,
MIT: split at the most meaningful separator present, merge splits by binary
search over cumulative lengths, recurse on splits that are still too large), so
that the resulting chunks equal docling-core's. It differs in three ways:

* offsets are computed while splitting, never searched for;
* token counts go through the caller's :class:`~docchunk.tokenizers.Sizer` (cached);
* a single character that is larger than the budget is emitted whole and
  reported as oversized, where semchunk recurses without end.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable
from itertools import accumulate

from docchunk.tokenizers import Sizer

__all__ = ["SEMANTIC_SPLITTERS", "semchunk_split"]

SEMANTIC_SPLITTERS = (
    ".", "?", "!", "*",
    ";", ",", "(", ")", "[", "]", "“", "”", "‘", "’", "'", '"', "`",
    ":", "—", "…",
    "/", "\\", "–", "&", "-",
)  # fmt: skip
"""Non-whitespace splitters, most meaningful first (semchunk's order)."""

_NEWLINES = re.compile(r"[\r\n]+")
_TABS = re.compile(r"\t+")
_SPACES = re.compile(r"\s+")
_ANY_SPACE = re.compile(r"\s")
_PRECEDED = [(re.compile(rf"{re.escape(p)}(\s)"), re.escape(p)) for p in SEMANTIC_SPLITTERS]


def _longest(pattern: re.Pattern[str], text: str) -> str:
    return max(pattern.findall(text), key=len)


def split_once(text: str) -> tuple[str, bool, list[str]]:
    """Split ``text`` at its most meaningful separator.

    Returns:
        ``(splitter, splitter_is_whitespace, splits)`` where the splits joined by the
        splitter give back ``text``; an empty splitter means a split into characters.
    """
    if "\n" in text or "\r" in text:
        splitter = _longest(_NEWLINES, text)
    elif "\t" in text:
        splitter = _longest(_TABS, text)
    elif _ANY_SPACE.search(text):
        splitter = _longest(_SPACES, text)
        if len(splitter) == 1:
            for pattern, escaped in _PRECEDED:
                match = pattern.search(text)
                if match:
                    ws = match.group(1)
                    return ws, True, re.split(rf"(?<={escaped}){re.escape(ws)}", text)
    else:
        for splitter in SEMANTIC_SPLITTERS:
            if splitter in text:
                return splitter, False, text.split(splitter)
        return "", True, list(text)
    return splitter, True, text.split(splitter)


def semchunk_split(
    text: str,
    chunk_size: int,
    sizer: Sizer,
) -> tuple[list[tuple[int, int]], set[int]]:
    """Split ``text`` into spans of at most ``chunk_size`` tokens.

    Args:
        text: The text to split.
        chunk_size: Budget per span, in tokens of the sizer's tokenizer; >= 1.
        sizer: Counts tokens (cached). When the tokenizer knows its longest token
            (``max_token_chars``), texts longer than ``6 * chunk_size`` characters are
            first measured by a prefix, as semchunk does (this affects where splits
            fall, so it is needed for equality with docling-core).

    Returns:
        ``(spans, oversized)``: ``(start, end)`` offsets into ``text`` in order, with
        empty and whitespace-only spans removed (the whitespace between spans is
        the only text not covered), and the indices of spans that exceed
        ``chunk_size`` because they are a single character.
    """
    count = sizer.count
    counter: Callable[[str], int] = count
    max_token_chars = sizer.tokenizer.max_token_chars
    if max_token_chars is not None:
        limit = chunk_size * 6
        probe = limit + max_token_chars - 1

        def probed(t: str) -> int:
            if len(t) > limit and count(t[:probe]) > chunk_size:
                return chunk_size + 1
            return count(t)

        counter = probed

    spans: list[tuple[int, int]] = []
    _split(text, 0, chunk_size, counter, spans)
    kept = [(s, e) for s, e in spans if s < e and not text[s:e].isspace()]
    oversized = {i for i, (s, e) in enumerate(kept) if e - s == 1 and count(text[s:e]) > chunk_size}
    return kept, oversized


def _split(text: str, base: int, size: int, counter: Callable[[str], int], out: list[tuple[int, int]]) -> None:
    """Append the spans of ``text`` (offset by ``base``) to ``out``; semchunk's ``chunk``."""
    splitter, is_ws, splits = split_once(text)
    sep = len(splitter)
    lens = [len(s) for s in splits]
    cum = list(accumulate(lens, initial=0))
    starts = [0] * (len(splits) + 1)
    for j in range(1, len(splits) + 1):
        starts[j] = starts[j - 1] + lens[j - 1] + sep
    n = len(splits)
    local_start = len(out)
    skip_until = 0
    for i in range(n):
        if i < skip_until:
            continue
        split = splits[i]
        if counter(split) > size:
            if n == 1:  # a single character with no separator: it cannot be split
                out.append((base + starts[i], base + starts[i] + len(split)))
            else:
                _split(split, base + starts[i], size, counter, out)
        else:
            last = _merge(text, splits, starts, cum, sep, size, counter, i, n + 1)
            skip_until = max(skip_until, last)
            out.append((base + starts[i], base + starts[last] - sep))
        if not is_ws and not (i == n - 1 or skip_until >= n):
            s, e = out[-1]
            if counter(text[s - base : e - base] + splitter) <= size:
                out[-1] = (s, e + sep)
            else:
                start = out[-1][1] if len(out) > local_start else base + starts[i]
                out.append((start, start + sep))


def _merge(
    text: str,
    splits: list[str],
    starts: list[int],
    cum: list[int],
    sep: int,
    size: int,
    counter: Callable[[str], int],
    start: int,
    high: int,
) -> int:
    """Index one past the last split that fits after ``start``; semchunk's ``merge_splits``."""
    average = 0.2
    low = start
    offset = cum[start]
    target = offset + size * average
    while low < high:
        i = bisect_left(cum, target, low, high)
        mid = min(i, high - 1)
        piece = text[starts[start] : starts[mid] - sep] if mid > start else ""
        tokens = counter(piece)
        local = cum[mid] - offset
        if local and tokens > 0:
            average = local / tokens
            target = offset + size * average
        if tokens > size:
            high = mid
        else:
            low = mid + 1
    return low - 1
