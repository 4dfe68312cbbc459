"""Pages without a text layer read by Tesseract: the ``ocr`` extra (pypdfium2 renders the
page, pytesseract runs Debian's ``tesseract``). Optional: without it a scanned PDF is reported
with how to install it, never indexed as empty."""

from __future__ import annotations

import shutil
from pathlib import Path

from graphgate.index.formats.layout import FormatProblem

_DPI = 300


def ocr_missing() -> str | None:
    """Why OCR cannot run here, or None when it can."""
    try:
        import pypdfium2  # noqa: F401
        import pytesseract  # noqa: F401
    except ImportError:
        return "the `ocr` extra is not installed"
    if shutil.which("tesseract") is None:
        return "the tesseract program is not installed"
    return None


def ocr_pages(path: Path, pages: list[int], language: str) -> dict[int, str]:
    """0-based page index -> the text Tesseract reads on it."""
    import pypdfium2
    import pytesseract

    out: dict[int, str] = {}
    try:
        document = pypdfium2.PdfDocument(str(path))
        try:
            for index in pages:
                image = document[index].render(scale=_DPI / 72).to_pil()
                out[index] = str(pytesseract.image_to_string(image, lang=language))
        finally:
            document.close()
    except pytesseract.TesseractError as exc:
        raise FormatProblem(
            f"Tesseract could not read it ({str(exc)[:200]})",
            f"check that Tesseract's '{language}' language data is installed "
            f"(Debian: tesseract-ocr-{language}), or set load.ocr_language",
        ) from exc
    except pypdfium2.PdfiumError as exc:
        raise FormatProblem(
            f"its pages cannot be rendered for OCR ({exc})", "export it again, or skip it"
        ) from exc
    return out
