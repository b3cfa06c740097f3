"""Sentence boundaries of plain text: the rules every sentence-aware text chunker shares.

:func:`sentence_spans` is used by :class:`docchunk.SentenceChunker`, the semantic
chunkers and the sentence level of :class:`docchunk.RecursiveChunker`.
"""

from __future__ import annotations

import re

__all__ = ["sentence_spans"]

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
_BREAKS = re.compile(r"\r\n|\r|\n")
# the start of a line that opens a new block: list item, heading, quote, table row, fence, chat turn
_BLOCK_START = re.compile(
    r"[ \t]*(?:[-+*•‣◦][ \t]|\d{1,9}[.)][ \t]|#{1,6}(?:[ \t]|$)|>|\||```|~~~"
    r"|[\w.@-]{1,30}:[ \t]|[A-Z][\w.'-]*(?: [A-Z][\w.'-]*){1,2}:[ \t]|<[^>\s]{1,30}>|\[?\d{1,2}:\d{2})"
)
_MIN_WRAP_WIDTH = 40  # characters: a paragraph whose lines are all shorter was not wrapped by a program
_LINE_OF = re.compile(r"[^\r\n]*")
_FIRST_WORD = re.compile(r"[ \t]*(\S*)")
# the word before a period: letters, digits and inner periods ("e.g", "U.S", "5.3")
_WORD_BEFORE = re.compile(r"([^\W_]|[.'’-])*[^\W_]\Z")

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


def _is_abbreviation(text: str, stop: int, sentence_start: int = 0, after: int | None = None) -> bool:
    """Whether the period at ``text[stop]`` ends an abbreviation rather than a sentence.

    Titles, abbreviations, initials, dotted abbreviations, and section numbers
    (``"5.3."``) that begin their sentence (the sentence starts at ``sentence_start``)
    or their line. ``etc.`` followed by a capital letter (at ``after``) ends a sentence.
    """
    match = _WORD_BEFORE.search(text, max(0, stop - 40), stop)
    if match is None:
        return False
    word = match.group()
    if word.lower() in _ENDING_ABBREVIATIONS:
        return not (after is not None and after < len(text) and text[after].isupper())
    if word in _TITLES or word.lower() in _ABBREVIATIONS:
        return True
    if len(word) == 1 and word.isupper():  # an initial: "J. R. R. Tolkien"
        return True
    if "." in word and all(len(part) <= 2 and part.isalpha() for part in word.split(".")):
        return True  # "U.S", "e.g", "z.B", "i.e" in any case
    if _SECTION_NUMBER.match(word):  # a section number at the start of its sentence or line: "4.2. Results"
        if not text[sentence_start : match.start()].strip():
            return True
        line_start = max(text.rfind("\n", 0, match.start()), text.rfind("\r", 0, match.start())) + 1
        return not text[line_start : match.start()].strip()
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
    for match in _CANDIDATE.finditer(text):
        if match.group("nl") is not None and wraps.is_wrap(match.start(), match.end()):
            continue
        end_mark = match.group("end")
        ws = match.group("ws")
        if end_mark == "." and "\n" not in ws and "\r" not in ws and _is_abbreviation(
            text, match.start(), start, match.end()
        ):
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
        self.paragraphs: dict[int, tuple[int, bool]] = {}  # paragraph start -> (longest line, verse)

    def is_wrap(self, a: int, b: int) -> bool:
        """Whether the run of line breaks ``text[a:b]`` is a wrap inside a sentence."""
        text = self.text
        if b - a > 1 and (b - a > 2 or text[a:b] != "\r\n"):  # two or more breaks: a blank line
            return False
        nxt = _LINE_OF.match(text, b)
        assert nxt is not None
        if not nxt.group().strip() or b >= len(text) or _BLOCK_START.match(nxt.group()):
            return False
        line_start = max(text.rfind("\n", 0, a), text.rfind("\r", 0, a)) + 1
        if not text[line_start:a].strip():
            return False
        width, verse = self.paragraph(line_start)
        if verse or width < _MIN_WRAP_WIDTH:
            return False
        word = _FIRST_WORD.match(nxt.group())
        assert word is not None
        return len(text[line_start:a].rstrip()) + 1 + len(word.group(1)) > width

    def paragraph(self, line_start: int) -> tuple[int, bool]:
        """The longest line of the paragraph around ``line_start`` and whether it reads as verse."""
        text = self.text
        start = line_start
        while start > 0:  # back to the paragraph's first line
            prev = max(text.rfind("\n", 0, start - 1), text.rfind("\r", 0, start - 1)) + 1
            if start - 1 > 0 and text[start - 2 : start] == "\r\n":
                prev = max(text.rfind("\n", 0, start - 2), text.rfind("\r", 0, start - 2)) + 1
            if not text[prev:start].strip():
                break
            start = prev
        known = self.paragraphs.get(start)
        if known is not None:
            return known
        lines = []
        for m in _LINE_OF.finditer(text, start):
            if m.start() > start and text[m.start() - 1] not in "\r\n":
                continue  # the empty match right after a line
            if m.start() > start and text[m.start() - 1] == "\r" and text[m.start()] == "\n":
                continue  # between "\r" and "\n"
            if not m.group().strip():
                break
            lines.append(m.group().strip())
            if m.end() >= len(text):
                break
        width = max(len(line) for line in lines)
        verse = len(lines) >= 3 and all(line[0].isupper() for line in lines)
        self.paragraphs[start] = (width, verse)
        return width, verse
