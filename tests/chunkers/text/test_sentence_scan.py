"""The sentence level of RecursiveChunker in token mode, grouped by search in token offsets.

``Call.group_sentences`` finds each group's last sentence cut from the budget's end
backwards instead of splitting the span into all its sentences and counting each. It
must give exactly the groups of the split-and-count path, which stays the reference
(``scans_sentences`` forced False), and its backward search must find exactly the cut
a forward scan of the span finds, also where a verdict depends on where the sentence
starts (section numbers such as ``4.2.``).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import docchunk
from docchunk.chunkers.text import recursive_split
from docchunk.chunkers.text.recursive_levels import sentence_hits
from docchunk.markup.sentences import sentence_cut_after, sentence_cut_before

# sentences with the cases the rules care about: abbreviations, initials, section numbers,
# decimals, closing quotes and brackets, runs of marks, "etc." before a capital, tabs
PIECES = [
    "The cat sat.", "Dr. Lee came at 5 p.m. today.", "See Fig. 3 and Sec. 4.2.", "4.2. Results",
    "It rose in 2019.", "Pens, etc. The end.", "Really?!", "He said \"stop.\"", "(As noted.)",
    "Prices fell 3.14 points.", "J. R. R. Tolkien wrote it.", "e.g. this one", "Wait…", "No. 5 is here.",
    "1. First", "2. Second", "U.S. policy changed.", "a", "Revenue grew by 12.5% in the year.",
    "naïve café visitors left.", "emoji😀 ended.", "Section 7. Then more.",
]  # fmt: skip
# CJK full stops, also next to Western marks
CJK_PIECES = ["今天很好。", "真的？！", "「好。」", "Mixed.。", "。.", "」？."]
GAPS = [" ", " ", " ", "  ", "\t", " \t "]


@st.composite
def sentence_text(draw, cjk: bool = False) -> str:
    parts = draw(st.lists(st.sampled_from(PIECES + CJK_PIECES if cjk else PIECES), min_size=1, max_size=40))
    out = [parts[0]]
    for p in parts[1:]:
        out += [draw(st.sampled_from(GAPS)), p]
    return "".join(out)


def _cuts(text: str) -> list[int]:
    return [c for c, _ in sentence_hits(text, 0, len(text), "start")]


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=sentence_text(cjk=True), data=st.data())
@example(text="Alpha beta. 4.2. Results were good. 5. Next", data=None)
@example(text="」？. 」. x", data=None)  # a run of Western and CJK marks: each of its candidates counts
@example(text="今天很好。 Then. 真的？！x", data=None)  # a CJK end's cut is before the whitespace after it
def test_backward_search_finds_the_forward_cut(text, data):
    cuts = _cuts(text)
    starts = [0, *cuts]
    start = starts[data.draw(st.integers(0, len(starts) - 1))] if data is not None else 0
    for limit in range(start + 1, len(text) + 1):
        inside = [c for c in cuts if start < c <= limit]
        assert sentence_cut_before(text, start, limit, len(text)) == (inside[-1] if inside else -1), (start, limit)
    after = [c for c in cuts if c > start]
    assert sentence_cut_after(text, start, len(text)) == (after[0] if after else len(text))


@pytest.fixture(scope="module")
def cl100k_tok(cl100k):
    return docchunk.get_tokenizer(cl100k)


def _chunks(text, size, tok, scan: bool, monkeypatch, **kwargs):
    with monkeypatch.context() as m:
        if not scan:
            m.setattr(recursive_split.Call, "scans_sentences", lambda self, lo, hi: False)
        return [(c.start_index, c.end_index, c.token_count, c.oversized)
                for c in docchunk.RecursiveChunker(size, tokenizer=tok, **kwargs)(text)]  # fmt: skip


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(
    paragraphs=st.lists(sentence_text(), min_size=1, max_size=4),
    joints=st.lists(st.sampled_from(["\n", "\n\n", " "]), min_size=3, max_size=3),
    size=st.integers(3, 80),
)
def test_scan_gives_the_chunks_of_counting_every_sentence(cl100k_tok, monkeypatch, paragraphs, joints, size):
    text = paragraphs[0]
    for p, j in zip(paragraphs[1:], joints, strict=False):
        text += j + p
    scanned = _chunks(text, size, cl100k_tok, True, monkeypatch)
    assert scanned == _chunks(text, size, cl100k_tok, False, monkeypatch)
    assert "".join(text[s:e] for s, e, _, _ in scanned) == text
    assert all(n == cl100k_tok.count_tokens(text[s:e]) for s, e, n, _ in scanned)


def test_scan_is_taken_and_matches_on_long_prose(cl100k_tok, monkeypatch):
    """A long paragraph of prose (each line far over the budget) goes through the scan, with the same chunks."""
    line = " ".join(PIECES * 6)
    text = "\n\n".join([line, "Short one.", line.replace("The cat", "A dog")])
    taken = []
    original = recursive_split.Call.group_sentences

    def spy(self, lo, hi, next_level):
        taken.append((lo, hi))
        return original(self, lo, hi, next_level)

    monkeypatch.setattr(recursive_split.Call, "group_sentences", spy)
    ascii_line = " ".join(p for p in PIECES if p.isascii()) * 4
    ascii_text = "\n\n".join([ascii_line, "Short one.", ascii_line + "\n" + ascii_line])  # lines after "\n\n" and "\n"
    for case in (text, ascii_text):
        for size in (8, 32, 100):
            taken.clear()
            scanned = _chunks(case, size, cl100k_tok, True, monkeypatch)
            assert len(taken) >= 2, "the sentence level did not group by search"
            assert scanned == _chunks(case, size, cl100k_tok, False, monkeypatch)


def test_odd_whitespace_and_cjk_keep_the_counting_path(cl100k_tok, monkeypatch):
    """A cut before a no-break space or a CJK full stop may not be clean: those spans count every sentence."""
    taken: list[tuple] = []
    monkeypatch.setattr(recursive_split.Call, "group_sentences", lambda self, *a: taken.append(a))
    for text in ["One two three.\u00a0Four five six. " * 30, "今天很好。我们走吧！ Then more. " * 30]:
        chunks = docchunk.RecursiveChunker(12, tokenizer=cl100k_tok)(text)
        assert not taken and "".join(c.text for c in chunks) == text


def test_make_chunks_builds_what_validation_builds():
    """make_chunks skips pydantic's validation (its spans are the chunker's own ints): the chunks must not differ."""
    from docchunk.types.chunk import Chunk, make_chunks

    text = "Short one. Then a longer sentence follows it."
    built = make_chunks(text, [(0, 10, 3, False), (10, len(text), 9, True)])
    validated = [Chunk(text=text[:10], start_index=0, end_index=10, token_count=3),
                 Chunk(text=text[10:], start_index=10, end_index=len(text), token_count=9, oversized=True)]  # fmt: skip
    for a, b in zip(built, validated, strict=True):
        assert a == b and repr(a) == repr(b) and a.model_dump_json() == b.model_dump_json()
        assert a.model_dump(exclude_unset=True) == b.model_dump(exclude_unset=True)
        assert a.__pydantic_private__ == b.__pydantic_private__
    built[0].context_prefix = "x"  # assignment and private state behave as on a validated chunk
    built[0]._body = (0, 10)
    assert built[0].model_copy()._body == (0, 10) and validated[0].context_prefix is None


def test_a_long_line_is_tokenized_once(cl100k_tok, monkeypatch):
    """A line over the budget (4 to 8 characters a token) in a paragraph over it was counted, then tokenized again."""
    line = " ".join(p for p in PIECES if p.isascii())[:200]
    text = "\n\n".join(["Intro.", "\n".join([line, "A short line.", line.replace("The cat", "A dog")]), "End."])
    encoded: list[int] = []
    enc = cl100k_tok.backend
    for name in ("encode_ordinary", "encode_to_numpy"):
        real = getattr(enc, name)
        monkeypatch.setattr(enc, name, lambda t, *a, _real=real, **k: encoded.append(len(t)) or _real(t, *a, **k))
    chunks = docchunk.RecursiveChunker(32, tokenizer=cl100k_tok)(text)
    assert "".join(c.text for c in chunks) == text
    assert sum(encoded) < 1.7 * len(text), (sum(encoded), len(text))  # 691 of 427 characters; 1,091 before
