"""OverlapRefinery: exact expected values for text chunks, document chunks, errors."""

from __future__ import annotations

import pytest

import docchunk
from docchunk import Chunk, OverlapRefinery, RecursiveLevel, RecursiveRules
from tests.helpers import DATA, load

TEXT = (
    "This is the first sentence. This is the second sentence, providing context. "
    "This is the third sentence, which needs context from the second."
)


def texts(chunks):
    return [c.text for c in chunks]


def test_spec_example_token_chunks_half_context_suffix_merged():
    chunks = docchunk.TokenChunker(tokenizer="character", chunk_size=40)(TEXT)
    assert texts(chunks) == [
        "This is the first sentence. This is the ",
        "second sentence, providing context. This",
        " is the third sentence, which needs cont",
        "ext from the second.",
    ]
    refined = OverlapRefinery(tokenizer="character", context_size=0.5, method="suffix", merge=True)(chunks)
    assert refined is chunks  # inplace by default
    # the largest chunk has 40 characters: 0.5 -> 20 characters of the next chunk
    assert texts(refined) == [
        "This is the first sentence. This is the second sentence, pro",
        "second sentence, providing context. This is the third senten",
        " is the third sentence, which needs context from the second.",
        "ext from the second.",
    ]
    assert [(c.start_index, c.end_index, c.token_count) for c in refined] == [
        (0, 60, 60), (40, 100, 60), (80, 140, 60), (120, 140, 20)
    ]
    assert all(TEXT[c.start_index : c.end_index] == c.text for c in refined)


def test_fraction_of_largest_chunk_on_very_different_lengths():
    chunks = [
        Chunk(text="a" * 100, start_index=0, end_index=100, token_count=100),
        Chunk(text="bb", start_index=100, end_index=102, token_count=2),
        Chunk(text="c" * 30, start_index=102, end_index=132, token_count=30),
    ]
    refined = OverlapRefinery(context_size=0.1, method="prefix")(chunks)
    # 10% of the largest (100) is 10 characters; a 2-character neighbour is taken whole
    assert texts(refined) == ["a" * 100, "a" * 10 + "bb", "bb" + "c" * 30]
    assert [(c.start_index, c.end_index) for c in refined] == [(0, 100), (90, 102), (100, 132)]
    tiny = [Chunk(text="x", start_index=0, end_index=1), Chunk(text="y", start_index=1, end_index=2)]
    assert texts(OverlapRefinery(context_size=0.01)(tiny)) == ["xy", "y"]  # never rounds to zero


def test_recursive_mode_three_levels():
    rules = RecursiveRules(
        levels=[
            RecursiveLevel(delimiters=["\n\n"], include_delim="prev"),
            RecursiveLevel(delimiters=["."], include_delim="prev"),
            RecursiveLevel(whitespace=True),
        ]
    )
    chunks = [
        Chunk(text="Para one.\n\nFirst sentence. Second sentence.", start_index=0, end_index=43),
        Chunk(text="Short.\n\nNext para here. More words follow", start_index=43, end_index=83),
    ]
    prefix = OverlapRefinery(
        context_size=20, mode="recursive", method="prefix", rules=rules, merge=False, inplace=False, stop_at=()
    )
    out = prefix(chunks)
    # paragraphs: "First sentence. Second sentence." (32) is too long; sentences: " Second sentence." (17) fits
    assert out[1].context_prefix == " Second sentence." and out[0].context_prefix is None
    assert texts(out) == texts(chunks)
    suffix = OverlapRefinery(
        context_size=10, mode="recursive", method="suffix", rules=rules, merge=False, inplace=False, stop_at=()
    )
    out = suffix(chunks)
    # "Short.\n\n" (8) is the first paragraph unit and fits 10 characters
    assert out[0].context_suffix == "Short.\n\n" and out[1].context_suffix is None
    words = OverlapRefinery(context_size=6, mode="recursive", method="suffix", rules=rules, merge=False, inplace=False)
    assert words(chunks)[0].context_suffix == "Short."  # sentence level: "Short." (6)


def test_prefix_and_suffix_without_merge_leave_text_and_input():
    chunks = docchunk.RecursiveChunker(chunk_size=12, separators=[" "])("one two three four five six")
    before = [c.model_copy() for c in chunks]
    out = OverlapRefinery(context_size=3, method="prefix", merge=False, inplace=False)(chunks)
    assert [c.model_dump() for c in chunks] == [c.model_dump() for c in before]  # input untouched
    assert texts(out) == texts(chunks)
    assert [c.context_prefix for c in out] == [None, "two", "our"]
    out = OverlapRefinery(context_size=3, method="suffix", merge=False, inplace=False)(chunks)
    assert [c.context_suffix for c in out] == [" th", " fi", None]


def test_word_tokenizer_context():
    chunks = docchunk.RecursiveChunker(chunk_size=12, separators=[" "])("one two three four five six")
    out = OverlapRefinery(tokenizer="word", context_size=1, method="suffix")(chunks)
    # a token runs to the start of the next one, so the whitespace after it comes along
    assert texts(out) == ["one two three ", " three four five ", " five six"]


def test_empty_and_single():
    refinery = OverlapRefinery(context_size=5)
    assert refinery([]) == []
    single = [Chunk(text="alone", start_index=0, end_index=5, token_count=5)]
    assert texts(refinery(single)) == ["alone"]


@pytest.mark.parametrize("bad", [0, -1, 1.5, 0.0, True, "3", None])
def test_bad_context_size(bad):
    with pytest.raises(docchunk.ConfigError, match="context_size"):
        OverlapRefinery(context_size=bad)


def test_bad_mode_method_and_token_mode_needs_offsets():
    with pytest.raises(docchunk.ConfigError, match="mode"):
        OverlapRefinery(mode="semantic")
    with pytest.raises(docchunk.ConfigError, match="method"):
        OverlapRefinery(method="both")
    with pytest.raises(docchunk.TokenizerError, match="offsets"):
        OverlapRefinery(tokenizer=len)
    assert OverlapRefinery(tokenizer=len, mode="recursive").mode == "recursive"


def test_document_chunks_contextualize_and_budget():
    from tests.helpers import DATA, load

    doc = load(DATA / "docling_core__2_inp_dl_doc.json")
    chunker = docchunk.HybridChunker(max_tokens=64)
    plain = list(chunker.chunk(doc))
    merged = OverlapRefinery(tokenizer=chunker.token_counter, context_size=8, method="suffix", inplace=False)(plain)
    assert [c.text for c in merged[:-1]] != [c.text for c in plain[:-1]]
    for before, after, nxt in zip(plain, merged, plain[1:], strict=False):
        assert after.meta.token_count == chunker.token_counter.count_tokens(chunker.contextualize(after))
        assert after.meta.token_count <= 64 or after.meta.oversized, "the chunker's budget holds"
        if after.text == before.text:  # no room left under the chunker's budget: no context
            assert before.meta.token_count + 1 >= 64 or before.meta.oversized
            continue
        # document chunks are separate elements: the context goes on its own line
        assert after.text.startswith(before.text + "\n")
        assert nxt.text.startswith(after.text[len(before.text) + 1 :])
    assert merged[-1].text == plain[-1].text

    kept = OverlapRefinery(
        tokenizer=chunker.token_counter, context_size=8, method="prefix", merge=False, inplace=False
    )(plain)
    assert [c.text for c in kept] == [c.text for c in plain]
    assert kept[0].meta.context_prefix is None and kept[1].meta.context_prefix
    ctx = chunker.contextualize(kept[1])
    assert kept[1].meta.context_prefix + "\n" + kept[1].text in ctx
    assert "context_prefix" in kept[1].meta.export_json_dict()

    budget = OverlapRefinery(tokenizer=chunker.token_counter, context_size=30, max_tokens=64, inplace=False)(plain)
    for before, after in zip(plain, budget, strict=True):
        assert after.text.startswith(before.text)  # the body is never trimmed
        assert after.meta.token_count <= 64 or after.text == before.text


def test_refine_tells_text_from_document_chunks_by_type_and_rejects_a_mix():
    """Bug: the refinery told the two chunk models apart by ``hasattr(meta, "doc_items")`` per
    chunk, so a list mixing them was refined half one way, half the other, and anything else
    failed with an AttributeError."""
    from tests.helpers import DATA, load

    doc_chunks = list(docchunk.HierarchicalChunker().chunk(load(DATA / "docling_core__2_inp_dl_doc.json")))[:2]
    text_chunks = docchunk.TokenChunker("character", chunk_size=10)("abcdefghijklmnopqrst")
    with pytest.raises(docchunk.ConfigError, match="mix of text chunks"):
        OverlapRefinery(context_size=2)([text_chunks[0], doc_chunks[1]])
    with pytest.raises(docchunk.ConfigError, match="got str"):
        OverlapRefinery(context_size=2)(["abc", "def"])
    refined = OverlapRefinery(context_size=2, merge=False)(doc_chunks)
    assert refined[0].meta.context_suffix == doc_chunks[1].text[:2]


CHAT = DATA / "chat_dialogues.txt"


def dialogue_spans(text: str) -> list[tuple[int, int]]:
    spans, start = [], 0
    for part in text.split("\n\n"):
        spans.append((start, start + len(part)))
        start += len(part) + 2
    return spans


def dialogue_of(spans, position: int) -> int:
    return next(i for i, (s, e) in enumerate(spans) if s <= position <= e)


@pytest.mark.parametrize("tokenizer", ["word", "character"])
@pytest.mark.parametrize("size", [4, 8, 12, 20])
@pytest.mark.parametrize("context", [3, 10, 40])
def test_context_never_holds_text_from_another_dialogue(tokenizer, size, context):
    text = CHAT.read_text(encoding="utf-8")
    spans = dialogue_spans(text)
    unit = 1 if tokenizer == "word" else 6
    chunks = docchunk.RecursiveChunker(chunk_size=size * unit, tokenizer=tokenizer)(text)
    for method in ("prefix", "suffix"):
        out = OverlapRefinery(tokenizer=tokenizer, context_size=context * unit, method=method, merge=False,
                              inplace=False, stop_at="documents")(chunks)  # fmt: skip
        for i, c in enumerate(out):
            ctx = c.context_prefix if method == "prefix" else c.context_suffix
            if not ctx:
                continue
            body = c.text.strip()
            if method == "suffix":  # the start of the next chunk, in the dialogue where this chunk ends
                here = dialogue_of(spans, c.start_index + len(c.text.rstrip()) - 1)
                s = out[i + 1].start_index
            else:
                here = dialogue_of(spans, c.start_index + len(c.text) - len(c.text.lstrip()))
                s = out[i - 1].end_index - len(ctx)
            assert body and text[s : s + len(ctx)] == ctx
            inside = {dialogue_of(spans, p) for p in range(s, s + len(ctx)) if not text[p].isspace()}
            assert inside == {here}, (method, c.text, ctx)


def test_stop_at_headings_and_tables_and_none():
    text = "Intro line one.\n## Results\nThe value rose.\n| a | b |\n| 1 | 2 |\nAfter the table."
    pieces = [(0, 16), (16, 27), (27, 43), (43, 63), (63, len(text))]
    chunks = [Chunk(text=text[s:e], start_index=s, end_index=e) for s, e in pieces]
    suffix = OverlapRefinery(context_size=30, merge=False, inplace=False, stop_at="documents")(chunks)
    assert suffix[0].context_suffix is None  # the next chunk is a heading: another section
    prefix = OverlapRefinery(context_size=30, method="prefix", merge=False, inplace=False, stop_at="documents")(chunks)
    assert prefix[2].context_prefix == "## Results\n"  # the heading opens this chunk's section
    assert prefix[3].context_prefix is None and prefix[4].context_prefix is None  # a table starts, ends
    plain = OverlapRefinery(context_size=30, method="prefix", merge=False, inplace=False)(chunks)  # default: ()
    assert plain[3].context_prefix == "The value rose.\n"
    with pytest.raises(docchunk.ConfigError, match="stop_at: unknown boundary 'tables'"):
        OverlapRefinery(stop_at=("tables",))


# -- both sides, and overlap units on document chunks ------------------------------------------
THREE_PARAGRAPHS = (
    "Alpha one two three four five six seven eight nine ten.\n\n"
    "Bravo eleven twelve thirteen fourteen fifteen sixteen seventeen.\n\n"
    "Charlie eighteen nineteen twenty twentyone twentytwo twentythree."
)


def _both_sides(chunks, merge, first="prefix", **kw):
    second = "suffix" if first == "prefix" else "prefix"
    chunks = OverlapRefinery(context_size=2, stop_at=(), method=first, merge=merge, **kw)(chunks)
    return OverlapRefinery(context_size=2, stop_at=(), method=second, merge=merge, **kw)(chunks)


@pytest.mark.parametrize("first", ["prefix", "suffix"])
def test_prefix_then_suffix_merged_takes_neighbours_original_text(first):
    chunks = docchunk.RecursiveChunker(chunk_size=12, tokenizer="word")(THREE_PARAGRAPHS)
    bodies = [c.text for c in chunks]
    assert len(bodies) == 3
    out = _both_sides(chunks, merge=True, first=first, tokenizer="word")
    # without the fix it gave "...nine ten.nine ten.\n\n": the suffix pass copied the chunk's own merged tail
    assert [c.text for c in out] == [
        bodies[0] + "\n\nBravo eleven ",
        "nine ten." + bodies[1] + "\n\nCharlie eighteen ",
        "sixteen seventeen." + bodies[2],
    ]
    for c in out:
        assert isinstance(c.start_index, int) and isinstance(c.end_index, int)
        assert THREE_PARAGRAPHS[c.start_index : c.end_index] == c.text
        assert c.context_prefix is None and c.context_suffix is None
        assert c.token_count == docchunk.get_tokenizer("word").count_tokens(c.text)


@pytest.mark.parametrize("first", ["prefix", "suffix"])
def test_prefix_then_suffix_unmerged_keeps_both_sides_apart(first):
    chunks = docchunk.RecursiveChunker(chunk_size=12, tokenizer="word")(THREE_PARAGRAPHS)
    bodies = [(c.text, c.start_index, c.end_index, c.token_count) for c in chunks]
    out = _both_sides(chunks, merge=False, first=first, tokenizer="word")
    assert [(c.text, c.start_index, c.end_index, c.token_count) for c in out] == bodies
    assert [c.context_prefix for c in out] == [None, "nine ten.", "sixteen seventeen."]
    assert [c.context_suffix for c in out] == ["\n\nBravo eleven ", "\n\nCharlie eighteen ", None]


def test_same_method_twice_replaces_instead_of_duplicating():
    chunks = docchunk.RecursiveChunker(chunk_size=12, tokenizer="word")(THREE_PARAGRAPHS)
    once = [c.text for c in OverlapRefinery(tokenizer="word", context_size=2, stop_at=(), inplace=False)(chunks)]
    refinery = OverlapRefinery(tokenizer="word", context_size=2, stop_at=())
    twice = refinery(refinery(chunks))
    assert [c.text for c in twice] == once
    # a later unmerged pass on the same side takes the merged context back out of text
    unmerged = OverlapRefinery(tokenizer="word", context_size=2, stop_at=(), merge=False)(twice)
    plain = docchunk.RecursiveChunker(12, tokenizer="word")(THREE_PARAGRAPHS)
    assert [c.text for c in unmerged] == [c.text for c in plain]
    assert unmerged[0].context_suffix == "\n\nBravo eleven "


def test_overlapping_neighbours_keep_exact_offsets():
    text = " ".join(f"w{i}" for i in range(40))
    chunks = docchunk.TokenChunker(tokenizer="word", chunk_size=10, chunk_overlap=3)(text)
    out = _both_sides(chunks, merge=True, tokenizer="word")
    for after in out:
        # neighbours are not adjacent (they overlap): the context goes to the fields, text stays the slice
        assert text[after.start_index : after.end_index] == after.text
    assert all(c.context_prefix for c in out[1:]) and all(c.context_suffix for c in out[:-1])


@pytest.fixture(scope="module")
def hybrid():
    return docchunk.HybridChunker(max_tokens=64)


@pytest.fixture(scope="module")
def doc():
    return load(DATA / "docling_core__2_inp_dl_doc.json")


def _assert_counts_in_chunker_tokens(chunker, chunks):
    for c in chunks:
        real = chunker.token_counter.count_tokens(chunker.contextualize(c))
        assert c.meta.token_count == real
        assert real <= chunker.max_tokens or c.meta.oversized


@pytest.mark.parametrize("merge", [True, False])
@pytest.mark.parametrize("tokenizer", ["character", "word", "cl100k"])
def test_document_overlap_counts_in_chunkers_tokens(hybrid, doc, merge, tokenizer, cl100k):
    plain = list(hybrid.chunk(doc))
    spec = cl100k if tokenizer == "cl100k" else tokenizer
    out = OverlapRefinery(tokenizer=spec, context_size=8, merge=merge, inplace=False)(plain)
    assert [c.text for c in out] != [c.text for c in plain] or merge is False
    _assert_counts_in_chunker_tokens(hybrid, out)


def test_document_overlap_defaults_add_context_in_chunker_tokens(hybrid, doc):
    plain = list(hybrid.chunk(doc))
    out = OverlapRefinery(context_size=8, inplace=False)(plain)  # characters, merged, suffix
    _assert_counts_in_chunker_tokens(hybrid, out)
    assert sum(a.text != b.text for a, b in zip(out, plain, strict=False)) > len(plain) // 2  # context was added


def test_document_overlap_both_sides_does_not_duplicate(hybrid, doc):
    plain = list(hybrid.chunk(doc))
    big = docchunk.HybridChunker(max_tokens=256)
    roomy = list(big.chunk(doc))
    for chunks, chunker in ((plain, hybrid), (roomy, big)):
        bodies = [c.text for c in chunks]
        out = OverlapRefinery(context_size=10, method="prefix", inplace=False)(chunks)
        out = OverlapRefinery(context_size=10, method="suffix")(out)
        _assert_counts_in_chunker_tokens(chunker, out)
        for i, c in enumerate(out):
            head, sep, rest = c.text.partition(bodies[i])
            assert sep, "the body is kept whole"
            prefix, suffix = head.removesuffix("\n"), rest.removeprefix("\n")
            # context comes from the neighbours' original text only
            assert not prefix or (i > 0 and bodies[i - 1].endswith(prefix))
            assert not suffix or (i + 1 < len(bodies) and bodies[i + 1].startswith(suffix))
        assert any("\n" in c.text.replace(bodies[i], "", 1) for i, c in enumerate(out[1:-1], 1))


def test_document_chunks_without_their_chunker_need_chunker_argument(hybrid, doc):
    loaded = [docchunk.DocChunk.model_validate_json(c.model_dump_json()) for c in hybrid.chunk(doc)]
    with pytest.raises(docchunk.ConfigError, match="chunker="):
        OverlapRefinery(context_size=8, inplace=False)(loaded)
    out = OverlapRefinery(context_size=8, chunker=hybrid)(loaded)
    _assert_counts_in_chunker_tokens(hybrid, out)


@pytest.mark.parametrize("merge", [True, False])
def test_docling_cores_own_chunks_take_context(doc, merge):
    """Regression (stop 56's new-user tester, finding 18): docling-core's chunks (its DocMeta has no
    context fields) raised pydantic's 'object has no field "context_suffix"', with or without
    chunker=. They come back as docchunk's DocChunk, with context, in the chunker's tokens."""
    from docling_core.transforms.chunker.doc_chunk import DocChunk as DoclingCoreChunk
    from docling_core.transforms.chunker.hierarchical_chunker import HierarchicalChunker as DoclingCoreHierarchical

    theirs = list(DoclingCoreHierarchical().chunk(doc))
    assert type(theirs[0]) is DoclingCoreChunk
    chunker = docchunk.HierarchicalChunker(docling_compat=True)
    out = OverlapRefinery(context_size=8, merge=merge, chunker=chunker, inplace=False)(theirs)
    assert all(isinstance(c, docchunk.DocChunk) for c in out) and type(theirs[0]) is DoclingCoreChunk
    assert [c.meta.doc_items for c in out] == [c.meta.doc_items for c in theirs]
    if merge:
        assert sum(a.text != b.text for a, b in zip(out, theirs, strict=True)) > len(theirs) // 2
    else:
        assert [c.text for c in out] == [c.text for c in theirs]
        assert sum(c.meta.context_suffix is not None for c in out) > len(theirs) // 2
        assert all(chunker.contextualize(c).endswith(c.meta.context_suffix or "") for c in out)
