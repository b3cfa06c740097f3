"""Token-aware document chunking: docling-core's hybrid chunking, counted once and cached."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar, cast

from docling_core.types.doc import DoclingDocument
from pydantic import SkipValidation, field_validator

from docchunk._versions import DOCLING_CORE_VERSION
from docchunk.chunkers.doc.base import DocumentChunker, check_document
from docchunk.chunkers.doc.hybrid_run import HybridRun, RunSettings, TextSplitter
from docchunk.chunkers.doc.piece import CodeStrategy, Piece
from docchunk.chunkers.doc.provenance import SpanDict, fill_gaps
from docchunk.errors import ConfigError, ModelLimitWarning
from docchunk.serialization.chunk import DocChunk
from docchunk.serialization.tables import TableFormat
from docchunk.tokenizers import is_docling_tokenizer
from docchunk.types.config import check_size

if TYPE_CHECKING:
    from docling_core.transforms.chunker.code_chunking.code_chunk import CodeChunk

__all__ = ["HybridChunker"]


class HybridChunker(DocumentChunker):
    r"""Chunks a ``DoclingDocument`` by structure, then by tokens.

    Starts from the hierarchical chunks (see :class:`HierarchicalChunker`), splits
    each chunk whose contextualized text exceeds ``max_tokens`` first at element
    boundaries, then inside the text (semchunk's recursive splitting; tables line
    by line with the header repeated), then merges consecutive undersized chunks
    that share their headings (``merge_peers``). Algorithm and output follow
    docling-core's ``HybridChunker``: with the same tokenizer and settings the
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
        merge_peers: Merge consecutive undersized chunks with equal headings. Default
            mode: a table piece also takes the text pieces next to it with its headings
            while it fits ``max_tokens`` (its ``table_rows`` and captions kept).
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
        docling_compat: True reproduces docling-core's output exactly (the
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
            ``chunkers/doc/tables/balance.py``). False: greedy packing, every piece
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
            ``UserWarning``, as docling-core's ``HybridChunker`` ignores it
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
    # a docchunk text chunker; checked in model_post_init with a clear message (not by pydantic)
    text_splitter: SkipValidation[TextSplitter | None] = None
    merge_across_pages: bool = True
    min_tokens: int | None = None
    # checked by DocumentChunker._check_code_strategy (not by pydantic)
    code_chunking_strategy: SkipValidation[CodeStrategy | None] = None
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
        if "max_tokens" in self.mode.ignores and limit != self._tok.max_tokens and is_docling_tokenizer(self.tokenizer):
            limit = self._tok.max_tokens
            warnings.warn(
                f"HybridChunker(docling_compat=True) ignores max_tokens={self.max_tokens!r} beside a docling-core "
                f"tokenizer object and chunks at that tokenizer's own limit ({limit} tokens), as docling-core "
                f"{DOCLING_CORE_VERSION}'s HybridChunker does; set the limit on the tokenizer (e.g. "
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
        refused = self.mode.refuses
        if ("min_tokens" in refused and low is not None) or (
            "merge_across_pages" in refused and not self.merge_across_pages
        ):
            raise ConfigError(
                "min_tokens and merge_across_pages=False are not docling-core options: they need "
                f"docling_compat=False, got docling_compat=True with min_tokens={low!r}, "
                f"merge_across_pages={self.merge_across_pages!r}"
            )
        if "code_chunking_strategy" in self.mode.ignores and self.code_chunking_strategy is not None:
            warnings.warn(
                "HybridChunker(docling_compat=True) ignores code_chunking_strategy, as docling-core "
                f"{DOCLING_CORE_VERSION}'s HybridChunker does (code items are chunked as text); use "
                "HierarchicalChunker(docling_compat=True, code_chunking_strategy=...) for docling-core's code "
                "chunks, or docling_compat=False",
                UserWarning,
                stacklevel=6,
            )

    def chunk(self, dl_doc: DoclingDocument, **kwargs: Any) -> Iterator[DocChunk | CodeChunk]:
        """Yield the chunks of ``dl_doc`` in document order (see the class invariants).

        Yields:
            :class:`DocChunk`, and with a ``code_chunking_strategy`` the strategy's
            ``CodeChunk`` objects (docling-core's) for code items.
        """
        check_document(dl_doc)
        mode = self.mode
        serializer = mode.serializer(self.serializer_provider, dl_doc, self.table_format, self.include_furniture)
        run = HybridRun(self._run_settings(), mode.run_hooks, self.token_counter, serializer, dl_doc)
        yield from mode.results(self._chunks(run, mode.hybrid_pieces(run, dl_doc), dl_doc), dl_doc, self, serializer)

    def _run_settings(self) -> RunSettings:
        """The settings one ``chunk()`` call runs with (:class:`~docchunk.chunkers.doc.hybrid_run.HybridRun`)."""
        return RunSettings(
            max_tokens=cast(int, self.max_tokens),  # an int after model_post_init
            delim=self.delim,
            merge_peers=self.merge_peers,
            repeat_table_header=self.repeat_table_header,
            omit_header_on_overflow=self.omit_header_on_overflow,
            always_emit_headings=self.always_emit_headings,
            text_splitter=self.text_splitter,
            merge_across_pages=self.merge_across_pages,
            min_tokens=self.min_tokens,
            code_chunking_strategy=self.code_chunking_strategy,
            balance_tables=self.balance_tables,
        )

    def _chunks(self, run: HybridRun, pieces: list[Piece], dl_doc: DoclingDocument) -> Iterator[DocChunk | CodeChunk]:
        chunks: list[DocChunk | CodeChunk] = []
        budget = self._budget()
        for piece in pieces:
            if piece.code_chunks is not None:
                chunks.extend(piece.code_chunks)
                continue
            if not piece.heading_only and not piece.text.strip():
                # docling-core emits these (e.g. a caption whose text went with its table):
                # no content, so no chunk
                continue
            count = run.ctx_count(piece)
            chunks.append(self._to_chunk(piece, count, oversized=count > run.max, doc=dl_doc, budget=budget))
        # the whitespace a split dropped between two chunks' spans of an item goes to the first one
        # (an ItemSpan's __dict__ is its SpanDict; a code chunk's meta has no spans)
        spans = [cast("list[SpanDict]", [s.__dict__ for s in item_spans])
                 for c in chunks if (item_spans := getattr(c.meta, "spans", None))]  # fmt: skip
        fill_gaps(spans, {it.self_ref: it.text for it in dl_doc.texts})
        yield from chunks
