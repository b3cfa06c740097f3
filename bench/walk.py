"""The walk of one document through a chunker's ``chunk``: the files, functions and file-to-file call edges it runs.

Usage:
    python bench/walk.py [DOC.json] [--max-tokens 256] [--compat] [--peer] [--list]

``sys.setprofile`` records every Python call made while the chunks of one document
are produced (the second run: the first one loads modules and fills caches). Counted
are the calls into the chunker's own package (``src/docchunk``; with ``--peer``,
docling-core's ``HybridChunker`` and the files of ``docling_core/transforms``, its
chunkers and serializers, leaving out its document model): the
files, the functions (file, name, first line) and the file-to-file call edges, an
edge from the nearest calling frame in the same package to the called one (calls
through pydantic, the standard library or tokenizers in between are skipped over).
Module bodies (``<module>``) are left out. ``--list`` prints the files with their
functions and the edges. The figures are the baseline of issue 50's run/mode split.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "examples" / "docling_paper.json"


class Walk:
    """The calls into the files under ``root`` while it is the profile function."""

    def __init__(self, root: Path):
        self.root = str(root)
        self.functions: set[tuple[str, str, int]] = set()
        self.edges: dict[tuple[str, str], int] = defaultdict(int)

    def _ours(self, frame: FrameType | None) -> str | None:
        name = frame.f_code.co_filename if frame is not None else ""
        return name[len(self.root) + 1 :] if name.startswith(self.root) else None

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call" or frame.f_code.co_name == "<module>":
            return
        file = self._ours(frame)
        if file is None:
            return
        self.functions.add((file, frame.f_code.co_qualname, frame.f_code.co_firstlineno))
        caller = frame.f_back
        while caller is not None and self._ours(caller) is None:
            caller = caller.f_back
        source = self._ours(caller)
        if source is not None and source != file:
            self.edges[(source, file)] += 1

    @property
    def files(self) -> set[str]:
        return {f for f, _, _ in self.functions}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("doc", nargs="?", type=Path, default=DOC)
    parser.add_argument("--max-tokens", type=int, default=256)
    parser.add_argument("--compat", action="store_true", help="docling_compat=True")
    parser.add_argument("--peer", action="store_true", help="docling-core's own HybridChunker")
    parser.add_argument("--list", action="store_true", help="print the files, functions and edges")
    args = parser.parse_args()

    import docchunk

    doc = docchunk.load_document(args.doc)
    if args.peer:
        import docling_core
        from docling_core.transforms.chunker.hybrid_chunker import HybridChunker
        from docling_core.transforms.chunker.tokenizer.huggingface import HuggingFaceTokenizer
        from transformers import PreTrainedTokenizerFast  # docling-core's tokenizer needs transformers

        from docchunk.tokenizers.hf import BUNDLED_TOKENIZER_JSON

        hf = PreTrainedTokenizerFast(tokenizer_file=str(BUNDLED_TOKENIZER_JSON))
        tok = HuggingFaceTokenizer(tokenizer=hf, max_tokens=args.max_tokens)
        chunker: Any = HybridChunker(tokenizer=tok)
        root = Path(docling_core.__file__).parent / "transforms"  # its chunkers and serializers (not its models)
    else:
        chunker = docchunk.HybridChunker(max_tokens=args.max_tokens, docling_compat=args.compat)
        root = Path(docchunk.__file__).parent
    first = [c.text for c in chunker.chunk(doc)]  # loads modules, fills caches
    walk = Walk(root)
    sys.setprofile(walk)
    try:
        again = [c.text for c in chunker.chunk(doc)]
    finally:
        sys.setprofile(None)
    assert again == first, "the profiled run gave other chunks"
    who = "docling-core HybridChunker" if args.peer else f"docchunk HybridChunker(docling_compat={args.compat})"
    print(f"{who}, max_tokens={args.max_tokens}, {args.doc.name}: {len(first)} chunks")
    print(f"files {len(walk.files)}  functions {len(walk.functions)}  file-to-file call edges {len(walk.edges)}")
    if args.list:
        for file in sorted(walk.files):
            names = sorted({n for f, n, _ in walk.functions if f == file})
            print(f"  {file} ({len(names)}): {', '.join(names)}")
        for (a, b), n in sorted(walk.edges.items()):
            print(f"  {a} -> {b}  ({n} calls)")


if __name__ == "__main__":
    main()
