"""What the boilerplate rules (``docchunk.roles``) mark, on real documents: counts per role and every marked chunk.

Usage:
    python bench/roles_survey.py [PATH ...] [--docqa ../shared/eval/doc-qa] [--half tune] [--limit 40] [--show 3]

Chunks each document (DoclingDocument JSON, or anything ``docchunk.load_document``
converts: HTML, DOCX, Markdown ...) of the PATHs (files or folders; default
``../shared/corpus``) and of the doc-qa genres (``--docqa``, ``--half``, the first
``--limit`` documents of each genre) with the default ``HybridChunker``, applies
``chunk_roles`` and prints, per source, the chunks per role, then the first ``--show``
marked chunks of each role and source with their heading path, so that a person can
read them: a rule that marks real content is a defect. Also checks that marking
changes no chunk's text.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import docchunk  # noqa: E402
from docchunk.roles import ROLES, mark_roles  # noqa: E402


def _documents(paths: list[Path]):
    from docchunk.loading import iter_input_files

    for path in paths:
        for file in iter_input_files(path):
            try:
                yield str(file), docchunk.load_document(file)
            except Exception as exc:  # a file the survey cannot read is named and skipped
                print(f"skip {file}: {type(exc).__name__}: {str(exc)[:80]}", file=sys.stderr)


def _docqa(folder: Path, half: str, limit: int | None):
    from docchunk.evaluation.docqa import load_docqa

    for genre, (docs, _) in load_docqa(folder, None, limit, 0, half).items():
        for doc_id, doc in docs.items():
            yield f"doc-qa/{genre}/{doc_id}", doc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, default=[ROOT.parent / "shared" / "corpus"])
    parser.add_argument("--docqa", type=Path, default=None)
    parser.add_argument("--half", default="tune", choices=["all", "tune", "check"])
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--show", type=int, default=3)
    args = parser.parse_args()
    chunker = docchunk.HybridChunker()
    totals: Counter[str] = Counter()
    per_source: dict[str, Counter[str]] = {}
    shown: list[str] = []
    sources = list(_documents(args.paths))
    if args.docqa is not None:
        sources += list(_docqa(args.docqa, args.half, args.limit))
    for name, doc in sources:
        try:
            chunks = list(chunker.chunk(doc))
        except Exception as exc:
            print(f"skip {name}: {type(exc).__name__}", file=sys.stderr)
            continue
        texts = [c.text for c in chunks]
        roles = mark_roles(chunks, doc)
        assert [c.text for c in chunks] == texts, name  # marking never changes text
        totals.update(roles)
        per_source[name] = Counter(roles)
        seen: Counter[str] = Counter()
        for chunk, role in zip(chunks, roles, strict=True):
            if role != "content" and seen[role] < args.show:
                seen[role] += 1
                path = " > ".join(chunk.meta.headings or [])
                shown.append(f"[{role}] {name}  {path}\n    {chunk.text[:300]!r}")
    print(f"{len(per_source)} documents, {sum(totals.values())} chunks")
    print("  ".join(f"{role} {totals[role]}" for role in ROLES))
    for name, counts in per_source.items():
        marked = {r: n for r, n in counts.items() if r != "content"}
        if marked:
            print(f"  {name}: {marked} of {sum(counts.values())}")
    print("\n".join(shown))


if __name__ == "__main__":
    main()
