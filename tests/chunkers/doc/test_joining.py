"""``joining.join_pieces``, the one writer of every merge of the default mode, held to its invariants.

Pieces are the default mode's own, before any merge (``merge_peers=False``, no
``min_tokens``), of generated documents with headings, lists, tables, captions and
pages; joined in document order, two at a time and folded as ``merge_small`` folds
them, every joined piece must:

- keep every text anchor slicing its item's text (the spans of the chunk);
- keep every anchored character of both pieces, except a heading line of the second
  that the first's path already holds (written once, from the first's side);
- have the common prefix of the two heading paths as its path;
- write no heading more often than the two pieces did (a heading both paths share
  counts once).
"""

from __future__ import annotations

from itertools import pairwise

import pytest
from docling_core.types.doc import DoclingDocument, SectionHeaderItem, TitleItem
from hypothesis import given
from hypothesis import strategies as st

import docchunk
from docchunk import HybridChunker
from docchunk.chunkers.doc.hybrid_run import HybridRun
from docchunk.chunkers.doc.joining import common_length, join_pieces
from docchunk.chunkers.doc.piece import Piece
from docchunk.chunkers.doc.provenance import anchors_of
from tests.property.strategies import structured_documents


def _pieces(tok: object, doc: DoclingDocument) -> tuple[HybridRun, list[Piece]]:
    """The default mode's pieces of ``doc`` before any merge, and the run that made them."""
    chunker = HybridChunker(tokenizer=tok, max_tokens=64, merge_peers=False)
    mode = chunker.mode
    serializer = mode.serializer(chunker.serializer_provider, doc, chunker.table_format, chunker.include_furniture)
    run = HybridRun(chunker._run_settings(), mode.run_hooks, chunker.token_counter, serializer, doc)
    return run, [p for p in mode.hybrid_pieces(run, doc) if p.code_chunks is None]


def _texts(doc: DoclingDocument) -> dict[str, str]:
    return {it.self_ref: it.text for it, _ in doc.iterate_items(with_groups=False) if hasattr(it, "text")}


def _anchored(piece: Piece, texts: dict[str, str]) -> set[tuple[str, int]]:
    """The characters of item texts ``piece`` holds, as ``(ref, index in the item's text)``; each anchor checked."""
    out = set()
    for pos, ref, start, n in anchors_of(piece):
        if ref in texts:
            assert piece.text[pos : pos + n] == texts[ref][start : start + n], (ref, piece.text)
            out.update((ref, k) for k in range(start, start + n))
    return out


def _written(heading: str, piece: Piece) -> int:
    """How often ``heading`` is written in ``piece``: in its path, and as whole lines of its text."""
    lines, own = piece.text.split("\n"), heading.split("\n")
    in_text = sum(lines[k : k + len(own)] == own for k in range(len(lines)))
    return in_text + (piece.headings or []).count(heading)


def _check_join(a: Piece, b: Piece, joined: Piece, doc: DoclingDocument, texts: dict[str, str]) -> None:
    ha, hb = a.headings or [], b.headings or []
    common = common_length(ha, hb)
    assert joined.headings == (ha[:common] or None)
    held, kept = _anchored(a, texts) | _anchored(b, texts), _anchored(joined, texts)
    headings = {it.self_ref: it.text for it in b.items if isinstance(it, (TitleItem, SectionHeaderItem))}
    for ref, k in sorted(held - kept):
        # only a heading line of b that a's path already holds, written once from a's side
        assert ref in headings and _written(headings[ref], joined) >= 1, (ref, k, joined.text)
    for heading in {*ha, *hb} - {""}:
        shared = ha[:common].count(heading)
        bound = max(1, _written(heading, a) + _written(heading, b) - shared)
        assert _written(heading, joined) <= bound, (heading, a.text, b.text, joined.text)


@pytest.fixture(scope="module")
def minilm(minilm_dir):
    return docchunk.get_tokenizer(f"hf:{minilm_dir}")


@given(doc=structured_documents(), fold=st.integers(2, 6))
def test_joined_pieces_keep_their_texts_spans_and_headings(minilm, doc, fold):
    for k, item in enumerate(doc.texts):  # each text its own, so a line written twice is not a repeated word
        item.text = item.orig = f"{item.text} n{k}"
    run, pieces = _pieces(minilm, doc)
    texts = _texts(doc)
    for a, b in pairwise(pieces):
        _check_join(a, b, join_pieces(run, a, b), doc, texts)
    acc = pieces[0] if pieces else None
    for b in pieces[1:fold]:
        assert acc is not None
        joined = join_pieces(run, acc, b)
        _check_join(acc, b, joined, doc, texts)
        acc = joined


def test_the_check_finds_a_heading_written_twice(minilm):
    """The check can fail: a join that wrote the shared heading into the text again is caught."""
    doc = DoclingDocument(name="twice")
    doc.add_heading(text="Scope", level=1)
    doc.add_text(label="text", text="The first paragraph of the scope.")
    doc.add_text(label="text", text="The second paragraph of the scope.")
    run, pieces = _pieces(minilm, doc)
    a, b = pieces[0], pieces[1]
    joined = join_pieces(run, a, b)
    _check_join(a, b, joined, doc, _texts(doc))
    doubled = Piece(text="Scope\n" + joined.text, items=joined.items, headings=joined.headings)
    with pytest.raises(AssertionError):
        _check_join(a, b, doubled, doc, _texts(doc))
