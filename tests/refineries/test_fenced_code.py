"""Fenced code blocks in the refineries: a ``# comment`` in code is no heading, ``|`` lines in code no table.

Each test pins the defect "HeadingContextRefinery and TableHeaderRefinery read lines inside
Markdown fenced code blocks as headings and table rows".
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from docchunk import Chunk, HeadingContextRefinery, RecursiveChunker, TableHeaderRefinery
from tests.helpers import examples, line_chunks

SCRIPT = (
    "# Setup\n"
    "Install the tool.\n"
    "```python\n"
    "# install the dependencies\n"
    "import os\n"
    "```\n"
    "Then run it.\n"
)


def _contexts(chunks: list[Chunk]) -> dict[str, str | None]:
    return {c.text.strip(): c.context_prefix for c in chunks}


def test_hash_comment_in_fenced_code_is_not_a_heading():
    got = _contexts(HeadingContextRefinery(syntax=("markdown",))(line_chunks(SCRIPT)))
    assert got["import os"] == "Setup\n"
    assert got["Then run it."] == "Setup\n"  # the comment did not open a section


def test_fences_pair_by_character_and_length():
    text = (
        "~~~~\n"
        "# not a heading 1\n"
        "```\n"  # a backtick fence does not close a tilde fence
        "# not a heading 2\n"
        "~~~\n"  # shorter than the opening fence: does not close it
        "# not a heading 3\n"
        "~~~~~\n"  # closes it (same character, at least as long)
        "# Real\n"
        "body\n"
        "    ```\n"  # indented four spaces: indented code, not a fence
        "## Sub\n"
        "end\n"
    )
    found = HeadingContextRefinery(syntax=("markdown",)).headings(text)
    assert [title for _, _, title in found] == ["Real", "Sub"]
    got = _contexts(HeadingContextRefinery(syntax=("markdown",))(line_chunks(text)))
    assert got["body"] == "Real\n"
    assert got["end"] == "Real\nSub\n"


def test_unclosed_fence_runs_to_the_end():
    text = "# Top\nintro\n```sh\n# a comment\n## another\necho hi\n"
    got = _contexts(HeadingContextRefinery(syntax=("markdown",))(line_chunks(text)))
    assert got["echo hi"] == "Top\n"
    assert got["## another"] == "Top\n"


def test_mediawiki_heading_lines_in_fenced_code_are_skipped():
    text = "= Top =\n```\n== code ==\n```\nafter\n"
    got = _contexts(HeadingContextRefinery()(line_chunks(text)))
    assert got["after"] == "Top\n"


def test_pipe_lines_in_fenced_code_are_not_a_table():
    text = (
        "Shell pipes:\n"
        "```\n"
        "cat a | sort\n"
        "uniq -c | head\n"
        "wc -l | tee out\n"
        "```\n"
        "A table follows:\n"
        "name | size\n"
        "a | 1\n"
        "b | 2\n"
    )
    got = _contexts(TableHeaderRefinery(caption=True)(line_chunks(text)))
    assert got["uniq -c | head"] is None
    assert got["wc -l | tee out"] is None
    assert got["b | 2"] == "A table follows:\nname | size\n"  # a real table still works


def test_table_right_after_a_fence_takes_no_caption_from_code():
    text = "```\nprint(1)\n```\nname | size\na | 1\nb | 2\n"
    got = _contexts(TableHeaderRefinery(caption=True)(line_chunks(text)))
    assert got["b | 2"] == "name | size\n"  # "```" is not the sentence introducing the table


def test_context_for_skips_fenced_code():
    text = "~~~\nx | y\n1 | 2\n~~~\n"
    assert TableHeaderRefinery().context_for(text, text.index("1 | 2")) == ""


def test_recursive_chunks_of_a_readme_take_no_heading_from_code():
    section = "Some prose about the tool, long enough to be cut. " * 3
    code = "```python\n# configure\n# then build\nx = 1 | 2\ny = 3 | 4\n```\n"
    text = f"# Guide\n{section}\n{code}\n{section}\n" * 4
    chunks = RecursiveChunker(chunk_size=60, chunk_overlap=0, tokenizer="character")(text)
    assert len(chunks) > 8
    HeadingContextRefinery(syntax=("markdown",))(chunks)
    TableHeaderRefinery()(chunks)
    for chunk in chunks:
        assert chunk.context_prefix in (None, "Guide\n"), chunk


# --- property: inserting fenced code between blocks changes no context outside it -------------

_WORD = st.text(alphabet="abcdefgh", min_size=1, max_size=6)
_HEADING = st.builds(lambda level, title: "#" * level + " " + title, st.integers(1, 6), _WORD)
_PARAGRAPH = st.lists(_WORD, min_size=1, max_size=5).map(" ".join)
_TABLE = st.lists(st.lists(_WORD, min_size=2, max_size=3).map(" | ".join), min_size=2, max_size=4).map("\n".join)
_BLOCKS = st.lists(st.one_of(_HEADING, _PARAGRAPH, _TABLE), min_size=1, max_size=8)
_FENCE = st.builds(
    lambda char, n, extra, info, body: f"{char * n}{info}\n{body}\n{char * (n + extra)}",
    st.sampled_from("`~"),
    st.integers(3, 5),
    st.integers(0, 2),
    st.sampled_from(["", "python", " sh"]),
    st.permutations(["# x", "| a | b |", "| c | d |", "## y ##", "a | b"]).map("\n".join),
)


def _refined(text: str) -> list[tuple[int, str | None, str | None]]:
    """(start, heading context, table context) of each line chunk of ``text``."""
    headings = HeadingContextRefinery(syntax=("markdown",))(line_chunks(text))
    tables = TableHeaderRefinery()(line_chunks(text))
    return [(h.start_index, h.context_prefix, t.context_prefix) for h, t in zip(headings, tables, strict=True)]


@settings(max_examples=examples(100), deadline=None)
@given(blocks=_BLOCKS, fence=_FENCE, data=st.data())
def test_inserting_fenced_code_changes_no_context_outside_it(blocks, fence, data):
    before = "\n\n".join(blocks) + "\n"
    k = data.draw(st.integers(0, len(blocks) - 1), label="insert before block")
    at = len("\n\n".join(blocks[:k]) + "\n\n") if k else 0
    inserted = fence + "\n\n"
    after = before[:at] + inserted + before[at:]

    old = {start: (h, t) for start, h, t in _refined(before)}
    for start, heading, table in _refined(after):
        if start < at:
            assert (heading, table) == old[start]
        elif start >= at + len(inserted):
            assert (heading, table) == old[start - len(inserted)]
        else:  # inside the fenced block: the headings in force where it starts (those of a
            # line of prose there: a chunk that starts with a heading gets its parents), and no table
            in_force = {s: h for s, h, _ in _refined(before[:at] + "x\n" + before[at:])}[at]
            assert heading == in_force
            assert table is None
