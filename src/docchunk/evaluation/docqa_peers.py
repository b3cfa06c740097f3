"""The doc-qa peers ``eval-docs --peer`` compares with: docling-core's own chunker, and a flat Markdown route.

docling-core's chunks are scored as :mod:`docchunk.evaluation.docqa_held` says for
chunks without spans. The flat route exports the document to Markdown with offsets (:func:`markdown_export`:
headings ``#``, list items ``- ``, paragraphs, tables as pipe rows, one block per item
joined by a blank line), chunks it with docchunk's ``RecursiveChunker`` and maps the
evidence through the export's offsets: characters by overlap, a cell when the chunk
holds its text in the export.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docchunk.evaluation.docqa_held import Held

if TYPE_CHECKING:
    from docling_core.types.doc import DoclingDocument

    from docchunk.serialization._docling import BaseChunker

__all__ = ["held_by_range", "markdown_export", "peer_chunker"]


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


def peer_chunker(max_tokens: int) -> BaseChunker:
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
    from docchunk.embeddings import DEFAULT_MODEL, model_path

    hf = AutoTokenizer.from_pretrained(model_path(DEFAULT_MODEL))
    return HybridChunker(tokenizer=HuggingFaceTokenizer(tokenizer=hf, max_tokens=max_tokens))
