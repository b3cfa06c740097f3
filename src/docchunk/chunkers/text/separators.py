"""Separator presets for :class:`docchunk.RecursiveChunker`, coarsest first.

Each preset is a list of literal strings (never regexes), plus two named rules that no
literal string can express: :data:`LINE` (line breaks that are not hard wraps),
:data:`SENTENCE` (sentence ends), :data:`SETEXT_HEADING`
(Markdown headings underlined with ``===`` or ``---``), :data:`FENCED_CODE` (the edges of
Markdown fenced code blocks) and :data:`THEMATIC_BREAK` (Markdown ``***``, ``---``, ``___``).
The prose presets (the default,
``markdown``, ``html``, ``latex``) end with the paragraph, line, sentence, word (space, then
tab), character tail :data:`DEFAULT_SEPARATORS`; the code presets end with LangChain's tail
:data:`LANGCHAIN_SEPARATORS` (no sentence level) and start from LangChain's
``RecursiveCharacterTextSplitter.get_separators_for_language`` and chunk-clj: only ``go``'s
list equals LangChain's, the others add definitions (``python``'s methods and ``async def``,
``javascript``'s ``export`` ...) or leave out statements (docs/recursive.md, "Presets", lists
each). The ``langchain`` preset is LangChain's default list itself, which
:class:`docchunk.RecursiveChunker` runs with LangChain's algorithm
(:mod:`~docchunk.chunkers.text.recursive_langchain`).
"""

from __future__ import annotations

from docchunk.errors import ConfigError

__all__ = [
    "DEFAULT_SEPARATORS", "FENCED_CODE", "LANGCHAIN_SEPARATORS", "LANGUAGES", "LINE", "RULES", "SENTENCE",
    "SETEXT_HEADING", "SPACES", "THEMATIC_BREAK", "describe_separators", "separators_for",
]  # fmt: skip

SENTENCE = "\x00sentence"
"""The sentence level: cuts after each sentence end of
:func:`~docchunk.markup.sentences.sentence_spans` (``.``, ``!``, ``?``, ``…`` before
whitespace, not after ``Dr.`` or ``e.g.``; CJK full stops); the whitespace between two
sentences starts the next piece (``keep_separator="start"``) or ends the one before. A
named rule, not a literal string (``"\x00"`` never occurs in text)."""
SETEXT_HEADING = "\x00setext"
"""The Setext heading level of the ``markdown`` preset: cuts at the line break before each
paragraph underlined with ``===`` or ``---`` (:func:`docchunk.markup.setext.setext_headings`)."""
FENCED_CODE = "\x00fence"
"""The fenced code level of the ``markdown`` preset: cuts at the start of each fenced code
block's opening fence line (````` ``` ````` or ``~~~``, also indented in a list item;
CommonMark pairing, :func:`docchunk.markup.fences.fenced_blocks`) and at the end of its
closing fence line, so that a block is one piece: a block that fits stays whole, and only a block that
does not fit is cut, between its own lines (no Markdown separator of the preset cuts inside
it). It replaces LangChain's literal ``"```\n"``, which cuts at every fence line and inside
a longer fence (````` ```` `````)."""
THEMATIC_BREAK = "\x00break"
"""The thematic break level of the ``markdown`` preset: cuts at the line breaks (blank lines
included) before each line of three or more ``*``, ``-`` or ``_`` (also spaced, ``* * *``;
:func:`docchunk.markup.breaks.thematic_breaks`), so that the break opens the next piece, as
LangChain's regexes (``\\*\\*\\*+``, ``---+``, ``___+`` between line breaks) cut. A ``---`` under a
paragraph is a Setext heading's underline, not a break."""
LINE = "\x00line"
"""The line level: cuts at each line break that ends a line, not at a hard wrap inside a
sentence (:func:`~docchunk.markup.sentences.line_ends`, the rule of
:func:`~docchunk.markup.sentences.sentence_spans`: a new block, a chat turn, a
short line, narrow lines or verse end a line); a wrapped paragraph is cut at its
sentence ends by the next level. Inside fenced code every line break cuts."""
RULES = (SENTENCE, SETEXT_HEADING, FENCED_CODE, THEMATIC_BREAK, LINE)
"""The named rules a separator list may hold besides literal strings."""

LANGCHAIN_SEPARATORS = ["\n\n", "\n", " ", ""]
"""LangChain's default separators: paragraph, line, word, character (the ``langchain`` preset)."""
SPACES = ["\u2009", "\u2002", "\u2003", "\u2004", "\u2005", "\u2006", "\u2007", "\u2008", "\u200a", "\u2000",
          "\u2001", "\u205f", "\u1680"]  # fmt: skip
"""The spaces of Unicode (category Zs) other than the space, the ideographic space and the no-break
spaces: the thin space (French and SI number grouping) first, then the other fixed-width spaces."""
DEFAULT_SEPARATORS = ["\n\n", LINE, SENTENCE, " ", "\t", "\u3000", "\xa0", "\u202f", *SPACES, ""]
"""The default: paragraph, line (not at a hard wrap), sentence, word (a space, then a tab, an
ideographic space, a no-break space, a narrow no-break space and the other spaces of
:data:`SPACES`: text whose words are separated so is cut between them, not inside one, as
semchunk does), character. Every line break (``"\r\n"``, ``"\r"``, U+2028, a form feed ...)
is a ``"\n"`` to it, and U+2029 (PARAGRAPH SEPARATOR) a ``"\n\n"``."""

_HEADINGS = ["\n# ", "\n## ", "\n### ", "\n#### ", "\n##### ", "\n###### "]
_PROSE = ("markdown", "html", "latex")  # presets that end with the sentence level

_PRESETS: dict[str, list[str]] = {
    "langchain": [],
    "markdown": [*_HEADINGS[:2], SETEXT_HEADING, *_HEADINGS[2:], FENCED_CODE, THEMATIC_BREAK],
    "python": ["\nclass ", "\ndef ", "\nasync def ", "\n    def ", "\n    async def ", "\n\tdef "],
    "clojure": [
        "\n(ns ", "\n(defn ", "\n(defn- ", "\n(defmacro ", "\n(defprotocol ", "\n(defrecord ", "\n(def ", "\n(deftest ",
    ],
    "javascript": [
        "\nexport ", "\nfunction ", "\nconst ", "\nlet ", "\nvar ", "\nclass ",
        "\nif ", "\nfor ", "\nwhile ", "\nswitch ", "\ncase ", "\ndefault ",
    ],
    "typescript": [
        "\nenum ", "\ninterface ", "\nnamespace ", "\ntype ", "\nexport ", "\nclass ", "\nfunction ",
        "\nconst ", "\nlet ", "\nvar ", "\nif ", "\nfor ", "\nwhile ", "\nswitch ", "\ncase ", "\ndefault ",
    ],
    "java": [
        "\nclass ", "\ninterface ", "\nenum ", "\npublic ", "\nprotected ", "\nprivate ", "\nstatic ",
        "\nif ", "\nfor ", "\nwhile ", "\nswitch ", "\ncase ",
    ],
    "go": ["\nfunc ", "\nvar ", "\nconst ", "\ntype ", "\nif ", "\nfor ", "\nswitch ", "\ncase "],
    "rust": [
        "\nfn ", "\npub fn ", "\nimpl ", "\nstruct ", "\nenum ", "\nconst ", "\nlet ", "\nif ", "\nwhile ", "\nfor ",
        "\nloop ", "\nmatch ",
    ],
    "c": ["\nstruct ", "\nenum ", "\nunion ", "\nstatic ", "\nint ", "\nvoid ", "\nif ", "\nfor ", "\nwhile ",
          "\nswitch ", "\ncase "],
    "cpp": ["\nnamespace ", "\nclass ", "\nstruct ", "\ntemplate", "\nvoid ", "\nint ", "\nif ", "\nfor ",
            "\nwhile ", "\nswitch ", "\ncase "],
    "csharp": ["\nnamespace ", "\ninterface ", "\nenum ", "\nclass ", "\npublic ", "\nprivate ",
               "\nprotected ", "\ninternal ", "\nstatic ", "\nif ", "\nforeach ", "\nfor ", "\nwhile ",
               "\nswitch ", "\ncase "],
    "kotlin": ["\nclass ", "\ninterface ", "\nobject ", "\nfun ", "\nval ", "\nvar ", "\nif ", "\nfor ",
               "\nwhile ", "\nwhen "],
    "php": ["\nnamespace ", "\nclass ", "\ninterface ", "\ntrait ", "\nfunction ", "\nif ", "\nforeach ",
            "\nwhile ", "\nswitch ", "\ncase "],
    "ruby": ["\nmodule ", "\nclass ", "\ndef ", "\nif ", "\nunless ", "\nwhile ", "\nfor ", "\ncase ",
             "\nbegin "],
    "scala": ["\nobject ", "\nclass ", "\ntrait ", "\ndef ", "\nval ", "\nvar ", "\nif ", "\nfor ",
              "\nwhile ", "\nmatch ", "\ncase "],
    "swift": ["\nprotocol ", "\nextension ", "\nstruct ", "\nenum ", "\nclass ", "\nfunc ", "\nvar ",
              "\nlet ", "\nif ", "\nfor ", "\nwhile ", "\nswitch ", "\ncase "],
    "html": [
        "<body", "<div", "<p", "<br", "<li", "<h1", "<h2", "<h3", "<h4", "<h5", "<h6", "<span", "<table",
        "<tr", "<td", "<th", "<ul", "<ol", "<header", "<footer", "<nav", "<head", "<style", "<script",
        "<meta", "<title",
    ],
    "latex": [
        "\n\\chapter{", "\n\\section{", "\n\\subsection{", "\n\\subsubsection{", "\n\\begin{enumerate}",
        "\n\\begin{itemize}", "\n\\begin{description}", "\n\\begin{list}", "\n\\begin{quote}",
        "\n\\begin{quotation}", "\n\\begin{verse}", "\n\\begin{verbatim}", "\n\\begin{align}", "$$", "$",
    ],
}  # fmt: skip

LANGUAGES = tuple(sorted(_PRESETS))
"""The names ``separators_for`` and ``RecursiveChunker(language=...)`` accept."""


def separators_for(language: str) -> list[str]:
    r"""The separator preset of ``language``, coarsest first, ending with the prose or the code tail.

    Args:
        language: One of :data:`LANGUAGES` (case-insensitive).

    Returns:
        A new list of literal separators.

    Raises:
        ConfigError: Unknown language; the message lists the known ones.

    Example:
        >>> separators_for("python")[:2]
        ['\nclass ', '\ndef ']
    """
    key = language.lower() if isinstance(language, str) else language
    if key not in _PRESETS:
        raise ConfigError(f"unknown language {language!r}; known languages: {', '.join(LANGUAGES)}")
    return [*_PRESETS[key], *(DEFAULT_SEPARATORS if key in _PROSE else LANGCHAIN_SEPARATORS)]


_RULE_NAMES = {SENTENCE: "SENTENCE", SETEXT_HEADING: "SETEXT_HEADING", FENCED_CODE: "FENCED_CODE",
               THEMATIC_BREAK: "THEMATIC_BREAK", LINE: "LINE"}  # fmt: skip


def describe_separators(separators: list[str]) -> str:
    r"""A separator list as a user reads it: literal strings quoted, named rules by name.

    Example:
        >>> describe_separators(["\n\n", LINE, " ", ""])
        "['\\n\\n', LINE, ' ', '']"
    """
    return "[" + ", ".join(_RULE_NAMES.get(s, repr(s)) for s in separators) + "]"
