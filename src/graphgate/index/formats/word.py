"""Word (.docx) through python-docx: paragraphs and tables in body order, headings (the
built-in Heading styles and styles based on them) as sections, core properties as metadata.

python-docx reads the XML with entity resolution off; formats/sniff.py has already refused an
archive that is a zip bomb or declares entities before this runs."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from graphgate.index.formats.layout import (
    ParsedDocument,
    TextBuilder,
    opened,
    table_lines,
)
from graphgate.index.formats.limits import ReadLimits

_HEADING = re.compile(r"^heading\s*(\d)$", re.IGNORECASE)


def read_docx(path: Path, limits: ReadLimits) -> ParsedDocument:
    import docx
    from docx.table import Table

    document = opened(lambda: docx.Document(str(path)), "a Word document", "Word")
    builder = TextBuilder(limits.max_text_chars)
    for block in document.iter_inner_content():
        if isinstance(block, Table):
            rows = [[cell.text for cell in row.cells] for row in block.rows]
            for line in table_lines(rows):
                builder.paragraph(line)
            continue
        level = heading_level(block.style)
        if level is None:
            builder.paragraph(block.text)
        else:
            builder.heading(block.text, level)
    metadata = core_properties(document.core_properties)
    return builder.build(metadata.pop("title", ""), metadata)


def heading_level(style: Any) -> int | None:
    """1 for Title and Heading 1, N for Heading N, following a custom style to the built-in
    heading it is based on; None for body text."""
    seen = 0
    while style is not None and seen < 10:
        name = str(getattr(style, "name", "") or "")
        if name.lower() == "title":
            return 1
        match = _HEADING.match(name)
        if match:
            return int(match.group(1))
        style = getattr(style, "base_style", None)
        seen += 1
    return None


def core_properties(props: Any) -> dict[str, str]:
    """title, author, subject, keywords, created, modified of an Office file (the same core
    properties in Word, PowerPoint and Excel)."""
    out: dict[str, str] = {}
    for key, attr in (
        ("title", "title"),
        ("author", "author"),
        ("subject", "subject"),
        ("keywords", "keywords"),
    ):
        value = " ".join(str(getattr(props, attr, "") or "").split())[:500]
        if value:
            out[key] = value
    for key, attr in (("created", "created"), ("modified", "modified")):
        when = getattr(props, attr, None)
        if when is not None and hasattr(when, "isoformat"):
            out[key] = when.isoformat()
    return out
