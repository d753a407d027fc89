# The tests need PDFs whose words they know, without a PDF library (only httpx and pytest are
# installed) or files from outside this directory: this writes small text PDFs by hand, with
# Helvetica (a standard font, so nothing is embedded) and a correct cross-reference table.
from __future__ import annotations


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def text_pdf(pages: list[list[tuple[float, str]]]) -> bytes:
    """One US Letter page per entry, each a list of (font size, line) set top-down."""
    objects: list[bytes] = []
    page_ids = [3 + 2 * i for i in range(len(pages))]
    font_id = 3 + 2 * len(pages)
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    kids = " ".join(f"{pid} 0 R" for pid in page_ids)
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode())
    for i, lines in enumerate(pages):
        content = ["BT"]
        y = 720.0
        for size, line in lines:
            content.append(f"/F1 {size:g} Tf 1 0 0 1 72 {y:g} Tm ({_escape(line)}) Tj")
            y -= size * 1.8
        content.append("ET")
        stream = "\n".join(content).encode("latin-1")
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 {font_id} 0 R >> >> /Contents {page_ids[i] + 1} 0 R >>".encode()
        )
        objects.append(b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")

    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def report_pdf() -> bytes:
    """Two pages: a titled report with enough words to be read as text, then a short signature
    page, which Folio keeps as a page picture (fewer than 25 words), so images can be tested."""
    return text_pdf(
        [
            [
                (20, "Quarterly Maintenance Report"),
                (11, "The pumping station at Riverside was inspected on 12 March 2024 by the field team."),
                (11, "All three pumps were running within their rated pressure, and no leaks were found."),
                (11, "The total cost of the inspection was 1,250 dollars, paid by the water authority."),
                (11, "The next inspection is planned for September, after the summer maintenance window."),
                (14, "Findings"),
                (11, "Pump two needs a new seal within six months; the other pumps need no work this year."),
                (11, "The control panel firmware was updated to version 4.2 during the visit."),
            ],
            [
                (14, "Approval"),
                (11, "Signed by Jane Doe, chief engineer."),
            ],
        ]
    )
