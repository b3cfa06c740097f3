"""A table row with an entry larger than the budget: its text packed into as few pieces as the budget allows.

:func:`packed_row` cuts each entry too large for a piece at sentence ends (the text
chunkers' sentence rules, :func:`docchunk.markup.sentences.sentence_spans`,
which know that ``no. 4`` or ``e.g. a`` end no sentence), a sentence too large at
words, and packs these units, with the row's entries that fit whole, in order into
pieces that each open with the row's lead (a record's label) and, for a fragment of
an entry, its ``header =`` prefix, written once per piece. The pieces are then evened
out: the smallest budget that needs no more pieces is used. Before, each long entry
was a run of pieces of its own, and the entries around it pieces of their own, so a
row was cut into about twice as many pieces as needed, some of 16 tokens (round-3
documents tester, finding 13: csv_catalog's row with a 60-word description, 6 pieces
at MiniLM 64 where 3 hold it).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from docchunk.chunkers.doc.compat.semsplit import semchunk_split
from docchunk.markup.sentences import sentence_spans
from docchunk.serialization.tables.rows import TableRow
from docchunk.tokenizers import Sizer

__all__ = ["packed_row"]

_WORD = re.compile(r"\[[^\[\]\n]*\](?=\()|\S+")
"""A word, or a Markdown link's text (``[View Full-Size Image]`` before its URL): never cut inside."""

_Unit = tuple[int, int, int]  # entry index, start and end in the entry's value


def packed_row(
    row: TableRow, available: int, sizer: Sizer, opening: str
) -> list[tuple[str, int, bool, list[int]]] | None:
    """``(text, tokens, oversized, entries)`` of the pieces of ``row``, packed as tightly as ``available`` allows.

    Every piece is ``opening`` (the row's lead, after any head line), then the
    entries or entry fragments it holds joined by the row's separator, each fragment
    after its entry's prefix; a piece that ends at the end of an entry the row
    continues after ends with the separator's mark (``;``), the last one with the
    row's tail. An entry that fits a piece whole is never cut; a larger one is cut at
    sentence ends, a sentence too large at words, a word too large by
    :func:`~docchunk.chunkers.doc.compat.semsplit.semchunk_split`. The units are packed
    greedily, at the smallest budget that gives as few pieces as ``available`` does
    (pieces of even size). Whitespace at a cut inside an entry is dropped.

    Args:
        row: A row larger than the budget, with at least one entry larger alone.
        available: Budget per piece text, in tokens of the sizer's tokenizer.
        sizer: The chunking call's token counts.
        opening: What opens every piece (the row's lead, after a head line).

    Returns:
        The pieces in order, each with the indices of the entries it holds (whole or
        in part); ``oversized`` when one unit alone exceeds ``available``. None when
        the opening and an entry's prefix leave no room for its text (the caller
        splits the row as text).
    """
    mark = row.sep.rstrip()
    last = len(row.cells) - 1

    def closing(i: int) -> str:
        return row.tail if i == last else mark

    units: list[_Unit] = []
    for i, (prefix, value) in enumerate(row.cells):
        head = opening + prefix

        def fits(text: str, head: str = head, i: int = i) -> bool:
            return sizer.count(head + text + closing(i)) <= available

        if sizer.count(head + value + closing(i)) <= available:
            units.append((i, 0, len(value)))
            continue
        room = available - sizer.count(head + closing(i))
        if room < 1:
            return None
        for a, b in _stripped(value, sentence_spans(value)):
            if sizer.count(head + value[a:b] + closing(i)) <= available:
                units.append((i, a, b))
                continue
            for word in _WORD.finditer(value, a, b):
                s, e = word.span()
                if sizer.count(head + value[s:e] + closing(i)) <= available:
                    units.append((i, s, e))
                else:
                    units.extend((i, s + x, s + y) for x, y in _word_parts(value[s:e], room, sizer, fits))

    def render(group: list[_Unit]) -> str:
        parts: list[str] = []
        runs: list[tuple[int, int, int]] = []  # entry, start, end of each entry's part
        for i, a, b in group:
            if runs and runs[-1][0] == i:
                runs[-1] = (i, runs[-1][1], b)
            else:
                runs.append((i, a, b))
        for i, a, b in runs:
            prefix, value = row.cells[i]
            parts.append(prefix + value[a:b])
        i, _, b = group[-1]
        end = closing(i) if b >= _end_of(row.cells[i][1]) else ""
        return opening + row.sep.join(parts) + end

    def pack(cap: int) -> list[list[_Unit]]:
        groups: list[list[_Unit]] = []
        for unit in units:
            if groups and sizer.count(render([*groups[-1], unit])) <= cap:
                groups[-1].append(unit)
            else:
                groups.append([unit])
        return groups

    groups = pack(available)
    if len(groups) > 1:
        groups = _evened(pack, groups, sizer.count(render(units)), available)
    out = []
    for group in groups:
        text = render(group)
        n = sizer.count(text)
        out.append((text, n, n > available, sorted({i for i, _, _ in group})))
    return out


def _word_parts(word: str, room: int, sizer: Sizer, fits: Callable[[str], bool]) -> list[tuple[int, int]]:
    """``word`` cut by semchunk into as few parts as ``room`` tokens allow, of even size, none of marks only.

    The parts are cut at the smallest size (by bisection) that needs no more parts than
    ``room`` does: cut at ``room``, a word of 4.3 budgets was four full parts and a last
    one of a few tokens, a piece ``min_tokens`` could not join to a full neighbour (the
    round-2 tester's ``md_long_tokens``, ``URL = a1b2c3d4/a1b2c3d4/`` in 41 tokens at
    cl100k 128; issue 45 cut a long cell's sentences evenly, a long word was not).
    A mark left alone between two parts that fill the budget cannot join either
    (:func:`_marks_joined`); the word is then cut again a little smaller (up to 4 tokens
    less), leaving the mark room.
    """

    def cut(size: int) -> list[tuple[int, int]]:
        parts: list[tuple[int, int]] = []
        for r in range(size, max(size - 5, 0), -1):
            parts = _marks_joined(word, semchunk_split(word, r, sizer)[0], fits)
            if all(any(ch.isalnum() for ch in word[a:b]) for a, b in parts):
                break
        return parts

    parts = cut(room)
    if len(parts) < 2:
        return parts
    size = _smallest(lambda r: len(cut(r)), len(parts), max(1, sizer.count(word) // len(parts)), room)
    return cut(size) if size < room else parts


def _marks_joined(word: str, parts: list[tuple[int, int]], fits: Callable[[str], bool]) -> list[tuple[int, int]]:
    """``parts`` of ``word`` with each part of marks only (a URL's ``/``) joined to the next part, or the one before.

    semchunk cuts a long word at its marks and may leave a mark alone between two full
    parts; packed, it was a piece of its own, the row's label and ``URL = /`` (the
    round-2 tester's ``md_long_tokens``, 5 such pieces at MiniLM 64). A join that would
    not fit the budget (``fits``) is not made.
    """
    out: list[tuple[int, int]] = []
    k = 0
    while k < len(parts):
        a, b = parts[k]
        if not any(ch.isalnum() for ch in word[a:b]):
            if k + 1 < len(parts) and fits(word[a : parts[k + 1][1]]):
                parts[k + 1] = (a, parts[k + 1][1])
                k += 1
                continue
            if out and fits(word[out[-1][0] : b]):
                out[-1] = (out[-1][0], b)
                k += 1
                continue
        out.append((a, b))
        k += 1
    return out


def _end_of(value: str) -> int:
    """Where ``value``'s text ends (its trailing whitespace is no unit's)."""
    return len(value.rstrip())


def _stripped(value: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``spans`` of ``value`` without the whitespace at their ends; spans of whitespace dropped."""
    out = []
    for a, b in spans:
        text = value[a:b]
        if text.strip():
            a += len(text) - len(text.lstrip())
            out.append((a, a + len(text.strip())))
    return out


def _evened(
    pack: Callable[[int], list[list[_Unit]]], groups: list[list[_Unit]], total: int, available: int
) -> list[list[_Unit]]:
    """The packing at the smallest budget (by bisection) that needs no more pieces than ``groups``."""
    cap = _smallest(lambda c: len(pack(c)), len(groups), max(1, total // len(groups)), available)
    return pack(cap) if cap < available else groups


def _smallest(count: Callable[[int], int], most: int, low: int, high: int) -> int:
    """The smallest size in ``low..high`` (by bisection) at which ``count(size)`` is at most ``most``; else ``high``.

    ``count`` (pieces at a size) does not grow as the size grows.
    """
    while low < high:
        mid = (low + high) // 2
        if count(mid) <= most:
            high = mid
        else:
            low = mid + 1
    return high
