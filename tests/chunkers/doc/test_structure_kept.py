"""The default mode keeps structure: nested lists, headings that carry content, sentences kept.

Documents built with docling-core's API; each test fails on the code before the fix
(the regression it is named after). ``docling_compat=True`` is checked against
docling-core by tests/differential.
"""

from __future__ import annotations

import itertools

import pytest
from docling_core.types.doc import DocItemLabel, DoclingDocument
from docling_core.types.doc.document import Formatting, ListItem, Script
from hypothesis import Phase, example, given, settings
from hypothesis import strategies as st

import docchunk
from docchunk.chunkers.doc.content_headings import is_content_heading
from docchunk.chunkers.doc.lead_in import is_lead_in
from tests.helpers import collapse, examples, lost_texts, make_table, table_data


def onboarding() -> DoclingDocument:
    """A list nested three deep."""
    doc = DoclingDocument(name="onboarding")
    doc.add_heading("Onboarding", level=1)
    top = doc.add_list_group()
    accounts = doc.add_list_item("Accounts", parent=top)
    sub = doc.add_list_group(parent=accounts)
    doc.add_list_item("Create the email account for the new colleague", parent=sub)
    drive = doc.add_list_item("Give access to the shared drive", parent=sub)
    deep = doc.add_list_group(parent=drive)
    doc.add_list_item("Read only for the archive folder", parent=deep)
    hardware = doc.add_list_item("Hardware", parent=top)
    sub = doc.add_list_group(parent=hardware)
    doc.add_list_item("Register the serial number of the laptop in the inventory", parent=sub)
    doc.add_list_item("Hand over the badge", parent=sub)
    return doc


NESTED = (
    "- Accounts\n    - Create the email account for the new colleague\n    - Give access to the shared drive\n"
    "        - Read only for the archive folder\n- Hardware\n"
    "    - Register the serial number of the laptop in the inventory\n    - Hand over the badge"
)


def test_hybrid_chunker_keeps_a_nested_list_nested():
    doc = onboarding()
    chunks = list(docchunk.HybridChunker().chunk(doc))
    assert [c.text for c in chunks] == [NESTED]
    assert [c.text for c in docchunk.HierarchicalChunker().chunk(doc)] == [NESTED]  # as it writes it


def test_split_nested_list_keeps_parent_items():
    chunks = list(docchunk.HybridChunker(max_tokens=24).chunk(onboarding()))
    assert [(c.text, c.meta.headings) for c in chunks] == [
        ("- Accounts\n    - Create the email account for the new colleague", ["Onboarding"]),
        ("- Give access to the shared drive\n    - Read only for the archive folder", ["Onboarding", "Accounts"]),
        (
            "- Hardware\n    - Register the serial number of the laptop in the inventory\n    - Hand over the badge",
            ["Onboarding"],
        ),
    ]
    chunker = docchunk.HybridChunker(max_tokens=24)
    assert chunker.contextualize(chunks[1]).startswith("Onboarding\nAccounts\n- Give access")


def steps(block: str) -> DoclingDocument:
    """A list whose items hold a block (an empty picture, or a paragraph) before their nested list."""
    doc = DoclingDocument(name="steps")
    doc.add_heading("Install", level=1)
    top = doc.add_list_group()
    for n in (1, 2):
        item = doc.add_list_item(f"Step {n} text", parent=top)
        if block == "picture":
            doc.add_picture(parent=item)
        else:
            doc.add_text(DocItemLabel.TEXT, f"Paragraph block of step {n}", parent=item)
        sub = doc.add_list_group(parent=item)
        doc.add_list_item(f"Note of step {n}", parent=sub)
    doc.add_list_item("Step 3 text", parent=top)
    return doc


@pytest.mark.parametrize("block", ["picture", "paragraph"])
@pytest.mark.parametrize("max_tokens", [16, 64])
def test_list_item_holding_a_block_keeps_its_nested_list(block, max_tokens):
    """A list item that holds a block other than a list.

    docling-core's list serializer wrote its nested list at the parent's indentation, and the
    list was split item by item, flat (``1. Step 1 text\n- Note text``). The nesting is kept
    now, a paragraph block indented under its item.
    """
    chunker = docchunk.HybridChunker(max_tokens=max_tokens)
    doc = steps(block)
    chunks = list(chunker.chunk(doc))
    text = "\n".join(c.text for c in chunks)
    for n in (1, 2):
        assert f"\n    - Note of step {n}" in text, [c.text for c in chunks]
        if block == "paragraph":
            assert f"\n    Paragraph block of step {n}" in text
    for chunk in chunks:
        assert chunk.meta.token_count <= max_tokens
        if chunk.text.lstrip().startswith("- Note"):  # a chunk that starts inside a nested item: its parent as context
            assert "Step" in chunker.contextualize(chunk).split("\n- Note")[0]
    assert not lost_texts(doc, chunks)


def test_list_is_cut_between_top_level_items_first():
    chunks = list(docchunk.HybridChunker(max_tokens=40).chunk(onboarding()))
    # the whole list does not fit 40 tokens; the cut is before "Hardware", not inside "Accounts"
    assert [c.text.splitlines()[0] for c in chunks] == ["- Accounts", "- Hardware"]


def contract() -> DoclingDocument:
    doc = DoclingDocument(name="contract")
    doc.add_title("Supply Agreement")
    doc.add_heading("1 Definitions", level=1)
    doc.add_text(DocItemLabel.TEXT, "Goods means the products listed in Annex A.")
    doc.add_heading("2 The Customer pays each invoice within 30 days", level=1)
    doc.add_heading("3 Termination", level=1)
    doc.add_text(DocItemLabel.TEXT, "Either party may terminate this agreement with three months notice.")
    doc.add_heading("4 The Supplier delivers the Goods to the site of the Customer", level=1)
    doc.add_text(DocItemLabel.TEXT, "Delivery costs are borne by the Supplier.")
    return doc


def test_same_level_clause_headings_are_siblings():
    chunks = list(docchunk.HybridChunker().chunk(contract()))
    paths = [c.meta.headings for c in chunks]
    assert ["Supply Agreement", "2 The Customer pays each invoice within 30 days", "3 Termination"] not in paths
    termination = next(c for c in chunks if "terminate" in c.text)
    assert termination.meta.headings == ["Supply Agreement", "3 Termination"]


def test_clause_headings_are_in_the_chunk_text():
    chunks = list(docchunk.HybridChunker().chunk(contract()))
    texts = [c.text for c in chunks]
    assert "2 The Customer pays each invoice within 30 days" in texts  # a clause without body: its own chunk
    delivery = next(c for c in chunks if "Delivery costs" in c.text)
    assert delivery.text.startswith("4 The Supplier delivers the Goods to the site of the Customer\n")
    assert not any(t.startswith("3 Termination") for t in texts)  # a title stays a heading only
    assert not lost_texts(contract(), chunks)


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("2 The Customer pays each invoice within 30 days", True),
        ("4.1 Each party keeps the other's information confidential", True),
        ("(a) the Supplier may suspend all deliveries", True),
        ("The Supplier may suspend deliveries.", True),
        ("3 Termination", False),
        ("1.2 Scope of this agreement", False),
        ("Results and discussion", False),
        ("Section 6 with a rather long descriptive title", False),
        ("A heading of twelve words is content even without a number or stop", True),
    ],
)
def test_content_heading_rule(text, content):
    assert is_content_heading(text) is content


def linked() -> DoclingDocument:
    doc = DoclingDocument(name="links")
    doc.add_heading("Water", level=1)
    run = doc.add_inline_group()
    doc.add_text(DocItemLabel.TEXT, "Water (", parent=run)
    doc.add_text(DocItemLabel.TEXT, "H", parent=run)
    doc.add_text(DocItemLabel.TEXT, "2", parent=run, formatting=Formatting(script=Script.SUB))
    doc.add_text(DocItemLabel.TEXT, "O", parent=run)
    doc.add_text(DocItemLabel.TEXT, ") is described in the", parent=run)
    doc.add_text(DocItemLabel.TEXT, "manual", parent=run, hyperlink="https://example.com/m",
                 formatting=Formatting(bold=True))  # fmt: skip
    doc.add_text(DocItemLabel.TEXT, ", see also", parent=run)
    doc.add_text(DocItemLabel.TEXT, "the wiki", parent=run, hyperlink="https://example.com/w")
    doc.add_text(DocItemLabel.TEXT, ".", parent=run)
    return doc


def test_inline_runs_stay_on_one_line_without_urls():
    chunks = list(docchunk.HybridChunker().chunk(linked()))
    assert [c.text for c in chunks] == ["Water (H2O) is described in the manual, see also the wiki."]
    assert "https://" not in docchunk.HybridChunker().contextualize(chunks[0])
    refs = {it.self_ref for it in chunks[0].meta.doc_items}
    assert any(it.hyperlink for it in linked().texts if it.self_ref in refs)  # the URLs stay in the items


def scripted(*fragments: tuple[str, str | None]) -> DoclingDocument:
    doc = DoclingDocument(name="scripts")
    run = doc.add_inline_group()
    for text, script in fragments:
        formatting = Formatting(script=Script.SUPER if script == "sup" else Script.SUB) if script else None
        doc.add_text(DocItemLabel.TEXT, text, parent=run, formatting=formatting)
    return doc


@pytest.mark.parametrize(
    ("fragments", "expected"),
    [
        ([("The cube y", None), ("3", "sup"), ("uses water", None)], "The cube y3 uses water"),  # issue 48
        ([("then CO", None), ("2", "sub"), ("here.", None)], "then CO2 here."),
        ([("H", None), ("2", "sub"), ("O and x", None), ("2", "sup"), (", then", None)], "H2O and x2, then"),
        ([("salt (NH", None), ("4", "sub"), (")", None), ("2", "sub"), ("SO", None), ("4", "sub")], "salt (NH4)2SO4"),
        ([("ion SO", None), ("4", "sub"), ("2-", "sup"), ("is", None)], "ion SO42- is"),
        ([("Area 10", None), ("3", "sup"), ("m wide", None)], "Area 103 m wide"),
    ],
)
def test_inline_run_keeps_the_space_after_a_script_between_words(fragments, expected):
    """Regression (issue 48): ``y<sup>3</sup> uses`` became ``y3uses``; a formula stays ``H2O``."""
    chunks = list(docchunk.HybridChunker().chunk(scripted(*fragments)))
    assert [c.text for c in chunks] == [expected]


def test_converted_html_keeps_the_space_after_a_superscript(tmp_path):
    pytest.importorskip("docling.backend.html_backend", reason="needs the convert extra")
    page = tmp_path / "scripts.html"
    page.write_text("<html><body><p>The cube y<sup>3</sup> uses water H<sub>2</sub>O, then CO<sub>2</sub> here.</p>"
                    "</body></html>")  # fmt: skip
    doc = docchunk.load_document(page)
    assert [c.text for c in docchunk.HybridChunker().chunk(doc)] == ["The cube y3 uses water H2O, then CO2 here."]
    compat = [c.text for c in docchunk.HybridChunker(docling_compat=True).chunk(doc)]
    assert compat == ["The cube y\n3\nuses water H\n2\nO, then CO\n2\nhere."]  # docling-core's, one run per line


def test_inline_run_in_list_item_is_one_line():
    doc = DoclingDocument(name="li")
    group = doc.add_list_group()
    item = doc.add_list_item("", parent=group)
    run = doc.add_inline_group(parent=item)
    doc.add_text(DocItemLabel.TEXT, "Read the", parent=run)
    doc.add_text(DocItemLabel.TEXT, "guide", parent=run, hyperlink="https://example.com/g")
    doc.add_text(DocItemLabel.TEXT, "first", parent=run)
    doc.add_list_item("Then install", parent=group)
    chunks = list(docchunk.HybridChunker().chunk(doc))
    assert [c.text for c in chunks] == ["- Read the guide first\n- Then install"]


def results(lead: str, rows: int = 3, header: str = "System") -> DoclingDocument:
    """A paragraph, a lead-in and a table of ``rows - 1`` scores, then a closing paragraph.

    The label column's ``header`` is not a word of the labels (``model 1``), so every
    record names it (``model 1 (System): Score = 1.0``): the record sizes these tests were
    built on. ``header="Model"`` gives the smaller records of a label that holds its header.
    """
    doc = DoclingDocument(name="results")
    doc.add_heading("Results", level=1)
    doc.add_text(DocItemLabel.TEXT, "We ran the benchmark twice on each model.")
    doc.add_text(DocItemLabel.TEXT, lead)
    data = [[header, "Score"], *[[f"model {r}", f"{r}.0"] for r in range(1, rows)]]
    doc.add_table(data=table_data(data))
    doc.add_text(DocItemLabel.TEXT, "The second run confirmed the first.")
    return doc


@pytest.mark.parametrize("lead", ["The results are shown below:", "Table 3 shows the scores of each model."])
def test_lead_in_stays_with_its_table(lead):
    for min_tokens in (None, 20):
        chunks = list(docchunk.HybridChunker(min_tokens=min_tokens).chunk(results(lead)))
        first = next(c for c in chunks if c.meta.table_rows is not None)
        assert lead + "\nmodel 1 (System): " in first.text, [c.text for c in chunks]  # the lead-in, then the rows


def test_lead_in_paragraph_goes_into_the_text_of_a_first_piece_cut_to_fit():
    """A lead-in paragraph that fits with some rows of its table, not all, went into the piece's captions.

    There it was in ``contextualize()`` but not in ``chunk.text`` nor in ``meta.spans`` (a
    paragraph of the body held as context only: what LlamaIndex stores as node text lost it).
    It now starts the text of a first piece cut to the rows that fit after it.
    """
    chunker = docchunk.HybridChunker(max_tokens=24)
    doc = results("The results are shown below:", rows=12)
    lead = doc.texts[2]
    chunks = list(chunker.chunk(doc))
    first = next(c for c in chunks if c.meta.table_rows is not None)
    assert first.text.startswith(lead.text + "\nmodel 1 (System): "), first.text
    assert lead.text not in (first.meta.captions or [])
    assert [(s.ref, s.start, s.end) for s in first.meta.spans] == [(lead.self_ref, 0, len(lead.text))]
    assert all(c.meta.token_count <= 24 for c in chunks)
    assert sum(lead.text in chunker.contextualize(c) for c in chunks) == 1
    assert next(c.meta.table_rows for c in chunks if c.meta.table_rows)[0] == 1  # the first piece starts the body
    assert first.meta.table_rows[1] < 12  # the shape this test is about: the first piece holds some rows, not all


def test_rows_cut_off_for_a_lead_in_join_the_next_piece():
    """The rows a lead-in paragraph pushed out of the table's first piece stood alone.

    Cutting the first piece to the rows that fit after its lead-in left the other rows
    to a piece of their own, often one row, between two pieces that had room for it (on
    a doc-qa annual report: "Total Industrial Solutions" alone, 34 tokens, between 232
    and 123). Now no two neighbouring pieces of a table would fit ``max_tokens`` as one.
    """
    lead = "The scores of each model on the benchmark, in points, are shown below:"
    cut = 0
    for max_tokens in range(30, 90, 2):
        chunker = docchunk.HybridChunker(max_tokens=max_tokens, balance_tables=False)
        doc = results(lead, rows=14)
        chunks = list(chunker.chunk(doc))
        tables = [c for c in chunks if c.meta.table_rows is not None]
        cut += tables[0].text.startswith(lead) and len(tables) > 2
        ranges = [c.meta.table_rows for c in tables]
        assert ranges[0][0] == 1 and ranges[-1][1] == 14
        assert all(b[0] == a[1] for a, b in itertools.pairwise(ranges))
        for a, b in itertools.pairwise(tables):
            context = chunker.contextualize(b)
            assert context.endswith(b.text)
            joined = context[: len(context) - len(b.text)] + a.text + "\n" + b.text
            assert chunker.token_counter.count_tokens(joined) > max_tokens, (max_tokens, a.text, b.text)
        assert all(c.meta.token_count <= max_tokens for c in chunks)
    assert cut  # some budgets cut the first piece for the lead-in and need more pieces after it


def test_markdown_table_with_empty_rows_keeps_its_header_lines():
    """Found by a hostile review (older than the lead-in join): a Markdown table lost its header.

    - Split rows each repeat the header lines; a row that fits whole under a shorter heading
      path replaced them with the row alone, and the header (``Model``, ``Score``) was in no
      chunk (``max_tokens=20``).
    - With two empty rows in a piece's range, the lead-in cut counted the header and the
      delimiter line as rows and wrote the rows after the cut without the header lines.
    """
    grid = [["Model", "Score"], ["model 1", "1.0"], ["", ""], ["", ""],
            *[[f"model {r}", f"{r}.0"] for r in range(4, 9)]]  # fmt: skip
    for lead in (None, "The scores of each model on the benchmark, in points, are shown below:"):
        for max_tokens in range(16, 90, 2):
            doc = DoclingDocument(name="scores")
            doc.add_heading("Results", level=1)
            doc.add_text(DocItemLabel.TEXT, "Intro paragraph here.")
            if lead:
                doc.add_text(DocItemLabel.TEXT, lead)
            make_table(grid, doc=doc)
            chunker = docchunk.HybridChunker(max_tokens=max_tokens, table_format="markdown", balance_tables=False)
            chunks = list(chunker.chunk(doc))
            held = "".join("".join(c.text.split()) for c in chunks)  # a row split by text runs on
            for text in ("Model", "Score", *(f"model{r}" for r in (1, 4, 5, 6, 7, 8))):
                assert text in held, (lead, max_tokens, text)
            if max_tokens >= 32:  # the header fits with a row: every piece with rows repeats it
                for c in chunks:
                    if c.meta.table_rows is not None and "| model " in c.text:
                        assert "| Model | Score |\n| --- | --- |" in c.text, (lead, max_tokens, c.text)


LONG_LEAD = (
    "We ran the benchmark twice on each model, once on the cold cache and once on the warm one, and we kept "
    "the better of the two runs for every model and every data set. Each run read the whole corpus from disk, "
    "with the same seed and the same batch size of thirty-two documents. The following table shows the scores:"
)


@pytest.mark.parametrize("max_tokens", [40, 64])
def test_long_lead_in_paragraph_gives_its_sentence_as_context_of_the_first_piece(max_tokens):
    """A lead-in paragraph too long to go with the table stayed alone.

    The paragraph stays where it is, whole; its lead-in sentence (the last, ending with ``:``) is
    the context of the table's first piece, under a shorter heading path when the whole one leaves
    no room for a row.
    """
    from docchunk.chunkers.doc.lead_in import lead_in_sentence

    chunker = docchunk.HybridChunker(max_tokens=max_tokens)
    doc = results(LONG_LEAD, rows=6)
    chunks = list(chunker.chunk(doc))
    sentence = "The following table shows the scores:"
    assert lead_in_sentence(LONG_LEAD) == sentence
    tables = [c for c in chunks if c.meta.table_rows is not None]
    assert sentence in chunker.contextualize(tables[0]), [chunker.contextualize(c) for c in chunks]
    # once: as the first piece's context, or in its text when merge_peers joined the paragraph's last
    # segment (which holds the sentence) to it
    assert all(chunker.contextualize(c).count(sentence) <= 1 for c in chunks)
    assert collapse(LONG_LEAD) in collapse(" ".join(c.text for c in chunks))  # whole, in order
    assert all(c.meta.token_count <= max_tokens and not c.meta.oversized for c in chunks)
    ranges = [c.meta.table_rows for c in tables]
    assert ranges[0][0] == 1 and ranges[-1][1] == 6
    assert all(b[0] == a[1] for a, b in itertools.pairwise(ranges))


@pytest.mark.parametrize("header", ["System", "Model"])  # records of both sizes (``model 1 (System)``, ``model 1``)
@pytest.mark.parametrize("rows", [2, 3, 4, 5])
def test_a_lead_in_sentence_ending_a_split_paragraph_is_written_once(rows, header):
    """The paragraph, too long for 64 tokens, is cut at sentence ends; its last segment holds the
    lead-in sentence and ``merge_peers`` joins it to the table's first piece. The sentence was also
    given to that piece as its context: written twice in one embedded text (found this stop, when a
    change of record sizes made the table fit beside it)."""
    chunker = docchunk.HybridChunker(max_tokens=64)
    chunks = list(chunker.chunk(results(LONG_LEAD, rows=rows, header=header)))
    sentence = "The following table shows the scores:"
    texts = [chunker.contextualize(c) for c in chunks]
    assert all(t.count(sentence) <= 1 for t in texts), texts
    tables = [c for c in chunks if c.meta.table_rows is not None]
    assert sentence in chunker.contextualize(tables[0])
    assert collapse(LONG_LEAD) in collapse(" ".join(c.text for c in chunks))


def test_lead_in_sentence_goes_with_a_first_row_split_between_entries():
    """The table's first row is larger than
    the budget and split between entries, and its first piece left no room for the lead-in sentence.
    The row is split again, to a budget that leaves the sentence room in its first piece."""
    doc = DoclingDocument(name="wide")
    doc.add_heading("Results", level=1)
    doc.add_text(DocItemLabel.TEXT, LONG_LEAD)
    header = ["Model", *[f"site {k}" for k in range(12)]]
    row = ["baseline model of the first study", *[f"{k}.5" for k in range(12)]]
    make_table([header, row], doc=doc)
    chunker = docchunk.HybridChunker(max_tokens=40)
    chunks = list(chunker.chunk(doc))
    tables = [c for c in chunks if c.meta.table_rows is not None]
    assert len(tables) > 1 and all(c.meta.table_rows == (1, 2) for c in tables)  # one row, split
    assert "The following table shows the scores:" in chunker.contextualize(tables[0])
    assert all(c.meta.token_count <= 40 and not c.meta.oversized for c in chunks)
    held = collapse(" ".join(c.text for c in tables))
    assert all(v in held for v in row[1:])


def test_lead_in_sentence_rule():
    from docchunk.chunkers.doc.lead_in import lead_in_sentence

    assert lead_in_sentence("We grew. Net income is reconciled in the following table:") == (
        "Net income is reconciled in the following table:"
    )
    assert lead_in_sentence("Table 3 shows the scores. They are the means of 5 runs.") == "Table 3 shows the scores."
    assert lead_in_sentence("We ran the benchmark twice.") is None


def test_lead_in_rule():
    assert is_lead_in("The results are shown below:")
    assert is_lead_in("The following table lists the models.")
    assert is_lead_in("Table 2: scores")
    assert not is_lead_in("We ran the benchmark twice.")


# -- property: generated nested lists ------------------------------------------------------------
_WORDS = st.sampled_from("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu".split())


@st.composite
def nested_lists(draw):
    doc = DoclingDocument(name="gen")
    doc.add_heading("Section", level=1)

    def fill(parent, depth):
        group = doc.add_list_group(parent=parent)
        for _ in range(draw(st.integers(1, 3))):
            text = " ".join(draw(st.lists(_WORDS, min_size=1, max_size=12)))
            item = doc.add_list_item(text, parent=group)
            if depth < 3 and draw(st.booleans()):
                fill(item, depth + 1)

    for _ in range(draw(st.integers(1, 2))):
        fill(None, 1)
        if draw(st.booleans()):
            doc.add_text(DocItemLabel.TEXT, " ".join(draw(st.lists(_WORDS, min_size=1, max_size=8))))
    return doc


def _parents(item, doc):
    out = []
    node = item.parent.resolve(doc)
    while node is not None:
        if isinstance(node, ListItem):
            out.append(node.text)
        node = node.parent.resolve(doc) if node.parent is not None else None
    return out[::-1]


def _carries(headings: list[str], parents: list[str]) -> bool:
    """Whether a window's ``headings`` end with its parent items: the innermost one, maybe named by
    its first words and `` …`` when too long for half the budget (list_split._shortened), after a
    contiguous run of the outer ones (the outermost may have been left out for the budget)."""
    if not parents or not headings:
        return False
    last, inner = headings[-1], parents[-1]
    if not (last == inner or (last.endswith(" …") and inner.split()[: len(last.split()) - 1] == last.split()[:-1])):
        return False
    outer = [h for h in headings[:-1] if h in parents[:-1]]
    return outer == parents[len(parents) - 1 - len(outer) : -1]


def long_parent_list() -> DoclingDocument:
    """A nested item under a parent item too long for half of 17 tokens: its path names the parent shortened."""
    doc = DoclingDocument(name="gen")
    doc.add_heading("Section", level=1)
    parent = doc.add_list_item("mu beta eta zeta alpha mu theta gamma alpha kappa epsilon eta",
                               parent=doc.add_list_group())  # fmt: skip
    child = doc.add_list_item("delta mu", parent=doc.add_list_group(parent=parent))
    doc.add_list_item("theta", parent=doc.add_list_group(parent=child))
    return doc


@settings(max_examples=examples(40), deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(doc=nested_lists(), max_tokens=st.integers(12, 80), merge_peers=st.booleans())
@example(doc=long_parent_list(), max_tokens=17, merge_peers=False)
def test_nested_list_invariants(doc, max_tokens, merge_peers):
    chunker = docchunk.HybridChunker(max_tokens=max_tokens, merge_peers=merge_peers)
    tok = docchunk.get_tokenizer(None)
    chunks = list(chunker.chunk(doc))
    assert chunks
    for c in chunks:
        assert c.text.strip()
        assert c.meta.token_count == tok.count_tokens(chunker.contextualize(c))
        assert c.meta.token_count <= max_tokens or c.meta.oversized
        first = c.meta.doc_items[0]
        if isinstance(first, ListItem):
            # a chunk that starts inside a nested item carries its parent items (after the section heading)
            parents = _parents(first, doc)
            carried = _carries(c.meta.headings or [], parents)
            # only a context that leaves no room for the item's first line in the budget is left out (as headings are)
            too_large = tok.count_tokens("\n".join(["Section", *parents, f"- {first.text}"])) > max_tokens
            assert carried or not parents or (c.meta.headings is None and too_large), (c.text, c.meta.headings)
    assert not lost_texts(doc, chunks)  # every item's text reaches the chunks (a long one maybe split)
    for item in doc.texts:
        if isinstance(item, ListItem):
            depth = len(_parents(item, doc))
            for c in chunks:
                lines = [line.strip() for line in c.text.splitlines()]
                # (a chunk without headings had its context dropped for the budget, and merge_peers may join
                # two such windows of different depths: then the nesting is not kept; a known gap, docs/compat.md)
                if item in c.meta.doc_items and f"- {item.text}" in lines and c.meta.headings is not None:
                    first = c.meta.doc_items[0]
                    base = len(_parents(first, doc)) if isinstance(first, ListItem) else 0
                    # nesting kept: the item is indented by its depth below the chunk's first item
                    assert f"{' ' * 4 * (depth - base)}- {item.text}" in c.text.splitlines(), (item.text, c.text)


def test_list_of_links_gives_link_texts_without_urls():
    doc = DoclingDocument(name="nav")
    group = doc.add_list_group()
    home = doc.add_list_item("My Section", parent=group, hyperlink="#")
    sub = doc.add_list_group(parent=home)
    doc.add_list_item("Some page", parent=sub, hyperlink="/start.html")
    doc.add_list_item("Contact", parent=group)
    chunks = list(docchunk.HybridChunker().chunk(doc))
    assert [c.text for c in chunks] == ["- My Section\n    - Some page\n- Contact"]


def test_list_item_of_an_inline_run_and_a_nested_list():
    """An item without text of its own whose
    children are an inline run and a nested list was written ``This is my\\n[Homepage](/home.html)``,
    one fragment per line without marker, and the whole list (its link items too) flat, with Markdown.
    """
    doc = DoclingDocument(name="nav")
    group = doc.add_list_group()
    home = doc.add_list_item("My Section", parent=group, hyperlink="#")
    sub = doc.add_list_group(parent=home)
    item = doc.add_list_item("", parent=sub)
    run = doc.add_inline_group(parent=item)
    doc.add_text(DocItemLabel.TEXT, "This is my", parent=run)
    doc.add_text(DocItemLabel.TEXT, "Homepage", parent=run, hyperlink="/home.html")
    inner = doc.add_list_group(parent=item)
    doc.add_list_item("List item inner", parent=inner)
    doc.add_list_item("My organisation", parent=group, hyperlink="#")
    chunker = docchunk.HybridChunker()
    chunks = list(chunker.chunk(doc))
    assert [c.text for c in chunks] == [
        "- My Section\n    - This is my Homepage\n        - List item inner\n- My organisation"
    ]
    small = docchunk.HybridChunker(max_tokens=12)
    pieces = list(small.chunk(doc))
    inner_piece = next(c for c in pieces if "List item inner" in c.text)
    assert "This is my Homepage" in small.contextualize(inner_piece)  # the parent path, as one line
    assert not any("](" in c.text for c in pieces)
