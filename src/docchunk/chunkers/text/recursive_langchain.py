"""LangChain's recursive splitting, for ``RecursiveChunker(language="langchain")``: its exact chunks, as spans.

The algorithm is LangChain's ``RecursiveCharacterTextSplitter`` (``langchain_text_splitters``
1.1: ``character.RecursiveCharacterTextSplitter._split_text``, ``character._split_text_with_regex``
and ``base.TextSplitter._merge_splits``), written again over spans of the text so that every
chunk keeps exact offsets. Its phases:

1. :func:`pick_separator`: the first separator of the list found in the text (``""``, or the
   last one, when none is), and the separators after it;
2. :func:`split_at`: the text cut at every occurrence of that separator, which starts the
   piece after it (``keep_separator="start"``, LangChain's ``True``), ends the piece before
   it (``"end"``) or is left out (``False``); empty pieces are dropped;
3. :func:`merge`: consecutive pieces of one split, each shorter than ``chunk_size``, packed
   greedily while their summed sizes (plus the separator's size between two pieces with
   ``keep_separator=False``) fit, the next chunk starting with up to ``chunk_overlap`` of
   the last pieces; a piece of ``chunk_size`` or more is split again at the separators
   after the one that cut it (:func:`langchain_spans`), or kept whole when none is left.

Each packed chunk is stripped of the whitespace at its edges (``str.strip``, LangChain's
``strip_whitespace=True``) and dropped when nothing is left, so only whitespace between
chunks is left out. Two differences, both where LangChain's chunk is no slice of the text
or is only whitespace: with ``keep_separator=False`` a chunk over a run of separators
(``"a  b"`` split at ``" "``) is the slice, where LangChain's joins the pieces with one
separator (``"a b"``); and a single character that alone reaches ``chunk_size`` is
LangChain's chunk as it is, but not when it is whitespace (a ``" "`` at ``chunk_size=1``),
which is left out as the whitespace between chunks is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from docchunk.chunkers.text.recursive_levels import pieces_of

__all__ = ["langchain_spans", "merge", "pick_separator", "split_at"]

Span = tuple[int, int]
Keep = Literal["start", "end", False]


def pick_separator(text: str, start: int, end: int, separators: list[str]) -> tuple[str, list[str]]:
    """The separator that cuts ``text[start:end]`` and the finer ones left for its pieces.

    Args:
        text: The whole text.
        start: Start of the span (a ``str`` index).
        end: End of the span (exclusive).
        separators: Literal separators, coarsest first.

    Returns:
        The first separator found in the span, with the separators after it; ``""``
        (split into characters) with none left when ``""`` comes before any found one;
        the last separator with none left when no separator is found.
    """
    for i, sep in enumerate(separators):
        if not sep:
            return sep, []
        if text.find(sep, start, end) >= 0:
            return sep, separators[i + 1 :]
    return separators[-1], []


def split_at(text: str, start: int, end: int, sep: str, keep: Keep) -> list[Span]:
    """``text[start:end]`` cut at each occurrence of ``sep`` (left to right, not overlapping).

    Args:
        text: The whole text.
        start: Start of the span.
        end: End of the span (exclusive).
        sep: A literal separator; ``""`` cuts between every two characters.
        keep: ``"start"``: a separator starts the piece after it; ``"end"``: it ends the
            piece before it; ``False``: it belongs to no piece.

    Returns:
        The pieces' spans, in order, none empty. With ``keep`` they tile the span.
    """
    if not sep:
        return [(i, i + 1) for i in range(start, end)]
    parts = text[start:end].split(sep)  # str.split: the occurrences re.split finds for a literal
    return pieces_of(start, list(map(len, parts)), len(sep), keep)


def merge(pieces: list[Span], sizes: list[int], sep_size: int, chunk_size: int, chunk_overlap: int) -> list[Span]:
    """Pack consecutive pieces greedily into chunks: LangChain's ``_merge_splits``.

    A piece joins the current chunk while the summed sizes, plus ``sep_size`` between two
    pieces, stay within ``chunk_size``; when one does not fit, the chunk is emitted and
    its first pieces are dropped until at most ``chunk_overlap`` is left and the piece
    fits after what is left (the rest starts the next chunk).

    Args:
        pieces: Spans of consecutive pieces of one split, in order.
        sizes: The size of each piece (tokens of the chunker's tokenizer).
        sep_size: The size of the separator between two pieces (0 when pieces keep it).
        chunk_size: The budget, in the same tokens.
        chunk_overlap: The size of the last pieces repeated at the start of the next chunk.

    Returns:
        The chunks' spans ``(start of first piece, end of last piece)``, in order
        (overlapping by the repeated pieces), not stripped.
    """
    out: list[Span] = []
    first = 0  # the current chunk holds pieces first .. i - 1
    total = 0
    for i, size in enumerate(sizes):
        if i > first and total + size + sep_size > chunk_size:
            out.append((pieces[first][0], pieces[i - 1][1]))
            while total > chunk_overlap or (total + size + (sep_size if i > first else 0) > chunk_size and total > 0):
                total -= sizes[first] + (sep_size if i - first > 1 else 0)
                first += 1
        total += size + (sep_size if i > first else 0)
    if sizes:
        out.append((pieces[first][0], pieces[-1][1]))
    return out


def _strip(text: str, span: Span) -> Span | None:
    """``span`` without the whitespace at its edges (``str.strip``), or None when only whitespace."""
    a, b = span
    body = text[a:b]
    head = len(body) - len(body.lstrip())
    if head == len(body):
        return None
    return a + head, b - (len(body) - len(body.rstrip()))


def langchain_spans(
    text: str,
    separators: list[str],
    keep: Keep,
    chunk_size: int,
    chunk_overlap: int,
    count: Callable[[str], int],
    by_length: bool = False,
) -> list[Span]:
    r"""The spans of LangChain's chunks of ``text``: ``RecursiveCharacterTextSplitter.split_text``.

    Args:
        text: The text.
        separators: Literal separators, coarsest first (LangChain's default
            ``["\n\n", "\n", " ", ""]`` for the ``langchain`` preset).
        keep: Where a separator goes: ``"start"`` (LangChain's ``True``), ``"end"``, or
            ``False`` (left out, its size counted between two packed pieces).
        chunk_size: The budget, in tokens of ``count``; >= 1.
        chunk_overlap: LangChain's ``chunk_overlap``, in the same tokens; >= 0.
        count: The size of a piece: LangChain's ``length_function`` (the chunker's
            tokenizer), applied to each piece and summed.
        by_length: Whether ``count`` is ``len`` (a token is a character): pieces are then
            sized from their spans, without slicing them out.

    Returns:
        ``(start, end)`` of each chunk, in order: ``text[start:end]`` is LangChain's chunk
        (stripped; see the module docstring for the two differences), never empty or
        only whitespace. Chunks overlap only by ``chunk_overlap``'s repeated pieces.
    """
    out: list[Span] = []
    size_of = (lambda a, b: b - a) if by_length else (lambda a, b: count(text[a:b]))
    _split(text, 0, len(text), separators, keep, chunk_size, chunk_overlap, count, size_of, out)
    return out


def _split(
    text: str, start: int, end: int, separators: list[str], keep: Keep, chunk_size: int, chunk_overlap: int,
    count: Callable[[str], int], size_of: Callable[[int, int], int], out: list[Span],
) -> None:  # fmt: skip
    """Append the chunks of ``text[start:end]`` to ``out``: LangChain's ``_split_text``."""
    sep, finer = pick_separator(text, start, end, separators)
    sep_size = 0 if keep else count(sep)
    good: list[Span] = []
    good_sizes: list[int] = []

    def flush() -> None:
        for span in merge(good, good_sizes, sep_size, chunk_size, chunk_overlap):
            if (stripped := _strip(text, span)) is not None:
                out.append(stripped)
        good.clear()
        good_sizes.clear()

    for a, b in split_at(text, start, end, sep, keep):
        size = size_of(a, b)
        if size < chunk_size:
            good.append((a, b))
            good_sizes.append(size)
            continue
        flush()
        if finer:
            _split(text, a, b, finer, keep, chunk_size, chunk_overlap, count, size_of, out)
        elif not text[a:b].isspace():  # LangChain keeps it unstripped; whitespace alone is left out
            out.append((a, b))
    flush()
