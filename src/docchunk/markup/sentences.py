"""Sentence boundaries of plain text: the rules every sentence-aware text chunker shares.

:func:`sentence_spans` is used by :class:`docchunk.SentenceChunker`, the semantic
chunkers and the sentence level of :class:`docchunk.RecursiveChunker`. Here: the
punctuation candidates and the sentence cuts. The rules it applies live beside it:
:mod:`~docchunk.markup.abbreviations` (a period that ends no sentence),
:mod:`~docchunk.markup.line_wraps` (a line break that is a hard wrap; its
:class:`LineWraps` and :func:`line_ends` are re-exported here),
:mod:`~docchunk.markup.chat_logs` (turns) and
:mod:`~docchunk.markup.line_breaks` (the kinds of line break).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docchunk.markup.abbreviations import is_abbreviation
from docchunk.markup.line_breaks import BREAK_CHARS, BREAKS, line_start, paragraph_break
from docchunk.markup.line_wraps import LineWraps, line_ends

__all__ = [
    "CLOSERS", "FULL_STOPS", "SENTENCE_MARK", "WESTERN_MARKS", "LineWraps", "line_ends", "line_start",
    "sentence_cut_after", "sentence_cut_before", "sentence_ends",
    "sentence_spans",
]  # fmt: skip

CLOSERS = "\"'”’»)]}」』）】》〕〉"  # what may follow a sentence's punctuation and still end the sentence
# Full stops that end a sentence with or without whitespace after them, as they mark nothing
# else (all have Unicode's Sentence_Terminal property): CJK's 。！？ and the half-width ｡, the
# Devanagari danda । and double danda ॥ (Hindi, Marathi, Nepali, Sanskrit), the Arabic full
# stop (U+06D4, Urdu) and question mark ؟, the Armenian full stop (U+0589), the Ethiopic
# ። and ፧ (Amharic, Tigrinya), the Myanmar ။ and the Khmer ។.
FULL_STOPS = "。！？｡।॥\u06d4؟\u0589።፧။។"
WESTERN_MARKS = ".!?…"  # they end a sentence only before whitespace
_MARKS = FULL_STOPS + WESTERN_MARKS
# Candidate sentence ends, in one pass over the text:
#  - "cjk": a full stop of FULL_STOPS, then closing quotes or brackets, then any whitespace:
#    CJK text puts no space between sentences, and these marks end nothing but a sentence;
#  - "end": Western terminators (. ! ? … and runs of them), closing quotes or brackets,
#    then the whitespace that must follow (a period inside "3.14" or "e.g" is no end);
#  - "nl": a run of line breaks ("\n", "\r\n", "\r" or another of line_breaks.LINE_BREAKS).
_CANDIDATE = re.compile(
    rf"(?P<cjk>[{FULL_STOPS}]+[{re.escape(CLOSERS)}]*\s*)"
    rf"|(?P<end>[{WESTERN_MARKS}]+[{re.escape(CLOSERS)}]*)(?P<ws>\s+)"
    rf"|(?P<nl>[{BREAK_CHARS}]+)"
)
SENTENCE_MARK = re.compile(rf"[{_MARKS}]")  # a sentence mark (the sentence level may cut a span holding one)
_FIRST = re.compile(rf"[{_MARKS}{BREAK_CHARS}]")  # the characters a candidate starts with


def _candidates(text: str, lo: int = 0, hi: int | None = None) -> Iterator[re.Match[str]]:
    """``_CANDIDATE.finditer(text, lo, hi)``, fast: tried only where one of its first characters is."""
    match_at, end = _CANDIDATE.match, 0
    for hit in _FIRST.finditer(text, lo, len(text) if hi is None else hi):
        i = hit.start()
        if i >= end:
            match = match_at(text, i)
            if match is not None:
                end = match.end()
                yield match


def sentence_spans(text: str) -> list[tuple[int, int]]:
    r"""Sentence spans that tile ``text``; trailing whitespace stays with its sentence.

    The shared sentence rules of :class:`SentenceChunker`, :class:`SemanticChunker`
    and :class:`SDPMChunker`. A sentence ends:

    * after ``。``, ``！``, ``？`` (and ``｡``), with or without whitespace after them,
      as CJK text puts none between sentences; likewise after the full stops of other
      scripts, which mark nothing else: ``।`` and ``॥`` (Devanagari), the Arabic full
      stop U+06D4 and ``؟`` (Arabic script), the Armenian full stop U+0589, ``።``
      and ``፧`` (Ethiopic), ``။`` (Myanmar) and ``។`` (Khmer);
    * after ``.``, ``!``, ``?``, ``…`` (or a run of them, such as ``?!``) and any
      closing quotes or brackets, when whitespace follows, except after a period
      that ends a title or abbreviation (``Dr.``, ``Mr.``, ``Prof.``, ``e.g.``,
      ``i.e.``, ``etc.``, ``vs.``, ``Fig.``, ``No.``, ``z.B.``, ``z. B.``, ``usw.``, ``p.ej.``
      ... in English, German, French and Spanish), a period before a lower-case word
      in a text that capitalises its sentences (``the univ. library``), a day before a
      German month (``am 12. März``), an initial (``J. R. R.``), a
      dotted abbreviation (``U.S.``) or a section number that begins a sentence or
      a line (``... the threshold. 4.2. Results ...``: ``4.2.`` begins the next
      sentence); ``etc.`` followed by a capital letter does end one (``pens, etc.
      The``); a decimal number (``3.14``) has no whitespace after its period, so it
      never ends one;
    * at a blank line (two or more line breaks: ``"\n"``, ``"\r\n"``, ``"\r"`` or any
      other of ``str.splitlines``, U+2028, a form feed ...; a ``"\r\n"`` is never cut)
      and at a U+2029 (PARAGRAPH SEPARATOR);
    * at a single line break only where the line is meant to end, not where text was
      hard-wrapped (a PDF's, an email's or a Markdown source's wrapped lines): when the
      next line starts a new block (a list item ``-``, ``*``, ``+``, ``•``, ``1.``,
      ``1)``, a number other than 1 only inside a list; a heading ``#``; a quote ``>``,
      read past when both lines are quoted; a table row ``|``; a fence; a Setext
      underline; a tab-indented line) or is blank; when the paragraph is a chat log (its
      first line, or most of its three or more lines, start a turn: ``Name:``,
      ``Name (10:02):``, ``<nick>``, ``nick>``, ``[12:01] Name:``,
      ``12/01/2024, 10:02 - Name:``) and the next line starts a turn; when the line is
      short: the next line's first word would have fitted on it within the width of the
      paragraph's longest line less an eighth (proportional fonts); when every line of
      the paragraph is under 40 characters (lists, addresses, verse: no program wraps
      that narrow) or one is over 200 (one paragraph a line: no program wraps that
      wide); or when every line of the paragraph (three or more) begins with a capital
      letter, as the lines of verse do, unless every line is full and few end
      with punctuation (German prose). A period at a wrap ends no sentence after an
      abbreviation (``Dr.\nSmith``). So a poem's lines stay lines, while a paragraph
      wrapped at a fixed width reads as running text (docs/sentence.md says what the
      rule cannot tell apart: long lower-case verse).

    Args:
        text: Any string.

    Returns:
        ``(start, end)`` character offsets, in order, that cover ``text`` exactly
        with no gap and no overlap; empty for an empty text.

    Example:
        >>> text = "Dr. Lee came at 5 p.m. today. 今天很好。我们走吧！"
        >>> [text[s:e] for s, e in sentence_spans(text)]
        ['Dr. Lee came at 5 p.m. today. ', '今天很好。', '我们走吧！']
    """
    spans, start = [], 0
    wraps = LineWraps(text)
    for match in _candidates(text):
        kind = match.lastgroup
        if kind == "nl":
            if wraps.is_wrap(match.start(), match.end()):
                continue
        elif kind == "ws" and _trails_off(text, match):
            continue
        elif kind == "ws" and match.group("end") == ".":
            breaks = list(BREAKS.finditer(text, match.start("ws"), match.end()))
            if len(breaks) <= 1 and is_abbreviation(text, match.start(), start, match.end()):
                if not breaks or wraps.is_wrap(*breaks[0].span()):  # "Dr.\nSmith": a wrap after an abbreviation
                    continue
        if match.end() > start:
            spans.append((start, match.end()))
            start = match.end()
    if start < len(text):
        spans.append((start, len(text)))
    return spans


def _trails_off(text: str, match: re.Match[str]) -> bool:
    """Whether an ellipsis (``...``, ``…``) runs on into a lower-case word: ``She paused... then``."""
    marks = match.group("end")
    nxt = match.end()
    return (marks == "…" or marks.startswith("...")) and nxt < len(text) and text[nxt].islower()


def _ending(text: str, match: re.Match[str], sentence_start: int) -> bool:
    """Whether a punctuation candidate of :data:`_CANDIDATE` ends a sentence (not ``Dr.``, ``e.g.`` ...)."""
    if match.lastgroup == "ws" and _trails_off(text, match):
        return False
    if match.lastgroup != "ws" or match.group("end") != ".":
        return match.lastgroup != "nl"
    ws = match.group("ws")
    if ws != " " and paragraph_break(ws):  # a blank line
        return True
    return not is_abbreviation(text, match.start(), sentence_start, match.end())


def _candidates_before(text: str, lo: int, hi: int) -> Iterator[re.Match[str]]:
    """The candidates of :data:`_CANDIDATE` whose marks start in ``text[lo:hi]``, from the right.

    Exactly those a forward scan of ``text[lo:]`` (:func:`_candidates`) finds there: each
    run of sentence marks is scanned forwards on its own, so a run that mixes Western and
    CJK marks (``".。"``, ``"。."``) gives each of its candidates. A candidate never
    reaches the next run (its tail is closers and whitespace), so the runs are independent.
    """
    while hi > lo:
        end = _last_mark(text, lo, hi) + 1
        if not end:
            return
        k = end - 1
        while k > lo and text[k - 1] in _MARKS:
            k -= 1
        if end - k == 1:  # one mark: one try
            match = _CANDIDATE.match(text, k)
            if match is not None:
                yield match
        else:
            yield from reversed(list(_candidates(text, k, end)))
        hi = k


def _last_mark(text: str, lo: int, hi: int) -> int:
    """The offset of the last sentence mark in ``text[lo:hi]``, or -1.

    Searched in windows from ``hi`` back, each twice the one before: the cost follows
    the distance to the mark, not the length of the span.
    """
    width = 64
    while hi > lo:
        start = max(lo, hi - width)
        last = max((m.start() for m in SENTENCE_MARK.finditer(text, start, hi)), default=-1)
        if last != -1:
            return last
        hi, width = start, 2 * width
    return -1


def _marks_end(match: re.Match[str]) -> int:
    """Where a candidate's marks and closers end, before the whitespace after them."""
    if match.lastgroup == "ws":
        return match.end("end")
    return match.start() + len(match.group().rstrip())


def sentence_ends(text: str, lo: int, hi: int) -> list[int]:
    """The sentence ends in ``text[lo:hi]`` by the punctuation rules of :func:`sentence_spans` (not its line breaks).

    Each is an offset after the end's punctuation and the whitespace after it (up to ``hi``).
    """
    out: list[int] = []
    start = lo
    for match in _candidates(text, lo, hi):
        if _ending(text, match, start):
            start = min(match.end(), hi)
            out.append(start)
    return out


def sentence_cut_before(text: str, start: int, limit: int, hi: int) -> int:
    """The last sentence cut in ``text[start:hi]`` that is at most ``limit``; -1 when there is none.

    A cut lies between a sentence's punctuation (with closing quotes or brackets) and
    the whitespace after it, at an end of :func:`sentence_ends` that is not the span's
    end (its candidate ends before ``hi``): the cuts of
    :class:`docchunk.RecursiveChunker`'s sentence level with ``keep_separator="start"``
    (:func:`~docchunk.chunkers.text.recursive_levels.sentence_hits`). Exactly the cut
    that scanning the whole span from ``start`` would find, but read from ``limit``
    backwards: the cost follows the distance from the cut to ``limit``. ``start`` is
    the start of the span or a cut. A candidate whose verdict depends on where its
    sentence starts (a section number, ``"4.2."``) is decided by scanning forwards
    from ``start``.
    """
    for match in _candidates_before(text, start, limit):
        cut = _marks_end(match)
        if start < cut <= limit and match.end() < hi:
            ending = _ending(text, match, start)
            # only a section number's verdict ("4.2.") depends on the sentence's start: then scan from it
            if text[match.start() - 1 : match.start()].isdigit() and ending != _ending(text, match, match.start()):
                return _cut_forward(text, start, limit, hi)
            if ending:
                return cut
    return -1


def _cut_forward(text: str, start: int, limit: int, hi: int) -> int:
    """:func:`sentence_cut_before`, scanning forwards from ``start`` as :func:`sentence_ends` does."""
    found, sentence_start = -1, start
    for match in _candidates(text, start, limit):
        if _ending(text, match, sentence_start):
            sentence_start = min(match.end(), hi)
            cut = _marks_end(match)
            if start < cut <= limit and match.end() < hi:
                found = cut
    return found


def sentence_cut_after(text: str, start: int, hi: int) -> int:
    """The first cut of :func:`sentence_cut_before`'s kind in ``text[start:hi]`` after ``start``; ``hi`` when none.

    Scanned forwards from ``start``, as :func:`sentence_ends` does.
    """
    for match in _candidates(text, start, hi):
        if _ending(text, match, start):
            return _marks_end(match) if match.end() < hi else hi
    return hi
