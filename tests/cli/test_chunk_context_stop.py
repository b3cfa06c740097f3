"""``docchunk chunk --context-stop``: the same option, values and default as ``docchunk eval``'s.

Regression (s9 new user, finding 1): ``docchunk chunk --context-size`` built its
``OverlapRefinery`` without ``stop_at``, so context crossed blank lines, headings and
tables, and eval's recommended ``--context-stop`` was refused by ``chunk``.
"""

from __future__ import annotations

import pytest

import docchunk
from tests.helpers import rows, run

TEXT = (
    "Attendees: M. Rossi (chair), J. Okafor, L. Chen, P. Novak.\n\n"
    "# Warranty\n\nThe warranty period is 24 months from delivery. Seals are not covered.\n\n"
    "| part | price |\n|---|---|\n| seal | 12 |\n| pump | 900 |\n\n"
    "Action items: Okafor updates the price list by 15 October and sends it to everyone.\n"
)
OPTIONS = ["--chunker", "recursive", "--tokenizer", "word", "--chunk-size", "8", "--context-size", "6"]


def python_context(stop_at: object) -> list[tuple[str, str | None, str | None]]:
    """The README's recommended configuration in Python, with ``stop_at``: (text, prefix, suffix) per chunk."""
    chunks = docchunk.RecursiveChunker(chunk_size=8, tokenizer="word")(TEXT)
    for method in ("prefix", "suffix"):
        refinery = docchunk.OverlapRefinery(tokenizer="word", context_size=6, method=method, merge=False,
                                            stop_at=stop_at)  # type: ignore[arg-type]  # fmt: skip
        chunks = refinery(chunks)
    return [(c.text, c.context_prefix, c.context_suffix) for c in chunks]


def cli_context(capsys, path, *args: str) -> list[tuple[str, str | None, str | None]]:
    code, out, err = run(capsys, "chunk", str(path), *OPTIONS, *args)
    assert code == 0, err
    return [(r["text"], r["meta"]["context_prefix"], r["meta"]["context_suffix"]) for r in rows(out)]


@pytest.mark.parametrize(
    ("args", "stop_at"),
    [
        ([], "documents"),  # the default: eval's, the README's recommended context
        (["--context-stop", "blank_line,heading,table"], ("blank_line", "heading", "table")),
        (["--context-stop", "heading"], ("heading",)),
        (["--context-stop", "table, blank_line"], ("blank_line", "table")),
        (["--context-stop", "none"], ()),
    ],
)
def test_context_stop_reaches_the_overlap_refinery(capsys, tmp_path, args, stop_at):
    path = tmp_path / "notes.txt"
    path.write_bytes(TEXT.encode("utf-8"))
    assert cli_context(capsys, path, *args) == python_context(stop_at)


def test_the_default_stops_where_none_does_not(capsys, tmp_path):
    """The cases above differ: the default context does not cross a blank line, ``none``'s does."""
    path = tmp_path / "notes.txt"
    path.write_bytes(TEXT.encode("utf-8"))
    default, crossing = cli_context(capsys, path), cli_context(capsys, path, "--context-stop", "none")
    assert default != crossing
    assert any(prefix and "\n\n" in prefix for _, prefix, _ in crossing)
    assert not any(prefix and "\n\n" in prefix.strip("\n") for _, prefix, _ in default)


@pytest.mark.parametrize("value", ["blank_lines", "", "none,heading"])
def test_a_bad_context_stop_names_the_allowed_words(capsys, tmp_path, value):
    path = tmp_path / "notes.txt"
    path.write_bytes(TEXT.encode("utf-8"))
    code, _, err = run(capsys, "chunk", str(path), *OPTIONS, "--context-stop", value)
    assert code == 2
    assert "--context-stop" in err and "blank_line, heading, table, or none" in err


def test_context_stop_applies_to_text_chunkers_only(capsys):
    from tests.helpers import DATA

    code, _, err = run(capsys, "chunk", str(DATA / "md_deepseek__deepseek_title.md.json"), "--context-stop", "none")
    assert code == 2 and "--context-stop applies to --chunker recursive" in err
