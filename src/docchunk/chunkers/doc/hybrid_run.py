"""The state of one ``HybridChunker.chunk()`` call and the hybrid algorithm both modes share.

:class:`HybridRun` holds the cached counts, the serializer and the settings of one
call, and docling-core's three phases, which both modes run: split at element
boundaries (:meth:`HybridRun.split_by_items`), split inside the text
(:meth:`HybridRun.split_text`), merge undersized peers (:meth:`HybridRun.merge`).
Where the modes differ inside these phases it calls the plain functions its mode
hands it, :class:`RunHooks` (the segmenter of oversized text, the item-text filter,
the one-element rule, the writers of elements); it imports no mode and never reads ``docling_compat``. The
default mode's own passes, in :mod:`docchunk.chunkers.doc.structure`, take a
``HybridRun`` too: the run is the lower layer, the modes and their passes sit above it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TypeVar, cast

from docling_core.transforms.serializer.base import BaseDocSerializer
from docling_core.types.doc import DocItem, DoclingDocument, NodeItem

from docchunk.chunkers.doc import text_split
from docchunk.chunkers.doc.captions import CaptionPart, CaptionParts
from docchunk.chunkers.doc.fragments import SegmentRun
from docchunk.chunkers.doc.piece import CodeStrategy, Piece, replace
from docchunk.chunkers.doc.provenance import align, anchors_of, join_anchors
from docchunk.chunkers.doc.text_split import TextSplitter
from docchunk.serialization.chunk import join_context
from docchunk.tokenizers import Sizer, Tokenizer

__all__ = ["HybridRun", "RunHooks", "RunSettings", "TextSplitter"]

_CACHE_LIMIT = 500_000
_T = TypeVar("_T")


@dataclass(frozen=True)
class RunHooks:
    """Where the two modes differ inside the run's shared phases: plain functions its mode hands the run.

    A mode builds one (``Mode.run_hooks``); the run calls them and knows nothing else of
    the mode. docling-core's are in :data:`docchunk.chunkers.doc.mode.COMPAT`, the
    default's in :data:`docchunk.chunkers.doc.mode.STRUCTURED`.

    Attributes:
        segment: ``(run, text, available)`` -> ``(start, end)`` ranges of ``text`` of at most
            ``available`` tokens, in order (the segmenter of oversized text; ``run`` is
            read for its tokenizer, cached counts and cached splitters).
        item_text: ``(item, text, caption_part)`` -> the text an element counts with when a
            piece is split at element boundaries (``text`` is the serializer's;
            ``caption_part`` tells a caption and a part of one's inline text; docling-core's
            counts a heading as nothing, the default as it is written: a heading among a
            piece's elements is written inside another element, a list item).
        one_element: ``(items, caption_part)`` -> whether a walked piece of these items is
            one element (not split at element boundaries).
        writers: ``(items, texts, captions)`` -> the texts the items of a piece split at
            element boundaries count with (``texts``: each one's :meth:`HybridRun.item_text`),
            and for each item the index of the item whose window holds it (a caption goes
            with the item that writes it; an item with itself).
    """

    segment: Callable[[SegmentRun, str, int], list[tuple[int, int]]]
    item_text: Callable[[NodeItem, str, Callable[[NodeItem], CaptionPart]], str]
    one_element: Callable[[list[DocItem], Callable[[NodeItem], CaptionPart]], bool]
    writers: Callable[[list[DocItem], list[str], CaptionParts], tuple[list[str], list[int]]]


@dataclass(frozen=True)
class RunSettings:
    """The settings of a :class:`~docchunk.HybridChunker` one ``chunk()`` call runs with.

    Attributes:
        max_tokens: Budget per chunk, in tokens of the tokenizer, for the contextualized text.
        delim: Separator of headings, captions and merged texts.
        merge_peers: Merge consecutive undersized pieces with equal headings.
        repeat_table_header: Split a table written as lines line by line, repeating its header.
        omit_header_on_overflow: Leave the header out for a table line that fits only without it.
        always_emit_headings: Emit heading-only pieces for sections without content.
        text_splitter: None, or the user's text chunker for oversized text.
        merge_across_pages: Default mode: False keeps merges within the pages of each item.
        min_tokens: Default mode: None, or tokens under which a piece is merged with a neighbour.
        code_chunking_strategy: Default mode: None, or the strategy code items are chunked by.
        balance_tables: Default mode: even out the last two pieces of a table split by rows.
    """

    max_tokens: int
    delim: str = "\n"
    merge_peers: bool = True
    repeat_table_header: bool = True
    omit_header_on_overflow: bool = False
    always_emit_headings: bool = False
    text_splitter: TextSplitter | None = None
    merge_across_pages: bool = True
    min_tokens: int | None = None
    code_chunking_strategy: CodeStrategy | None = None
    balance_tables: bool = True


class HybridRun:
    """The state of one ``chunk()`` call: settings, the mode's hooks, serializer, cached counts.

    Args:
        settings: The chunker's settings.
        hooks: The mode's segmenter of oversized text, item-text filter and one-element rule.
        tokenizer: Counts every size (the chunker's ``token_counter``).
        serializer: The mode's serializer of ``doc``.
        doc: The document.
    """

    def __init__(
        self, settings: RunSettings, hooks: RunHooks, tokenizer: Tokenizer, serializer: BaseDocSerializer,
        doc: DoclingDocument,
    ) -> None:  # fmt: skip
        self.settings = settings
        self.hooks = hooks
        self.max: int = settings.max_tokens
        self.delim = settings.delim
        self.tok = tokenizer
        self.serializer = serializer
        self.doc = doc
        self._caption_parts: CaptionParts | None = None  # made when a hook first asks (never in compat)
        self.sizer = Sizer(self.tok, cache_limit=_CACHE_LIMIT)
        # the budget a code line may take whole in split_text's segments (fragments.sentence_ranges)
        self.line_budget: int | None = None
        self._item_texts: dict[str, str] = {}
        self._delim_tokens: int | None = None
        self._splitters: dict[Hashable, object] = {}
        # with an additive tokenizer, sizes of joined texts follow by arithmetic
        self.additive = self.tok.joins_additively(self.delim)

    def cached(self, key: Hashable, make: Callable[[], _T]) -> _T:
        """The object cached under ``key`` for this call (a splitter set to a budget), made once by ``make``."""
        found = self._splitters.get(key)
        if found is None:
            found = self._splitters[key] = make()
        return cast(_T, found)

    # -- counting -------------------------------------------------------------
    def count(self, text: str) -> int:
        """Tokens of ``text`` (cached; see :class:`~docchunk.tokenizers.Sizer`)."""
        return self.sizer.count(text)

    def count_many(self, texts: list[str]) -> list[int]:
        """Tokens of each text, the new ones in one batch (see :meth:`Sizer.count_batch`)."""
        return self.sizer.count_batch(texts)

    @property
    def delim_tokens(self) -> int:
        """Token cost of joining two texts with the delimiter (docling-core's estimate)."""
        if self._delim_tokens is None:
            c = self.count
            self._delim_tokens = c(f"a{self.delim}b") - c("a") - c("b")
        return self._delim_tokens

    def ctx(self, piece: Piece) -> str:
        """The contextualized text of ``piece``: headings, captions, text, joined by ``delim``."""
        return join_context(piece.headings, piece.captions, piece.text, self.delim)

    def text_count(self, piece: Piece) -> int:
        """Tokens of ``piece.text`` (kept in ``piece.text_tokens``)."""
        if piece.text_tokens is None:
            piece.text_tokens = self.count(piece.text)
        return piece.text_tokens

    def text_counts(self, pieces: list[Piece]) -> list[int]:
        """``text_count`` of each piece; the texts of unknown size counted in one batch."""
        unknown = [p.text for p in pieces if p.text_tokens is None]
        if len(unknown) > 1:
            self.count_many(unknown)
        return [self.text_count(p) for p in pieces]

    def ctx_count(self, piece: Piece) -> int:
        """Tokens of ``ctx(piece)``; by arithmetic (corrected at joins that are not clean)."""
        parts = [*(piece.headings or ()), *(piece.captions or ())]
        if not parts:
            return self.text_count(piece)
        if not self.additive:
            counts = [*self.count_many(parts), self.text_count(piece)]
            return self.sizer.join_count([*parts, piece.text], counts, self.delim)
        return sum(self.count_many(parts)) + self.text_count(piece) + self.delim_tokens * len(parts)

    # -- phase 1: split at element boundaries ----------------------------------
    def item_text(self, item: NodeItem) -> str:
        """The serializer's text of one element, as the mode's item-text filter leaves it (cached)."""
        ref = item.self_ref
        text = self._item_texts.get(ref)
        if text is None:
            text = self.hooks.item_text(item, self.serializer.serialize(item=item).text or "", self.caption_part)
            self._item_texts[ref] = text
        return text

    @property
    def captions(self) -> CaptionParts:
        """The captions of the document and their owners (read when first asked: never in compat)."""
        if self._caption_parts is None:
            self._caption_parts = CaptionParts(self.doc)
        return self._caption_parts

    def caption_part(self, item: NodeItem) -> CaptionPart:
        """``"caption"`` for a floating item's caption, ``"inside"`` for a part of one's inline text, else None."""
        return self.captions(item)

    def split_by_items(self, piece: Piece) -> list[Piece]:
        """Windows of whole elements that fit ``max_tokens`` (docling-core's ``_split_by_doc_items``).

        A window's text is the texts of a run of the piece's items; its items are those
        whose writer (``RunHooks.writers``: the item itself, or for a caption in the
        default mode the item that writes it) is in that run. A window left without items
        (captions written in another window) is dropped: its text is empty.
        """
        items = piece.items
        n = len(items)
        if n <= 1 or piece.from_headings or self.hooks.one_element(items, self.caption_part):
            return [replace(piece, captions=None)]
        # a heading-only piece (``always_emit_headings``) has no text: its items are its path
        texts = [""] * n if piece.heading_only else [self.item_text(it) for it in items]
        texts, writers = self.hooks.writers(items, texts, self.captions)
        counts = self.count_many(texts)

        def window(lo: int, hi: int) -> Piece:
            kept = [i for i in range(lo, hi + 1) if texts[i]]
            if self.additive:
                tokens = sum(counts[i] for i in kept) + self.delim_tokens * max(len(kept) - 1, 0)
            else:
                tokens = self.sizer.join_count([texts[i] for i in kept], [counts[i] for i in kept], self.delim)
            text = self.delim.join([texts[i] for i in kept])
            held = [it for it, w in zip(items, writers, strict=True) if lo <= w <= hi]
            anchors = align(text, held)  # an item may write another's text (a table its caption)
            return Piece(
                text=text,
                anchors=(text, anchors),
                items=held,
                headings=piece.headings,
                origin=piece.origin,
                text_tokens=tokens,
                heading_only=piece.heading_only,  # a section without content stays one, as in docling-core
            )

        def fits_exact(lo: int, hi: int) -> int:
            return self.ctx_count(window(lo, hi))

        overhead = fits_exact(0, 0) - counts[0]
        out: list[Piece] = []
        lo = 0
        while lo < n:
            hi, running = lo, 0
            while hi < n:
                running += counts[hi] + (self.delim_tokens if hi > lo else 0)
                if running + overhead > self.max:
                    exact = fits_exact(lo, hi)
                    if exact > self.max:
                        break
                    running = exact - overhead
                hi += 1
            end = max(hi, lo + 1)
            while end - 1 > lo and fits_exact(lo, end - 1) > self.max:
                end -= 1
            out.append(window(lo, end - 1))
            lo = end
        return [w for w in out if w.items]

    # -- heading paths -----------------------------------------------------------
    def heading_texts(self, headings: list[str]) -> list[str]:
        """The texts whose counts give :meth:`headings_cost`: the headings, or their joined path.

        With an additive tokenizer, ``count(h1 + delim + h2 + delim)`` is the headings'
        counts plus one delimiter each (the definition of an additive join).
        """
        return list(headings) if self.additive else [join_context(headings, None, "", self.delim)]

    @property
    def path_limit(self) -> int:
        """The most tokens a heading path may cost in a chunk: half of ``max_tokens``.

        A longer path is written once as text before its section
        (:func:`~docchunk.chunkers.doc.heading_paths.fit_headings`), and the passes that
        shorten a path for a table or a list window keep within the same half.
        """
        return self.max // 2

    def headings_cost(self, headings: list[str]) -> int:
        """Tokens the headings add to a chunk's contextualized text."""
        counts = self.count_many(self.heading_texts(headings))
        return sum(counts) + (self.delim_tokens * len(headings) if self.additive else 0)

    def fitting_headings(self, headings: list[str], limit: int) -> list[str] | None:
        """The innermost headings whose cost is at most ``limit`` tokens (None for none)."""
        start = len(headings)
        while start > 0 and self.headings_cost(headings[start - 1 :]) <= limit:
            start -= 1
        return list(headings[start:]) or None

    # -- phase 2: split inside the text (chunkers/doc/text_split.py) ---------
    def split_text(self, piece: Piece, structured: bool = False) -> list[Piece]:
        """Token-bounded segments of an oversized piece: :func:`~docchunk.chunkers.doc.text_split.split_text`."""
        return text_split.split_text(self, piece, structured)

    def split_text_at(self, piece: Piece, available: int) -> list[Piece]:
        """``piece`` cut into parts of at most ``available`` tokens: :func:`.text_split.split_text_at`."""
        return text_split.split_text_at(self, piece, available)

    # -- phase 3: merge undersized peers ---------------------------------------
    def merge(self, pieces: list[Piece], as_written: Callable[[Piece], Piece] | None = None) -> list[Piece]:
        """Merge runs of pieces with equal headings while they fit (docling-core's merge).

        Args:
            pieces: The pieces, in order.
            as_written: None (docling-core's sizes), or the default mode's
                :func:`~docchunk.chunkers.doc.content_headings.heading_once`: a run is sized
                with the path its first piece's chunk writes, without the headings its
                text holds (a content heading: a piece of headings as text merges with
                the paragraph under them when the chunk, each heading written once, fits).
        """
        n = len(pieces)
        counts = self.text_counts(pieces)
        out: list[Piece] = []

        def probe(lo: int, hi: int) -> Piece:
            """The merge of ``pieces[lo:hi + 1]`` as far as :meth:`ctx_count` reads it: text, headings, tokens."""
            run = pieces[lo : hi + 1]
            if self.additive:
                tokens = sum(counts[lo : hi + 1]) + self.delim_tokens * (hi - lo)
            else:
                tokens = self.sizer.join_count([p.text for p in run], counts[lo : hi + 1], self.delim)
            text = self.delim.join([p.text for p in run])
            return Piece(text=text, items=[], headings=path, origin=pieces[hi].origin, text_tokens=tokens)

        def candidate(lo: int, hi: int) -> Piece:
            """The merge of ``pieces[lo:hi + 1]``, with its items and anchors (only for a merge that is kept)."""
            run = pieces[lo : hi + 1]
            merged = probe(lo, hi)
            merged.anchors = (merged.text, join_anchors([(p.text, anchors_of(p)) for p in run], self.delim))
            merged.items = [it for p in run for it in p.items]
            merged.heading_only = all(p.heading_only for p in run)  # docling-core's "\n" of two such chunks
            merged.headings, merged.headings_dropped = first.headings, first.headings_dropped  # the run's path
            return merged

        lo = 0
        while lo < n:
            first = pieces[lo]
            path = (as_written(first) if as_written else first).headings  # the path the merged chunk writes
            overhead = self.ctx_count(first if path is first.headings else replace(first, headings=path)) - counts[lo]
            hi, fit, running = lo + 1, lo, counts[lo]
            while hi < n and pieces[hi].headings == first.headings:
                running += counts[hi] + self.delim_tokens
                if running + overhead > self.max:
                    exact = self.ctx_count(probe(lo, hi))
                    if exact > self.max:
                        break
                    running = exact - overhead
                fit = hi
                hi += 1
            while fit > lo and self.ctx_count(probe(lo, fit)) > self.max:
                fit -= 1
            out.append(first if fit == lo else candidate(lo, fit))
            lo = fit + 1
        return out

