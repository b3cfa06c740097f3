"""A folder of DoclingDocument JSON that docchunk was not tuned on, for ``bench/run.py --corpus``.

Usage:
    python bench/heldout.py OUT_DIR [--shared ../shared]

The speed work was profiled on ``../shared/corpus/docling``; figures on those
documents alone flatter it. This gathers others, from the same shared folder:

- docling-core's own chunker and document test inputs
  (``corpus/docling-core-tests/chunker/*_inp_dl_doc.json``, its generated
  fixtures, and ``doc/*.json`` without the expected chunk files);
- the raw sources of ``corpus/sources`` that have no converted twin in
  ``corpus/docling`` (same original file name), converted with docling
  (``pip install -e ".[convert]"``; without it they are left out, with a note).

Then: ``python bench/run.py --corpus OUT_DIR --skip-big``.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def docling_core_inputs(shared: Path) -> list[Path]:
    """docling-core's test documents: chunker inputs, generated fixtures, document inputs (not expected outputs)."""
    tests = shared / "corpus" / "docling-core-tests"
    found = sorted((tests / "chunker").glob("*_inp_dl_doc.json"))
    found += sorted((tests / "chunker" / "_generated_fixtures").glob("*.json"))
    found += sorted(p for p in (tests / "doc").glob("*.json") if "_chunks" not in p.name)
    return found


def unconverted_sources(shared: Path) -> list[Path]:
    """Raw sources whose original name no ``corpus/docling/<format>__<name>.json`` carries."""
    converted = {p.stem.split("__", 1)[-1] for p in (shared / "corpus" / "docling").glob("*.json")}
    return sorted(p for p in (shared / "corpus" / "sources").iterdir() if p.is_file() and p.name not in converted)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder to write the JSON files to (created)")
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared", help="the shared folder")
    args = parser.parse_args()
    if not (args.shared / "corpus").is_dir():
        sys.exit(f"no shared corpus at {args.shared / 'corpus'}; pass --shared DIR (the folder beside the project)")
    args.out.mkdir(parents=True, exist_ok=True)
    for path in docling_core_inputs(args.shared):
        shutil.copy(path, args.out / f"dct__{path.name}")
    sources = unconverted_sources(args.shared)
    try:
        from docchunk.loading import load_document

        for path in sources:
            doc = load_document(path)
            (args.out / f"conv__{path.name}.json").write_text(doc.model_dump_json(), encoding="utf-8")
    except ImportError as exc:  # docchunk's MissingDependencyError is an ImportError
        print(f"sources not converted ({exc}); the folder holds docling-core's test documents only", file=sys.stderr)
    print(f"{len(list(args.out.glob('*.json')))} documents in {args.out}")


if __name__ == "__main__":
    main()
