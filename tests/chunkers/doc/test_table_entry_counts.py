"""A long row's entries are counted by arithmetic from the counts with its lead and mark (issue 46, speed).

``tables.pack._split_row`` counts each entry with the row's lead and mark (is one too
large alone?), then packs the entries by their own counts; those now follow by
arithmetic where both boundaries are clean (``_remember_inner``), not by tokenizing
every entry again (a JATS article's long rows: 26 tokenizer batches a call). The
remembered count must be the tokenizer's own: checked on every entry of every row of
the corpus' tables and the bundled documents, with MiniLM and cl100k.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from docling_core.types.doc import DoclingDocument

import docchunk
from docchunk.chunkers.doc.tables.pack import _remember_inner
from docchunk.serialization.tables import table_rows
from docchunk.tokenizers import Sizer
from tests.helpers import CORPUS_REASON

DATA = Path(__file__).resolve().parents[2] / "data"
CORPUS = Path(__file__).resolve().parents[3].parent / "shared" / "corpus" / "docling"
PATHS = sorted(DATA.glob("*.json")) + sorted(CORPUS.glob("*.json"))


@pytest.fixture(params=["minilm", "cl100k"])
def tokenizer(request, minilm_dir, cl100k):
    if request.param == "cl100k" and not CORPUS.exists():
        # cl100k joins the space after a record's lead with the next word: no clean boundary in tests/data
        pytest.skip(f"{CORPUS_REASON}: only the corpus' tables give cl100k entries with clean boundaries")
    return docchunk.get_tokenizer(f"hf:{minilm_dir}") if request.param == "minilm" else docchunk.get_tokenizer(cl100k)


def test_remembered_entry_counts_are_the_tokenizers(tokenizer) -> None:
    checked = 0
    for path in PATHS:
        doc = DoclingDocument.load_from_json(path)
        for table in doc.tables:
            for row in table_rows(table, doc).rows:
                opening, mark = row.lead, row.sep.rstrip()
                for prefix, value in row.cells:
                    entry = prefix + value
                    sizer = Sizer(tokenizer)
                    _remember_inner(sizer, opening, entry, mark, tokenizer.count_tokens(opening + entry + mark))
                    if entry in sizer.cache:
                        assert sizer.cache[entry] == tokenizer.count_tokens(entry), (path.name, entry)
                        checked += 1
    assert checked > (50 if CORPUS.exists() else 20)  # tests/data alone: 34 with MiniLM
