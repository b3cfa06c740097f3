"""The sizing engine: every count by arithmetic or probe equals the true count of the text."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import docchunk
from docchunk.chunkers.text.pieces import PieceSizer, drop_empty_end
from docchunk.tokenizers import Sizer, Tokenizer, WordTokenizer
from tests.helpers import examples
from tests.property.strategies import texts

SPECS = [None, "cl100k", "word", "character"]
PROPERTY = settings(deadline=None, max_examples=examples(120), suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module", params=SPECS, ids=["minilm", "cl100k", "word", "character"])
def tok(request) -> Tokenizer:
    if request.param == "cl100k":
        return docchunk.get_tokenizer(request.getfixturevalue("cl100k"))
    return docchunk.get_tokenizer(request.param)


class _Recording(WordTokenizer):
    """Word counts that record what was counted, one text or one batch at a time."""

    def __init__(self) -> None:
        self.singles: list[str] = []
        self.batches: list[list[str]] = []

    def count_tokens(self, text: str) -> int:
        self.singles.append(text)
        return super().count_tokens(text)

    def count_tokens_batch(self, texts: Sequence[str]) -> list[int]:
        self.batches.append(list(texts))
        return [super(_Recording, self).count_tokens(t) for t in texts]


def test_count_batch_counts_each_distinct_text_once_in_one_batch():
    rec = _Recording()
    sizer = Sizer(rec)
    assert sizer.count_batch(["a b", "c", "a b", "d e f"]) == [2, 1, 2, 3]
    assert rec.batches == [["a b", "c", "d e f"]] and rec.singles == []
    assert sizer.count_batch(["c", "g h"]) == [1, 2]
    assert rec.batches[-1] == ["g h"]  # "c" is cached
    assert sizer.count("a b") == 2 and rec.singles == []


def test_cache_limit_empties_the_cache_and_counts_stay_exact():
    rec = _Recording()
    sizer = Sizer(rec, cache_limit=2)
    words = [f"w{i} x" for i in range(6)]
    assert [sizer.count(w) for w in words] == [2] * 6
    assert len(sizer.cache) <= 3
    assert sizer.count_batch(words) == [2] * 6


@PROPERTY
@given(a=texts(max_words=30), b=texts(max_words=30))
def test_joined_equals_the_count_of_the_joined_text(tok, a, b):
    sizer = Sizer(tok)
    assert sizer.joined(a, tok.count_tokens(a), b) == tok.count_tokens(a + b)
    assert sizer.concat([a, "", b, a]) == tok.count_tokens(a + b + a)


@PROPERTY
@given(before=texts(max_words=5), text=texts(min_words=20, max_words=200), limit=st.integers(1, 12))
def test_count_within_and_exceeds_equal_the_true_count(tok, before, text, limit):
    sizer = Sizer(tok)
    whole = tok.count_tokens(before + text)
    got = sizer.count_within(text, limit, before, tok.count_tokens(before))
    assert got == (whole if whole <= limit else None)
    assert sizer.exceeds(text, limit) == (tok.count_tokens(text) > limit)


@PROPERTY
@given(text=texts(min_words=2, max_words=80), seed=st.integers(0, 2**16))
def test_span_joins_equal_the_count_of_the_span(tok, text, seed):
    """Pieces cut anywhere: sums with local corrections are exact, for any group of pieces."""
    rng = random.Random(seed)
    cuts = sorted(rng.sample(range(1, len(text)), min(len(text) - 1, rng.randint(1, 12))))
    bounds = [0, *cuts, len(text)]
    spans = Sizer(tok).spans(text)
    counts = spans.exact_counts(list(pairwise(bounds)))
    assert spans.joined(0, len(text), spans.unclean_cuts(cuts), sum(counts)) == tok.count_tokens(text)
    inner = spans.unclean_cuts(cuts)
    fixes = spans.join_fixes(inner) if inner else None
    for _ in range(5):
        i, j = sorted(rng.sample(range(len(bounds)), 2))
        total = spans.group_size(fixes, bounds[i], bounds[j], sum(counts[i:j]))
        assert total == tok.count_tokens(text[bounds[i] : bounds[j]])


@PROPERTY
@given(
    words=st.lists(texts(max_words=4), min_size=2, max_size=25),
    sep=st.sampled_from([" ", "\n", "\n\n", ". ", "## ", ", "]),
    start_mode=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_pieces_of_a_split_and_their_joins_are_exact(tok, words, sep, start_mode, seed):
    """``piece_counts`` and ``start_fixes``: the counts a recursive split sizes its groups with."""
    text = sep.join(words)
    parts = text.split(sep)
    if len(parts) < 2:
        return
    starts = [0]
    for part in parts[:-1]:
        starts.append(starts[-1] + len(part) + len(sep))
    if start_mode:  # the separator starts each piece after the first
        bounds = [0, *(s - len(sep) for s in starts[1:]), len(text)]
    else:  # the separator ends each piece before the last
        bounds = [*starts, len(text)]
    spans = PieceSizer(Sizer(tok), text)
    counts, ids = spans.piece_counts(parts, sep, start_mode, bounds, 4, spans.count)
    bounds = drop_empty_end(bounds)
    pieces = [text[a:b] for a, b in pairwise(bounds)]
    assert counts == [tok.count_tokens(p) for p in pieces]
    assert all(pieces[k] == pieces[m] for k in range(len(ids)) for m in range(len(ids)) if ids[k] == ids[m])
    if start_mode and len(bounds) > 2:
        fixes = spans.start_fixes(bounds, ids, sep)
    else:
        inner = spans.unclean_cuts(bounds[1:-1])
        fixes = spans.join_fixes(inner) if inner else None
    rng = random.Random(seed)
    for _ in range(5):
        i, j = sorted(rng.sample(range(len(bounds)), 2))
        total = spans.group_size(fixes, bounds[i], bounds[j], sum(counts[i:j]))
        assert total == tok.count_tokens(text[bounds[i] : bounds[j]])


@PROPERTY
@given(text=texts(min_words=30, max_words=300), limit=st.integers(1, 10))
def test_size_or_over_is_exact_up_to_the_limit(tok, text, limit):
    spans = Sizer(tok).spans(text)
    true = tok.count_tokens(text)
    got = spans.size_or_over(0, len(text), limit)
    assert got == true if true <= limit else got > limit
    assert spans.counts([(0, len(text)), (0, 1)], limit)[1] == tok.count_tokens(text[:1])


@PROPERTY
@given(
    lead=st.sampled_from(["", " ", "\n", "  \n", "\t "]),
    text=texts(min_words=1, max_words=40),
    trail=st.sampled_from(["", " ", "\n", " \n\n", "\u3000"]),
)
def test_stripped_count_is_exact_or_unknown(tok, lead, text, trail):
    sizer = Sizer(tok)
    whole = lead + text + trail
    inner, n = sizer.stripped(whole, tok.count_tokens(whole))
    assert inner == whole.strip()
    if n is not None:
        assert n == tok.count_tokens(inner)
        assert sizer.count(inner) == n  # remembered


@PROPERTY
@given(text=texts(min_words=1, max_words=200), size=st.integers(1, 30))
def test_sentence_chunks_with_a_shared_sizer_equal_those_without(tok, text, size):
    chunker = docchunk.SentenceChunker(tok, chunk_size=size)
    shared = Sizer(tok)
    shared.count_batch(text.split())  # a cache that already holds other counts
    alone = chunker.chunk(text)
    assert chunker.chunk(text, sizer=shared) == alone
    assert all(c.token_count == tok.count_tokens(c.text) for c in alone)


@PROPERTY
@given(text=texts(min_words=1, max_words=120), seed=st.integers(0, 2**16))
def test_span_counts_from_kept_offsets_are_exact(tok, text, seed):
    rng = random.Random(seed)
    sizer = Sizer(tok)
    assert sizer.count_batch_keeping_offsets([text, "x"], over=0) == [tok.count_tokens(text), tok.count_tokens("x")]
    cuts = sorted({0, len(text), *(rng.randrange(len(text) + 1) for _ in range(6))})
    spans = [(a, b) for a in cuts for b in cuts if a <= b]
    assert sizer.span_counts(text, spans) == [tok.count_tokens(text[a:b]) for a, b in spans]


def test_span_counts_of_a_text_counted_with_offsets_tokenize_nothing_again(monkeypatch):
    tok = docchunk.get_tokenizer(None)  # all-MiniLM-L6-v2: WordPiece, its offsets count spans
    text = "One sentence here. Another one there! And a third, with words. "
    sizer = Sizer(tok)
    sizer.count_batch_keeping_offsets([text], over=1)
    calls: list[str] = []
    monkeypatch.setattr(tok, "count_tokens", lambda t: calls.append(t) or 0)
    monkeypatch.setattr(tok, "count_tokens_batch", lambda ts: calls.extend(ts) or [0] * len(ts))
    spans = [(0, 19), (19, 38), (38, len(text)), (0, len(text))]
    counts = sizer.span_counts(text, spans)
    monkeypatch.undo()
    assert calls == []
    assert counts == [tok.count_tokens(text[a:b]) for a, b in spans]


@PROPERTY
@given(text=texts(min_words=1, max_words=120), seed=st.integers(0, 2**16), size=st.integers(1, 12))
def test_word_splits_sized_from_kept_offsets_equal_those_without(tok, text, seed, size):
    rng = random.Random(seed)
    starts = [0, len(text), *(i for i in range(1, len(text)) if text[i - 1].isspace())]  # mostly clean
    a, b = sorted(rng.choice(starts) for _ in range(2))
    if a == b:
        return
    sizer = Sizer(tok)
    sizer.count_batch_keeping_offsets([text], over=0)
    sizer.keep_span_offsets(text, a, b)  # kept only where a and b are clean
    chunker = docchunk.RecursiveChunker(size, separators=[" ", ""], tokenizer=tok)
    assert chunker.chunk(text[a:b], sizer=sizer) == chunker.chunk(text[a:b])
    assert sizer.count(text[a:b]) == tok.count_tokens(text[a:b])


@PROPERTY
@given(
    parts=st.lists(
        st.tuples(texts(min_words=1, max_words=12), st.sampled_from(["", ".", ":", "!", " ", "\n", "1", "-", "é"])),
        min_size=1,
        max_size=6,
    ),
    delim=st.sampled_from(["\n", "\n\n", " ", ". ", "|"]),
)
def test_join_count_equals_the_count_of_the_joined_text(tok, parts, delim):
    sizer = Sizer(tok)
    joined = [text + end for text, end in parts]
    counts = [tok.count_tokens(t) for t in joined]
    assert sizer.join_count(joined, counts, delim) == tok.count_tokens(delim.join(joined))


@PROPERTY
@given(text=texts(min_words=1, max_words=120), seed=st.integers(0, 2**16), limit=st.integers(1, 40))
def test_span_sizer_counts_from_kept_offsets_are_exact(tok, text, seed, limit):
    """``SpanSizer.count``, ``exact_counts`` and ``size_or_over`` of a text with kept offsets."""
    rng = random.Random(seed)
    sizer = Sizer(tok)
    sizer.count_batch_keeping_offsets([text], over=0)
    spans_of = sizer.spans(text)
    cuts = sorted({0, len(text), *(rng.randrange(len(text) + 1) for _ in range(6))})
    spans = [(a, b) for a in cuts for b in cuts if a <= b]
    truth = [tok.count_tokens(text[a:b]) for a, b in spans]
    assert spans_of.exact_counts(spans) == truth
    assert [spans_of.count(a, b) for a, b in spans] == truth
    for (a, b), n in zip(spans, truth, strict=True):
        got = spans_of.size_or_over(a, b, limit)
        assert got == n if n <= limit else got > limit


def test_span_sizer_of_a_text_with_kept_offsets_tokenizes_no_clean_span(monkeypatch):
    tok = docchunk.get_tokenizer(None)  # all-MiniLM-L6-v2
    text = "One sentence here. Another one there! And a third, with words. " * 8
    sizer = Sizer(tok)
    sizer.count_batch_keeping_offsets([text], over=1)
    spans_of = sizer.spans(text)
    calls: list[str] = []
    monkeypatch.setattr(tok, "count_tokens", lambda t: calls.append(t) or 0)
    monkeypatch.setattr(tok, "count_tokens_batch", lambda ts: calls.extend(ts) or [0] * len(ts))
    spans = [(0, 19), (19, 38), (38, 126), (0, len(text))]  # clean ends: after a space, or the text's
    counts = [*spans_of.exact_counts(spans), *(spans_of.count(a, b) for a, b in spans)]
    counts.append(spans_of.size_or_over(0, len(text), 3))
    monkeypatch.undo()
    assert calls == []
    assert counts[:4] == counts[4:8] == [tok.count_tokens(text[a:b]) for a, b in spans]
    assert counts[8] == 4


@PROPERTY
@given(batch=st.lists(texts(min_words=0, max_words=40), min_size=1, max_size=5), over=st.integers(0, 30))
def test_counts_and_offsets_batch_equals_counts_and_offsets(tok, batch, over):
    """The backend's batch (HF reads the offsets of long texts only) against one text at a time."""
    got = tok.counts_and_offsets_batch(batch, over)
    expected = []
    for text in batch:
        n = tok.count_tokens(text)
        expected.append((n, list(tok.token_offsets(text)) if n > over else None))
    assert [(n, None if o is None else list(o)) for n, o in got] == expected


def test_hf_batches_are_encoded_in_slices_with_the_same_results(monkeypatch):
    """One ``encode_batch`` over a whole 10 MB document held every token's encoding at once
    (about 80 bytes a token: 7.3 MB above the loaded document); the batch is now encoded in
    slices of bounded size, in order, with the same counts and offsets."""
    from docchunk.tokenizers import hf

    tok = docchunk.get_tokenizer(None)
    rng = random.Random(7)
    words = ["alpha", "beta,", "gamma.", "Überraschung", "naïve", "x", "ünïcödé", "42"]
    batch = [" ".join(rng.choices(words, k=rng.randrange(0, 30))) for _ in range(60)]
    expected_counts = [tok.count_tokens(t) for t in batch]
    expected_offsets = [tok.token_offsets(t) for t in batch]
    sizes: list[int] = []
    backend = tok.backend

    class Spy:
        """The real tokenizer, recording the characters of each batch it is given."""

        def encode_batch(self, texts, **kwargs):
            sizes.append(sum(map(len, texts)))
            return backend.encode_batch(texts, **kwargs)

        def encode_batch_fast(self, texts, **kwargs):
            sizes.append(sum(map(len, texts)))
            return backend.encode_batch_fast(texts, **kwargs)

        def get_added_tokens_decoder(self):
            return backend.get_added_tokens_decoder()

    monkeypatch.setattr(tok, "_tok", Spy())
    monkeypatch.setattr(hf, "_SLICE_CHARS", 200)
    # the library's path (texts), then the word cache's (the new words of each call)
    for words_cache in (None, hf.WordCache(Spy(), batches=hf._slices)):
        monkeypatch.setattr(tok, "_words", words_cache)
        sizes.clear()
        assert tok.count_tokens_batch(batch) == expected_counts
        got = tok.counts_and_offsets_batch(batch, 5)
        assert [n for n, _ in got] == expected_counts
        expected = [o if n > 5 else None for n, o in zip(expected_counts, expected_offsets, strict=True)]
        assert [o for _, o in got] == expected
        assert sizes and max(sizes) <= 200  # no text here is longer than a slice
        if words_cache is None:
            assert len(sizes) > 4
