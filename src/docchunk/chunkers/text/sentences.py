"""Sentence boundaries of plain text: the rules every sentence-aware text chunker shares.

:func:`sentence_spans` is used by :class:`docchunk.SentenceChunker`, the semantic
chunkers and the sentence level of :class:`docchunk.RecursiveChunker`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from itertools import pairwise
from typing import NamedTuple

from docchunk.chunkers.text.line_breaks import (
    BREAK,
    BREAK_CHARS,
    BREAKS,
    PARAGRAPH_SEPARATOR,
    any_line_end,
    any_line_start,
    other_breaks,
    paragraph_break,
)  # fmt: skip
from docchunk.markup.fences import in_blocks

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
# the start of a line that opens a new block: a tab (code, math), list item, heading, quote, table row, fence,
# Setext underline
_BLOCK_START = re.compile(
    r"\t|[ \t]*(?:[-+*•‣◦][ \t]|(\d{1,9})[.)][ \t]|#{1,6}(?:[ \t]|$)|>|\||```|~~~|(?:=+|-{2,})[ \t]*$)"
)
# the start of a chat turn: "Ana:", "Ana Lopez:", "Ana (10:02):", "<ana>", "ana>", "[10:02] Ana:", "10:02",
# "12/01/2024, 10:02 - Ana:"
_TURN = re.compile(
    r"[ \t]*(?:[\w.@-]{1,30}:[ \t]|[A-Z][\w.'-]*(?: [A-Z][\w.'-]*){1,2}:[ \t]|<[^>\s]{1,30}>|[\w.@-]{1,30}>[ \t]"
    r"|[\w.@'-]{1,30}(?: [\w.@'-]{1,30}){0,2}[ \t]?\((?:\d{1,4}[./-]\d{1,2}[./-]\d{2,4},?[ \t]+)?\d{1,2}:\d{2}"
    r"(?::\d{2})?(?:[ \t]?[AaPp]\.?[Mm]\.?)?\):[ \t]"
    r"|\[?\d{1,4}[./-]\d{1,2}[./-]\d{2,4},?[ \t]+\d{1,2}:\d{2}|\[?\d{1,2}:\d{2})"
)
_QUOTE = re.compile(r"[ \t]{0,3}(?:>[ \t]?)+")  # a quote's markers: "> ", ">> "
_MIN_WRAP_WIDTH = 40  # characters: a paragraph whose lines are all shorter was not wrapped by a program
_MAX_WRAP_WIDTH = 200  # characters: a paragraph with a longer line was not wrapped at a width (one paragraph a line)
_SLACK = 8  # a line counts as full when within width // _SLACK of the widest (proportional fonts, justified PDF)
_LINE_END_MARK = re.compile(r"[,;:.!?…—–]['\"”’»)\]]*\Z")  # a line of verse often ends with punctuation
_NON_SPACE = re.compile(r"\S")
_BLANK_LINE = re.compile(r"(?:\r\n|\r(?!\n)|\n)[^\S\r\n]*(?:\r\n|\r|\n|\Z)")  # a line break, then a blank line
_ANY_BLANK_LINE = re.compile(rf"{BREAK}[^\S{BREAK_CHARS}]*(?:{BREAK}|\Z)|{PARAGRAPH_SEPARATOR}")  # any breaks
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
# reference words, also in lower case before a number ("fig. 3", "vol. 2", "no. 7")
_REFERENCES = frozenset(
    "No Nos Nr Fig Figs Tab Tbl Eq Eqs Sec Secs Ch Chap Vol Vols Art Abs Ref Refs Ed Eds Ex Ext Tel Apt Rm".split()
)
# German months: "am 12. März" is a date (an ordinal day), not a sentence end after "12"
_GERMAN_MONTHS = frozenset(
    "Januar Jänner Februar März April Mai Juni Juli August September Oktober November Dezember".split()
)
_NEXT_WORD = re.compile(r"[^\W\d_]+")
_NON_SPACE_RUN = re.compile(r"\S{1,40}")
_FIRST_LETTER = re.compile(r"[^\W\d_]")
_LETTERS = re.compile(r"[^\W\d_]+(?:[-'’.][^\W\d_]+)*")  # a word of letters: "library", "well-known", "z.b"
_PERIOD_LETTER = re.compile(r"\.[ \t]+([^\W\d_])")  # a period, spaces, a letter: does the text capitalise sentences?
# titles that are also names (months, "Ed"): an abbreviation only before a number or a lower-case word
_NAMES = frozenset("Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec Ed".split())
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


def line_start(text: str, pos: int) -> int:
    r"""The start of the line holding ``text[pos]`` (lines end at ``"\n"``, ``"\r\n"`` or ``"\r"``)."""
    lf = text.rfind("\n", 0, pos)
    return max(lf, text.rfind("\r", lf + 1, pos)) + 1


def _is_abbreviation(text: str, stop: int, sentence_start: int = 0, after: int | None = None) -> bool:
    """Whether the period at ``text[stop]`` ends an abbreviation rather than a sentence.

    Any period followed (at ``after``) by a lower-case letter, of any script (``the
    univ. library``, ``ч. вечера``), in a text that capitalises its sentences
    (:func:`_capitalised`); titles, abbreviations, initials, dotted
    abbreviations, spaced ones (``z. B.``), a day before a German month (``am 12. März``), and section numbers
    (``"5.3."``) that begin their sentence (the sentence starts at ``sentence_start``)
    or their line. ``etc.`` followed by a capital letter ends a sentence.
    """
    floor = max(0, stop - 40)
    match = _WORD_BEFORE_REVERSED.match(text[floor:stop][::-1])  # matched backwards: no search from every start
    if match is None:
        return False
    word = match.group()[::-1]
    word_start = stop - len(word)
    if word.lower() in _ENDING_ABBREVIATIONS:
        return not (after is not None and after < len(text) and text[after].isupper())
    following = text[after] if after is not None and after < len(text) else ""
    if following.islower() and _lower_word(text, after or 0) and _capitalised(text):
        return True  # "the univ. library", "ч. вечера", "u. a. für" (not "mRNA", "β-Catenin")
    if len(word) == 1 and word.islower() and following.isalpha() and text.startswith(".", (after or 0) + 1):
        return True  # spaced German abbreviations: "z. B.", "u. U.", "i. d. R."
    if word.isdigit() and len(word) <= 2 and after is not None:  # "am 12. März": a German date
        month = _NEXT_WORD.match(text, after)
        if month is not None and month.group() in _GERMAN_MONTHS:
            return True
    if word in _NAMES and not (following.isdigit() or following.islower()):
        return False  # a month or a name that ends its sentence: "to Jan. She", "met Ed. He" ("Jan. 5" stays)
    if word in _TITLES or word.lower() in _ABBREVIATIONS:
        return True
    if following.isdigit() and word.capitalize() in _REFERENCES:  # "fig. 3", "vol. 2", "no. 7"
        return True
    if word == "I" and _word_before(text, word_start)[:1].islower():
        return False  # the pronoun: "so do I. We"
    if len(word) == 1 and word.isupper():  # an initial: "J. R. R. Tolkien"
        return True
    if "." in word and all(len(part) <= 2 and part.isalpha() for part in word.split(".")):
        return True  # "U.S", "e.g", "z.B", "i.e" in any case
    if _SECTION_NUMBER.match(word) and (len(word) <= 3 or "." in word):  # "4.2. Results", not a year: "1884. The"
        if not text[sentence_start:word_start].strip():
            return True
        return not text[line_start(text, word_start) : word_start].strip()
    return False


@lru_cache(maxsize=16)
def _capitalised(text: str) -> bool:
    """Whether ``text`` starts its sentences with a capital letter.

    True when at least as many of its periods (and its start) come before a capital letter
    as before a lower-case one.

    In such a text a period before a lower-case word ends an abbreviation (``univ.``), not a
    sentence; in a lower-cased one (``... in 2003. this liability was ...``) it may end either.
    """
    first = _FIRST_LETTER.search(text)
    upper = int(first is not None and first.group().isupper())  # the text's first letter starts a sentence
    lower = 0
    for match in _PERIOD_LETTER.finditer(text):
        if match.group(1).isupper():
            upper += 1
        elif match.group(1).islower():
            lower += 1
    return upper >= lower


def _lower_word(text: str, start: int) -> bool:
    """Whether the word at ``text[start]`` (up to whitespace) is letters without a capital: ``library``, not ``mRNA``.

    Not an abbreviation of :data:`_ABBREVIATIONS` either (``workshops. pp. 45``: a reference starts there).
    """
    word = _NON_SPACE_RUN.match(text, start)
    if word is None or not word.group().islower() or not _LETTERS.fullmatch(word.group().rstrip(".,;:!?)'\"’”")):
        return False  # a URL, a path, "e-mail@x": no word
    return word.group().rstrip(".,;:") not in _ABBREVIATIONS or not word.group().endswith(".")


def _word_before(text: str, start: int) -> str:
    """The word that ends before ``text[start]`` (after whitespace), "" at the text's start."""
    head = text[max(0, start - 40) : start].rstrip()
    return head.rsplit(None, 1)[-1] if head.strip() else ""


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
    * at a blank line (two or more line breaks, ``"\n"``, ``"\r\n"`` or ``"\r"``; a
      ``"\r\n"`` is never cut);
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
            if len(breaks) <= 1 and _is_abbreviation(text, match.start(), start, match.end()):
                if not breaks or wraps.is_wrap(*breaks[0].span()):  # "Dr.\nSmith": a wrap after an abbreviation
                    continue
        if match.end() > start:
            spans.append((start, match.end()))
            start = match.end()
    if start < len(text):
        spans.append((start, len(text)))
    return spans


class _Paragraph(NamedTuple):
    """What :class:`LineWraps` reads from a paragraph (a run of non-blank lines) once."""

    start: int
    end: int
    width: int  # its widest line, stripped
    verse: bool  # three or more lines, each begins with a capital, and not wrapped at a width
    turns: bool  # a chat log (its first line, or most of its lines, start a turn): a line that starts one is a new turn
    listed: bool  # its first line is a list item: a numbered line is a new item, whatever its number


class LineWraps:
    r"""Tells a hard wrap (a line break inside a sentence) from a line that is meant to end.

    The rule is :func:`sentence_spans`'s; each paragraph is read once. ``odd`` says
    whether the text holds line breaks other than ``"\n"`` (computed when None); without
    them lines are found by ``str.find``.
    """

    def __init__(self, text: str, odd: bool | None = None):
        self.text = text
        self.last: _Paragraph | None = None
        self.odd = other_breaks(text) if odd is None else odd
        self.line_start = any_line_start if self.odd else line_start
        self.line_end = any_line_end if self.odd else _line_end

    def is_wrap(self, a: int, b: int) -> bool:
        """Whether the run of line breaks ``text[a:b]`` is a wrap inside a sentence.

        Read in place (offsets into the text, no copy of the lines around the break).
        """
        text = self.text
        if b - a > 1 and (b - a > 2 or text[a:b] != "\r\n"):  # two or more breaks: a blank line
            return False
        if b >= len(text) or (self.odd and text[a] == PARAGRAPH_SEPARATOR):
            return False
        first = self.line_start(text, a)
        line_len = _rstripped_end(text, first, a) - first  # len(line.rstrip())
        end = self.line_end(text, b)  # the line after the break: text[b:end]
        start = _NON_SPACE.search(text, b, end)
        if start is None or not line_len:  # either line is blank
            return False
        pos = b  # where the line after reads on: past a quote's markers
        quote = _QUOTE.match(text, b, end)
        if quote is not None:  # a quote's lines continue it: read what follows the same markers
            if not text.startswith(text[b : quote.end()].rstrip(), first, a):
                return False
            pos = quote.end()
        block = _BLOCK_START.match(text, pos, end)
        if block is not None and (block.group(1) is None or block.group(1) == "1"):
            return False  # (a numbered item other than 1 interrupts no paragraph: "came in\n1884. The")
        word = _FIRST_WORD.match(text, pos, end)
        assert word is not None
        word_len = word.end(1) - word.start(1)
        rest = _NON_SPACE.search(text, pos, end)  # len(after.strip()), after the quote's markers
        after_len = 0 if rest is None else _rstripped_end(text, rest.start(), end) - rest.start()
        if not _fits(line_len, word_len, after_len):  # short even next to the line after it
            return False
        para = self.paragraph(first)
        if block is not None and para.listed:
            return False
        if para.turns and _TURN.match(text, pos, end):
            return False
        if para.verse or not _MIN_WRAP_WIDTH <= para.width <= _MAX_WRAP_WIDTH:
            return False
        return _fits(line_len, word_len, para.width)

    def end_before(self, lo: int, hi: int, keep: list[tuple[int, int]]) -> int:
        r"""The last ``"\n"`` in ``text[lo + 1:hi + 1]`` that ends a line (as :func:`line_ends`); -1 when none."""
        text = self.text
        at = text.rfind("\n", lo + 1, hi + 1)
        while at != -1 and not ((keep and in_blocks(keep, at)) or not self.is_wrap(at, at + 1)):
            at = text.rfind("\n", lo + 1, at)
        return at

    def end_after(self, lo: int, hi: int, keep: list[tuple[int, int]]) -> int:
        r"""The first ``"\n"`` in ``text[lo + 1:hi]`` that ends a line (as :func:`line_ends`); ``hi`` when none."""
        text = self.text
        at = text.find("\n", lo + 1, hi)
        while at != -1 and not ((keep and in_blocks(keep, at)) or not self.is_wrap(at, at + 1)):
            at = text.find("\n", at + 1, hi)
        return hi if at == -1 else at

    def paragraph(self, first: int) -> _Paragraph:
        """The paragraph around the line that starts at ``first``.

        Breaks come in text order, so the paragraph of the last call is kept: each
        paragraph is read once, from the line of its first single break to its end.
        """
        last = self.last
        if last is not None and last.start <= first < last.end:
            return last
        text, start = self.text, first
        while start > 0 and text[start - 1] != PARAGRAPH_SEPARATOR:  # back to the paragraph's first line
            prev = self.line_start(text, start - 1)  # (in order, only before its first break)
            if start - 1 > 0 and text[start - 2 : start] == "\r\n":
                prev = self.line_start(text, start - 2)
            if not text[prev:start].strip():
                break
            start = prev
        blank = (_ANY_BLANK_LINE if self.odd else _BLANK_LINE).search(text, start)  # it ends at a blank line
        end = blank.start() if blank is not None else len(text)
        body = text[start:end]
        lines = [line.strip() for line in (BREAKS.split(body) if self.odd else body.split("\n"))]
        # a line that is one unbreakable word (a long URL) was never wrapped: it sets no width
        width = max((len(line) for line in lines if " " in line), default=0) or max(len(line) for line in lines)
        verse = len(lines) >= 3 and all(line[0].isupper() for line in lines) and _not_wrapped(lines, width)
        self.last = _Paragraph(start, end + 1, width, verse, _chat_log(lines), bool(_BLOCK_START.match(lines[0])))
        return self.last


def _chat_log(lines: list[str]) -> bool:
    """Whether a paragraph's ``lines`` (stripped) are a chat log: its first line starts a turn, or most of them do.

    A title line before the turns (``Support chat, ticket 4471``) leaves most lines turns;
    a wrapped paragraph with one line that begins like a turn (``reasons: the cost``) has
    one such line among several.
    """
    if _TURN.match(lines[0]):
        return True
    return len(lines) > 2 and 2 * sum(1 for line in lines[1:] if _TURN.match(line)) > len(lines)


def _full(line: str, after: str, width: int) -> bool:
    """Whether ``line`` is full: the first word of the line ``after`` it would not have fitted on it.

    See :func:`_fits`.
    """
    word = _FIRST_WORD.match(after)
    assert word is not None
    return _fits(len(line.rstrip()), len(word.group(1)), width)


def _fits(line_len: int, word_len: int, width: int) -> bool:
    """Whether a line of ``line_len`` characters (stripped on the right) is full.

    That is, a next word of ``word_len`` characters would not have fitted on it within
    ``width // _SLACK`` characters of the paragraph's widest line (``width``): a program
    that wraps at a width leaves no such room, but the characters per line of a
    proportional font vary with the letters.
    """
    return line_len + 1 + word_len > width - width // _SLACK


def _line_end(text: str, pos: int) -> int:
    r"""The end of the line from ``pos`` on: the next ``"\r"`` or ``"\n"``, or the text's end."""
    end = text.find("\n", pos)
    if end == -1:
        end = len(text)
    cr = text.find("\r", pos, end)
    return end if cr == -1 else cr


def _rstripped_end(text: str, lo: int, hi: int) -> int:
    """``lo + len(text[lo:hi].rstrip())``: where ``text[lo:hi]`` ends without its trailing whitespace."""
    while hi > lo and text[hi - 1].isspace():
        hi -= 1
    return hi


def _not_wrapped(lines: list[str], width: int) -> bool:
    """Whether capitalized lines read as verse: a line is not full, or most lines end with punctuation.

    Prose whose lines all begin with a capital (German nouns) and are wrapped at a width
    has full lines that seldom end with punctuation.
    """
    if any(not _full(a, b, width) for a, b in pairwise(lines)):
        return True
    return 2 * sum(bool(_LINE_END_MARK.search(line)) for line in lines[:-1]) >= len(lines) - 1


def line_ends(text: str, lo: int, hi: int, wraps: LineWraps | None = None,
              keep: list[tuple[int, int]] | None = None) -> list[tuple[int, int]]:  # fmt: skip
    r"""``(start, end)`` of each line break in ``text[lo:hi]`` that ends a line, not a hard wrap.

    A line break is ``"\n"``, ``"\r\n"``, ``"\r"`` or another of
    :data:`~docchunk.chunkers.text.line_breaks.LINE_BREAKS`; each break of a blank line
    (and U+2029) ends one; a single break ends one by :func:`sentence_spans`'s rule (a new block, a chat
    turn, a short line, narrow lines, verse), else it is a wrap inside running text.
    The line level of :class:`docchunk.RecursiveChunker`.

    Args:
        text: The text.
        lo: Start of the span, a character offset.
        hi: End of the span.
        wraps: A :class:`LineWraps` of ``text`` to reuse (it keeps the last paragraph read).
        keep: Sorted ``(start, end)`` spans whose breaks all end lines (fenced code).
    """
    a = text.find("\n", lo, hi)
    odd = wraps.odd if wraps is not None else other_breaks(text, lo, hi)
    if a == -1 and not odd:
        return []
    wraps = wraps or LineWraps(text, odd or None)
    out = []
    if odd:
        breaks = [m.span() for m in BREAKS.finditer(text, lo, hi)]
    else:  # "\n" only: found by str.find, faster than a regex in long text
        breaks = []
        while a != -1:
            breaks.append((a, a + 1))
            a = text.find("\n", a + 1, hi)
    for a, b in breaks:
        if (keep and in_blocks(keep, a)) or not wraps.is_wrap(a, b):
            out.append((a, b))
    return out


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
    return not _is_abbreviation(text, match.start(), sentence_start, match.end())


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
