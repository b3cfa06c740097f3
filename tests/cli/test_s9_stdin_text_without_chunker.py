"""s9 new-user finding 5: plain text piped to ``docchunk chunk -`` without ``--chunker`` said only "invalid JSON".

A ``.txt`` file gets the advice to pick a text chunker; standard input now gets the same.
JSON that is no DoclingDocument still says what is wrong with the JSON.
"""

from __future__ import annotations

import io
import sys

import pytest

from tests.helpers import run


def _chunk_stdin(capsys, monkeypatch, data: bytes) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    return run(capsys, "chunk", "-")


@pytest.mark.parametrize(
    "text", ["Quarterly operations meeting.\n\nAttendees: M. Rossi.\n", "\ufeff# Notes\n\nText.\n", "  2. Warranty\n"]
)
def test_plain_text_on_stdin_gets_the_text_chunker_advice(capsys, monkeypatch, text):
    code, out, err = _chunk_stdin(capsys, monkeypatch, text.encode("utf-8"))
    assert code == 1 and not out
    assert "<stdin>: not DoclingDocument JSON" in err and "--chunker recursive, token or sentence" in err
    assert repr(text.strip().lstrip("\ufeff")[:10])[1:-1] in err  # names what it read
    assert "invalid JSON" not in err


def test_broken_json_on_stdin_still_says_what_is_wrong(capsys, monkeypatch):
    code, _, err = _chunk_stdin(capsys, monkeypatch, b'  {"schema_name": ')
    assert code == 1
    assert "invalid JSON" in err and "--chunker" not in err
