"""Each page's text of a PDF as pdfium reads it: a reading independent of the loader's (pypdf),
to check the pages that chunks and citations name."""

from __future__ import annotations

from pathlib import Path


def pdf_page_texts(path: Path) -> list[str]:
    """Whitespace made single spaces, so a line break and a space compare equal."""
    import pypdfium2

    document = pypdfium2.PdfDocument(str(path))
    try:
        return [
            " ".join(document[i].get_textpage().get_text_range().split())
            for i in range(len(document))
        ]
    finally:
        document.close()
