"""Regression tests for issue 45 (part 2): what the first documents a user brings broke in the default mode.

Each test names the fault it pins: DOCX footnotes and endnotes dropped, a heading written
twice, code fences left open, the parent path lost at small budgets, ``min_tokens`` leaving
short chunks.
"""

from __future__ import annotations

import itertools

import pytest
from docling_core.types.doc import DocItemLabel, DoclingDocument
from docling_core.types.doc.document import Formatting

import docchunk
from docchunk.markup.fences import reopened_fences
from tests.helpers import DATA, collapse, lost_texts, span_faults, squash

NOTES = DATA / "notes"
# tests/data/notes/make_notes_docx.py wrote the DOCX files, docling 2.143 converted them
FOOTNOTES = ["Anemones close when the water leaves them.", "Wet algae is slippery; wear shoes with a grip."]
ENDNOTES = ["Tides follow the moon, about fifty minutes later each day.", "Guides are at the visitor centre."]


def _hybrid(minilm_dir, max_tokens: int = 64, **options) -> docchunk.HybridChunker:
    tokenizer = docchunk.get_tokenizer(f"hf:{minilm_dir}", max_tokens)
    return docchunk.HybridChunker(tokenizer=tokenizer, max_tokens=max_tokens, **options)


def _notes_doc(name: str) -> DoclingDocument:
    return DoclingDocument.load_from_json(NOTES / f"docx__{name}.docx.json")


@pytest.mark.parametrize("chunker_cls", [docchunk.HybridChunker, docchunk.HierarchicalChunker])
def test_docx_footnotes_and_endnotes_are_body_text(chunker_cls, minilm_dir):
    """Issue 45, fault 2: docling puts DOCX notes in the furniture layer; the default mode dropped them."""
    doc = _notes_doc("notes")
    chunker = _hybrid(minilm_dir) if chunker_cls is docchunk.HybridChunker else chunker_cls()
    chunks = list(chunker.chunk(doc))
    joined = squash("".join(c.text for c in chunks))
    for note in FOOTNOTES + ENDNOTES:
        assert squash(note) in joined
    # page headers and footers (also in the furniture layer) stay out
    assert "Coastal field notes" not in "".join(chunker.contextualize(c) for c in chunks)
    for chunk in chunks:
        assert chunk.text.strip()
        for span in chunk.meta.spans or []:
            assert doc.texts[int(span.ref.rsplit("/", 1)[1])].text[span.start : span.end] in chunk.text


def test_docx_notes_only_document_gives_chunks(minilm_dir):
    """Issue 45, fault 2: a document made only of notes raised an error calling them page headers or footers."""
    chunks = list(_hybrid(minilm_dir).chunk(_notes_doc("only_notes")))
    assert squash("".join(c.text for c in chunks)) == squash(
        "This document holds nothing but this footnote.\nAnd this endnote."
    )


def test_docx_notes_compat_mode_is_docling_cores(minilm_dir):
    """``docling_compat=True`` keeps docling-core's text: the notes stay out, as there."""
    doc = _notes_doc("notes")
    chunks = list(_hybrid(minilm_dir, docling_compat=True).chunk(doc))
    joined = "".join(c.text for c in chunks)
    assert chunks and not any(note in joined for note in FOOTNOTES + ENDNOTES)


def clauses() -> DoclingDocument:
    """A contract whose clause headings read as content (``is_content_heading``), one of them long."""
    doc = DoclingDocument(name="clauses")
    doc.add_title("Service Agreement")
    doc.add_heading("1 The Provider keeps the service available on every working day", level=1)
    doc.add_text(DocItemLabel.TEXT, "Planned maintenance is announced a week ahead. " * 6)
    doc.add_heading("2 The Customer pays each invoice within 30 days of receipt", level=1)
    doc.add_text(DocItemLabel.TEXT, "Late payment bears interest at the legal rate.")
    doc.add_heading("3 Termination", level=1)
    doc.add_text(DocItemLabel.TEXT, "Either party may terminate with three months' notice.")
    return doc


def _written_twice(chunker, chunks) -> list[str]:
    """Headings of a chunk's path that are also a line of its text (so twice in ``contextualize()``)."""
    return [
        h
        for c in chunks
        for h in c.meta.headings or []
        if h in chunker.contextualize(c).split("\n")[len(c.meta.headings) :]
    ]


@pytest.mark.parametrize("max_tokens", [16, 32, 64, 256])
def test_content_heading_written_once_in_embedded_text(minilm_dir, max_tokens):
    """Issue 45, fault 3: a heading that reads as content was in the heading path and in the chunk text."""
    chunker = _hybrid(minilm_dir, max_tokens)
    chunks = list(chunker.chunk(clauses()))
    assert not _written_twice(chunker, chunks)
    assert not lost_texts(clauses(), chunks)
    # the clause text is still written, once, and the next pieces of its section keep it in their path
    first = "1 The Provider keeps the service available on every working day"
    assert sum(c.text.split("\n").count(first) for c in chunks) == 1
    hierarchical = docchunk.HierarchicalChunker()
    assert not _written_twice(hierarchical, list(hierarchical.chunk(clauses())))


CODE = "\n".join(f"def step_{n}(state):\n    return state + {n}  # add the step number" for n in range(1, 13))


def _fence_lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.lstrip(" ").startswith(("```", "~~~"))]


@pytest.mark.parametrize("max_tokens", [32, 64, 128])
def test_split_code_block_closes_and_reopens_its_fence(minilm_dir, max_tokens):
    """Issue 45, fault 4: a split code block left one piece's fence open and the next one's closing fence alone."""
    doc = DoclingDocument(name="code")
    doc.add_heading("Steps", level=1)
    doc.add_code(CODE)
    chunker = _hybrid(minilm_dir, max_tokens)
    chunks = list(chunker.chunk(doc))
    assert len(chunks) > 1
    code_text = doc.texts[1].text
    spans: list[tuple[int, int]] = []
    for chunk in chunks:
        fences = _fence_lines(chunk.text)
        assert len(fences) % 2 == 0, chunk.text
        assert chunk.text.startswith("```") and chunk.text.endswith("```")  # each piece a whole block
        assert chunk.meta.token_count <= max_tokens
        (span,) = chunk.meta.spans
        # the spans slice the code's own text (the whitespace at a cut goes to the span before it)
        assert code_text[span.start : span.end].strip() in chunk.text
        spans.append((span.start, span.end))
    assert spans[0][0] == 0 and spans[-1][1] == len(code_text)
    assert all(a[1] == b[0] for a, b in itertools.pairwise(spans))
    # the code's own text, once and in order, between the fences the pieces added
    body = "\n".join(line for c in chunks for line in c.text.split("\n") if line not in ("```",))
    assert squash(body) == squash(code_text)


@pytest.mark.parametrize(
    ("start", "end", "expected"),
    [
        (0, 22, ("", 0, "```")),  # opens the block: closed at its end
        (22, 40, ("```python\n", 22, "```")),  # inside: reopened with the info string, closed
        (16, 21, ("```python\n", 16, "\n```")),  # a cut inside a line
        (40, 58, ("```python\n", 40, "")),  # holds the closing fence
        (46, 58, ("", 50, "")),  # starts with the closing fence: the part before closed the block
        (50, 58, ("", 50, "")),  # after the block
    ],
)
def test_reopened_fences(start, end, expected):
    text = "```python\nx = 1\ny = 2\nz = 3\nw = 4\nv = 5\nu = 6\n```\nafter it"
    assert text[46:50] == "```\n"
    assert reopened_fences(text, start, end) == expected


def test_code_block_with_emphasis_is_a_fenced_block(minilm_dir):
    """Issue 45, fault 4: docling-core wrote a bold code item as ``**```...```**``: no fence line at all."""
    doc = DoclingDocument(name="bold code")
    doc.add_code("int main(void) {\n    return 0;\n}", formatting=Formatting(bold=True))
    (chunk,) = _hybrid(minilm_dir).chunk(doc)
    assert chunk.text == "```\nint main(void) {\n    return 0;\n}\n```"


def floods() -> DoclingDocument:
    """A long paragraph, then a short one: together over 128 cl100k tokens, the short one under 64."""
    doc = DoclingDocument(name="floods")
    doc.add_heading("Floods", level=1)
    sentences = [
        f"In year {n} the river flooded the valley, and the farmers planted after the water left." for n in range(1, 8)
    ]
    doc.add_text(DocItemLabel.TEXT, " ".join(sentences))
    doc.add_text(DocItemLabel.TEXT, "The dikes built since then hold back all but the highest water.")
    return doc


def test_min_tokens_takes_text_from_a_full_neighbour(cl100k):
    """Issue 45, fault 6: a piece under ``min_tokens`` next to a full one stayed short (the merge would not fit)."""
    chunker = docchunk.HybridChunker(tokenizer=cl100k, max_tokens=128, min_tokens=64)
    chunks = list(chunker.chunk(floods()))
    counts = [c.meta.token_count for c in chunks]
    assert len(chunks) == 2 and all(64 <= n <= 128 for n in counts), counts
    assert not lost_texts(floods(), chunks)
    assert chunks[0].text.endswith(".") and chunks[1].text.endswith("highest water.")  # cut at a sentence end
    # each chunk lists the items it holds text of, and its spans slice them
    doc = floods()
    assert [it.self_ref for it in chunks[0].meta.doc_items] == ["#/texts/1"]
    assert [it.self_ref for it in chunks[1].meta.doc_items] == ["#/texts/1", "#/texts/2"]
    for chunk in chunks:  # (a join writes a line break where the split paragraph had a space)
        for span in chunk.meta.spans:
            assert collapse(doc.texts[int(span.ref.rsplit("/", 1)[1])].text[span.start : span.end]) in collapse(
                chunk.text
            )


def test_min_tokens_cuts_a_closing_sentence_and_two_neighbours_again():
    """A short closing paragraph after two full ones, whose sentence ends give no two-piece cut.

    Issue 45's "other" chunks under ``min_tokens`` (a closing sentence after a full paragraph):
    the two pieces could be cut only at 4 | 9 or 11 | 2 words, so the short one stayed. The
    piece and two neighbours are cut again into three pieces of 6 to 12 words (word tokens).
    """

    def para(*sentences: int, word: str) -> str:
        return " ".join(" ".join(f"{word}{i}" for i in range(n - 1)) + " end." for n in sentences)

    doc = DoclingDocument(name="closing")
    for text in (para(6, 4, word="a"), para(4, 7, word="b"), para(2, word="c")):
        doc.add_text(DocItemLabel.TEXT, text)
    plain = docchunk.HybridChunker(tokenizer="word", max_tokens=12)
    assert [c.meta.token_count for c in plain.chunk(doc)] == [10, 11, 2]
    chunks = list(docchunk.HybridChunker(tokenizer="word", max_tokens=12, min_tokens=6).chunk(doc))
    assert [c.meta.token_count for c in chunks] == [6, 8, 9]
    assert all(c.text.endswith("end.") for c in chunks)  # cut at sentence ends
    assert not lost_texts(doc, chunks) and span_faults(doc, chunks) == []


def scope_list(parent_words: int) -> DoclingDocument:
    """A section whose list has one item of ``parent_words`` words with six nested items."""
    doc = DoclingDocument(name="scope")
    doc.add_heading("Threat model of the project for its network interfaces", level=1)
    top = doc.add_list_group()
    words = "data received from remote peers over outbound connections created through the public APIs".split()
    parent = doc.add_list_item(" ".join((words * 4)[:parent_words]), parent=top)
    nested = doc.add_list_group(parent=parent)
    for name in ("HTTP client APIs", "DNS resolver APIs", "TLS socket APIs", "UDP datagram APIs", "Worker messages",
                 "Child process pipes"):  # fmt: skip
        doc.add_list_item(f"{name} of every supported platform and release line.", parent=nested)
    return doc


@pytest.mark.parametrize("parent_words", [6, 14, 40])
def test_nested_list_window_keeps_its_parent_path_at_small_budgets(minilm_dir, parent_words):
    """Issue 45, fault 5: at 64 tokens a window of nested items lost its headings and parent item."""
    doc = scope_list(parent_words)
    chunker = _hybrid(minilm_dir, 64)
    chunks = list(chunker.chunk(doc))
    parent = doc.texts[1]
    windows = [c for c in chunks if parent not in c.meta.doc_items]
    assert windows, [c.text for c in chunks]
    for chunk in windows:
        path = chunk.meta.headings or []
        # the parent item names the window: its text, or its first words then "…" when it is too long
        assert path and (path[-1] == parent.text or (path[-1].endswith(" …") and parent.text.startswith(path[-1][:-2])))
        assert chunk.meta.token_count <= 64
        assert chunk.text.startswith("- ")  # the nested items as a list, relative to the window's first
    assert not lost_texts(doc, chunks)


def test_compat_mode_names_no_dropped_headings(minilm_dir):
    """``meta.headings_dropped`` is the default mode's: docling-core's chunks stay as they are (no new key)."""
    doc = DoclingDocument(name="deep")
    doc.add_title("Regional statistics office of the cooperative federation of the northern valleys")
    doc.add_heading("Results of the field measurements by site and by season", level=1)
    doc.add_text(DocItemLabel.TEXT, "Snow depth was measured at dawn beside the upper hut. " * 3)
    compat = list(_hybrid(minilm_dir, 16, docling_compat=True).chunk(doc))
    assert compat and all("headings_dropped" not in c.export_json_dict()["meta"] for c in compat)
    default = list(_hybrid(minilm_dir, 16).chunk(doc))
    assert any(c.meta.headings_dropped for c in default)


@pytest.mark.parametrize("max_tokens", [32, 56])
def test_split_code_block_keeps_each_piece_s_first_line_indented(minilm_dir, max_tokens):
    """The tester's finding 16 of issue 45: a code block cut inside a function lost the indentation of each
    later piece's first line (``return state + 3`` for ``    return state + 3``), and that
    whitespace was in no chunk. Each piece's code is now the code's own text, whitespace
    included, and its span slices exactly that text. (Budgets at which a cut falls inside
    a function: code is cut at line ends, and at 64 tokens those fall between functions.)
    """
    doc = DoclingDocument(name="code")
    doc.add_heading("Steps", level=1)
    doc.add_code(CODE)
    chunks = list(_hybrid(minilm_dir, max_tokens).chunk(doc))
    code_text = doc.texts[1].text
    starts = 0
    for chunk in chunks:
        (span,) = chunk.meta.spans
        own = code_text[span.start : span.end]
        assert "\n" + own.rstrip() + "\n" in "\n" + chunk.text + "\n", (own, chunk.text)  # whole lines, as written
        first = chunk.text.split("\n")[1]  # the line after the (re)opened fence
        line_start = code_text.rfind("\n", 0, span.start) + 1
        line_end = code_text.find("\n", line_start)
        assert first == code_text[line_start : line_end if line_end >= 0 else len(code_text)]  # the document's line
        starts += first.startswith("    ")
    assert starts > 0  # some piece starts inside a function: the case this test is about
