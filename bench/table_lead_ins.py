"""Where each table's lead-in lands: with its own table, or at the end of the previous table's chunk.

Usage:
    python bench/table_lead_ins.py [PATH ...] [--modes default,compat]

PATH: DoclingDocument JSON files or folders of them (default: ``../shared/corpus/docling``
and ``../shared/corpus/docling-core-tests``; ``bench/heldout.py``'s folder for held-out
documents). For each configuration (all-MiniLM-L6-v2 at 64 and 256 tokens, cl100k at
128) it chunks every document with ``HybridChunker`` and, for each table whose item
directly before it in reading order is a paragraph (a text item, the lead-in), counts
where that paragraph lands (issue 46):

- opening: chunks whose first ``doc_items`` entry is a table (the issue's denominator);
- prev-table: of those, chunks whose table's lead-in ends the previous chunk while that
  chunk holds another table (the fault; 9 of 72 when issue 46 was filed);
- with its table: lead-ins in the chunk that holds the first rows of their table;
- after another table: lead-ins that are the last item of a chunk holding another
  table and not their own (the fault, counted per table);
- elsewhere: alone, or with other text.
"""

from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
warnings.simplefilter("ignore")
sys.path.insert(0, str(Path(__file__).parent))

from structure_kept import parse_documents  # noqa: E402  (bench/ on the path first)
from user_docs import tokenizer  # noqa: E402

CONFIGS = [("minilm", 64), ("minilm", 256), ("cl100k", 128)]
FIELDS = ("tables", "opening", "prev-table", "with its table", "after another table", "elsewhere")


def lead_ins(doc: Any) -> dict[str, str]:
    """Table ref -> ref of the paragraph directly before it in reading order (text items only)."""
    from docling_core.types.doc import DocItemLabel, TableItem, TextItem

    items = [it for it, _ in doc.iterate_items()]
    return {
        it.self_ref: items[k - 1].self_ref
        for k, it in enumerate(items)
        if isinstance(it, TableItem)
        and k > 0
        and isinstance(items[k - 1], TextItem)
        and items[k - 1].label in (DocItemLabel.TEXT, DocItemLabel.PARAGRAPH)
    }


def measure(doc: Any, chunks: list[Any], out: dict[str, int]) -> None:
    """Add one chunked document's counts to ``out``."""
    from docling_core.types.doc import TableItem

    leads = lead_ins(doc)
    refs = [[it.self_ref for it in c.meta.doc_items] for c in chunks]
    tables = [{it.self_ref for it in c.meta.doc_items if isinstance(it, TableItem)} for c in chunks]
    out["tables"] += len(leads)
    for k, chunk in enumerate(chunks):
        first = chunk.meta.doc_items[0] if chunk.meta.doc_items else None
        if k > 0 and isinstance(first, TableItem):
            out["opening"] += 1
            lead = leads.get(first.self_ref)
            if lead is not None and refs[k - 1] and refs[k - 1][-1] == lead and tables[k - 1] - {first.self_ref}:
                out["prev-table"] += 1
    for table, lead in leads.items():
        home = next((k for k, held in enumerate(tables) if table in held), None)
        if home is not None and lead in refs[home]:
            out["with its table"] += 1
        elif any(r and r[-1] == lead and held - {table} for r, held in zip(refs, tables, strict=True)):
            out["after another table"] += 1
        else:
            out["elsewhere"] += 1


def main(argv: list[str] | None = None) -> int:
    import docchunk

    args, docs = parse_documents(argv, __doc__)
    if docs is None:
        return 1
    print("| tokenizer | max_tokens | mode | " + " | ".join(FIELDS) + " |")
    print("|---|---|---|" + "---:|" * len(FIELDS))
    for kind, size in CONFIGS:
        tok = tokenizer(kind, size)
        for mode in args.modes.split(","):
            chunker = docchunk.HybridChunker(tokenizer=tok, max_tokens=size, docling_compat=mode == "compat")
            out = dict.fromkeys(FIELDS, 0)
            for doc in docs:
                if doc.tables:
                    measure(doc, list(chunker.chunk(doc)), out)
            name = "MiniLM" if kind == "minilm" else "cl100k"
            print(f"| {name} | {size} | {mode} | " + " | ".join(str(out[f]) for f in FIELDS) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
