"""bench/structure_kept.py runs and its counts are right on one tests/data document."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _bench():
    spec = importlib.util.spec_from_file_location("structure_kept", ROOT / "bench" / "structure_kept.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_structure_kept_bench_on_a_test_document(capsys):
    bench = _bench()
    assert bench.main([str(ROOT / "tests" / "data" / "docling_core__2_inp_dl_doc.json"), "--modes", "default"]) == 0
    rows = [
        line
        for line in capsys.readouterr().out.splitlines()
        if line.startswith("| MiniLM") or line.startswith("| cl100k")
    ]
    assert len(rows) == 3
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert int(cells[3]) > 0  # chunks
        assert cells[4:] == ["0", "0", "0", "0"], row  # nothing flattened, no sibling path, no split run or lead-in


def test_structure_kept_bench_counts_a_sibling_path_and_a_split_run():
    import docchunk
    from tests.chunkers.doc.test_structure_kept import contract, linked

    bench = _bench()
    compat = docchunk.HybridChunker(docling_compat=True)
    chunks = list(compat.chunk(linked()))
    assert bench.split_runs(linked(), chunks) == 1  # docling-core writes one fragment per line
    default = list(docchunk.HybridChunker().chunk(contract()))
    assert bench.sibling_paths(contract(), default) == 0


def test_split_runs_finds_fragments_in_order():
    """The count looked for a run's last fragment from the end of the chunk: a short last fragment
    (``.``) met again in a later line counted a run written on one line as split (``equations``)."""
    bench = _bench()
    assert bench._in_order("Area is A= r2.\n- Next item.", ["Area is", "A= r2", "."]) == (0, 13)
    assert bench._in_order("Area is\nA= r2.", ["Area is", "A= r2"]) == (0, 8)
    assert bench._in_order("A b", ["b", "A"]) is None
