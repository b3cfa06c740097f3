"""Phases 2 and 3 of :class:`docchunk.RecursiveChunker`: pack the groups into chunks, with overlap."""

from __future__ import annotations

from itertools import pairwise

from docchunk.chunkers.text.recursive_split import Call, Group, adds_up, joined_size

__all__ = ["pack"]


# -- phase 2: pack ------------------------------------------------------------------------
def pack(call: Call, groups: list[Group]) -> list[Group]:
    """Phase 2: pack consecutive groups greedily into chunks, with overlap (phase 3).

    After it: chunks ``(start, end, tokens, oversized)`` in order; each is a run of
    whole groups of exact size within ``chunk_size`` (an oversized group is a chunk of
    its own); each chunk after the first starts with the trailing groups of the one
    before that fit ``chunk_overlap``.
    """
    size, overlap, spans = call.size, call.overlap, call.spans
    counts = [g[2] for g in groups]
    if all(a[1] == b[0] for a, b in pairwise(groups)):  # contiguous: nothing between groups
        gaps = [0] * max(0, len(groups) - 1)
    else:
        gaps = [spans.count(a[1], b[0]) for a, b in pairwise(groups)]
    out: list[Group] = []
    n, i = len(groups), 0
    while i < n:
        if groups[i][3]:
            out.append((groups[i][0], groups[i][1], counts[i], counts[i] > size))
            i += 1
            continue
        j, total = i + 1, counts[i]
        while j < n and not groups[j][3] and total + gaps[j - 1] + counts[j] <= size:
            total += gaps[j - 1] + counts[j]
            j += 1
        if j - i > 1 and not adds_up(call, groups, range(i, j)):
            total = joined_size(call, groups, counts, i, j)
            while total > size and j - 1 > i:
                j -= 1
                total = joined_size(call, groups, counts, i, j)
        out.append((groups[i][0], groups[j - 1][1], total, False))
        if j >= n:
            break
        i = _overlap_start(call, i, j, counts, gaps, groups) if overlap else j
    return out


# -- phase 3: overlap ---------------------------------------------------------------------
def _overlap_start(call: Call, i: int, j: int, counts: list[int], gaps: list[int], groups: list[Group]) -> int:
    """The first group of the chunk after groups ``i..j-1``.

    After it: the groups from there to ``j - 1`` are the trailing ones of the chunk
    that fit ``chunk_overlap``, and few enough that group ``j`` still fits after them.
    """
    k, carried = j, 0
    while k - 1 > i and carried + counts[k - 1] + gaps[k - 1] <= call.overlap:
        k -= 1
        carried += counts[k] + gaps[k]
    if not groups[j][3]:
        while k < j and carried + gaps[j - 1] + counts[j] > call.size:
            carried -= counts[k] + gaps[k]
            k += 1
    return k

