"""PDF through pypdf: the text layer page by page, the outline as sections, the info dictionary
(or XMP) as metadata; pages without a text layer go to OCR when the ``ocr`` extra is there.

pypdf is pure Python (no system library to install), reads damaged cross-reference tables,
decrypts AES and RC4 with ``cryptography``, and exposes the outline and the metadata a citation
and the time features need. It runs in the parser worker (formats/worker.py), so a file that
makes it loop is stopped by ``load.max_seconds_per_document``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from graphgate.index.formats.layout import FormatProblem, ParsedDocument, TextBuilder
from graphgate.index.formats.limits import ReadLimits
from graphgate.index.formats.ocr import ocr_missing, ocr_pages

_INFO = {"/Title": "title", "/Author": "author", "/Subject": "subject", "/Keywords": "keywords"}
_SKIPPED_INFO = {"/Producer", "/Creator", "/Trapped", "/PTEX.Fullbanner"}
_MAX_META_CHARS = 500


def read_pdf(path: Path, limits: ReadLimits) -> ParsedDocument:
    from pypdf import PdfReader
    from pypdf.errors import DependencyError, PdfReadError

    _check_complete(path)
    try:
        reader = PdfReader(path, strict=False)
        if reader.is_encrypted:
            _decrypt(reader)
        count = len(reader.pages)
    except DependencyError as exc:
        raise FormatProblem(
            f"it needs a decryption library pypdf could not load ({exc})",
            "install graphgate's dependencies again (cryptography), or skip it",
        ) from exc
    except (PdfReadError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise FormatProblem(
            f"it cannot be read as a PDF ({type(exc).__name__}: {str(exc)[:200]})",
            "export it again from the program that made it, or check that the copy is complete",
        ) from exc
    if count == 0:
        raise FormatProblem("the PDF has no pages", "export it again, or remove it")
    if count > limits.max_pages:
        raise FormatProblem(
            f"{count} pages is over load.max_pages ({limits.max_pages})",
            "split the document, or raise GRAPHGATE_LOAD__MAX_PAGES",
        )
    texts = _page_texts(reader, count, limits.max_text_chars)
    blank = [i for i, text in enumerate(texts) if not text.strip()]
    ocr_off = ocr_missing() if limits.ocr else "load.ocr is off"
    # A scan (most pages without text) is read by OCR; a figure page among text pages is not.
    if blank and ocr_off is None and len(blank) * 2 >= count:
        read = ocr_pages(path, blank, limits.ocr_language)
        texts = [read.get(i, text) for i, text in enumerate(texts)]
    if not any(text.strip() for text in texts):
        raise _no_text(blank, ocr_off)
    headings = _outline(reader)
    builder = TextBuilder(limits.max_text_chars)
    for number, text in enumerate(texts):
        builder.new_page()
        _add_page(builder, text, headings.get(number, []))
    metadata = _metadata(reader)
    return builder.build(metadata.pop("title", ""), metadata)


def _page_texts(reader: Any, count: int, limit: int) -> list[str]:
    """Each page's text layer, page by page: past ``limit`` characters in all the reading
    stops, so a long file cannot grow memory beyond load.max_document_bytes."""
    texts: list[str] = []
    total = 0
    for number in range(count):
        texts.append(_page_text(reader, number))
        total += len(texts[-1])
        if total > limit:
            raise FormatProblem(
                f"the extracted text is over load.max_document_bytes ({limit:,} characters) "
                f"by page {number + 1}",
                "split the document, or raise GRAPHGATE_LOAD__MAX_DOCUMENT_BYTES",
            )
    return texts


def _no_text(blank: list[int], ocr_off: str | None) -> FormatProblem:
    if ocr_off is not None:
        return FormatProblem(
            f"no text layer on pages {_ranges(blank)} (a scan?); {ocr_off}",
            "install the `ocr` extra (pip install 'graphgate[ocr]') and Debian's "
            "tesseract-ocr, or skip it",
        )
    return FormatProblem(
        f"no text layer on pages {_ranges(blank)}, and Tesseract read no text on them "
        "(images without words, or a scan too faint)",
        "skip it, or scan it again at a higher resolution",
    )


def _check_complete(path: Path) -> None:
    """A PDF ends with %%EOF; one cut short (an interrupted download) is refused, not read in
    part as if it were whole."""
    size = path.stat().st_size
    with path.open("rb") as handle:
        handle.seek(max(0, size - 2048))
        tail = handle.read()
    if b"%%EOF" not in tail:
        raise FormatProblem(
            "the PDF is cut short (it does not end with %%EOF): an incomplete copy",
            "download or export it again",
        )


def _decrypt(reader: Any) -> None:
    from pypdf import PasswordType

    try:
        opened = reader.decrypt("")
    except NotImplementedError as exc:
        raise FormatProblem(
            f"it is encrypted in a way pypdf cannot open ({exc})", "save a copy without encryption"
        ) from exc
    if opened == PasswordType.NOT_DECRYPTED:
        raise FormatProblem(
            "it is encrypted with a password",
            "save a copy without the password (qpdf --decrypt --password=… in.pdf out.pdf), or "
            "skip it",
        )


def _page_text(reader: Any, index: int) -> str:
    try:
        return str(reader.pages[index].extract_text() or "")
    except MemoryError:
        raise  # the worker reports load.max_parser_memory_bytes
    except Exception as exc:  # pypdf raises many kinds on a damaged content stream
        raise FormatProblem(
            f"page {index + 1} cannot be read ({type(exc).__name__}: {str(exc)[:200]})",
            "export the PDF again, or skip it",
        ) from exc


def _ranges(pages: list[int]) -> str:
    """0-based page indexes as 1-based ranges: "1–3, 7"."""
    out: list[str] = []
    start = prev = pages[0]
    for page in [*pages[1:], -2]:
        if page != prev + 1:
            out.append(f"{start + 1}" if start == prev else f"{start + 1}–{prev + 1}")
            start = page
        prev = page
    return ", ".join(out)


def _outline(reader: Any) -> dict[int, list[tuple[int, str]]]:
    """Page index -> [(level, title)] of the outline entries that point into it, in order."""
    found: dict[int, list[tuple[int, str]]] = {}
    try:
        for level, item in _walk(reader.outline, 1):
            page = reader.get_destination_page_number(item)
            title = " ".join(str(item.title or "").split())
            if page is not None and page >= 0 and title:
                found.setdefault(page, []).append((level, title))
    except Exception:  # a broken outline costs the sections, never the text
        return {}
    return found


def _walk(items: Any, level: int) -> Iterator[tuple[int, Any]]:
    for item in items:
        if isinstance(item, list):
            yield from _walk(item, level + 1)
        else:
            yield level, item


def _add_page(builder: TextBuilder, text: str, headings: list[tuple[int, str]]) -> None:
    """The page's text, split where each of its outline headings is printed; a heading not
    found in the text starts its section at the top of the page."""
    at = 0
    for level, title in headings:
        pattern = r"\s+".join(re.escape(word) for word in title.split())
        match = re.compile(pattern, re.IGNORECASE).search(text, at)
        if match is None:
            if at == 0:
                builder.heading_here(title, level)
            continue
        builder.paragraph(text[at : match.start()])
        builder.heading(text[match.start() : match.end()], level)
        at = match.end()
    builder.paragraph(text[at:])


def _metadata(reader: Any) -> dict[str, str]:
    """title, author, subject, keywords, created and modified (ISO), and custom keys, from
    the info dictionary, with XMP filling what it lacks."""
    out: dict[str, str] = {}
    try:
        items = list((reader.metadata or {}).items())
    except Exception:  # an unreadable info dictionary costs the metadata, never the text
        items = []
    for key, value in items:
        key = str(key)
        text = " ".join(str(value).split())[:_MAX_META_CHARS]
        if key in {"/CreationDate", "/ModDate"}:
            when = pdf_date(text)
            if when is not None:
                out["created" if key == "/CreationDate" else "modified"] = when
            continue
        name = _INFO.get(key) or (key.lstrip("/").lower() if key not in _SKIPPED_INFO else "")
        if name and text and re.fullmatch(r"[a-z][a-z0-9_.-]{0,40}", name):
            out[name] = text
    _xmp(reader, out)
    return out


_PDF_DATE = re.compile(
    r"^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?\s*(Z|[+-]\d{2}'?\d{0,2}'?)?"
)


def pdf_date(text: str) -> str | None:
    """A PDF date string (D:YYYYMMDDHHmmSS+HH'mm', any tail cut, a stray quote allowed) in
    ISO 8601; None if it is not one."""
    match = _PDF_DATE.match(text.strip())
    if match is None:
        return None
    year, month, day, hour, minute, second, zone = match.groups()
    try:
        when = datetime(
            int(year),
            int(month or 1),
            int(day or 1),
            int(hour or 0),
            int(minute or 0),
            int(second or 0),
        )
    except ValueError:
        return None
    iso = when.isoformat() if hour else when.date().isoformat()[: 10 if day else 7 if month else 4]
    if hour and zone:
        digits = re.sub(r"\D", "", zone)
        iso += (
            "+00:00"
            if zone == "Z" or not digits.strip("0")
            else (f"{zone[0]}{digits[:2]}:{(digits[2:4] or '00')}")
        )
    return iso


def _xmp(reader: Any, out: dict[str, str]) -> None:
    try:
        xmp = reader.xmp_metadata
        if xmp is None:
            return
        title = xmp.dc_title or {}
        if "title" not in out and title:
            out["title"] = str(next(iter(title.values())))[:_MAX_META_CHARS]
        if "author" not in out and xmp.dc_creator:
            out["author"] = ", ".join(str(c) for c in xmp.dc_creator)[:_MAX_META_CHARS]
        if "created" not in out and isinstance(xmp.xmp_create_date, datetime):
            out["created"] = xmp.xmp_create_date.isoformat()
    except Exception:
        return
