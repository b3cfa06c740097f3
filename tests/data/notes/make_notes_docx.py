"""Write the DOCX files of this folder: paragraphs with footnotes and endnotes (issue 45, fault 2).

python-docx has no API for notes, so the notes parts, their relationships and the reference
runs are added to the saved package by hand. ``[FN]``/``[EN]`` in a paragraph mark where a
footnote or endnote reference goes. The JSON files beside them are docling's conversions
(``DocumentConverter().convert(path).document.save_as_json(...)``, docling 2.143).

Usage: python tests/data/notes/make_notes_docx.py OUT_DIR
"""

from __future__ import annotations

import re
import sys
import zipfile
from io import BytesIO
from pathlib import Path

from docx import Document

W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
TYPES = "application/vnd.openxmlformats-officedocument.wordprocessingml"


def notes_xml(kind: str, notes: list[str]) -> str:
    """The ``word/{kind}s.xml`` part: Word's two separator notes, then ``notes`` numbered from 1."""
    seps = (
        f'<w:{kind} w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:{kind}>'
        f'<w:{kind} w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:{kind}>'
    )
    body = "".join(
        f'<w:{kind} w:id="{i}"><w:p><w:r><w:{kind}Ref/></w:r><w:r><w:t xml:space="preserve"> {text}</w:t></w:r></w:p>'
        f"</w:{kind}>"
        for i, text in enumerate(notes, 1)
    )
    return f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:{kind}s {W}>{seps}{body}</w:{kind}s>'


def build(out: Path, paragraphs: list[tuple[str, str]], footnotes: list[str], endnotes: list[str],
          header: str | None = None) -> None:  # fmt: skip
    """Write ``out``: ``(style, text)`` paragraphs (``Heading N`` or body text) and the notes they mark."""
    document = Document()
    if header:
        document.sections[0].header.paragraphs[0].text = header
        document.sections[0].footer.paragraphs[0].text = header + " footer"
    for style, text in paragraphs:
        if style.startswith("Heading"):
            document.add_heading(text, int(style[-1]))
        else:
            document.add_paragraph(text)
    saved = BytesIO()
    document.save(saved)
    numbers = {"FN": iter(range(1, len(footnotes) + 1)), "EN": iter(range(1, len(endnotes) + 1))}

    def reference(match: re.Match[str]) -> str:
        tag = "footnoteReference" if match.group(1) == "FN" else "endnoteReference"
        number = next(numbers[match.group(1)])
        return (
            '</w:t></w:r><w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr>'
            f'<w:{tag} w:id="{number}"/></w:r><w:r><w:t xml:space="preserve">'
        )

    with zipfile.ZipFile(saved) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename not in ("word/document.xml", "word/_rels/document.xml.rels", "[Content_Types].xml"):
                zout.writestr(info, data)
                continue
            data = data.decode()
            if info.filename == "word/document.xml":
                data = re.sub(r"\[(FN|EN)\]", reference, data)
            elif info.filename == "word/_rels/document.xml.rels":
                data = data.replace(
                    "</Relationships>",
                    f'<Relationship Id="rIdFn1" Type="{RELS}/footnotes" Target="footnotes.xml"/>'
                    f'<Relationship Id="rIdEn1" Type="{RELS}/endnotes" Target="endnotes.xml"/></Relationships>',
                )
            elif info.filename == "[Content_Types].xml":
                data = data.replace(
                    "</Types>",
                    f'<Override PartName="/word/footnotes.xml" ContentType="{TYPES}.footnotes+xml"/>'
                    f'<Override PartName="/word/endnotes.xml" ContentType="{TYPES}.endnotes+xml"/></Types>',
                )
            zout.writestr(info, data)
        zout.writestr("word/footnotes.xml", notes_xml("footnote", footnotes))
        zout.writestr("word/endnotes.xml", notes_xml("endnote", endnotes))


def main(out_dir: Path) -> None:
    build(
        out_dir / "notes.docx",
        [
            ("Heading 1", "Tide pools"),
            ("Normal", "Tide pools hold anemones and crabs.[FN] They empty twice a day.[EN]"),
            ("Heading 2", "Visiting"),
            ("Normal", "Walk on bare rock only.[FN] Leave every stone where it lay.[EN]"),
        ],
        ["Anemones close when the water leaves them.", "Wet algae is slippery; wear shoes with a grip."],
        ["Tides follow the moon, about fifty minutes later each day.", "Guides are at the visitor centre."],
        header="Coastal field notes",
    )
    build(out_dir / "only_notes.docx", [("Normal", "[FN][EN]")],
          ["This document holds nothing but this footnote."], ["And this endnote."])  # fmt: skip


if __name__ == "__main__":
    main(Path(sys.argv[1]))
