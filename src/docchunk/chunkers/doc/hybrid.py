"""Token-aware document chunking: docling-core's hybrid chunking, counted once and cached."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from dataclasses import replace
from typing import Any, ClassVar, cast

from docling_core.types.doc import DoclingDocument, FloatingItem, SectionHeaderItem, TableItem, TitleItem
from pydantic import field_validator

from docchunk.chunkers.doc.base import DocumentChunker, check_document
from docchunk.chunkers.doc.empty import explained
from docchunk.chunkers.doc.fragments import sentence_segments
from docchunk.chunkers.doc.heading_walk import without_debris
from docchunk.chunkers.doc.provenance import align, anchors_of, fill_gaps, join_anchors, slice_anchors
from docchunk.chunkers.doc.semsplit import semchunk_split
from docchunk.chunkers.doc.structure import structured_pieces
from docchunk.chunkers.doc.tables import split_lines, split_table_by_columns
from docchunk.chunkers.doc.walk import Piece, walk
from docchunk.errors import ConfigError, ModelLimitWarning
from docchunk.serialization import is_chunking_serializer
from docchunk.serialization.chunk import DocChunk, join_context
from docchunk.serialization.selection import serializer_for
from docchunk.serialization.table_rows import TableFormat
from docchunk.tokenizers import Sizer, is_docling_tokenizer
from docchunk.types.config import check_size

__all__ = ["HybridChunker"]

_CACHE_LIMIT = 500_000


class HybridChunker(DocumentChunker):
    r"""Chunks a ``DoclingDocument`` by structure, then by tokens.

    Starts from the hierarchical chunks (see :class:`HierarchicalChunker`), splits
    each chunk whose contextualized text exceeds ``max_tokens`` first at element
    boundaries, then inside the text (semchunk's recursive splitting; tables line
    by line with the header repeated), then merges consecutive undersized chunks
    that share their headings (``merge_peers``). Algorithm and output follow
    docling-core 2.104's ``HybridChunker``: with the same tokenizer and settings the
    chunk texts, headings, doc_items and ``contextualize()`` strings are equal.

    Each text is tokenized at most once per document (counts are cached), element
    texts are counted in batches, and pydantic models are built only for the final
    chunks, which makes it several times faster than docling-core.

    Invariants of the result (docling-core does not keep all of them; see
    ``docs/compat.md``): ``meta.token_count == count_tokens(contextualize(chunk))
    <= max_tokens`` unless one indivisible piece (a single character) is larger,
    in which case ``meta.oversized`` is True; no chunk has empty text except
    heading-only chunks when ``always_emit_headings``; no text is dropped; equal
    input gives equal output.

    Args:
        tokenizer: Any spec :func:`docchunk.get_tokenizer` accepts, including
            docling-core tokenizers; default: all-MiniLM-L6-v2 (bundled, offline).
        max_tokens: Budget per chunk in tokens of ``tokenizer``, for the
            contextualized text (headings + captions + text); >= 1. Default: the
            tokenizer's own limit (256 for the default tokenizer). With
            ``docling_compat=True`` and a docling-core tokenizer object, the
            object's limit, as in docling-core (a different ``max_tokens`` is
            ignored with a ``UserWarning``).
        merge_peers: Merge consecutive undersized chunks with equal headings.
        merge_list_items: Accepted for docling-core compatibility (always merged).
        repeat_table_header: Split oversized tables line by line, repeating the header.
        omit_header_on_overflow: Leave the header out for a table row that fits only without it.
        always_emit_headings: Emit heading-only chunks for sections without content.
        delim: Separator of headings, captions and merged texts; ``"\n"``.
        serializer_provider: docling-core serializer provider.
        text_splitter: Optional text chunker (``RecursiveChunker``, ``SentenceChunker``,
            ``TokenChunker``) that splits oversized non-table text instead of the
            default rules (sentence ends; semchunk's rules with ``docling_compat=True``); it is run with this
            chunker's tokenizer and the remaining budget as its ``chunk_size``.
        docling_compat: True reproduces docling-core 2.104.0's output exactly (the
            algorithm described above, defects included). False (default): the
            structure-faithful chunks listed in ``docs/compat.md``: every heading and
            caption reaches a chunk, tables are chunked by whole rows, oversized
            paragraphs are split at sentence ends.
        table_format: How the default mode writes a table's rows: ``"records"``
            (default; ``label: header = value; header = value``, the row label once,
            section rows as label prefixes), ``"triplets"`` (``label, header = value.``
            per cell, docling-core's triplet form with every cell kept) or
            ``"markdown"`` (Markdown table lines under the header, repeated in every
            piece). See ``docs/compat.md``. Any other value raises ``ConfigError``, and
            so does a value other than ``"records"`` with ``docling_compat=True``.
        balance_tables: Default mode only. True (default): when a table is split by rows, rows
            move from the end of its second-to-last piece to the start of its last
            one while the last stays within ``max_tokens`` and no larger than the
            one before (a lone last row is not a chunk of its own; see
            ``chunkers/doc/table_balance.py``). False: greedy packing, every piece
            but the last filled to ``max_tokens`` (the behaviour before issue 28).
        merge_across_pages: Default mode only. False: ``merge_peers`` and
            ``min_tokens`` never join items of different pages (PDF pages, slides);
            an item that itself spans pages stays whole.
        min_tokens: Default mode only. None, or tokens (of ``tokenizer``, for the
            contextualized text) under which a chunk is merged with a neighbour,
            within its section first, then across a heading boundary (the merged
            chunk's headings are the common path), when the result fits ``max_tokens``.
        code_chunking_strategy: None (default: code items are text like any
            other), or a code chunking strategy. Default mode: each code item is
            chunked by it (:class:`docchunk.CodeChunkingStrategy` is run with this
            chunker's tokenizer and the budget left after the headings, so its
            ``CodeChunk`` objects keep the invariants below and carry the headings;
            a docling-core strategy's chunks are yielded as they are), and no text
            is merged with code. ``docling_compat=True``: ignored with a
            ``UserWarning``, as docling-core 2.104.0's ``HybridChunker`` ignores it
            (it has no such field); use :class:`HierarchicalChunker` for docling-core's
            code chunks.

    Raises:
        ConfigError: ``max_tokens`` is not a positive int, or it is None and the
            tokenizer has no limit of its own; ``min_tokens`` is not None or an int
            in ``[1, max_tokens]``; a default-mode option is set with ``docling_compat=True``.

    Warns:
        ModelLimitWarning: ``max_tokens`` is above the tokenizer's model input limit
            (the chunker still uses it).
        UserWarning: ``docling_compat=True`` ignores ``max_tokens`` beside a docling-core
            tokenizer object of another limit, as docling-core does.

    Example:
        >>> chunker = HybridChunker(tokenizer="tiktoken:cl100k_base", max_tokens=128)  # doctest: +SKIP
        >>> texts = [chunker.contextualize(c) for c in chunker.chunk(doc)]  # doctest: +SKIP
    """

    max_tokens: int | None = None
    merge_peers: bool = True
    merge_list_items: bool = True
    repeat_table_header: bool = True
    omit_header_on_overflow: bool = False
    text_splitter: Any = None  # a docchunk text chunker; checked in model_post_init with a clear message
    merge_across_pages: bool = True
    min_tokens: int | None = None
    code_chunking_strategy: Any = None  # checked by DocumentChunker._check_code_strategy
    table_format: TableFormat = "records"  # checked by DocumentChunker._check_table_format
    balance_tables: bool = True

    _POST_INIT_SETTINGS: ClassVar[frozenset[str]] = frozenset(
        {"tokenizer", "max_tokens", "text_splitter", "min_tokens", "merge_across_pages", "docling_compat",
         "code_chunking_strategy", "table_format"}
    )  # fmt: skip

    def model_post_init(self, __context: Any) -> None:
        """Resolve the tokenizer and check ``max_tokens`` against it (see the class docstring)."""
        super().model_post_init(__context)
        limit = self.max_tokens if self.max_tokens is not None else self._tok.max_tokens
        if self.docling_compat and limit != self._tok.max_tokens and is_docling_tokenizer(self.tokenizer):
            limit = self._tok.max_tokens
            warnings.warn(
                f"HybridChunker(docling_compat=True) ignores max_tokens={self.max_tokens!r} beside a docling-core "
                f"tokenizer object and chunks at that tokenizer's own limit ({limit} tokens), as docling-core "
                "2.104.0's HybridChunker does; set the limit on the tokenizer (e.g. "
                "HuggingFaceTokenizer(..., max_tokens=64)), or use docling_compat=False, which honours max_tokens",
                UserWarning,
                stacklevel=5,  # the caller of HybridChunker(...)
            )
        if limit is None:
            raise ConfigError(
                f"max_tokens is required: the tokenizer {self._tok.name!r} has no limit of its own; "
                "pass max_tokens=<positive int>, the budget per chunk in tokens of that tokenizer"
            )
        check_size("max_tokens", limit, 1)
        model_limit = self._tok.max_tokens
        if model_limit is not None and limit > model_limit:
            warnings.warn(
                ModelLimitWarning(
                    f"max_tokens={limit} is above the input limit of the tokenizer's model ({model_limit} tokens "
                    f"for {self._tok.name!r}); an embedding model truncates longer input, so the end of such "
                    f"chunks would not be embedded. Use max_tokens <= {model_limit} (--max-tokens in the CLI), or "
                    "leave it out to use the model's limit."
                ),
                stacklevel=5,  # the caller of HybridChunker(...)
            )
        self.__dict__["max_tokens"] = limit  # not setattr: that would run this again
        self._check_default_mode_options(limit)
        splitter = self.text_splitter
        if splitter is not None:
            if not callable(getattr(splitter, "with_budget", None)):
                raise ConfigError(
                    "text_splitter must be a docchunk text chunker (RecursiveChunker, SentenceChunker, "
                    f"TokenChunker), got {splitter!r}"
                )
            splitter.with_budget(self._tok, limit)  # raises ConfigError for chunkers without a budget

    @field_validator("min_tokens", mode="before")
    @classmethod
    def _check_min_tokens_type(cls, value: Any) -> Any:
        """None or an int, as given: no coercion of "10", 1.0 or True (the range is checked with max_tokens)."""
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise ConfigError(
                f"min_tokens must be None or an int (tokens under which a chunk is merged with a neighbour), "
                f"got {value!r} of type {type(value).__name__}"
            )
        return value

    def _check_default_mode_options(self, limit: int) -> None:
        low = self.min_tokens
        if low is not None and (isinstance(low, bool) or not isinstance(low, int) or not 1 <= low <= limit):
            raise ConfigError(
                f"min_tokens must be None or an int from 1 to max_tokens ({limit}), got {low!r}; "
                "it is the size in tokens under which a chunk is merged with a neighbour"
            )
        if self.docling_compat and (low is not None or not self.merge_across_pages):
            raise ConfigError(
                "min_tokens and merge_across_pages=False are not docling-core options: they need "
                f"docling_compat=False, got docling_compat=True with min_tokens={low!r}, "
                f"merge_across_pages={self.merge_across_pages!r}"
            )
        if self.docling_compat and self.code_chunking_strategy is not None:
            warnings.warn(
                "HybridChunker(docling_compat=True) ignores code_chunking_strategy, as docling-core 2.104.0's "
                "HybridChunker does (code items are chunked as text); use HierarchicalChunker(docling_compat=True, "
                "code_chunking_strategy=...) for docling-core's code chunks, or docling_compat=False",
                UserWarning,
                stacklevel=6,
            )

    def chunk(self, dl_doc: DoclingDocument, **kwargs: Any) -> Iterator[DocChunk]:
        """Yield the chunks of ``dl_doc`` in document order (see the class invariants)."""
        check_document(dl_doc)
        run = _Run(self, dl_doc)
        chunks = self._chunks(run, dl_doc)
        # the default mode: a document with text gives a chunk, or a DocumentError saying why not
        yield from chunks if self.docling_compat else explained(chunks, dl_doc, self, run.serializer)

    def _chunks(self, run: _Run, dl_doc: DoclingDocument) -> Iterator[DocChunk]:
        pieces = self._compat_pieces(run, dl_doc) if self.docling_compat else structured_pieces(run, dl_doc)
        chunks: list[Any] = []
        for piece in pieces:
            if piece.code_chunks is not None:
                chunks.extend(piece.code_chunks)
                continue
            if not piece.heading_only and not piece.text.strip():
                # docling-core emits these (e.g. a caption whose text went with its table):
                # no content, so no chunk
                continue
            count = run.ctx_count(piece)
            chunks.append(self._to_chunk(piece, count, oversized=count > run.max, doc=dl_doc))
        # the whitespace a split dropped between two chunks' spans of an item goes to the first one
        spans = [[s.__dict__ for s in c.meta.spans] for c in chunks if getattr(c.meta, "spans", None)]
        fill_gaps(spans, {it.self_ref: it.text for it in dl_doc.texts})
        yield from chunks

    def _compat_pieces(self, run: _Run, dl_doc: DoclingDocument) -> list[Piece]:
        """docling-core 2.104.0's hybrid chunking (``docling_compat=True``)."""
        pieces = [s for p in walk(dl_doc, run.serializer, self.always_emit_headings) for s in run.split_by_items(p)]
        pieces = [s for p in pieces for s in run.split_text(p)]
        if self.merge_peers:
            pieces = run.merge(pieces)
        return pieces


class _Run:
    """The state of one ``chunk()`` call: serializer, cached counts, settings."""

    def __init__(self, chunker: HybridChunker, doc: DoclingDocument):
        self.max: int = cast(int, chunker.max_tokens)  # an int after model_post_init
        self.delim = chunker.delim
        self.tok = chunker.token_counter
        self.chunker = chunker
        provider = chunker.serializer_provider
        compat = chunker.docling_compat
        furniture = chunker.include_furniture
        self.serializer = serializer_for(
            provider, doc, docling_compat=compat, table_format=chunker.table_format, include_furniture=furniture
        )
        self.doc = doc
        self._caption_parts: tuple[set[str], set[str]] | None = None  # (captions, parts of their inline text)
        self.sizer = Sizer(self.tok, cache_limit=_CACHE_LIMIT)
        self._item_texts: dict[str, str] = {}
        self._delim_tokens: int | None = None
        self._splitters: dict[tuple[Any, int], Any] = {}
        # with an additive tokenizer, sizes of joined texts follow by arithmetic
        self.additive = self.tok.joins_additively(self.delim)

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
        return join_context(piece.headings, piece.captions, piece.text, self.delim)

    def text_count(self, piece: Piece) -> int:
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
    def item_text(self, item: Any) -> str:
        ref = item.self_ref
        text = self._item_texts.get(ref)
        if text is None:
            if isinstance(item, (TitleItem, SectionHeaderItem)):
                text = ""
            else:
                text = self.serializer.serialize(item=item).text or ""
                if not self.chunker.docling_compat:
                    # a part of a caption's inline text (a formula, a link) is in its caption's text
                    text = "" if self.caption_part(item) == "inside" else without_debris(item, text)
            self._item_texts[ref] = text
        return text

    def caption_part(self, item: Any) -> str | None:
        """``"caption"`` for a floating item's caption, ``"inside"`` for a part of one's inline text, else None."""
        if self._caption_parts is None:
            doc = self.doc
            nodes = (*doc.tables, *doc.pictures, *doc.texts, *doc.key_value_items, *doc.form_items)
            items = [ref.resolve(doc) for it in nodes if isinstance(it, FloatingItem) for ref in it.captions]
            captions = {it.self_ref for it in items}
            inside: set[str] = set()
            stack = [child.resolve(doc) for it in items for child in it.children]
            while stack:
                node = stack.pop()
                inside.add(node.self_ref)
                stack.extend(child.resolve(doc) for child in node.children)
            self._caption_parts = (captions, inside)
        captions, inside = self._caption_parts
        ref = item.self_ref
        return "caption" if ref in captions else "inside" if ref in inside else None

    def split_by_items(self, piece: Piece) -> list[Piece]:
        """Windows of whole elements that fit ``max_tokens`` (docling-core's ``_split_by_doc_items``)."""
        items = piece.items
        n = len(items)
        one_element = not self.chunker.docling_compat and all(self.caption_part(it) for it in items)
        if n <= 1 or piece.from_headings or one_element:
            # default mode: a picture written as its captions (its parts a caption's inline text) is one element
            return [replace(piece, captions=None)]
        texts = [self.item_text(it) for it in items]
        counts = self.count_many(texts)

        def window(lo: int, hi: int) -> Piece:
            kept = [i for i in range(lo, hi + 1) if texts[i]]
            if self.additive:
                tokens = sum(counts[i] for i in kept) + self.delim_tokens * max(len(kept) - 1, 0)
            else:
                tokens = self.sizer.join_count([texts[i] for i in kept], [counts[i] for i in kept], self.delim)
            text = self.delim.join([texts[i] for i in kept])
            anchors = align(text, items[lo : hi + 1])  # an item may write another's text (a table its caption)
            return Piece(
                text=text,
                anchors=(text, anchors),
                items=items[lo : hi + 1],
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
            if hi == lo:
                out.append(window(lo, lo))
                lo += 1
                continue
            end = hi
            while end - 1 > lo and fits_exact(lo, end - 1) > self.max:
                end -= 1
            out.append(window(lo, end - 1))
            lo = end
        return out

    # -- phase 2: split inside the text ----------------------------------------
    def split_text(self, piece: Piece) -> list[Piece]:
        """Token-bounded segments of an oversized piece (docling-core's ``_split_using_plain_text``)."""
        total = self.ctx_count(piece)
        if total <= self.max:
            return [piece]
        available = self.max - (total - self.text_count(piece))
        while available > 0:
            segments = self._segments(piece, available)
            if not segments:
                return []
            overflow = max(self.ctx_count(s) for s in segments) - self.max
            if overflow <= 0:
                return segments
            available -= overflow
        if piece.headings is not None or piece.captions is not None:
            # headings and captions alone exceed the budget: drop them, keep the text
            return self.split_text(replace(piece, headings=None, captions=None, plain_only=True))
        return self._segments(piece, self.max)

    def _segments(self, piece: Piece, available: int) -> list[Piece]:
        """``piece`` split by :meth:`segment`; each part keeps the anchors of the range it holds."""
        anchors = anchors_of(piece)
        out = []
        for s in self.segment(piece, available):
            if isinstance(s, str):  # a rewritten text (table lines): aligned from its items when needed
                out.append(replace(piece, text=s, text_tokens=None))
                continue
            a, b = s
            text = piece.text[a:b]
            out.append(replace(piece, text=text, text_tokens=None, anchors=(text, slice_anchors(anchors, a, b))))
        return out

    def segment(self, piece: Piece, available: int) -> list[Any]:
        """Parts of at most ``available`` tokens: tables by lines, other text by semchunk's rules.

        A part is a ``(start, end)`` range of ``piece.text``, or a new text (a table's
        lines, written again with their header).
        """
        items = piece.items
        if (
            self.chunker.repeat_table_header
            and not piece.plain_only
            and is_chunking_serializer(self.serializer)
            and len(items) == 1
            and isinstance(items[0], TableItem)
        ):
            return self._segment_table(piece.text, available)
        splitter = self.chunker.text_splitter
        text = piece.text
        if splitter is not None:
            chunks = [c for c in self._splitter_for(splitter, available).chunk(text) if c.text.strip()]
            return [(c.start_index, c.end_index) if text[c.start_index : c.end_index] == c.text else c.text
                    for c in chunks]  # fmt: skip
        if not self.chunker.docling_compat:
            return sentence_segments(self, text, available, ranges=True)
        spans, _ = semchunk_split(text, available, self.sizer)
        return list(spans)

    def _splitter_for(self, splitter: Any, available: int) -> Any:
        """The user's text chunker, set to our tokenizer and the remaining budget (cached)."""
        key = (id(splitter), available)
        own = self._splitters.get(key)
        if own is None:
            own = self._splitters[key] = splitter.with_budget(self.tok, available)
        return own

    def _segment_table(self, text: str, available: int) -> list[str]:
        omit = self.chunker.omit_header_on_overflow
        table_serializer = cast(Any, self.serializer).table_serializer  # a ChunkingDocSerializer's
        header, body = table_serializer.get_header_and_body_lines(table_text=text)
        start = text.find(header[0]) if header else 0
        preamble = text[:start] if start > 0 else ""
        table_prefix = "".join(header)
        full_prefix = preamble + table_prefix
        if body and not omit and any(self.count(table_prefix + line) > available for line in body):
            by_columns = split_table_by_columns(
                header, body, preamble, available, self.sizer, omit
            )
            if by_columns is not None:
                return by_columns
        segments = split_lines(body, available, self.sizer, full_prefix, omit)
        if preamble:
            segments = segments[:1] + [s[len(preamble) :] if s.startswith(full_prefix) else s for s in segments[1:]]
        return segments

    # -- phase 3: merge undersized peers ---------------------------------------
    def merge(self, pieces: list[Piece]) -> list[Piece]:
        """Merge runs of pieces with equal headings while they fit (docling-core's merge)."""
        n = len(pieces)
        counts = self.text_counts(pieces)
        out: list[Piece] = []

        def candidate(lo: int, hi: int) -> Piece:
            run = pieces[lo : hi + 1]
            if self.additive:
                tokens = sum(counts[lo : hi + 1]) + self.delim_tokens * (hi - lo)
            else:
                tokens = self.sizer.join_count([p.text for p in run], counts[lo : hi + 1], self.delim)
            text = self.delim.join([p.text for p in run])
            return Piece(
                text=text,
                anchors=(text, join_anchors([(p.text, anchors_of(p)) for p in run], self.delim)),
                items=[it for p in run for it in p.items],
                headings=pieces[lo].headings,
                origin=pieces[hi].origin,
                text_tokens=tokens,
                heading_only=all(p.heading_only for p in run),  # docling-core's "\n" of two such chunks
            )

        lo = 0
        while lo < n:
            first = pieces[lo]
            overhead = self.ctx_count(first) - counts[lo]
            hi, fit, running = lo + 1, lo, counts[lo]
            while hi < n and pieces[hi].headings == first.headings:
                running += counts[hi] + self.delim_tokens
                if running + overhead > self.max:
                    exact = self.ctx_count(candidate(lo, hi))
                    if exact > self.max:
                        break
                    running = exact - overhead
                fit = hi
                hi += 1
            while fit > lo and self.ctx_count(candidate(lo, fit)) > self.max:
                fit -= 1
            out.append(first if fit == lo else candidate(lo, fit))
            lo = fit + 1
        return out


