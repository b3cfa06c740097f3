"""Periods that end an abbreviation rather than a sentence: the word lists and the rules of :func:`is_abbreviation`.

Used by :func:`~docchunk.markup.sentences.sentence_spans` and the sentence cuts
of :class:`docchunk.RecursiveChunker`.
"""

from __future__ import annotations

import re

from docchunk.markup.line_breaks import line_start

__all__ = ["is_abbreviation"]

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
# reference words, also in lower case before a number ("fig. 3", "vol. 2", "no. 7", "p. 14", "para. 3"):
# pages, paragraphs, clauses, notes, lines, columns, parts, schedules, regulations, sections ("s. 12", "ss. 4-6")
_REFERENCES = frozenset(
    "No Nos Nr Fig Figs Tab Tbl Eq Eqs Sec Secs Sect Ch Chap Vol Vols Art Arts Abs Ref Refs Ed Eds Ex Ext Tel Apt Rm "
    "P Pg Pgs Para Paras Cl Cls N Nn Fn Fns L Ll Col Cols Pt Pts Sch Reg Regs App S Ss".split()
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
# what may stand before a section number on its line: nothing, a Markdown ATX heading mark ("## 2. Warranty")
# or a MediaWiki one ("== 3. Scope ==", whose line ends with "=" marks too: _MEDIAWIKI_END)
_NUMBER_LEAD = re.compile(r"(?:[ \t]*|[ ]{0,3}#{1,6}[ \t]+|(=+)[ \t]*)\Z")
_MEDIAWIKI_END = re.compile(r"[^\r\n]*=[ \t]*(?:\r\n|\r|\n|\Z)")


def is_abbreviation(text: str, stop: int, sentence_start: int = 0, after: int | None = None) -> bool:
    """Whether the period at ``text[stop]`` ends an abbreviation rather than a sentence.

    Any period followed (at ``after``) by a lower-case letter, of any script (``the
    univ. library``, ``ч. вечера``), in a text that capitalises its sentences
    (:func:`_capitalised`); titles, abbreviations, initials, dotted
    abbreviations, spaced ones (``z. B.``), a day before a German month (``am 12. März``), and section numbers
    (``"5.3."``) that begin their sentence (the sentence starts at ``sentence_start``)
    or their line, alone or after a Markdown or MediaWiki heading mark (``## 2. Warranty``,
    ``== 3. Scope ==``). ``etc.`` followed by a capital letter ends a sentence.
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
    if following.islower() and _lower_word(text, after or 0) and _capitalised(text, stop):
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
        return _numbers_its_line(text, word_start)
    return False


def _numbers_its_line(text: str, word_start: int) -> bool:
    """Whether the section number at ``text[word_start]`` opens its line, alone or after a heading mark.

    ``5.3. Scope``, ``## 2. Warranty`` and ``== 3. Scope ==`` (a MediaWiki heading: its line
    ends with ``=`` marks too) number their line; ``in 2003. The`` does not.
    """
    lead = _NUMBER_LEAD.match(text, line_start(text, word_start), word_start)
    if lead is None:
        return False
    return lead.group(1) is None or _MEDIAWIKI_END.match(text, word_start) is not None


CAPITALS_BLOCK = 4096
"""Characters of a block: :func:`_capitalised` judges a period by its block and the blocks either side."""

_COUNTS: tuple[str | None, dict[int, tuple[int, int]]] = (None, {})
"""The last text :func:`_capitalised` read (the object itself) and its counts per block."""


def _capitalised(text: str, pos: int) -> bool:
    """Whether ``text`` starts its sentences with a capital letter around ``pos``.

    True when at least as many of the periods of the block of ``pos`` and the blocks either
    side (:data:`CAPITALS_BLOCK` characters each; the text's start counts as one) come
    before a capital letter as before a lower-case one.

    In such a text a period before a lower-case word ends an abbreviation (``univ.``), not a
    sentence; in a lower-cased one (``... in 2003. this liability was ...``) it may end either.
    Judged near ``pos``, not over the whole text: a lower-cased document among capitalised
    ones (a mixed text of 10 MB) read as capitalised lost its sentence ends, every period
    before a lower-case word taken for an abbreviation (and the chunker read back over them
    all: character mode 0.63x chonkie at 10 MB, 5 December). A text of two blocks or less is
    judged whole. Each block is counted once, for the text object it was read from (an
    ``lru_cache`` keyed by the text hashed every new text object, a few ms a MB).
    """
    global _COUNTS
    last = _COUNTS
    if last[0] is not text:
        last = _COUNTS = (text, {})
    counts = last[1]
    block = pos // CAPITALS_BLOCK
    upper = lower = 0
    for b in range(max(0, block - 1), block + 2):
        if b not in counts:
            counts[b] = _count_block(text, b)
        upper, lower = upper + counts[b][0], lower + counts[b][1]
    return upper >= lower


def _count_block(text: str, block: int) -> tuple[int, int]:
    """``(upper, lower)``: the periods marked in the block before a capital, and before a lower-case letter."""
    lo = block * CAPITALS_BLOCK
    upper = lower = 0
    if lo == 0:  # the text's first letter starts a sentence
        first = _FIRST_LETTER.search(text)
        upper = int(first is not None and first.group().isupper())
    for match in _PERIOD_LETTER.finditer(text, lo):
        if match.start() >= lo + CAPITALS_BLOCK:
            break
        if match.group(1).isupper():
            upper += 1
        elif match.group(1).islower():
            lower += 1
    return upper, lower


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
