"""Token-bounded chunks of whole lines with a repeated prefix: docling-core's ``LineBasedTokenChunker``."""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar

from docling_core.types.doc import DoclingDocument

from docchunk.chunkers.doc.base import DocumentChunker, check_document
from docchunk.chunkers.doc.compat.table_lines import split_lines
from docchunk.errors import ConfigError
from docchunk.serialization.chunk import DocChunk, DocMeta, page_numbers_of
from docchunk.tokenizers import Sizer
from docchunk.types.config import check_size

if TYPE_CHECKING:
    from docling_core.transforms.serializer.base import BaseDocSerializer
    from docling_core.types.doc import DocItem

__all__ = ["LineBasedTokenChunker"]

_PART_SEP = "\n\n"  # docling-core's Markdown serializer joins the document's parts with a blank line


class LineBasedTokenChunker(DocumentChunker):
    r"""Chunks a document's serialized text into token-bounded runs of whole lines.

    The document is serialized (the mode's serializer: docchunk's default one, or
    docling-core's chunking serializer with ``docling_compat=True``) and cut into
    lines; lines are packed greedily into chunks of at most ``max_tokens`` tokens of
    ``tokenizer``, each chunk starting with ``prefix`` (for example a table header).
    A line is cut only when it does not fit in a fresh chunk on its own: at the last
    space that fits, else anywhere. The prefix counts against the budget. Algorithm
    and decisions follow docling-core's ``LineBasedTokenChunker`` (with
    ``docling_compat=True``, the same chunk texts for the same tokenizer and budget).

    Invariants: ``meta.token_count`` is the tokens of the chunk text;
    ``token_count <= max_tokens`` unless one character alone is larger (then
    ``meta.oversized``; docling-core raises ``ValueError``); the chunks without their
    prefixes give back the serialized text; no chunk is empty or only the prefix.

    Differences of the default mode from ``docling_compat=True`` (``docs/compat.md``):
    the text is the default serializer's, which keeps what docling-core's loses (a rich
    table cell in the corner, footnotes in the furniture layer; tables as records); each
    chunk's ``doc_items`` are the elements its lines come from (docling-core puts every
    element of the document in every chunk), and ``page_numbers`` follow.

    Args:
        tokenizer: Any spec :func:`docchunk.get_tokenizer` accepts; default all-MiniLM-L6-v2.
        max_tokens: Budget per chunk in tokens of ``tokenizer``, prefix included;
            default: the tokenizer's own limit (256 for the default tokenizer).
        max_tokens_override: docling-core's name for ``max_tokens``; either may be given.
        prefix: Text at the start of every chunk. A prefix of ``max_tokens`` tokens or
            more is emitted alone first (split if needed) and not repeated.
        omit_prefix_on_overflow: Leave the prefix out for a line that fits only without it.
        docling_compat: Reproduce docling-core's output exactly (doc_items included).
        serializer_provider: docling-core serializer provider.

    Raises:
        ConfigError: No budget (``max_tokens`` None and a tokenizer without a limit),
            a budget that is not a positive int, or both names given with different values.

    Example:
        >>> chunker = LineBasedTokenChunker(max_tokens=64, prefix="Table 3\\n")  # doctest: +SKIP
        >>> chunker.chunk_text(["a,b\\n", "c,d\\n"])  # doctest: +SKIP
        ['Table 3\\na,b\\nc,d\\n']
    """

    max_tokens: int | None = None
    max_tokens_override: int | None = None
    prefix: str = ""
    omit_prefix_on_overflow: bool = False
    docling_compat: bool = False

    _POST_INIT_SETTINGS: ClassVar[frozenset[str]] = frozenset({"tokenizer", "max_tokens", "max_tokens_override"})

    def model_post_init(self, __context: Any) -> None:
        """Resolve the budget from ``max_tokens``, ``max_tokens_override`` or the tokenizer."""
        super().model_post_init(__context)
        given = {v for v in (self.max_tokens, self.max_tokens_override) if v is not None}
        if len(given) > 1:
            raise ConfigError(
                f"LineBasedTokenChunker: max_tokens={self.max_tokens!r} and max_tokens_override="
                f"{self.max_tokens_override!r} disagree; pass only max_tokens"
            )
        limit = given.pop() if given else self._tok.max_tokens
        if limit is None:
            raise ConfigError(
                f"max_tokens is required: the tokenizer {self._tok.name!r} has no limit of its own; "
                "pass max_tokens=<positive int>, the budget per chunk in tokens of that tokenizer"
            )
        check_size("max_tokens", limit, 1)
        self.__dict__["max_tokens"] = limit  # not setattr: that would run this again

    def chunk_text(self, lines: list[str]) -> list[str]:
        """Pack ``lines`` (kept as given, line ends included) into prefixed chunk texts."""
        assert self.max_tokens is not None
        return split_lines(lines, self.max_tokens, Sizer(self._tok), self.prefix, self.omit_prefix_on_overflow)

    def chunk(self, dl_doc: DoclingDocument, **kwargs: Any) -> Iterator[DocChunk]:
        """Yield the chunks of ``dl_doc`` in order (see the class invariants)."""
        check_document(dl_doc)
        ser = self.mode.serializer(self.serializer_provider, dl_doc, "records", self.include_furniture)
        # default mode: a document with text that gives no chunk raises a DocumentError saying why
        yield from self.mode.results(self._chunks(dl_doc, ser), dl_doc, self, ser)

    def _chunks(self, dl_doc: DoclingDocument, ser: BaseDocSerializer) -> Iterator[DocChunk]:
        res = ser.serialize()
        if not res.text:
            return
        texts = self.chunk_text(res.text.splitlines(True))
        all_items = res.get_unique_doc_items()
        if self.mode.line_items == "all":  # docling-core's doc_items: every element in every chunk
            for text in texts:
                yield self._line_chunk(text, all_items, dl_doc)
            return
        spans = self._item_spans(ser, res.text)
        n_prefix_only = len(self._prefix_chunks())
        pos = 0
        for i, text in enumerate(texts):
            if i < n_prefix_only or text == self.prefix:
                # the prefix alone (too long to repeat, or shown once before an overflowing line)
                yield self._line_chunk(text, all_items, dl_doc)
                continue
            body = text[len(self.prefix) :] if self.prefix and text.startswith(self.prefix) else text
            start, pos = pos, pos + len(body)
            if not text.strip():
                continue  # whitespace between lines: no content, no chunk
            items = _items_in(spans, start, pos) if spans is not None else all_items
            yield self._line_chunk(text, items or all_items, dl_doc)

    def _prefix_chunks(self) -> list[str]:
        """The chunks a prefix of ``max_tokens`` tokens or more is emitted as, first; else []."""
        assert self.max_tokens is not None
        if not self.prefix or self._tok.count_tokens(self.prefix) < self.max_tokens:
            return []
        return split_lines([self.prefix], self.max_tokens, Sizer(self._tok))

    def _line_chunk(self, text: str, items: list[DocItem], doc: DoclingDocument) -> DocChunk:
        count = self._tok.count_tokens(text)
        assert self.max_tokens is not None
        meta = DocMeta(
            doc_items=items,
            headings=None,
            origin=doc.origin,
            token_count=count,
            page_numbers=page_numbers_of(items),
            oversized=True if count > self.max_tokens else None,
        )
        return DocChunk(text=text, meta=meta)

    @staticmethod
    def _item_spans(ser: BaseDocSerializer, text: str) -> list[tuple[int, int, list[DocItem]]] | None:
        """Character span of each top-level part in ``text``, by the serializer's joining rule.

        None when the parts do not join to ``text`` (a custom serializer); callers then
        fall back to every item.
        """
        spans: list[tuple[int, int, list[DocItem]]] = []
        pos = 0
        for res in ser.get_parts():
            if not res.text:
                continue
            if spans:
                pos += len(_PART_SEP)
            spans.append((pos, pos + len(res.text), [span.item for span in res.spans]))
            pos += len(res.text)
        if _PART_SEP.join(text[s:e] for s, e, _ in spans) != text or pos != len(text):
            return None
        return spans


def _items_in(spans: list[tuple[int, int, list[DocItem]]], start: int, end: int) -> list[DocItem]:
    """Unique items of the parts overlapping ``[start, end)``, in order."""
    first = bisect.bisect_right([e for _, e, _ in spans], start)
    out: list[DocItem] = []
    seen: set[str] = set()
    for s, _e, items in spans[first:]:
        if s >= end:
            break
        for it in items:
            if it.self_ref not in seen:
                seen.add(it.self_ref)
                out.append(it)
    return out
