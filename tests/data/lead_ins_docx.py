"""Write ``lead_ins.docx``: five tables, each after a short sentence (issue 46, lead-ins).

Run ``python tests/data/lead_ins_docx.py`` (python-docx, which docling's DOCX backend
installs). Variants: a sentence ending with ``:``, one-word sentences, a sentence that
names the table, a plain sentence; tables of two or three rows and larger ones that
split at MiniLM 64 and 256 and cl100k 128.
"""

from pathlib import Path

from docx import Document


def main() -> None:
    doc = Document()
    doc.add_heading("Quarterly operations report", 0)
    doc.add_heading("Results", 1)
    doc.add_paragraph("Revenue grew in every region during the quarter, led by the northern sites.")
    tables = [
        ("Sales by region:", ["Region", "2025", "2024"], [["North", "1,200", "1,050"], ["South", "980", "1,010"]]),
        ("Costs.", ["Cost", "2025", "2024"], [["Staff", "400", "390"], ["Rent", "120", "118"], ["Energy", "75", "80"]]),
        (
            "The table below lists head count by site.",
            ["Site", "2025", "2024", "Function"],
            [[f"Site {i}", str(10 + i * 3), str(9 + i * 2), "Operations and maintenance staff"] for i in range(1, 31)],
        ),
        ("Open incidents at quarter end.", ["Kind", "Count"], [["Outage", "2"], ["Delay", "5"]]),
        (
            "Notes.",
            ["Note", "Text"],
            [
                [f"Note {i}", "Amounts are in thousands of euros unless stated otherwise, rounded."]
                for i in range(1, 12)
            ],
        ),
    ]
    for sentence, header, rows in tables:
        doc.add_paragraph(sentence)
        table = doc.add_table(rows=0, cols=len(header))
        for values in [header, *rows]:
            for cell, value in zip(table.add_row().cells, values, strict=True):
                cell.text = value
    doc.save(Path(__file__).with_name("lead_ins.docx"))


if __name__ == "__main__":
    main()
