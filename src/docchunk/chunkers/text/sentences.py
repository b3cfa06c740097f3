"""Sentence boundaries of plain text: the rules every sentence-aware text chunker shares.

:func:`sentence_spans` is used by :class:`docchunk.SentenceChunker`, the semantic
chunkers and the sentence level of :class:`docchunk.RecursiveChunker`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

__all__ = [
    "sentence_cut_after", "sentence_cut_before", "sentence_end_after", "sentence_end_before", "sentence_ends",
    "sentence_spans",
]  # fmt: skip

_CLOSERS = "\"'”’»)]}」』）】》〕〉"
# Candidate sentence ends, in one pass over the text:
#  - "cjk": CJK full stops (。！？ and the half-width ｡), then closing quotes or brackets,
#    then any whitespace: CJK text puts no space between sentences;
#  - "end": Western terminators (. ! ? … and runs of them), closing quotes or brackets,
#    then the whitespace that must follow (a period inside "3.14" or "e.g" is no end);
#  - "nl": a run of line breaks ("\n", "\r\n" or "\r").
_CANDIDATE = re.compile(
    rf"(?P<cjk>[。！？｡]+[{re.escape(_CLOSERS)}]*\s*)"
    rf"|(?P<end>[.!?…]+[{re.escape(_CLOSERS)}]*)(?P<ws>\s+)"
    r"|(?P<nl>[\r\n]+)"
)
_LAST_MARK = re.compile(r"[\s\S]*[。！？｡.!?…]")  # greedy: up to the last sentence mark, found from the end
_MARKS = "。！？｡.!?…"
_FIRST = re.compile(r"[。！？｡.!?…\r\n]")  # the characters a candidate starts with
# the start of a line that opens a new block: list item, heading, quote, table row, fence, chat turn
_BLOCK_START = re.compile(
    r"[ \t]*(?:[-+*•‣◦][ \t]|\d{1,9}[.)][ \t]|#{1,6}(?:[ \t]|$)|>|\||```|~~~"
    r"|[\w.@-]{1,30}:[ \t]|[A-Z][\w.'-]*(?: [A-Z][\w.'-]*){1,2}:[ \t]|<[^>\s]{1,30}>|\[?\d{1,2}:\d{2})"
)
_MIN_WRAP_WIDTH = 40  # characters: a paragraph whose lines are all shorter was not wrapped by a program
_LINE_OF = re.compile(r"[^\r\n]*")
_FIRST_WORD = re.compile(r"[ \t]*(\S*)")
# the word before a period, read backwards from it: letters, digits and inner periods ("e.g", "U.S", "5.3")
_WORD_BEFORE_REVERSED = re.compile(r"[^\W_]([^\W_]|[.'’-])*")

# Abbreviations that end with a period but not a sentence, compared in this case ...
_TITLES = frozenset(
    # English, German, French, Spanish titles and forms of address
    "Mr Mrs Ms Mx Dr Prof Sr Jr St Mt Rev Gen Col Capt Cpt Lt Sgt Maj Cmdr Adm Gov Sen Rep Pres Hon Fr Br "
    "Hr Hrn Frl Mme Mlle Mgr Me Sra Srta Sres Dra Dña Lic Ing Arq "
    # reference words that precede a number or a name
    "No Nos Nr Fig Figs Tab Tbl Eq Eqs Sec Secs Ch Chap Vol Vols Art Abs Abb Ref Refs Ed Eds Ex Nº "
    "Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec "
    "Inc Ltd Co Corp Bros Dept Univ Assn Ave Blvd Rd S Bd Hg".split()
)
# ... or in any case (lower-cased before the lookup)
_ABBREVIATIONS = frozenset(
    "e.g i.e etc vs cf al approx ca resp viz esp incl excl min max pp ff et seq "
    "z.b d.h u.a bzw usw vgl ggf evtl bspw inkl zzgl sog "
    "p.ex c.-à-d env "
    "p.ej núm pág págs aprox ud uds".split()
)
# ... except these, which end a sentence when a capital letter follows ("pens, etc. The")
_ENDING_ABBREVIATIONS = frozenset({"etc"})
_SECTION_NUMBER = re.compile(r"\d+(\.\d+)*\Z")  # "5", "5.3": before the final period


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


def _line_start(text: str, pos: int) -> int:
    r"""The start of the line holding ``text[pos]`` (lines end at ``"\n"``, ``"\r\n"`` or ``"\r"``)."""
    lf = text.rfind("\n", 0, pos)
    return max(lf, text.rfind("\r", lf + 1, pos)) + 1


def _is_abbreviation(text: str, stop: int, sentence_start: int = 0, after: int | None = None) -> bool:
    """Whether the period at ``text[stop]`` ends an abbreviation rather than a sentence.

    Titles, abbreviations, initials, dotted abbreviations, and section numbers
    (``"5.3."``) that begin their sentence (the sentence starts at ``sentence_start``)
    or their line. ``etc.`` followed by a capital letter (at ``after``) ends a sentence.
    """
    floor = max(0, stop - 40)
    match = _WORD_BEFORE_REVERSED.match(text[floor:stop][::-1])  # matched backwards: no search from every start
    if match is None:
        return False
    word = match.group()[::-1]
    word_start = stop - len(word)
    if word.lower() in _ENDING_ABBREVIATIONS:
        return not (after is not None and after < len(text) and text[after].isupper())
    if word in _TITLES or word.lower() in _ABBREVIATIONS:
        return True
    if len(word) == 1 and word.isupper():  # an initial: "J. R. R. Tolkien"
        return True
    if "." in word and all(len(part) <= 2 and part.isalpha() for part in word.split(".")):
        return True  # "U.S", "e.g", "z.B", "i.e" in any case
    if _SECTION_NUMBER.match(word):  # a section number at the start of its sentence or line: "4.2. Results"
        if not text[sentence_start:word_start].strip():
            return True
        line_start = _line_start(text, word_start)
        return not text[line_start:word_start].strip()
    return False


def sentence_spans(text: str) -> list[tuple[int, int]]:
    r"""Sentence spans that tile ``text``; trailing whitespace stays with its sentence.

    The shared sentence rules of :class:`SentenceChunker`, :class:`SemanticChunker`
    and :class:`SDPMChunker`. A sentence ends:

    * after ``。``, ``！``, ``？`` (and ``｡``), with or without whitespace after them,
      as CJK text puts none between sentences;
    * after ``.``, ``!``, ``?``, ``…`` (or a run of them, such as ``?!``) and any
      closing quotes or brackets, when whitespace follows, except after a period
      that ends a title or abbreviation (``Dr.``, ``Mr.``, ``Prof.``, ``e.g.``,
      ``i.e.``, ``etc.``, ``vs.``, ``Fig.``, ``No.``, ``z.B.``, ``usw.``, ``p.ej.``
      ... in English, German, French and Spanish), an initial (``J. R. R.``), a
      dotted abbreviation (``U.S.``) or a section number that begins a sentence or
      a line (``... the threshold. 4.2. Results ...``: ``4.2.`` begins the next
      sentence); ``etc.`` followed by a capital letter does end one (``pens, etc.
      The``); a decimal number (``3.14``) has no whitespace after its period, so it
      never ends one;
    * at a blank line (two or more line breaks, ``"\n"``, ``"\r\n"`` or ``"\r"``; a
      ``"\r\n"`` is never cut);
    * at a single line break only where the line is meant to end, not where text was
      hard-wrapped (a PDF's, an email's or a Markdown source's wrapped lines): when the
      next line starts a new block (a list item ``-``, ``*``, ``+``, ``•``, ``1.``, ``1)``;
      a heading ``#``; a quote ``>``; a table row ``|``; a fence; a chat turn ``Name:``,
      ``<nick>`` or ``[12:01]``) or is blank, or when the line is short: the next line's
      first word would have fitted on it within the width of the paragraph's longest
      line, which a wrapping program would have done; or when every line of the
      paragraph is under 40 characters (lists, addresses, verse: no program wraps
      that narrow); or when every line of the paragraph (three or more) begins with a
      capital letter, as the lines of verse do.
      So a poem's lines stay lines, while a paragraph wrapped at a fixed width reads as
      running text.

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
    wraps = _Wraps(text)
    for match in _candidates(text):
        kind = match.lastgroup
        if kind == "nl":
            if wraps.is_wrap(match.start(), match.end()):
                continue
        elif kind == "ws" and match.group("end") == ".":
            ws = match.group("ws")
            if "\n" not in ws and "\r" not in ws and _is_abbreviation(text, match.start(), start, match.end()):
                continue
        if match.end() > start:
            spans.append((start, match.end()))
            start = match.end()
    if start < len(text):
        spans.append((start, len(text)))
    return spans


class _Wraps:
    """Tells a hard wrap (a line break inside a sentence) from a line that is meant to end.

    The rule is :func:`sentence_spans`'s; the width and capitals of each paragraph are
    computed once.
    """

    def __init__(self, text: str):
        self.text = text
        self.last: tuple[int, int, int, bool] | None = None  # the last paragraph: start, end, longest line, verse

    def is_wrap(self, a: int, b: int) -> bool:
        """Whether the run of line breaks ``text[a:b]`` is a wrap inside a sentence."""
        text = self.text
        if b - a > 1 and (b - a > 2 or text[a:b] != "\r\n"):  # two or more breaks: a blank line
            return False
        nxt = _LINE_OF.match(text, b)
        assert nxt is not None
        if not nxt.group().strip() or b >= len(text) or _BLOCK_START.match(nxt.group()):
            return False
        line_start = _line_start(text, a)
        if not text[line_start:a].strip():
            return False
        width, verse = self.paragraph(line_start)
        if verse or width < _MIN_WRAP_WIDTH:
            return False
        word = _FIRST_WORD.match(nxt.group())
        assert word is not None
        return len(text[line_start:a].rstrip()) + 1 + len(word.group(1)) > width

    def paragraph(self, line_start: int) -> tuple[int, bool]:
        """The longest line of the paragraph around ``line_start`` and whether it reads as verse.

        Breaks come in text order, so the paragraph of the last call is kept: each
        paragraph is read once, from the line of its first single break to its end.
        """
        last = self.last
        if last is not None and last[0] <= line_start < last[1]:
            return last[2], last[3]
        text, start = self.text, line_start
        while start > 0:  # back to the paragraph's first line (in order, only before its first break)
            prev = _line_start(text, start - 1)
            if start - 1 > 0 and text[start - 2 : start] == "\r\n":
                prev = _line_start(text, start - 2)
            if not text[prev:start].strip():
                break
            start = prev
        lines, end = [], start
        for m in _LINE_OF.finditer(text, start):
            if m.start() > start and text[m.start() - 1] not in "\r\n":
                continue  # the empty match right after a line
            if m.start() > start and text[m.start() - 1] == "\r" and text[m.start() : m.start() + 1] == "\n":
                continue  # between "\r" and "\n"
            if not m.group().strip():
                break
            lines.append(m.group().strip())
            end = m.end()
            if m.end() >= len(text):
                break
        width = max(len(line) for line in lines)
        verse = len(lines) >= 3 and all(line[0].isupper() for line in lines)
        self.last = (start, end + 1, width, verse)
        return width, verse


def _ending(text: str, match: re.Match[str], sentence_start: int) -> bool:
    """Whether a punctuation candidate of :data:`_CANDIDATE` ends a sentence (not ``Dr.``, ``e.g.`` ...)."""
    if match.lastgroup != "ws" or match.group("end") != ".":
        return match.lastgroup != "nl"
    ws = match.group("ws")
    return "\n" in ws or "\r" in ws or not _is_abbreviation(text, match.start(), sentence_start, match.end())


def sentence_end_before(text: str, lo: int, hi: int) -> int:
    """The last sentence end in ``text[lo:hi]``, as an offset in ``(lo, hi]``; -1 when there is none.

    A sentence end follows :func:`sentence_spans`'s punctuation rules (line breaks are
    not looked at), with the whitespace after it up to ``hi``. Found from the right,
    so the cost follows the distance to it, not the length of the span: the sentence
    level of :class:`docchunk.RecursiveChunker` in character mode.
    """
    for _, match in _candidates_before(text, lo, hi):
        if match is not None and _ending(text, match, lo) and min(match.end(), hi) > lo:
            return min(match.end(), hi)
    return -1


def _candidates_before(text: str, lo: int, hi: int) -> Iterator[tuple[int, re.Match[str] | None]]:
    """Each run of sentence marks in ``text[lo:hi]`` from the right: its start and its match of :data:`_CANDIDATE`.

    The match is None where the run is no candidate (``3.14``); a candidate's whitespace
    never reaches the next run, so its end lies before it.
    """
    while hi > lo:
        last = _LAST_MARK.match(text, lo, hi)
        if last is None:
            return
        k = last.end() - 1
        while k > lo and text[k - 1] in _MARKS:
            k -= 1
        yield k, _CANDIDATE.match(text, k)
        hi = k


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


def sentence_end_after(text: str, lo: int, hi: int) -> int:
    """The first sentence end in ``text[lo:hi]`` after ``lo`` (as :func:`sentence_end_before`); ``hi`` when none."""
    for match in _candidates(text, lo, hi):
        if _ending(text, match, lo) and match.end() > lo:
            return min(match.end(), hi)
    return hi


def sentence_cut_before(text: str, start: int, limit: int, hi: int) -> int:
    """The last sentence cut in ``text[start:hi]`` that is at most ``limit``; -1 when there is none.

    A cut lies between a sentence's punctuation (with closing quotes or brackets) and
    the whitespace after it, at an end of :func:`sentence_ends` that is not the span's
    end: the cuts of :class:`docchunk.RecursiveChunker`'s sentence level. Exactly the
    cut that scanning the whole span from ``start`` would find, but read
    from ``limit`` backwards: the cost follows the distance from the cut to ``limit``.
    Only for spans without CJK full stops, where every cut is that of a Western end
    (``start`` itself a cut or the start of the span). A candidate whose verdict
    depends on where its sentence starts (a section number, ``"4.2."``) is decided
    by scanning forwards from ``start``.
    """
    for k, match in _candidates_before(text, start, limit):
        if match is not None and match.lastgroup == "ws":
            cut = match.start("ws")
            if start < cut <= limit and match.end() < hi:
                ending = _ending(text, match, start)
                if ending != _ending(text, match, k):  # depends on the sentence's start: scan from it
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
            cut = match.start("ws") if match.lastgroup == "ws" else sentence_start
            if start < cut <= limit and match.end() < hi:
                found = cut
    return found


def sentence_cut_after(text: str, start: int, hi: int) -> int:
    """The first cut of :func:`sentence_cut_before`'s kind in ``text[start:hi]`` after ``start``; ``hi`` when none.

    Scanned forwards from ``start``, as :func:`sentence_ends` does.
    """
    for match in _candidates(text, start, hi):
        if _ending(text, match, start):
            return match.start("ws") if match.lastgroup == "ws" and match.end() < hi else hi
    return hi
