"""Retrieval evaluation of document chunkers on the doc-qa layout (issue 28).

The data (``DATA/<genre>/docs.jsonl.gz`` and ``questions.jsonl``, see the doc-qa
README) gives questions whose evidence is located in a DoclingDocument: character
ranges of a text item's ``text`` (``{"ref", "kind": "text", "start", "end"}``) or table
cells (``{"ref", "kind": "cell", "row", "col"}``, grid coordinates).

Each chunk is reduced to what it holds (:class:`Held`): character ranges per text
item and a set of table cells. For docchunk's chunks these come from the chunk's own
provenance: ``meta.spans`` (characters) and ``meta.table_rows`` (cells: every column of
those rows, plus the column-header rows, whose texts each row's text repeats as its
labels). A piece of a row split between cells holds only the columns its
``meta.table_cols`` lists (with the column-header cells above them), so each cell of a
split row counts for the piece that holds it (and its label for every piece). Two
routes need a documented approximation:

- docling-core's own chunks (``peer="docling-core"``) have no spans: a chunk holds
  all characters of each text item of its ``doc_items`` whose text (whitespace
  normalized) is in its text; of an item split between chunks, the lines of the
  chunk's text found in the item's text (each found after the previous one);
- a chunk holding a table without ``table_rows`` (compat mode, docling-core) holds,
  with ``cells="position"`` (the default), the rows of the cells found in its text in
  reading order: the texts of the chunks listing the table are read in chunk order,
  each body cell's text is searched after the previous cell found, and the chunk it
  is found in holds the cell's whole row (a row found in two chunks counts for both,
  as a split row of ``table_rows`` does); the column-header rows count for every
  chunk of the table. With ``cells="text"`` (the approximation before), a chunk holds
  every cell whose non-empty text occurs anywhere in its text, which credits a chunk
  with the cells of other rows that repeat a value (a year, ``Won``).

The flat route exports the document to Markdown with offsets (:func:`markdown_export`:
headings ``#``, list items ``- ``, paragraphs, tables as pipe rows, one block per item
joined by a blank line), chunks it with docchunk's ``RecursiveChunker`` and maps the
evidence through the export's offsets: characters by overlap, a cell when the chunk
holds its text in the export.

Scores: for each question, the share of its evidence the retrieved chunks hold (text
evidence counts characters, table evidence counts cells; a question with both gets
the mean of the two shares), for the top ``k`` chunks (k = 1, 3, 5) and for the
top-ranked chunks within ``budget`` cl100k tokens of chunk text, ranking the chunks of
the question's own document (``doc``) and of the whole genre (``all``).
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict, cast

import numpy as np

from docchunk.errors import ConfigError
from docchunk.evaluation.rankers import LexicalScorer, check_ranker, content_first, rank_chunks
from docchunk.roles import chunk_roles
from docchunk.types import JSONObject, SpanChunker

if TYPE_CHECKING:
    from docling_core.types.doc import DoclingDocument, TableItem

    from docchunk.chunkers.doc.base import DocumentChunker
    from docchunk.serialization._docling import BaseChunker, DocChunk

__all__ = [
    "CHUNKER_NAMES",
    "HALVES",
    "DocQaQuestion",
    "DocQaReport",
    "DocQaRow",
    "Evidence",
    "Held",
    "docqa_half",
    "evaluate_docs",
    "held_by_chunk",
    "load_docqa",
    "markdown_export",
    "score_held",
]

CHUNKER_NAMES = ("hybrid", "hierarchical", "page", "line")
KS = (1, 3, 5)
GENRES = ("fin", "wiki", "legal")


@dataclass
class Held:
    """What one retrieved chunk holds: characters per text item, cells per table, and its size.

    Attributes:
        chars: ``ref -> [(start, end), ...]`` half-open ranges of ``item.text``.
        cells: ``{(table_ref, row, col), ...}`` grid cells.
        tokens: cl100k tokens of the chunk's text (the budget's unit).
        text: The embedded string (``contextualize(chunk)``).
        role: The chunk's role by the rules of :mod:`docchunk.roles` (document chunks;
            ``"content"`` for the flat route).
    """

    chars: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    cells: set[tuple[str, int, int]] = field(default_factory=set)
    tokens: int = 0
    text: str = ""
    role: str = "content"


class _EvidenceKind(TypedDict):
    kind: str
    ref: str


class Evidence(_EvidenceKind, total=False):
    """One piece of a question's evidence: ``kind`` ``"text"`` (``ref``, ``start``, ``end``) or ``"cell"``.

    Attributes:
        kind: ``"text"``: the characters ``[start, end)`` of ``item.text`` of the item
            ``ref``; ``"cell"``: the grid cell ``(row, col)`` of the table ``ref``.
    """

    start: int
    end: int
    row: int
    col: int


class _QuestionKeys(TypedDict):
    qid: str
    doc_id: str
    question: str
    evidence: list[Evidence]


class DocQaQuestion(_QuestionKeys, total=False):
    """A question of a doc-qa folder (a line of ``questions.jsonl``), as it is read."""

    answer: str | list[str]
    kind: str


DocQaRow = dict[str, "str | float | None"]
"""One question's row of :class:`DocQaReport`: ``qid``, ``genre``, ``doc_id``, ``kind`` and its recall figures."""

DocQaData = dict[str, tuple[dict[str, "DoclingDocument"], list[DocQaQuestion]]]
"""What :func:`load_docqa` reads: ``genre -> ({doc_id: DoclingDocument}, questions)``."""


# -- data ----------------------------------------------------------------------
HALVES = ("all", "tune", "check")
"""The halves of a doc-qa folder :func:`load_docqa` can read (see :func:`docqa_half`)."""


def docqa_half(doc_id: str) -> str:
    """The half of doc-qa a document belongs to: ``"tune"`` or ``"check"``.

    The rule (``docs/quality.md``, "Tuning and checking halves"): the first byte of the
    SHA-256 of the UTF-8 ``doc_id`` is even for the tuning half, odd for the checking half.
    Decisions are made on the tuning half; the checking half is reported once per change.
    """
    return "tune" if hashlib.sha256(doc_id.encode("utf-8")).digest()[0] % 2 == 0 else "check"


def load_docqa(data_dir: str | Path, genres: Sequence[str] | None = None, limit: int | None = None,
               offset: int = 0, half: str = "all") -> DocQaData:  # fmt: skip
    """The genres of a doc-qa folder: ``genre -> ({doc_id: DoclingDocument}, questions)``.

    Args:
        data_dir: The folder holding one sub-folder per genre.
        genres: Genres to read (default: every sub-folder with a ``docs.jsonl.gz``).
        limit: Read only the first ``limit`` documents of each genre (file order)
            and their questions (after skipping ``offset`` documents).
        offset: Skip the first ``offset`` documents of each genre (file order), e.g. to
            check on documents 41-120 what was tuned on documents 1-40.
        half: ``"all"``, or only the documents of the ``"tune"`` or ``"check"`` half
            (:func:`docqa_half`), chosen before ``offset`` and ``limit`` apply.

    Raises:
        ConfigError: The folder, a genre or its files are missing, ``offset`` is negative
            or ``half`` is not one of :data:`HALVES`.
    """
    if offset < 0:
        raise ConfigError(f"offset must be >= 0 documents, got {offset}")
    if half not in HALVES:
        raise ConfigError(f"half must be one of {', '.join(HALVES)}, got {half!r}")
    from docling_core.types.doc import DoclingDocument

    root = Path(data_dir)
    found = sorted(p.name for p in root.iterdir() if (p / "docs.jsonl.gz").is_file()) if root.is_dir() else []
    if not found:
        raise ConfigError(f"{root}: no <genre>/docs.jsonl.gz inside; give the doc-qa folder (see its README)")
    chosen = list(genres) if genres else found
    unknown = [g for g in chosen if g not in found]
    if unknown:
        raise ConfigError(f"unknown genre {unknown[0]!r} in {root}; the genres there are {', '.join(found)}")
    out: DocQaData = {}
    for genre in chosen:
        docs: dict[str, DoclingDocument] = {}
        with gzip.open(root / genre / "docs.jsonl.gz", "rt", encoding="utf-8") as fh:
            number = 0
            for line in fh:
                row = json.loads(line)
                if half != "all" and docqa_half(row["doc_id"]) != half:
                    continue
                number += 1
                if number <= offset:
                    continue
                if limit is not None and len(docs) >= limit:
                    break
                docs[row["doc_id"]] = DoclingDocument.model_validate(row["doc"])
        questions: list[DocQaQuestion] = []
        with open(root / genre / "questions.jsonl", encoding="utf-8") as fh:
            for line in fh:
                q = json.loads(line)
                if q["doc_id"] in docs:
                    questions.append(q)
        out[genre] = (docs, questions)
    return out


# -- what a chunk holds ----------------------------------------------------------
def _norm(text: str) -> str:
    return " ".join(text.split())


def _table_cells(table: TableItem, text: str | None) -> set[tuple[str, int, int]]:
    grid = table.data.grid
    return {(table.self_ref, r, c) for r, row in enumerate(grid) for c, cell in enumerate(row)
            if text is None or (cell.text.strip() and cell.text.strip() in text)}  # fmt: skip


def held_by_chunk(chunk: DocChunk, doc: DoclingDocument, counts: dict[str, int] | None = None) -> Held:
    """What ``chunk`` (a docchunk or docling-core document chunk) holds (see the module docstring).

    Args:
        chunk: A ``DocChunk``.
        doc: Its document (docling-core may give its chunks plain ``DocItem`` copies:
            the items are read from the document by reference).
        counts: ``ref -> number of chunks of the document listing that item``; items
            listed once are held whole by a chunk without spans.
    """
    from docling_core.types.doc import RefItem, TableItem

    meta = chunk.meta
    items = [RefItem(cref=it.self_ref).resolve(doc) for it in meta.doc_items]
    held = Held()
    spans = getattr(meta, "spans", None)
    text = chunk.text
    if spans is not None:
        for s in spans:
            held.chars.setdefault(s.ref, []).append((s.start, s.end))
    else:
        body = _norm(text)
        for item in items:
            own = getattr(item, "text", None)
            if not isinstance(own, str) or not own.strip():
                continue
            if (counts or {}).get(item.self_ref, 1) == 1 or _norm(own) in body:
                held.chars.setdefault(item.self_ref, []).append((0, len(own)))
                continue
            cursor = 0
            for line in (ln.strip() for ln in text.split("\n")):
                pos = own.find(line, cursor) if line else -1
                if pos >= 0:
                    held.chars.setdefault(item.self_ref, []).append((pos, pos + len(line)))
                    cursor = pos + len(line)
    rows = getattr(meta, "table_rows", None)
    cols = getattr(meta, "table_cols", None)
    for item in items:
        if isinstance(item, TableItem):
            if rows is not None:  # the rows, and the column headers every row's text repeats as its labels
                grid = item.data.grid
                header = [r for r, row in enumerate(grid) if any(cell.column_header for cell in row)]
                if cols is not None:  # part of a split row: the columns it holds, and the headers above them
                    held.cells |= {(item.self_ref, r, c) for r, s, e in cols for c in range(s, e)}
                    held.cells |= {(item.self_ref, r, c) for r in header for _, s, e in cols for c in range(s, e)}
                    continue
                held.cells |= {(item.self_ref, r, c) for r in (*range(*rows), *header)
                               for c in range(item.data.num_cols)}  # fmt: skip
            else:
                held.cells |= _table_cells(item, text)
    return held


def cells_by_position(chunks: Sequence[DocChunk], doc: DoclingDocument) -> dict[int, set[tuple[str, int, int]]]:
    """The table cells each chunk without ``table_rows`` holds, found in reading order (see the module docstring).

    Args:
        chunks: The document chunks of ``doc``, in chunk order.
        doc: Their document.

    Returns:
        ``chunk index -> {(table_ref, row, col), ...}`` for the chunks listing a table
        without ``meta.table_rows``.
    """
    from docling_core.types.doc import RefItem, TableItem

    listing: dict[str, list[int]] = {}
    for i, c in enumerate(chunks):
        if getattr(c.meta, "table_rows", None) is not None:
            continue
        for it in c.meta.doc_items:
            if isinstance(it, TableItem) or it.self_ref.startswith("#/tables/"):
                listing.setdefault(it.self_ref, []).append(i)
    out: dict[int, set[tuple[str, int, int]]] = {}
    for ref, idx in listing.items():
        table = RefItem(cref=ref).resolve(doc)
        grid = table.data.grid
        text, bounds = "", []
        for i in idx:
            bounds.append((len(text), len(text) + len(chunks[i].text), i))
            text += chunks[i].text + "\n"
        header = [r for r, row in enumerate(grid) if any(cell.column_header for cell in row)]
        for i in idx:
            out.setdefault(i, set()).update((ref, r, c) for r in header for c in range(table.data.num_cols))
        cursor = 0
        for r, row in enumerate(grid):
            if r in header:
                continue
            owners: set[int] = set()
            for cell in row:
                value = cell.text.strip()
                pos = text.find(value, cursor) if value else -1
                if pos < 0:
                    continue
                cursor = pos + len(value)
                owners.update(i for a, b, i in bounds if a <= pos < b)
            for i in owners:
                out[i].update((ref, r, c) for c in range(table.data.num_cols))
    return out


def markdown_export(doc: DoclingDocument) -> tuple[str, dict[str, int], dict[tuple[str, int, int], tuple[int, int]]]:
    """A Markdown export of ``doc`` with offsets: ``(markdown, text_offsets, cell_ranges)``.

    ``text_offsets[ref]`` is where ``item.text`` starts in the export (the item's text is
    written verbatim after its prefix: ``#`` for headings, ``- `` for list items);
    ``cell_ranges[(table_ref, row, col)]`` is the ``[start, end)`` range of a cell's text
    in its pipe row (cells spanning columns are written in each column they span;
    the range is the first one). Pictures, furniture and empty items are left out.
    """
    from docling_core.types.doc import ListItem, SectionHeaderItem, TableItem, TextItem, TitleItem

    parts: list[str] = []
    offsets: dict[str, int] = {}
    cells: dict[tuple[str, int, int], tuple[int, int]] = {}
    pos = 0

    def add(block: str) -> int:
        nonlocal pos
        if parts:
            pos += 2
        start = pos
        parts.append(block)
        pos += len(block)
        return start

    for item, _ in doc.iterate_items():
        if isinstance(item, TableItem):
            grid = item.data.grid
            if not grid:
                continue
            lines: list[str] = []
            local: dict[tuple[str, int, int], tuple[int, int]] = {}
            at = 0
            for r, row in enumerate(grid):
                line = "|"
                for c, cell in enumerate(row):
                    value = " ".join(cell.text.split()).replace("|", "/")
                    start = at + len(line) + 1
                    key = (item.self_ref, r, c)
                    if key not in local and value:
                        local[key] = (start, start + len(value))
                    line += f" {value} |"
                lines.append(line)
                at += len(line) + 1
                if r == 0:
                    sep = "|" + "---|" * len(row)
                    lines.append(sep)
                    at += len(sep) + 1
            base = add("\n".join(lines))
            cells.update({k: (base + a, base + b) for k, (a, b) in local.items()})
        elif isinstance(item, TextItem) and item.text.strip():
            if isinstance(item, (TitleItem, SectionHeaderItem)):
                level = 1 if isinstance(item, TitleItem) else item.level + 1
                prefix = "#" * level + " "
            elif isinstance(item, ListItem):
                prefix = "- "
            else:
                prefix = ""
            offsets[item.self_ref] = add(prefix + item.text) + len(prefix)
    return "\n\n".join(parts), offsets, cells


def held_by_range(start: int, end: int, offsets: dict[str, int], texts: dict[str, str],
                  cells: dict[tuple[str, int, int], tuple[int, int]]) -> Held:  # fmt: skip
    """What the export range ``[start, end)`` holds: item characters by overlap, cells held whole."""
    held = Held()
    for ref, base in offsets.items():
        lo, hi = max(start, base), min(end, base + len(texts[ref]))
        if lo < hi:
            held.chars.setdefault(ref, []).append((lo - base, hi - base))
    held.cells = {key for key, (a, b) in cells.items() if start <= a and b <= end}
    return held


# -- scoring -------------------------------------------------------------------
def _covered(ranges: Iterable[tuple[int, int]], start: int, end: int) -> int:
    """Characters of ``[start, end)`` inside the union of ``ranges``."""
    marks = sorted((max(a, start), min(b, end)) for a, b in ranges if min(b, end) > max(a, start))
    total, reach = 0, start
    for a, b in marks:
        a = max(a, reach)
        if b > a:
            total += b - a
            reach = b
    return total


def score_held(evidence: Sequence[Evidence], held: Sequence[Held]) -> float:
    """The share of ``evidence`` the chunks ``held`` hold together, in [0, 1].

    Text evidence counts characters (overlaps of the chunks' ranges counted once),
    cell evidence counts cells; with both kinds, the mean of the two shares.
    """
    chars: dict[str, list[tuple[int, int]]] = {}
    cells: set[tuple[str, int, int]] = set()
    for h in held:
        for ref, ranges in h.chars.items():
            chars.setdefault(ref, []).extend(ranges)
        cells |= h.cells
    shares = []
    texts = [e for e in evidence if e["kind"] == "text" and e["end"] > e["start"]]
    if texts:
        total = sum(e["end"] - e["start"] for e in texts)
        got = sum(_covered(chars.get(e["ref"], ()), e["start"], e["end"]) for e in texts)
        shares.append(got / total)
    units = [(e["ref"], e["row"], e["col"]) for e in evidence if e["kind"] == "cell"]
    if units:
        shares.append(sum(u in cells for u in units) / len(units))
    return float(np.mean(shares)) if shares else 0.0


# -- the run -------------------------------------------------------------------
@dataclass
class DocQaReport:
    """Per-question rows and per-genre figures of one configuration.

    Attributes:
        config: The configuration (chunker, options, route).
        rows: One dict per question: ``qid``, ``genre``, ``doc_id``, ``kind`` and the
            recall figures (fractions) ``doc@1``, ``doc@3``, ``doc@5``, ``doc@budget``,
            ``all@1``, ``all@3``, ``all@5``, ``all@budget``.
        chunks: ``genre -> {"documents", "chunks", "mean_tokens"}`` (mean cl100k tokens of chunk text).
    """

    config: JSONObject
    rows: list[DocQaRow]
    chunks: dict[str, dict[str, float]]

    def summary(self) -> dict[str, dict[str, float]]:
        """``genre (and "overall") -> figure -> mean recall in percent``."""
        names = [f"{s}@{k}" for s in ("doc", "all") for k in (*KS, "budget")]
        out: dict[str, dict[str, float]] = {}
        groups: dict[str, list[DocQaRow]] = {}
        for row in self.rows:
            groups.setdefault(str(row["genre"]), []).append(row)
        groups["overall"] = self.rows
        for genre, rows in groups.items():
            out[genre] = {n: 100 * float(np.mean([r[n] for r in rows])) for n in names} if rows else {}
            out[genre]["questions"] = len(rows)
        return out


def build_chunker(name: str, options: JSONObject) -> DocumentChunker:
    """A docchunk document chunker by name (``CHUNKER_NAMES``) with ``options`` (its own keyword arguments)."""
    import docchunk

    classes: dict[str, type[DocumentChunker]] = {
        "hybrid": docchunk.HybridChunker, "hierarchical": docchunk.HierarchicalChunker,
        "page": docchunk.PageChunker, "line": docchunk.LineBasedTokenChunker,
    }  # fmt: skip
    if name not in classes:
        raise ConfigError(f"unknown chunker {name!r}; choose one of {', '.join(classes)}")
    cls = classes[name]
    kept = {k: v for k, v in options.items() if v is not None and k in cls.model_fields}
    return cls(**kept)


def _peer_chunker(max_tokens: int) -> BaseChunker:
    """docling-core's own ``HybridChunker`` with the bundled all-MiniLM-L6-v2 tokenizer."""
    from docchunk.errors import MissingDependencyError

    try:
        from docling_core.transforms.chunker.hybrid_chunker import HybridChunker
        from docling_core.transforms.chunker.tokenizer.huggingface import HuggingFaceTokenizer
        from transformers import AutoTokenizer
    except ImportError as exc:
        raise MissingDependencyError(
            f"--peer docling-core needs docling-core's chunker package ({exc}); "
            'pip install "docling-core[chunking]"'
        ) from None
    from docchunk.evaluation.embed import DEFAULT_MODEL, _model_path

    hf = AutoTokenizer.from_pretrained(_model_path(DEFAULT_MODEL))
    return HybridChunker(tokenizer=HuggingFaceTokenizer(tokenizer=hf, max_tokens=max_tokens))


def chunk_document(doc: DoclingDocument, route: str, chunker: BaseChunker | SpanChunker, count: Callable[[str], int],
                   cells: str = "position") -> list[Held]:  # fmt: skip
    """What each chunk of ``doc`` holds, for the route ``"doc"`` (a document chunker) or ``"flat"``.

    ``cells``: how a chunk without ``table_rows`` holds table cells, ``"position"`` or
    ``"text"`` (see the module docstring).
    """
    if route == "flat":  # a text chunker
        markdown, offsets, cell_ranges = markdown_export(doc)
        texts = {t.self_ref: t.text for t in doc.texts}
        out = []
        for span in cast("SpanChunker", chunker).chunk(markdown):
            h = held_by_range(span.start_index, span.end_index, offsets, texts, cell_ranges)
            h.text, h.tokens = span.text, count(span.text)
            out.append(h)
        return out
    doc_chunker = cast("BaseChunker", chunker)  # a document chunker: its chunks are docling-core DocChunks
    chunks = cast("list[DocChunk]", list(doc_chunker.chunk(doc)))
    counts: dict[str, int] = {}
    for c in chunks:
        for it in c.meta.doc_items:
            counts[it.self_ref] = counts.get(it.self_ref, 0) + 1
    placed = cells_by_position(chunks, doc) if cells == "position" else {}
    roles = chunk_roles(chunks, doc)
    out = []
    for i, c in enumerate(chunks):
        h = held_by_chunk(c, doc, counts)
        h.role = roles[i]
        if i in placed:
            h.cells = placed[i]
        h.text, h.tokens = doc_chunker.contextualize(c), count(c.text)
        out.append(h)
    return out


def evaluate_docs(data: DocQaData, embed: Callable[[list[str]], np.ndarray],
                  chunker: str = "hybrid", options: JSONObject | None = None, route: str = "doc",
                  budget: int = 1000, progress: bool = False, cells: str = "position",
                  ranker: str = "dense", marked_last: bool = False,
                  chunked: dict[tuple[str, ...], dict[str, list[Held]]] | None = None) -> DocQaReport:  # fmt: skip
    """Chunk every document, rank its chunks (and the genre's) for each question, score the evidence held.

    Args:
        data: From :func:`load_docqa`.
        embed: ``list[str] -> (n, d)`` array (a :class:`CachedEmbedder`).
        chunker: A name of ``CHUNKER_NAMES`` (route ``"doc"``); ignored by the other routes.
        options: The chunker's keyword arguments (``max_tokens``, ``min_tokens``,
            ``docling_compat``, ...); for ``"flat"``, ``chunk_size`` (tokens of all-MiniLM-L6-v2).
        route: ``"doc"`` (docchunk's document chunker), ``"docling-core"`` (docling-core's
            ``HybridChunker``, ``options["max_tokens"]``), ``"flat"`` (Markdown export +
            ``RecursiveChunker``).
        budget: cl100k tokens of retrieved chunk text per question.
        progress: Unused (kept for the CLI's signature).
        cells: How a chunk without ``table_rows`` holds table cells: ``"position"``
            (default) or ``"text"`` (see the module docstring).
        ranker: ``dense``, ``lexical`` (BM25, IDF over the genre's chunks) or ``hybrid``
            (see :mod:`docchunk.evaluation.rankers`).
        marked_last: Rank the chunks that :mod:`docchunk.roles` marks as boilerplate
            after all the others (as ``docchunk search`` leaves them out), keeping each
            group's order; they still count for the budget when reached.
        chunked: A dict that keeps each genre's chunks between calls (keyed by the
            route, chunker, options and genre), so that comparing rankers chunks once.
    """
    check_ranker(ranker)
    if cells not in ("position", "text"):
        raise ConfigError(f"unknown cells mapping {cells!r}; choose position or text")
    import docchunk
    from docchunk.evaluation.run import BUDGET_TOKENIZER, select_budget

    options = dict(options or {})
    built: BaseChunker | SpanChunker
    if route == "doc":
        built = build_chunker(chunker, options)
    elif route == "docling-core":
        built = _peer_chunker(cast(int, options.get("max_tokens") or 256))
    elif route == "flat":
        size = cast(int, options.get("max_tokens") or 256)
        built = docchunk.RecursiveChunker(chunk_size=size, tokenizer=docchunk.get_tokenizer(None))
    else:
        raise ConfigError(f"unknown route {route!r}; choose doc, docling-core or flat")
    count = docchunk.get_tokenizer(BUDGET_TOKENIZER).count_tokens
    rows: list[DocQaRow] = []
    stats: dict[str, dict[str, float]] = {}
    setting = (route, chunker, json.dumps(options, sort_keys=True, default=str), cells)
    for genre, (docs, questions) in data.items():
        key = (*setting, genre, *docs)
        held = (chunked or {}).get(key)
        if held is None:
            held = {d: chunk_document(doc, route, built, count, cells) for d, doc in docs.items()}
        if chunked is not None:
            chunked[key] = held
        flat = [(d, h) for d, hs in held.items() for h in hs]
        vectors = embed([h.text for _, h in flat]) if flat else np.zeros((0, 1))
        owner = np.array([d for d, _ in flat])
        tokens = np.array([h.tokens for _, h in flat])
        qvecs: np.ndarray | list[np.ndarray] = embed([q["question"] for q in questions]) if questions else []
        stats[genre] = {"documents": len(docs), "chunks": len(flat),
                        "mean_tokens": float(tokens.mean()) if len(flat) else 0.0}  # fmt: skip
        scorer = LexicalScorer([h.text for _, h in flat]) if ranker != "dense" else None
        marked = np.array([marked_last and h.role != "content" for _, h in flat], dtype=bool)
        for q, qv in zip(questions, qvecs, strict=True):
            row: DocQaRow = {"qid": q["qid"], "genre": genre, "doc_id": q["doc_id"], "kind": q.get("kind")}
            lexical = scorer.scores(q["question"]) if scorer is not None else None
            for scope in ("doc", "all"):
                idx = np.flatnonzero(owner == q["doc_id"]) if scope == "doc" else np.arange(len(flat))
                picked = lexical[idx] if lexical is not None else None
                order = content_first(idx[rank_chunks(ranker, qv, vectors[idx], picked)], marked) if len(idx) else idx
                for k in KS:
                    row[f"{scope}@{k}"] = score_held(q["evidence"], [flat[i][1] for i in order[:k]])
                chosen = select_budget(order, tokens, budget) if len(order) else order
                row[f"{scope}@budget"] = score_held(q["evidence"], [flat[i][1] for i in chosen])
            rows.append(row)
    config: JSONObject = {"route": route, "chunker": chunker if route == "doc" else route, "options": options,
                          "budget": budget, "cells": cells, "ranker": ranker, "marked_last": marked_last}  # fmt: skip
    return DocQaReport(config=config, rows=rows, chunks=stats)


def format_report(report: DocQaReport) -> str:
    """Per-genre and overall recall (percent) and chunk statistics as a plain-text table."""
    summary = report.summary()
    genres = [g for g in summary if g != "overall"] + ["overall"]
    names = ["doc@1", "doc@3", "doc@5", "doc@budget", "all@1", "all@3", "all@5", "all@budget"]
    lines = ["recall (percent of evidence held): doc = ranking the question's own document, all = the genre's",
             "genre".ljust(9) + "questions".rjust(10) + "".join(n.rjust(11) for n in names)
             + "chunks".rjust(8) + "mean tok".rjust(9)]  # fmt: skip
    for g in genres:
        s = summary[g]
        st = report.chunks.get(g)
        total = sum(v["chunks"] for v in report.chunks.values())
        mean = (sum(v["chunks"] * v["mean_tokens"] for v in report.chunks.values()) / total) if total else 0.0
        chunks, tok = (st["chunks"], st["mean_tokens"]) if st else (total, mean)
        lines.append(g.ljust(9) + str(int(s["questions"])).rjust(10) + "".join(f"{s.get(n, 0):11.1f}" for n in names)
                     + str(int(chunks)).rjust(8) + f"{tok:9.1f}")  # fmt: skip
    return "\n".join(lines)
