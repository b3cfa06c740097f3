"""The two modes of the document chunkers, as two objects: :data:`COMPAT` and :data:`STRUCTURED`.

A document chunker or expander picks its :class:`Mode` from its public
``docling_compat`` switch (:func:`mode_for`, called by ``DocumentChunker.mode`` and
``ChunkExpander.mode``), and asks the mode for what differs between the two:

- the serializer (:func:`docchunk.serialization.selection.serializer_for`);
- the walk: docling-core's (:func:`docchunk.chunkers.doc.compat.walk.walk`) or the
  default's (:func:`docchunk.chunkers.doc.heading_walk.structured_walk`, tables as rows, lists as
  the hybrid chunker writes them);
- the hybrid chunker's passes: docling-core's three phases, or
  :func:`docchunk.chunkers.doc.structure.structured_pieces`;
- the hooks of the run both share (:class:`~docchunk.chunkers.doc.hybrid_run.RunHooks`,
  plain functions the mode hands the :class:`~docchunk.chunkers.doc.hybrid_run.HybridRun`,
  which imports no mode): the segmenter of oversized text, the semchunk port
  (:func:`docchunk.chunkers.doc.compat.semsplit.semchunk_split`) or sentence ends
  (:func:`docchunk.chunkers.doc.fragments.sentence_ranges`); the item-text filter, the
  serializer's text as it is or without the parts of a caption's inline text and
  Markdown debris (:func:`without_caption_parts`); the
  one-element rule, never or a piece of captions
  (:func:`only_captions`);
- what an empty result means: nothing (docling-core), or a ``DocumentError`` saying
  why a document with text gave no chunk (:func:`docchunk.chunkers.doc.empty.explained`).

Beyond the hybrid chunker's passes, a mode says what compat means for everything else,
each decision one attribute (the table in ``docs/architecture.md``, "The two modes"):
which options it refuses (:attr:`Mode.refuses`) or ignores with a warning
(:attr:`Mode.ignores`), and which algorithm the page chunker (:attr:`Mode.pages`), the
line chunker (:attr:`Mode.line_items`) and the expanders (:attr:`Mode.expansion`) run.
No chunker asks which mode it is in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Literal, Protocol, TypeVar

from docling_core.transforms.serializer.base import BaseDocSerializer, BaseSerializerProvider
from docling_core.types.doc import DocItem, DoclingDocument, NodeItem, SectionHeaderItem, TextItem, TitleItem

from docchunk.chunkers.doc.captions import CaptionPart, CaptionParts
from docchunk.chunkers.doc.compat.semsplit import semchunk_split
from docchunk.chunkers.doc.compat.walk import walk
from docchunk.chunkers.doc.content_headings import heading_once
from docchunk.chunkers.doc.empty import explained
from docchunk.chunkers.doc.fragments import SegmentRun, sentence_ranges
from docchunk.chunkers.doc.heading_walk import structured_walk, without_debris
from docchunk.chunkers.doc.hybrid_run import HybridRun, RunHooks, RunSettings
from docchunk.chunkers.doc.list_split import as_list_lines
from docchunk.chunkers.doc.piece import CodeStrategy, Piece
from docchunk.chunkers.doc.structure import structured_pieces
from docchunk.chunkers.doc.tables.pieces import by_rows, whole_table
from docchunk.serialization.selection import serializer_for
from docchunk.serialization.tables import TableFormat
from docchunk.tokenizers import CharacterTokenizer

__all__ = ["COMPAT", "STRUCTURED", "Mode", "Option", "mode_for"]

Option = Literal["table_format", "min_tokens", "merge_across_pages", "code_chunking_strategy", "max_tokens"]
"""A chunker option a mode may refuse or ignore (:attr:`Mode.refuses`, :attr:`Mode.ignores`)."""


_C = TypeVar("_C")


def without_caption_parts(item: NodeItem, text: str, caption_part: Callable[[NodeItem], CaptionPart]) -> str:
    """The default mode's item-text filter (``RunHooks.item_text``): ``text`` of ``item`` as an element counts.

    A part of a caption's inline text (a formula, a link) counts as nothing: it is in
    its caption's text. Any other item's text is kept :func:`without_debris`.
    """
    return "" if caption_part(item) == "inside" else without_debris(item, text)


def with_their_writers(items: list[DocItem], texts: list[str], captions: CaptionParts) -> tuple[list[str], list[int]]:
    """The default mode's element texts and writers (``RunHooks.writers``): a caption goes with its item.

    A caption's serialized text is empty: the floating item it captions (a picture, a
    table, a code block) writes it. When that item is among ``items``, the caption is in
    the window of that item (never alone in a window, where its text would be nowhere and
    its spans lost); when it is not (a picture written only as its captions, inside a list
    item), the caption is an element of its own text, as the walk writes a caption its
    item left out (issue 45: split lists lost such captions).

    Args:
        items: A piece's items, in order.
        texts: The text each item counts with (the serializer's, filtered by :func:`without_caption_parts`).
        captions: The document's captions and their owners.

    Returns:
        The texts (an orphan caption's own text in place of its empty one), and for
        each item the index of the item whose window holds it.
    """
    at = {it.self_ref: k for k, it in enumerate(items)}
    texts = list(texts)
    writers = list(range(len(items)))
    for k, item in enumerate(items):
        owner = captions.owner(item)
        if owner is None or texts[k]:
            continue
        if owner in at:
            writers[k] = at[owner]
        elif isinstance(item, TextItem):
            texts[k] = item.text
    return texts, writers


def only_captions(items: list[DocItem], caption_part: Callable[[NodeItem], CaptionPart]) -> bool:
    """The default mode's one-element rule (``RunHooks.one_element``): a picture written as its captions.

    True when every item is a caption or a part of one's inline text: the piece is one
    element, not split at element boundaries.
    """
    return all(caption_part(it) for it in items)


class Results(Protocol):
    """A mode's ``results``: ``(chunks, doc, chunker, serializer)`` -> the chunks a ``chunk()`` call yields.

    Generic in the chunk type: the chunks come out as they went in (docchunk's
    ``DocChunk``, or docling-core's ``CodeChunk`` of a code strategy), only checked.
    """

    def __call__(
        self, chunks: Iterator[_C], doc: DoclingDocument, chunker: object, serializer: BaseDocSerializer
    ) -> Iterator[_C]: ...


@dataclass(frozen=True)
class Mode:
    """What the two modes of the document chunkers do differently (see the module docstring).

    Attributes:
        name: ``"compat"`` (``docling_compat=True``) or ``"structured"`` (the default).
        refuses: Options that are not docling-core's: set to anything but their default
            (``table_format="records"``, ``min_tokens=None``, ``merge_across_pages=True``)
            they raise a ``ConfigError`` naming ``docling_compat``.
        ignores: Options docling-core ignores, and so the mode, with a warning:
            ``code_chunking_strategy`` (the hybrid chunker's), ``max_tokens`` beside a
            docling-core tokenizer object (its own limit wins).
        pages: The page chunker's algorithm: ``"serialized"``, each page as the
            serializer writes it, one chunk whatever its size (docling-core's
            ``PageChunker``); ``"packed"``, a page's parts packed within ``max_tokens``,
            blank pages skipped.
        line_items: The line chunker's ``doc_items``: ``"all"``, every element of the
            document in every chunk (docling-core's); ``"own"``, the elements of the
            chunk's lines.
        expansion: The expanders' algorithm: ``"docling"`` (docling-core's
            expanders) or ``"items"`` (docchunk's, within ``max_tokens``).
        serializer: ``(provider, doc, table_format, include_furniture)`` -> the serializer of ``doc``.
        walk: ``(doc, serializer, always_emit_headings, code_strategy)`` -> one piece per
            element (the hierarchical chunker's pieces).
        hybrid_pieces: ``(run, doc)`` -> the hybrid chunker's final pieces.
        run_hooks: What the run both modes share asks its mode (the segmenter of oversized
            text, the item-text filter, the one-element rule, the writers of elements), as plain functions.
        results: ``(chunks, doc, chunker, serializer)`` -> the chunks a ``chunk()`` call yields.
    """

    name: Literal["compat", "structured"]
    refuses: frozenset[Option]
    ignores: frozenset[Option]
    pages: Literal["serialized", "packed"]
    line_items: Literal["all", "own"]
    expansion: Literal["docling", "items"]
    serializer: Callable[[BaseSerializerProvider | None, DoclingDocument, TableFormat, bool], BaseDocSerializer]
    walk: Callable[[DoclingDocument, BaseDocSerializer, bool, CodeStrategy | None], Iterable[Piece]]
    hybrid_pieces: Callable[[HybridRun, DoclingDocument], list[Piece]]
    run_hooks: RunHooks
    results: Results


# -- compat: docling-core's --------------------------------------------------------------
def _compat_serializer(
    provider: BaseSerializerProvider | None, doc: DoclingDocument, table_format: TableFormat, furniture: bool
) -> BaseDocSerializer:
    """The provider's own serializer: docling-core's text (``table_format`` and furniture do not apply)."""
    return serializer_for(provider, doc, docling_compat=True)


def _compat_walk(
    doc: DoclingDocument, serializer: BaseDocSerializer, always_emit: bool, code: CodeStrategy | None
) -> Iterator[Piece]:
    return walk(doc, serializer, always_emit, code)


def _compat_hybrid_pieces(run: HybridRun, doc: DoclingDocument) -> list[Piece]:
    """docling-core's hybrid chunking: walk, split by items, split the text, merge peers."""
    always_emit = run.settings.always_emit_headings
    pieces = [s for p in walk(doc, run.serializer, always_emit) for s in run.split_by_items(p)]
    pieces = [s for p in pieces for s in run.split_text(p)]
    if run.settings.merge_peers:
        pieces = run.merge(pieces)
    return pieces


def _semchunk_segments(run: SegmentRun, text: str, available: int) -> list[tuple[int, int]]:
    spans, _ = semchunk_split(text, available, run.sizer)
    return list(spans)


def _as_serialized(item: NodeItem, text: str, caption_part: Callable[[NodeItem], CaptionPart]) -> str:
    """docling-core's: the serializer's text, a heading's none (``_split_by_doc_items``)."""
    return "" if isinstance(item, (TitleItem, SectionHeaderItem)) else text


def _each_its_own(items: list[DocItem], texts: list[str], captions: CaptionParts) -> tuple[list[str], list[int]]:
    return texts, list(range(len(items)))


def _never(items: list[DocItem], caption_part: Callable[[NodeItem], CaptionPart]) -> bool:
    return False


def _as_they_are(
    chunks: Iterator[_C], doc: DoclingDocument, chunker: object, serializer: BaseDocSerializer
) -> Iterator[_C]:
    return chunks


# -- structured: the default ------------------------------------------------------------
def _structured_serializer(
    provider: BaseSerializerProvider | None, doc: DoclingDocument, table_format: TableFormat, furniture: bool
) -> BaseDocSerializer:
    return serializer_for(provider, doc, table_format=table_format, include_furniture=furniture)


def _structured_walk(
    doc: DoclingDocument, serializer: BaseDocSerializer, always_emit: bool, code: CodeStrategy | None
) -> Iterator[Piece]:
    """The default walk; tables as whole rows with their caption in ``captions`` (a user's serializer as it is).

    A list is written as the hybrid chunker writes one that fits (:func:`as_list_lines`:
    inline runs and link items as plain text, no Markdown marks or URLs).
    """
    walked = structured_walk(doc, serializer, always_emit, code=code is not None)
    rows = by_rows(serializer)  # tables as rows, caption in meta; a user's serializer as it is
    # the list lines read the serializer's texts only: the run counts nothing, any tokenizer does
    lists = HybridRun(RunSettings(max_tokens=1), STRUCTURED.run_hooks, CharacterTokenizer(), serializer, doc)
    pieces = (as_list_lines(lists, piece) for piece in walked)
    return (heading_once(whole_table(piece, serializer) if rows else piece) for piece in pieces)


def _explained(
    chunks: Iterator[_C], doc: DoclingDocument, chunker: object, serializer: BaseDocSerializer
) -> Iterator[_C]:
    # a document with text gives a chunk, or a DocumentError saying why not
    return explained(chunks, doc, chunker, serializer)


COMPAT = Mode(
    name="compat",
    refuses=frozenset({"table_format", "min_tokens", "merge_across_pages"}),
    ignores=frozenset({"code_chunking_strategy", "max_tokens"}),
    pages="serialized",
    line_items="all",
    expansion="docling",
    serializer=_compat_serializer,
    walk=_compat_walk,
    hybrid_pieces=_compat_hybrid_pieces,
    run_hooks=RunHooks(segment=_semchunk_segments, item_text=_as_serialized, one_element=_never, writers=_each_its_own),
    results=_as_they_are,
)
"""``docling_compat=True``: docling-core's chunks, exactly."""

STRUCTURED = Mode(
    name="structured",
    refuses=frozenset(),
    ignores=frozenset(),
    pages="packed",
    line_items="own",
    expansion="items",
    serializer=_structured_serializer,
    walk=_structured_walk,
    hybrid_pieces=structured_pieces,
    run_hooks=RunHooks(
        segment=sentence_ranges, item_text=without_caption_parts, one_element=only_captions, writers=with_their_writers
    ),
    results=_explained,
)
"""``docling_compat=False`` (the default): structure-faithful chunks (``docs/compat.md``)."""


def mode_for(docling_compat: bool) -> Mode:
    """The mode of a chunker or expander: :data:`COMPAT` for ``docling_compat=True``, else :data:`STRUCTURED`."""
    return COMPAT if docling_compat else STRUCTURED
