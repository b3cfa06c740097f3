"""``piece.replace``: the passes' fast ``dataclasses.replace`` gives what ``dataclasses.replace`` gives."""

from __future__ import annotations

import dataclasses

import pytest
from docling_core.types.doc import DocItemLabel, DoclingDocument
from hypothesis import given
from hypothesis import strategies as st

from docchunk.chunkers.doc.piece import Piece, replace

_DOC = DoclingDocument(name="d")
_ITEM = _DOC.add_text(label=DocItemLabel.TEXT, text="Revenue rose.")

_FIELDS = {
    "text": st.text(max_size=5),
    "headings": st.none() | st.lists(st.text(max_size=3), max_size=2),
    "captions": st.none() | st.lists(st.text(max_size=3), max_size=2),
    "heading_only": st.booleans(),
    "text_tokens": st.none() | st.integers(0, 9),
    "table_rows": st.none() | st.tuples(st.integers(0, 4), st.integers(5, 9)),
    "item_path": st.integers(0, 3),
    "layout_cell": st.booleans(),
}


def _as_tuple(piece: Piece) -> tuple:
    return tuple(getattr(piece, f.name) for f in dataclasses.fields(Piece))


@given(st.fixed_dictionaries({}, optional=_FIELDS), st.fixed_dictionaries({}, optional=_FIELDS))
def test_replace_equals_dataclasses_replace(base: dict, changes: dict) -> None:
    piece = Piece(text=base.pop("text", "x"), items=[_ITEM], headings=base.pop("headings", None), **base)
    fast, slow = replace(piece, **changes), dataclasses.replace(piece, **changes)
    assert type(fast) is Piece
    assert fast is not piece
    assert fast == slow
    assert all(a is b for a, b in zip(_as_tuple(fast), _as_tuple(slow), strict=True))  # shared, as replace shares
    assert _as_tuple(piece) == _as_tuple(dataclasses.replace(piece))  # the original is unchanged


def test_replace_of_a_piece_is_independent() -> None:
    piece = Piece(text="a", items=[_ITEM], headings=["H"])
    new = replace(piece, text="b")
    new.text_tokens = 3  # the passes set fields of new pieces in place
    assert (piece.text, piece.text_tokens) == ("a", None)
    assert (new.text, new.headings, new.items) == ("b", ["H"], [_ITEM])


def test_replace_refuses_an_unknown_field_as_dataclasses_does() -> None:
    piece = Piece(text="a", items=[], headings=None)
    with pytest.raises(TypeError):
        replace(piece, txt="b")


def test_replace_of_another_dataclass_is_dataclasses_replace() -> None:
    @dataclasses.dataclass
    class Other:
        a: int
        b: int = 0

        def __post_init__(self) -> None:
            self.b = self.a * 2

    assert replace(Other(1), a=5) == Other(5, 10)  # __post_init__ ran
