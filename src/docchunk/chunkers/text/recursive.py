"""Recursive splitting by separator levels, greedy packing, overlap; exact offsets.

The chunker runs in phases, each in a module of its own:

1. :func:`~docchunk.chunkers.text.recursive_split.split` cuts the text at the coarsest
   separator present (which level cuts a span, and its size measured from that cut:
   :mod:`~docchunk.chunkers.text.recursive_cuts`; one level's cut:
   :mod:`~docchunk.chunkers.text.recursive_levels`), groups consecutive pieces greedily
   while they fit and splits a piece that does not fit at the next separator level;
2. :func:`~docchunk.chunkers.text.recursive_pack.pack` packs the groups greedily into
   chunks, each within ``chunk_size``, and picks the groups repeated at the start of
   the next chunk (overlap, phase 3).

Every size comes from one :class:`~docchunk.chunkers.text.pieces.PieceSizer` per call: pieces
are counted once each in native batches, and groups are sized by arithmetic at clean
joins with local corrections elsewhere.
"""

from __future__ import annotations

from typing import Literal

from docchunk.chunkers.text.base import TextChunker, absorb_whitespace_chunks, check_size
from docchunk.chunkers.text.fence_cuts import keep_fences_closed
from docchunk.chunkers.text.fence_edges import no_fence_first
from docchunk.chunkers.text.recursive_langchain import langchain_spans
from docchunk.chunkers.text.recursive_pack import pack
from docchunk.chunkers.text.recursive_split import Call, split
from docchunk.chunkers.text.separators import (
    DEFAULT_SEPARATORS,
    FENCED_CODE,
    SETEXT_HEADING,
    describe_separators,
    separators_for,
)
from docchunk.errors import ConfigError, ConfigTypeError
from docchunk.tokenizers import Sizer, TokenizerSpec
from docchunk.types import Chunk
from docchunk.types.chunk import make_chunks

__all__ = ["RecursiveChunker"]


class RecursiveChunker(TextChunker):
    r"""Splits text at the coarsest separators that make pieces fit, then packs pieces.

    Follows the recursive character splitter design (LangChain's
    ``RecursiveCharacterTextSplitter``, chunk-clj): try separators from coarsest to
    finest until each piece fits ``chunk_size``, then pack consecutive pieces
    greedily up to the limit, repeating ``chunk_overlap`` of trailing context.

    Args:
        chunk_size: Maximum size of a chunk, in tokens of ``tokenizer`` (characters
            by default); >= 1.
        chunk_overlap: Trailing context of each chunk repeated at the start of the
            next, in the same units, taken at piece boundaries; 0 <= overlap < chunk_size.
        separators: Literal separator strings and named rules, coarsest first; default
            :data:`~docchunk.chunkers.text.separators.DEFAULT_SEPARATORS`: paragraphs,
            line breaks that are not hard wraps (``LINE``), sentence ends (``SENTENCE``),
            spaces, tabs, characters (``""`` splits into characters).
        keep_separator: ``"start"`` attaches a separator to the piece after it (so
            Markdown ``##`` and ``def`` stay with their content), ``"end"`` to the
            piece before it, ``False`` drops separators that fall on a chunk boundary.
        language: A preset from :func:`docchunk.separators_for` (``markdown``,
            ``python``, ``clojure``, ``javascript``, ``typescript``, ``java``, ``go``,
            ``rust``, ``html``, ``latex``, ``c``, ``cpp``, ``csharp``, ``kotlin``,
            ``php``, ``ruby``, ``scala``, ``swift``); not together with ``separators``.
            ``"langchain"`` gives LangChain's exact chunks: its separators
            ``["\n\n", "\n", " ", ""]`` and its algorithm
            (:mod:`~docchunk.chunkers.text.recursive_langchain`): each chunk is stripped of
            the whitespace at its edges, and that whitespace between chunks is left out;
            ``chunk_overlap`` and ``keep_separator`` (``"start"`` is LangChain's ``True``)
            are LangChain's parameters of the same names.
        tokenizer: Any spec :func:`docchunk.get_tokenizer` accepts, or a callable
            ``str -> int``.

    Invariants of ``chunk(text)``: ``text[c.start_index:c.end_index] == c.text`` for
    every chunk; ``c.token_count`` is the exact size of ``c.text``; no chunk exceeds
    ``chunk_size`` except a piece with no finer separator left, which is emitted
    whole with ``oversized=True``; a line break is ``"\n"``, ``"\r\n"`` or ``"\r"``:
    every separator with a line break matches all three (``"\n\n"`` finds the
    paragraphs of Windows text) and no chunk ends between ``"\r"`` and ``"\n"``
    (``""`` keeps a ``"\r\n"`` whole); chunks are in order and, apart from overlap and
    (with ``keep_separator=False``) separators at chunk boundaries, cover the whole
    text; no chunk is only whitespace unless the input is: whitespace joins a
    neighbour, over ``chunk_size`` if need be (then flagged ``oversized``). With
    ``language="langchain"`` the offsets and counts are as exact, but the whitespace
    at chunk edges is left out and no chunk is only whitespace (whitespace-only input
    gives none); a chunk whose LangChain sizes, summed piece by piece, let it pass
    ``chunk_size`` is flagged ``oversized``.
    Text that fits comes back whole as one chunk; ``""`` gives no chunk. With
    ``keep_separator=False``, text that does not fit and consists only of separators
    (e.g. 200 spaces at ``chunk_size=1``) gives no chunk: every piece is a dropped
    separator.

    Raises:
        ConfigError: Invalid sizes, ``chunk_overlap >= chunk_size``, both
            ``language`` and ``separators``, an unknown language, an empty separator list.
        ConfigTypeError: A size that is not an int, ``separators`` that is not a list
            of str, an unknown keyword argument (a ``ConfigError`` and a ``TypeError``).

    Example:
        >>> [c.text for c in RecursiveChunker(chunk_size=12)("Hello world.\n\nBye now.")]
        ['Hello world.', '\n\nBye now.']
    """

    def __init__(
        self,
        chunk_size: int = 1000,
        chunk_overlap: int = 0,
        separators: list[str] | None = None,
        keep_separator: Literal["start", "end", False] = "start",
        language: str | None = None,
        tokenizer: TokenizerSpec = "character",
    ):
        super().__init__(tokenizer)
        self.chunk_size = check_size("chunk_size", chunk_size, 1)
        self.chunk_overlap = check_size("chunk_overlap", chunk_overlap, 0)
        if chunk_overlap >= chunk_size:
            raise ConfigError(f"chunk_overlap ({chunk_overlap!r}) must be smaller than chunk_size ({chunk_size!r})")
        if language is not None and separators is not None:
            raise ConfigError("pass either language= or separators=, not both")
        if keep_separator is not False and keep_separator not in ("start", "end"):
            raise ConfigError(f'keep_separator must be "start", "end" or False, got {keep_separator!r}')
        if separators is not None:
            if not isinstance(separators, (list, tuple)) or not all(isinstance(s, str) for s in separators):
                raise ConfigTypeError(f"separators must be a list of str, got {separators!r} "
                                      f"({type(separators).__name__}); e.g. ['\\n\\n', ' ', '']")  # fmt: skip
            if not separators:
                raise ConfigError(f"separators must not be empty, got {separators!r}; pass None for the default "
                                  f"{describe_separators(DEFAULT_SEPARATORS)} (DEFAULT_SEPARATORS in "
                                  "docchunk.chunkers.text.separators)")  # fmt: skip
            separators = list(separators)
        self.separators = separators_for(language) if language is not None else (separators or list(DEFAULT_SEPARATORS))
        self.keep_separator = keep_separator
        self.language = language
        self._additive = self.tokenizer.joins_additively("")
        # Markdown code fences among the separators: keep a closing fence with its block
        self._fences = FENCED_CODE in self.separators or any(
            sep.strip("\n").startswith(("```", "~~~")) for sep in self.separators
        )
        # Markdown rules among the separators: fenced code is opaque to them
        self._markdown = self._fences or SETEXT_HEADING in self.separators
        # the langchain preset runs LangChain's own algorithm (recursive_langchain)
        self._langchain = isinstance(language, str) and language.lower() == "langchain"


    def with_budget(self, tokenizer: TokenizerSpec, chunk_size: int) -> RecursiveChunker:
        """A copy with another tokenizer and ``chunk_size`` (the overlap capped below it)."""
        if self._langchain:  # the preset, not its separators: LangChain's algorithm goes with it
            return RecursiveChunker(chunk_size, min(self.chunk_overlap, chunk_size - 1), None,
                                    self.keep_separator, self.language, tokenizer)  # fmt: skip
        return RecursiveChunker(chunk_size, min(self.chunk_overlap, chunk_size - 1), list(self.separators),
                                self.keep_separator, None, tokenizer)  # fmt: skip

    def chunk(self, text: str, sizer: Sizer | None = None) -> list[Chunk]:
        """Split ``text``; see the class docstring for the invariants.

        Args:
            text: The text.
            sizer: A :class:`~docchunk.tokenizers.Sizer` of this chunker's tokenizer
                whose cached counts to use and extend (shared over many texts); a new
                one when None.
        """
        text = self._check_text(text)
        if not text:
            return []
        if self._langchain:
            return self._langchain_chunks(text, sizer or Sizer(self.tokenizer))
        call = Call(self, text, sizer or Sizer(self.tokenizer))
        chunks = make_chunks(text, pack(call, split(call)))
        if self._fences:
            chunks = keep_fences_closed(text, chunks, self.tokenizer, self.chunk_size)
        chunks = absorb_whitespace_chunks(text, chunks, self.tokenizer, self.chunk_size)
        return no_fence_first(text, chunks, self.tokenizer, self.chunk_size)  # after: whitespace given to a fence

    def _langchain_chunks(self, text: str, sizer: Sizer) -> list[Chunk]:
        """LangChain's chunks of ``text`` (:mod:`~docchunk.chunkers.text.recursive_langchain`), exact and sized."""
        spans = langchain_spans(text, self.separators, self.keep_separator, self.chunk_size, self.chunk_overlap,
                                sizer.count, sizer.by_length)  # fmt: skip
        counts = sizer.count_batch([text[s:e] for s, e in spans])
        return make_chunks(text, ((s, e, n, n > self.chunk_size) for (s, e), n in zip(spans, counts, strict=True)))
