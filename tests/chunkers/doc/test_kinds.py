"""The document chunkers by name: one table (``chunkers/doc/kinds.KINDS``) that every command and the eval read.

Issue 50's newcomer check: adding a document chunker took 7 files (its module, the
package's exports, ``cli/settings.DOC_KINDS``, ``cli/options.DOC_CHUNKERS`` and its
construction, ``cli/eval_docs.CHUNKERS``, ``evaluation/docqa.CHUNKER_NAMES`` and its
class); now its module and one entry.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from docling_core.types.doc import DoclingDocument

import docchunk
from docchunk.chunkers.doc.base import DocumentChunker, check_document
from docchunk.chunkers.doc.kinds import KINDS, ChunkerKind
from docchunk.cli.main import cli
from docchunk.cli.options import make_doc_chunker
from docchunk.cli.settings import ChunkSettings
from docchunk.evaluation.docqa import CHUNKER_NAMES, build_chunker
from docchunk.serialization.chunk import DocChunk
from tests.helpers import DATA, load

DOC = DATA / "md_deepseek__deepseek_title.md.json"


class FlatChunker(DocumentChunker):
    """A chunker made up for the test: the walk's elements, one chunk each, without headings."""

    def chunk(self, dl_doc: DoclingDocument, **kwargs: Any) -> Iterator[DocChunk]:
        check_document(dl_doc)
        serializer = self.mode.serializer(self.serializer_provider, dl_doc, "records", self.include_furniture)
        for piece in self.mode.walk(dl_doc, serializer, False, None):
            if piece.text.strip():
                piece.headings = None
                yield self._to_chunk(piece, self._tok.count_tokens(piece.text), doc=dl_doc)


@pytest.fixture
def flat_kind(monkeypatch):
    kind = ChunkerKind("flat", __name__, "FlatChunker", "one chunk per element, no headings")
    monkeypatch.setitem(KINDS, "flat", kind)
    return kind


def test_every_command_offers_the_tables_chunkers():
    doc_kinds = list(KINDS)
    for command in ("chunk", "inspect", "index", "eval-docs"):
        option = next(p for p in cli.commands[command].params if p.name == "chunker")
        assert [c for c in option.type.choices if c in KINDS] == doc_kinds, command
    assert CHUNKER_NAMES == tuple(KINDS)


@pytest.mark.parametrize("name", list(KINDS))
def test_each_entry_loads_a_document_chunker(name):
    cls = KINDS[name].load()
    assert issubclass(cls, DocumentChunker) and cls.__module__ == KINDS[name].module
    assert getattr(docchunk, cls.__name__, cls) is cls  # a public name is the same class


def test_the_shipped_chunkers_are_public():
    assert [KINDS[n].load() for n in ("hybrid", "hierarchical", "page", "line")] == [
        docchunk.HybridChunker, docchunk.HierarchicalChunker, docchunk.PageChunker, docchunk.LineBasedTokenChunker
    ]


def test_a_new_entry_is_built_by_the_cli_and_the_eval(flat_kind):
    doc = load(DOC)
    expected = [c.text for c in docchunk.HierarchicalChunker().chunk(doc) if c.text.strip()]
    by_cli = make_doc_chunker(ChunkSettings(chunker="flat"), debug=False)
    by_eval = build_chunker("flat", {"max_tokens": 256, "docling_compat": False})
    for chunker in (by_cli, by_eval):
        assert isinstance(chunker, FlatChunker)
        chunks = list(chunker.chunk(doc))
        assert [c.text for c in chunks] == expected and all(c.meta.headings is None for c in chunks)
