"""load_document: every accepted source, and a clear DocumentError for everything else."""

from __future__ import annotations

import json

import pytest

import docchunk
from tests.helpers import DATA, doc_params


def test_json_path_text_bytes_dict_agree():
    path = DATA / "md_deepseek__deepseek_title.md.json"
    raw = path.read_text()
    docs = [
        docchunk.load_document(path),
        docchunk.load_document(str(path)),
        docchunk.load_document(raw),
        docchunk.load_document(raw.encode()),
        docchunk.load_document(json.loads(raw)),
    ]
    assert all(d == docs[0] for d in docs)
    assert docchunk.load_document(docs[0]) is docs[0]


@pytest.mark.parametrize("path", doc_params())
def test_json_equals_docling_core_load_from_json(path):
    from docling_core.types.doc import DoclingDocument

    assert docchunk.load_document(path) == DoclingDocument.load_from_json(path)


def test_old_schema_versions_load():
    doc = docchunk.load_document(DATA / "docling_core__2_inp_dl_doc.json")
    assert doc.texts


@pytest.fixture
def convert():
    pytest.importorskip("docling.backend.md_backend", reason='conversion needs pip install ".[convert]"')


@pytest.mark.parametrize("name", ["wiki.md", "word_sample.docx", "ending_with_table.md"])
def test_convert_files(convert, name):
    doc = docchunk.load_document(DATA / name)
    assert doc.texts or doc.tables


def test_convert_strings(convert):
    doc = docchunk.load_document("# Title\n\nSome *text*.", format="md")
    assert [t.text for t in doc.texts][:2] == ["Title", "Some"]  # inline formatting splits the paragraph
    doc = docchunk.load_document(b"<h1>T</h1><p>para</p>", format="html")
    assert "para" in [t.text for t in doc.texts]


@pytest.mark.parametrize(
    ("content", "suffix", "message"),
    [
        ("{not json", ".json", "invalid JSON"),
        ("[1, 2]", ".json", "not a DoclingDocument"),
        ('{"a": 1}', ".json", "not a DoclingDocument"),
        (
            '{"schema_name": "DoclingDocument", "version": "1.10.0", "name": 3, "body": 7}',
            ".json",
            "invalid DoclingDocument",
        ),
        ("hello", ".txt", "unsupported file type"),
        ("", ".json", "invalid JSON"),
    ],
)
def test_bad_files(tmp_path, content, suffix, message):
    path = tmp_path / f"input{suffix}"
    path.write_text(content)
    with pytest.raises(docchunk.DocumentError, match=message) as info:
        docchunk.load_document(path)
    assert str(path) in str(info.value)


def test_missing_and_directory(tmp_path):
    with pytest.raises(docchunk.DocumentError, match="no such file"):
        docchunk.load_document(tmp_path / "nope.json")
    with pytest.raises(docchunk.DocumentError, match="is a directory"):
        docchunk.load_document(tmp_path)


def test_corrupt_docx(tmp_path, convert):
    path = tmp_path / "broken.docx"
    path.write_bytes(b"PK\x03\x04 this is not a real office file")
    with pytest.raises(docchunk.DocumentError, match=r"broken\.docx"):
        docchunk.load_document(path)


def test_unknown_format_and_type():
    with pytest.raises(docchunk.DocumentError, match="unknown format"):
        docchunk.load_document("x", format="rtf")
    with pytest.raises(docchunk.DocumentError, match="cannot load"):
        docchunk.load_document(12)


def test_pdf_without_docling_pipeline_names_what_to_install(tmp_path):
    path = tmp_path / "paper.pdf"
    path.write_bytes(b"%PDF-1.4\n% not a real pdf\n")
    with pytest.raises((docchunk.MissingDependencyError, docchunk.DocumentError)) as info:
        docchunk.load_document(path)
    assert "paper.pdf" in str(info.value)
    if isinstance(info.value, docchunk.MissingDependencyError):
        assert "pip install" in str(info.value)


def test_invalid_item_names_its_own_class_and_field_regression(tmp_path):
    """A paragraph without its "text" was reported as the first union branch's wrong label
    (``texts.0.TitleItem.label: Input should be 'title'``), not as the missing field (hostile review)."""
    import json

    data = json.loads((DATA / "pdf__multi_page.json").read_text())
    index = next(i for i, t in enumerate(data["texts"]) if t["label"] == "text")
    del data["texts"][index]["text"]
    path = tmp_path / "no_text.json"
    path.write_text(json.dumps(data))
    with pytest.raises(docchunk.DocumentError) as raised:
        docchunk.load_document(path)
    message = str(raised.value)
    assert f"texts.{index}.TextItem.text: Field required" in message and "label" not in message
